"""Koa-specific invariants over many seeded playouts.

The generic checks (leaks, refusals, text forms) run for every game in test_playouts.py;
here every state of many Koa matches is checked for the cards conserved and for what only
Koa knows: hand sizes by phase, the public ceki badge agreeing with the hands, bans only
between opponents, and the round and match bookkeeping.  Each match runs to its end or to
400 actions.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.game.playout import CHEAP_BOTS, play
from tests.tiers import scaled
from webapp.game.koa import GAME, KoaState, koa_cards
from webapp.game.koa.cards import DECK

#: Matches per run; KOA_PLAYOUTS=3000 gives the long run (the default keeps the suite quick).
PLAYOUTS = int(os.environ.get("KOA_PLAYOUTS") or scaled(200, 25))
FULL_DECK = Counter(DECK)


def check(state: KoaState) -> None:
    assert Counter(GAME.cards(state)) == FULL_DECK
    playing = state.phase in ("take", "throw")
    for seat, hand in enumerate(state.hands):
        acting = playing and seat == state.turn and state.phase == "throw"
        if playing:
            assert len(hand) == (12 if acting else 11)
        if playing and not acting:
            assert state.koa[seat] == koa_cards(hand)
    for ban in state.bans:
        assert (ban.seat - ban.eater) % 2 == 1  # only an opponent can eat your card
    assert len(state.arena) + sum(1 for r in state.throws if r.eaten_by is None) <= 136
    assert all(0 <= mark <= 3 for mark in state.marks)


@settings(
    max_examples=PLAYOUTS,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(
    seed=st.integers(0, 2**31),
    labels=st.lists(st.sampled_from(CHEAP_BOTS), min_size=4, max_size=4),
    mode=st.sampled_from(["quick", "full"]),
)
def test_koa_invariants_hold_through_seeded_matches(
    seed: int, labels: list[str], mode: str
) -> None:
    for state in play(GAME, seed, labels, options={"mode": mode}, budget=400, checks=False).states:
        check(state)


# 30 whole full matches with the heuristic bots take 8 s of CPU; make check keeps the full
# matches of the golden playouts (test_golden.py), which end with a putuih too, and the rules
# tests of the putuih marks (test_koa_rules.py): this run adds examples, not kinds of checks.
@pytest.mark.slow
@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31))
def test_full_matches_between_bots_end_with_a_putuih(seed: int) -> None:
    labels = ["easy", "medium", "hard", "easy"]
    playout = play(
        GAME, seed, labels, options={"mode": "full"}, budget=20_000, timeouts=0, checks=False
    )
    for state in playout.states:
        check(state)
    outcome = GAME.outcome(playout.final)
    assert outcome is not None and outcome.reason == "putuih"
    assert max(outcome.points) == 3
    assert outcome.detail["rounds"] >= 3
