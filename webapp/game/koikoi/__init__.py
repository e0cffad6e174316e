"""Koi-Koi (hanafuda, 2 players, RULES.md §3): the engine, its views and bots, as ``GAME``.

``yaku(captured)`` is the rules oracle: each yaku a collection of captured cards forms,
with its points before doubling.
"""

from __future__ import annotations

from webapp.game.koikoi.bots import BOTS
from webapp.game.koikoi.cards import DECK
from webapp.game.koikoi.rules import (
    DEFAULT_OPTIONS,
    all_cards,
    apply,
    hidden_cards,
    legal_actions,
    new_game,
    outcome,
    timeout_action,
    to_act,
)
from webapp.game.koikoi.sampling import sample, settled
from webapp.game.koikoi.scoring import yaku
from webapp.game.koikoi.state import Action, State, parse_action
from webapp.game.koikoi.view import View, view
from webapp.game.protocol import Game, solo_teams
from webapp.game.search import Expert, Rules

#: Stored with every table; raise it when a rules change makes old logs replay
#: differently, and regenerate tests/game/golden on purpose (its README says how).
RULES_VERSION = 1

#: Searches deals behind its view, every legal move (eight at most, and a round is short),
#: playing them out with ``hard``, and trusts ``hard`` unless the deals clearly say otherwise.
EXPERT = Expert(
    Rules(legal_actions, apply, view, to_act, sample, settled),
    prior=BOTS["hard"],
    playout=BOTS["hard"],
)

GAME: Game[State, Action, View] = Game(
    name="koikoi",
    seat_counts=(2,),
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    outcome=outcome,
    to_act=to_act,
    timeout_action=timeout_action,
    parse_action=parse_action,
    seats=lambda state: 2,
    teams=solo_teams,
    bots={**BOTS, "expert": EXPERT},
    deck=DECK,
    cards=all_cards,
    hidden_cards=hidden_cards,
    rules_version=RULES_VERSION,
    default_options=DEFAULT_OPTIONS,
)

__all__ = ["GAME", "yaku"]
