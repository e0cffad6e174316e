"""Koa (kartu ceki, docs/rules.md §1): 4 players in two teams of two, a match of rounds.

``GAME`` is the descriptor the registry finds; ``koa_cards`` is the rules oracle.  The
modules follow the layout every game shares (see :mod:`webapp.game`).
"""

from __future__ import annotations

from webapp.game.koa.actions import KoaAction, parse_action
from webapp.game.koa.bots import BOTS
from webapp.game.koa.cards import DECK
from webapp.game.koa.hints import explain
from webapp.game.koa.oracle import koa_cards
from webapp.game.koa.rollout import rollout
from webapp.game.koa.rules import apply, legal_actions, new_game, outcome, timeout_action, to_act
from webapp.game.koa.sampling import sample, settled
from webapp.game.koa.state import SEATS, KoaState, deal_from
from webapp.game.koa.view import KoaView, all_cards, hidden_cards, view
from webapp.game.protocol import Game
from webapp.game.search import Expert, Rules

#: Stored with every table; raise it when a rules change makes old logs replay
#: differently, and regenerate tests/game/golden on purpose (its README says how).
RULES_VERSION = 1


def _seats(state: KoaState) -> int:
    return SEATS


def _teams(seats: int) -> tuple[tuple[int, ...], ...]:
    """Mandan sit across: seats 0 and 2 against 1 and 3."""
    return ((0, 2), (1, 3))


#: Searches deals behind its view among the moves ``hard``, ``medium`` and ``easy`` would
#: make, playing each out with ``rollout`` (an ``easy``-like policy on count vectors, about
#: 3 ms a round against 9 ms for ``easy`` through ``apply``), and trusts ``hard`` unless
#: the deals clearly say otherwise.
#: Below 16 deals it plays ``hard``: with 8 it moved away from ``hard`` on noise and lost to it
#: (42.5% of decided matches, 95% interval [36.2%, 48.8%], 80 games).
EXPERT = Expert(
    Rules(legal_actions, apply, view, to_act, sample, settled, rollout),
    prior=BOTS["hard"],
    playout=BOTS["easy"],
    proposers=(BOTS["medium"], BOTS["easy"]),
    explain=explain,
    min_deals=16,
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
    cards=all_cards,
    hidden_cards=hidden_cards,
    rules_version=RULES_VERSION,
    default_options={"mode": "quick"},
    ladder_deals={"expert": 40, "hard": 600, "medium": 200, "easy": 25},
)

__all__ = ["GAME", "KoaAction", "KoaState", "KoaView", "deal_from", "koa_cards"]
