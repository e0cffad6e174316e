"""Koi-Koi-specific invariants over seeded playouts checked with Hypothesis.

The generic checks (leaks, legal views, refusals, text forms) run for every game in
test_playouts.py.  Here every state keeps the 48 cards and hand sizes that fit the turn, a
card played or taken out of turn is refused with a reason code, and every match ends after
its rounds with the scores as its points.  Timeouts alone also finish a match.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.game.playout import assert_refused, heuristic, play
from tests.tiers import scaled
from webapp.game.koikoi import GAME
from webapp.game.koikoi.actions import KoikoiAction, Play, Take
from webapp.game.koikoi.cards import DECK
from webapp.game.koikoi.state import KoikoiState

SORTED_DECK = sorted(DECK)


def check(state: KoikoiState, rng: random.Random) -> None:
    assert sorted(GAME.cards(state)) == SORTED_DECK
    sizes = [len(hand) for hand in state.hands]
    assert all(0 <= size <= 8 for size in sizes)
    if state.phase in ("play", "choose", "decide"):
        # the starter has played as often as the other seat, or once more
        starter, other = sizes[state.starter], sizes[1 - state.starter]
        assert other - starter in (0, 1)
        # one stock card per hand card played, except while a played card awaits its target
        waiting = state.pending is not None and state.pending.source == "hand"
        assert len(state.stock) == 8 + sum(sizes) + waiting
    # an action outside the legal ones is refused with a reason code
    wrong: KoikoiAction = Play(rng.choice(DECK)) if rng.random() < 0.5 else Take(rng.choice(DECK))
    if wrong not in GAME.legal_actions(state):
        assert_refused(GAME, state, wrong)


@settings(max_examples=scaled(50, 15), deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    rounds=st.sampled_from([3, 6, 12]),
    # Every level: Koi-Koi's bots cost little, and the strong ones call koi-koi differently.
    levels=st.tuples(*[st.sampled_from(heuristic(GAME.bots))] * 2),
)
def test_playouts_keep_every_invariant(seed: int, rounds: int, levels: tuple[str, str]) -> None:
    options = {"rounds": rounds}
    playout = play(GAME, seed, levels, options=options, budget=60 * rounds, checks=False)
    rng = random.Random(seed)
    for state in playout.states:
        check(state, rng)
    result = GAME.outcome(playout.final)
    assert result is not None and result.points == playout.final.scores
    assert result.detail["rounds"] == rounds


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_timeouts_alone_finish_a_match(seed: int) -> None:
    state = GAME.new_game(seed, {"rounds": 3})
    steps = 0
    while (mover := GAME.to_act(state)) is not None:
        number = state.number
        state = GAME.apply(state, GAME.timeout_action(state))
        # the timed-out seat's turn is over: the other seat acts, or the round ended
        assert state.phase not in ("choose", "decide")
        assert GAME.to_act(state) != mover or state.phase != "play" or state.number != number
        steps += 1
        assert steps < 200
    assert GAME.outcome(state) is not None
