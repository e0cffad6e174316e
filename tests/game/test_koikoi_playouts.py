"""Seeded Koi-Koi playouts (random and bot players) checked at every step with Hypothesis.

Every step: the 48 cards are conserved, hand sizes fit the turn, no view leaks a hidden
card, the seat to act gets exactly the legal actions, an illegal action raises with a
reason; at the end the match has an outcome and replaying the log rebuilds the state.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.game.koikoi import GAME
from webapp.game.koikoi.cards import DECK
from webapp.game.koikoi.state import Action, Play, State, Take
from webapp.game.protocol import IllegalAction
from webapp.game.replay import replay

SORTED_DECK = sorted(DECK)


def leaks(text: str, hidden: frozenset[str]) -> list[str]:
    if not hidden:
        return []
    pattern = "|".join(re.escape(card) for card in sorted(hidden))
    return re.findall(rf"(?<![\w-])(?:{pattern})(?![\w-])", text)


def check(state: State, rng: random.Random) -> None:
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
    for seat in (0, 1, None):
        seen = GAME.view(state, seat)
        assert not leaks(repr(seen), GAME.hidden_cards(state, seat))
    mover = GAME.to_act(state)
    assert mover is not None
    assert GAME.view(state, mover).legal == GAME.legal_actions(state)
    # an action outside the legal ones is refused with a reason code
    legal = set(GAME.legal_actions(state))
    wrong: Action = Play(rng.choice(DECK)) if rng.random() < 0.5 else Take(rng.choice(DECK))
    if wrong not in legal:
        try:
            GAME.apply(state, wrong)
        except IllegalAction as err:
            assert re.fullmatch(r"[a-z]+(-[a-z]+)*", err.reason)
        else:
            raise AssertionError(f"{wrong} was accepted")


def playout(seed: int, rounds: int, choose: Callable[[State, int, random.Random], Action]) -> None:
    options = {"rounds": rounds}
    state = GAME.new_game(seed, options)
    rng = random.Random(seed)
    log: list[str] = []
    steps = 0
    while (mover := GAME.to_act(state)) is not None:
        check(state, rng)
        action = choose(state, mover, rng)
        state = GAME.apply(state, action)
        log.append(str(action))
        steps += 1
        assert steps < 60 * rounds  # every game ends
    result = GAME.outcome(state)
    assert result is not None and result.points == state.scores
    assert result.detail["rounds"] == rounds
    assert sorted(GAME.cards(state)) == SORTED_DECK
    assert replay(GAME, seed, options, log) == state


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), rounds=st.sampled_from([3, 6, 12]))
def test_random_playouts_keep_every_invariant(seed: int, rounds: int) -> None:
    playout(seed, rounds, lambda state, mover, rng: rng.choice(GAME.legal_actions(state)))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    levels=st.tuples(*[st.sampled_from(sorted(GAME.bots))] * 2),
)
def test_bot_playouts_keep_every_invariant(seed: int, levels: tuple[str, str]) -> None:
    def choose(state: State, mover: int, rng: random.Random) -> Action:
        action = GAME.bots[levels[mover]](GAME.view(state, mover), rng)
        assert action in GAME.legal_actions(state)
        return action

    playout(seed, 3, choose)


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
