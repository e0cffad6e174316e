"""Seeded Kowah playouts (random and bot players, 2 to 4 seats) checked with Hypothesis.

At every step: the 120 cards are conserved, hand sizes fit the step, the acting seat's view
offers exactly the legal actions, an illegal action raises with a reason code, no view leaks
a hidden card. At the end: the deal has an outcome and replaying the log rebuilds it.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.game.kowah import GAME
from webapp.game.kowah.cards import DECK, TYPES
from webapp.game.kowah.state import Discard, KowahAction, KowahState, Timeout
from webapp.game.protocol import IllegalAction
from webapp.game.replay import replay

SORTED_DECK = sorted(DECK)
LEVELS = ("random", "easy", "medium", "hard")


def leaks(text: str, hidden: frozenset[str]) -> list[str]:
    if not hidden:
        return []
    pattern = "|".join(re.escape(card) for card in sorted(hidden))
    return re.findall(rf"(?<![\w-])(?:{pattern})(?![\w-])", text)


def check_cards(state: KowahState) -> None:
    assert sorted(GAME.cards(state)) == SORTED_DECK
    sizes = [len(hand) for hand in state.hands]
    if state.phase == "over":
        assert sorted(sizes) == [8] * (state.players - 1) + [9]
    else:
        acting = 9 if state.phase == "discard" else 8
        assert sizes == [acting if seat == state.current else 8 for seat in range(state.players)]
    assert len(state.stock) + sum(sizes) + len(state.pile) == 120
    for hand, known, pair in zip(state.hands, state.known, state.exposed, strict=True):
        # what everyone knows of a hand is in it
        rest = list(hand)
        for card in [*known, *([pair, pair] if pair else [])]:
            rest.remove(card)


def check_views(state: KowahState) -> None:
    for seat in [*range(state.players), None]:
        assert not leaks(repr(GAME.view(state, seat)), GAME.hidden_cards(state, seat))


def check_legality(state: KowahState, rng: random.Random) -> None:
    mover = GAME.to_act(state)
    assert mover is not None
    legal = GAME.legal_actions(state)
    assert legal and GAME.view(state, mover).legal == legal
    card, pair = rng.choice(TYPES), rng.choice(TYPES)
    wrong: KowahAction = Discard(card) if rng.random() < 0.5 else Discard(card, pair)
    if wrong not in legal:
        try:
            GAME.apply(state, wrong)
        except IllegalAction as err:
            assert re.fullmatch(r"[a-z]+(-[a-z]+)*", err.reason)
        else:
            raise AssertionError(f"{wrong} was accepted")


def playout(seed: int, bots: tuple[str, ...], timeouts: float, views: bool) -> KowahState:
    options = {"players": len(bots)}
    state = GAME.new_game(seed, options)
    rng = random.Random(seed)
    log: list[str] = []
    while (mover := GAME.to_act(state)) is not None:
        check_cards(state)
        check_legality(state, rng)
        if views:
            check_views(state)
        action: KowahAction
        if rng.random() < timeouts:
            action = GAME.timeout_action(state)
            assert action == Timeout()
        else:
            action = GAME.bots[bots[mover]](GAME.view(state, mover), rng)
            assert action in GAME.legal_actions(state)
        before = len(state.events)
        state = GAME.apply(state, action)
        log.append(str(action))
        if isinstance(action, Timeout):
            # the timer completes the turn: the next decision is another turn's
            assert state.phase in ("take", "over") and len(state.events) > before
        assert len(log) < 3000  # every deal ends
    check_cards(state)
    check_views(state)
    result = GAME.outcome(state)
    assert result is not None
    assert result.reason in ("self-draw", "draw", "discard", "stock-out")
    assert (result.reason == "stock-out") == (not result.winners)
    assert replay(GAME, seed, options, log) == state
    return state


bot_seats = st.lists(st.sampled_from(LEVELS), min_size=2, max_size=4).map(tuple)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), bots=bot_seats, timeouts=st.sampled_from([0.0, 0.05, 0.5]))
def test_playouts_keep_every_invariant_and_leak_nothing(
    seed: int, bots: tuple[str, ...], timeouts: float
) -> None:
    playout(seed, bots, timeouts, views=True)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_many_bot_deals_end_conserve_cards_and_replay(seed: int, players: int) -> None:
    bots = tuple(random.Random(seed).choice(LEVELS[1:]) for _ in range(players))
    playout(seed, bots, 0.0, views=False)
