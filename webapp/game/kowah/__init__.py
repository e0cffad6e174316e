"""Kowah (Cheki, docs/rules.md §2): 2 to 4 players each for themself, one deal of 120 cards.

``GAME`` is the descriptor the registry finds; ``checki_pairs`` is the rules oracle.  The
modules follow the layout every game shares (see :mod:`webapp.game`).
"""

from __future__ import annotations

from webapp.game.kowah.actions import KowahAction, parse_action
from webapp.game.kowah.bots import BOTS
from webapp.game.kowah.cards import DECK
from webapp.game.kowah.hints import explain
from webapp.game.kowah.oracle import checki_pairs
from webapp.game.kowah.rollout import rollout
from webapp.game.kowah.rules import apply, legal_actions, new_game, outcome, timeout_action, to_act
from webapp.game.kowah.sampling import sample, settled
from webapp.game.kowah.state import DEFAULT_PLAYERS, PLAYER_COUNTS, KowahState
from webapp.game.kowah.view import KowahView, all_cards, hidden_cards, view
from webapp.game.protocol import Game, solo_teams
from webapp.game.search import Expert, Rules

#: Stored with every table; raise it when a rules change makes old logs replay
#: differently, and regenerate tests/game/golden on purpose (its README says how).
#: 2: eight cards of one rank may be checki. 3: declaring rides on the discard
#: ("discard X declare P"); the separate declare-or-pass step of versions 1 and 2 is gone,
#: so a log that holds one no longer replays.
RULES_VERSION = 3

#: Searches deals behind its view among the moves ``hard``, ``medium`` and ``easy`` would
#: make, playing each out with ``rollout`` (``medium``'s rules on count vectors, about
#: 1.3 ms a deal against 19 ms for ``medium`` through ``apply``), and trusts ``hard`` unless
#: the deals clearly say otherwise.
#: Below 16 deals it plays ``hard``, as in Koa (where 8 deals lost to ``hard``).
EXPERT = Expert(
    Rules(legal_actions, apply, view, to_act, sample, settled, rollout),
    prior=BOTS["hard"],
    playout=BOTS["medium"],
    proposers=(BOTS["medium"], BOTS["easy"]),
    explain=explain,
    min_deals=16,
)

GAME: Game[KowahState, KowahAction, KowahView] = Game(
    name="kowah",
    seat_counts=PLAYER_COUNTS,
    new_game=new_game,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    outcome=outcome,
    to_act=to_act,
    timeout_action=timeout_action,
    parse_action=parse_action,
    seats=lambda state: state.players,
    teams=solo_teams,
    bots={**BOTS, "expert": EXPERT},
    deck=DECK,
    cards=all_cards,
    hidden_cards=hidden_cards,
    rules_version=RULES_VERSION,
    default_options={"players": DEFAULT_PLAYERS},
    ladder_deals={"expert": 60, "hard": 1500, "medium": 2500, "easy": 100},
)

__all__ = ["GAME", "KowahAction", "KowahState", "KowahView", "checki_pairs"]
