"""Generic playout properties, run for every game the registry finds.

Seeded games are played to the end (or to a step budget) by the game's own bots mixed with
the random bot, and at every step: the cards are conserved, only legal actions are played
and they round-trip through their text form, a refused action raises ``IllegalAction``
with a reason, no view mentions a card hidden from its seat, and at the end the action log
replays to exactly the same state.  Separately, games played by the non-random bots end.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from webapp.game.protocol import IllegalAction
from webapp.game.registry import AnyGame, games
from webapp.game.replay import replay

GAMES = sorted(games())
#: Actions per playout in the invariant test; a round of most games fits comfortably.
STEP_BUDGET = 600
#: Shrinking a failed playout takes minutes and the seed already reproduces it.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
#: Actions before a bots-only game must have ended.
END_BUDGET = 40_000


def _hidden_pattern(hidden: frozenset[str]) -> re.Pattern[str] | None:
    if not hidden:
        return None
    ids = "|".join(re.escape(card) for card in sorted(hidden, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{ids})(?![\w-])")


def _options(game: AnyGame, seats: int) -> dict[str, Any]:
    options = dict(game.default_options)
    if len(game.seat_counts) > 1:
        options["players"] = seats
    return options


def _check_step(game: AnyGame, state: Any, seats: int) -> None:
    assert sorted(game.cards(state)) == sorted(game.deck)
    for seat in [*range(seats), None]:
        pattern = _hidden_pattern(game.hidden_cards(state, seat))
        if pattern is not None:
            text = repr(game.view(state, seat))
            leak = pattern.search(text)
            assert leak is None, f"seat {seat} sees hidden {leak.group(0) if leak else ''}"


def _play(game: AnyGame, seed: int, labels: list[str], budget: int, checks: bool) -> None:
    rng = random.Random(seed)
    seats = len(labels)
    options = _options(game, seats)
    state = game.new_game(seed, options)
    log: list[str] = []
    seen_texts: set[str] = set()
    gens = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    for _ in range(budget):
        if checks:
            _check_step(game, state, seats)
        if game.outcome(state) is not None:
            assert game.to_act(state) is None
            assert not game.legal_actions(state)
            break
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        assert legal, "a seat to act always has a legal action"
        legal_texts = {str(action) for action in legal}
        seen_texts.update(legal_texts)
        # An action seen elsewhere but not legal here must be refused with a reason.
        refused = sorted(seen_texts - legal_texts - {str(game.timeout_action(state))})
        if refused:
            with pytest.raises(IllegalAction) as caught:
                game.apply(state, game.parse_action(rng.choice(refused)))
            assert caught.value.reason
        if rng.random() < 0.03:
            action = game.timeout_action(state)
        else:
            action = game.bots[labels[seat]](game.view(state, seat), gens[seat])
            assert str(action) in legal_texts
        text = str(action)
        assert str(game.parse_action(text)) == text
        assert game.parse_action(text) == action
        state = game.apply(state, action)
        log.append(text)
    assert replay(game, seed, options, log) == state


@pytest.mark.parametrize("name", GAMES)
def test_garbage_action_text_is_refused(name: str) -> None:
    game = games()[name]
    with pytest.raises(ValueError):
        game.apply(game.new_game(1, _options(game, game.seat_counts[0])), game.parse_action("%%"))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_playout_invariants_hold_at_every_step(name: str, seed: int, data: st.DataObject) -> None:
    game = games()[name]
    seats = data.draw(st.sampled_from(game.seat_counts))
    labels = [data.draw(st.sampled_from(sorted(game.bots))) for _ in range(seats)]
    _play(game, seed, labels, STEP_BUDGET, checks=True)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=20, deadline=None, derandomize=True, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_games_between_bots_end(name: str, seed: int, data: st.DataObject) -> None:
    game = games()[name]
    seats = data.draw(st.sampled_from(game.seat_counts))
    levels = sorted(label for label in game.bots if label != "random") or ["random"]
    labels = [data.draw(st.sampled_from(levels)) for _ in range(seats)]
    rng_gens = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    options = _options(game, seats)
    state = game.new_game(seed, options)
    for _ in range(END_BUDGET):
        seat = game.to_act(state)
        if seat is None:
            break
        state = game.apply(state, game.bots[labels[seat]](game.view(state, seat), rng_gens[seat]))
    outcome = game.outcome(state)
    assert outcome is not None
    assert len(outcome.points) == seats
    assert set(outcome.winners) <= set(range(seats))
