"""Kowah-specific invariants over seeded playouts (2 to 4 seats) checked with Hypothesis.

The generic checks (leaks, legal views, refusals, text forms) run for every game in
test_playouts.py.  Here every state keeps the 120 cards, hand sizes fit the step and what
everyone knows of a hand is in it; a discard (declaring or not) the hand may not make is refused
with a reason code; a timeout completes the turn; every deal ends with an outcome that fits it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.playout import CHEAP_BOTS, Playout, assert_refused, play
from tests.tiers import scaled
from webapp.game.actions import Timeout
from webapp.game.kowah import GAME
from webapp.game.kowah.actions import Discard, KowahAction
from webapp.game.kowah.cards import DECK, TYPES
from webapp.game.kowah.state import KowahState

SORTED_DECK = sorted(DECK)
#: Every deal ends well within this many actions.
DEAL_BUDGET = 3000


def check_cards(state: KowahState) -> None:
    assert sorted(GAME.cards(state)) == SORTED_DECK
    sizes = [len(hand) for hand in state.hands]
    if state.phase == "over":
        assert sorted(sizes) == [8] * (state.players - 1) + [9]
    else:
        acting = 9 if state.phase == "discard" else 8
        assert sizes == [acting if seat == state.turn else 8 for seat in range(state.players)]
    assert len(state.stock) + sum(sizes) + len(state.pile) == 120
    for hand, known, pair in zip(state.hands, state.known, state.exposed, strict=True):
        # what everyone knows of a hand is in it
        rest = list(hand)
        for card in [*known, *([pair, pair] if pair else [])]:
            rest.remove(card)


def check_deal(playout: Playout, rng: random.Random) -> None:
    for state in playout.states:
        check_cards(state)
    for before, action, after in playout.steps():
        card, pair = rng.choice(TYPES), rng.choice(TYPES)
        wrong: KowahAction = Discard(card) if rng.random() < 0.5 else Discard(card, pair)
        if wrong not in GAME.legal_actions(before):
            assert_refused(GAME, before, wrong)
        if isinstance(action, Timeout):
            # the timer completes the turn: the next decision is another turn's
            assert after.phase in ("take", "over") and len(after.events) > len(before.events)
    result = GAME.outcome(playout.final)
    assert result is not None
    assert result.reason in ("self-draw", "draw", "discard", "stock-out")
    assert (result.reason == "stock-out") == (not result.winners)


bot_seats = st.lists(st.sampled_from(CHEAP_BOTS), min_size=2, max_size=4).map(tuple)


@settings(max_examples=scaled(60, 20), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), bots=bot_seats, timeouts=st.sampled_from([0.0, 0.05, 0.5]))
def test_playouts_keep_every_invariant(seed: int, bots: tuple[str, ...], timeouts: float) -> None:
    playout = play(GAME, seed, bots, budget=DEAL_BUDGET, timeouts=timeouts, checks=False)
    check_deal(playout, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_many_deals_between_strong_bots_end_conserve_cards_and_replay(
    seed: int, players: int
) -> None:
    bots = tuple(random.Random(seed).choice(["easy", "medium", "hard"]) for _ in range(players))
    playout = play(GAME, seed, bots, budget=DEAL_BUDGET, timeouts=0, checks=False)
    check_deal(playout, random.Random(seed))
