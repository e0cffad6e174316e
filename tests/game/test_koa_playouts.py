"""Koa-specific invariants over many seeded playouts by random and bot players.

The generic properties (leaks, replay, refusals) live in test_playouts.py; here every
step of many Koa matches is checked for what only Koa knows: hand sizes by phase, the
public ceki badge agreeing with the hands, bans only between opponents, and the round
and match bookkeeping.  Each match runs to its end or to 400 actions.
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from webapp.game.koa import GAME, KoaState, koa_cards
from webapp.game.koa.cards import DECK
from webapp.game.replay import replay

LEVELS = ["random", "easy", "medium", "hard"]
#: Matches per run; KOA_PLAYOUTS=3000 gives the long run (the default keeps the suite quick).
PLAYOUTS = int(os.environ.get("KOA_PLAYOUTS", "200"))
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


def run(seed: int, labels: list[str], mode: str, budget: int) -> KoaState:
    options = {"mode": mode}
    state = GAME.new_game(seed, options)
    gens = [random.Random(f"koa:{seed}:{seat}") for seat in range(4)]
    log = []
    for _ in range(budget):
        check(state)
        seat = GAME.to_act(state)
        if seat is None:
            break
        view = GAME.view(state, seat)
        action = GAME.bots[labels[seat]](view, gens[seat])
        assert action in GAME.legal_actions(state)
        state = GAME.apply(state, action)
        log.append(str(action))
    assert replay(GAME, seed, options, log) == state
    return state


@settings(
    max_examples=PLAYOUTS,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(
    seed=st.integers(0, 2**31),
    labels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
    mode=st.sampled_from(["quick", "full"]),
)
def test_koa_invariants_hold_through_seeded_matches(
    seed: int, labels: list[str], mode: str
) -> None:
    run(seed, labels, mode, budget=400)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31))
def test_full_matches_between_bots_end_with_a_putuih(seed: int) -> None:
    state = run(seed, ["easy", "medium", "hard", "easy"], "full", budget=20_000)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "putuih"
    assert max(outcome.points) == 3
    assert outcome.detail["rounds"] >= 3
