"""Koi-Koi's fast playout for the expert's search: the round played out on ``sim``'s masks.

Through ``rules.apply``, ``view`` and ``hard`` a round costs tens of milliseconds (``hard``
samples 48 rounds at each stop-or-koi-koi), and the search wants hundreds a decision.
``rollout`` settles what is pending in the engine (a choice between two field cards: the
dearer, as ``sim`` takes; a stop or koi-koi: stop, as ``sim``'s policy does), then hands
the round to ``sim.rollout``, which plays both seats greedily to the round's end.
"""

from __future__ import annotations

import random

from webapp.game.koikoi.actions import KoikoiAction, Stop, Take
from webapp.game.koikoi.rules import apply
from webapp.game.koikoi.sampling import settled
from webapp.game.koikoi.sim import INDEX, WORTH, by_month, mask_of
from webapp.game.koikoi.sim import rollout as play_round
from webapp.game.koikoi.state import KoikoiState


def _settle(state: KoikoiState) -> KoikoiAction:
    """``sim``'s answer to what the engine asks outside a plain play."""
    if state.phase == "choose":
        assert state.pending is not None
        return Take(max(state.pending.options, key=lambda card: WORTH[INDEX[card]]))
    return Stop()


def rollout(state: KoikoiState, seat: int, rng: random.Random) -> float:
    """``seat``'s points from the round (negative: the opponent's), played out greedily."""
    while (value := settled(state, seat)) is None and state.phase != "play":
        state = apply(state, _settle(state))
    if value is not None:
        return value
    hands = ([INDEX[card] for card in state.hands[0]], [INDEX[card] for card in state.hands[1]])
    piles = [mask_of(state.captured[0]), mask_of(state.captured[1])]
    # The engine turns ``stock[0]`` over first; the model pops from the end.
    stock = [INDEX[card] for card in reversed(state.stock)]
    field = by_month(INDEX[card] for card in state.field)
    winner, points = play_round(hands, field, stock, piles, state.turn, state.calls, state.house)
    if winner is None:
        return 0.0
    return float(points if winner == seat else -points)
