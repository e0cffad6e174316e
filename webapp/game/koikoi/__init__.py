"""Koi-Koi (hanafuda, docs/rules.md §3): 2 players, a match of 3, 6 or 12 rounds.

``GAME`` is the descriptor the registry finds; ``yaku`` is the rules oracle.  The modules
follow the layout every game shares (see :mod:`webapp.game`).
"""

from __future__ import annotations

from webapp.game.koikoi.actions import KoikoiAction, parse_action
from webapp.game.koikoi.bots import BOTS
from webapp.game.koikoi.cards import DECK
from webapp.game.koikoi.hints import explain
from webapp.game.koikoi.house import house_rules
from webapp.game.koikoi.oracle import yaku
from webapp.game.koikoi.rollout import rollout
from webapp.game.koikoi.rules import (
    DEFAULT_OPTIONS,
    apply,
    legal_actions,
    new_game,
    outcome,
    timeout_action,
    to_act,
)
from webapp.game.koikoi.sampling import sample, settled
from webapp.game.koikoi.state import KoikoiState
from webapp.game.koikoi.view import KoikoiView, all_cards, hidden_cards, view
from webapp.game.protocol import Game, solo_teams
from webapp.game.search import Expert, Rules

#: Stored with every table; raise it when a rules change makes old logs replay
#: differently, and regenerate tests/game/golden on purpose (its README says how).
RULES_VERSION = 1

#: Searches deals behind its view, every legal move (eight at most, and a round is short),
#: playing them out with ``rollout`` (``sim``'s greedy play on bit masks, about 25 times
#: faster than ``hard`` through the engine, so 256 deals fit in about 100 ms where 20 of
#: ``hard``'s took 300), and trusts ``hard`` unless the deals clearly say otherwise.
EXPERT = Expert(
    Rules(legal_actions, apply, view, to_act, sample, settled, rollout),
    prior=BOTS["hard"],
    playout=BOTS["hard"],
    deals=256,
    explain=explain,
)

GAME: Game[KoikoiState, KoikoiAction, KoikoiView] = Game(
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
    ladder_deals={"expert": 30, "hard": 200, "medium": 1000, "easy": 50},
    standard_rules=lambda options: house_rules(options).standard,
)

__all__ = ["GAME", "KoikoiAction", "KoikoiState", "KoikoiView", "yaku"]
