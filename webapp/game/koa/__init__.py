"""Koa (kartu ceki), the Minangkabau game for four players in two teams: the engine.

The package follows RULES.md §1: ``cards`` (types, groups, the ``koa_cards`` oracle),
``state`` (records and the deal), ``rules`` (legal actions and ``apply``), ``view`` (what
a seat may know) and ``bots``.  ``GAME`` is the descriptor the registry finds.
"""

from __future__ import annotations

from webapp.game.koa.actions import KoaAction, parse_action
from webapp.game.koa.bots import BOTS
from webapp.game.koa.cards import DECK, koa_cards
from webapp.game.koa.rules import apply, legal_actions, outcome, timeout_action, to_act
from webapp.game.koa.sampling import sample, settled
from webapp.game.koa.state import SEATS, KoaState, deal_from, new_game
from webapp.game.koa.view import KoaView, cards, hidden_cards, view
from webapp.game.protocol import Game
from webapp.game.search import Expert, Rules

__all__ = ["GAME", "KoaState", "KoaView", "deal_from", "koa_cards"]


#: Stored with every table; raise it when a rules change makes old logs replay
#: differently, and regenerate tests/game/golden on purpose (its README says how).
RULES_VERSION = 1


def _seats(state: KoaState) -> int:
    return SEATS


def _teams(seats: int) -> tuple[tuple[int, ...], ...]:
    """Mandan sit across: seats 0 and 2 against 1 and 3."""
    return ((0, 2), (1, 3))


#: Searches deals behind its view among the moves ``hard``, ``medium`` and ``easy`` would
#: make, playing them out with ``easy`` (``hard`` is too slow for enough playouts: 37 ms a
#: Koa round against 9), and trusts ``hard`` unless the deals clearly say otherwise.
EXPERT = Expert(
    Rules(legal_actions, apply, view, to_act, sample, settled),
    prior=BOTS["hard"],
    playout=BOTS["easy"],
    proposers=(BOTS["medium"], BOTS["easy"]),
)

GAME: Game[KoaState, KoaAction, KoaView] = Game(
    name="koa",
    seat_counts=(SEATS,),
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    outcome=outcome,
    to_act=to_act,
    timeout_action=timeout_action,
    parse_action=parse_action,
    seats=_seats,
    teams=_teams,
    bots={**BOTS, "expert": EXPERT},
    deck=DECK,
    cards=cards,
    hidden_cards=hidden_cards,
    rules_version=RULES_VERSION,
    default_options={"mode": "quick"},
)
