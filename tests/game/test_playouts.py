"""Generic playout properties, run for every game the registry finds.

Seeded games are played by the cheap bots, with the odd timeout, to the end or to a step
budget, under every check of ``tests.game.playout.play`` (cards conserved, legal actions
only and round-tripping through their text, refusals with a reason, no view leaking a
hidden card, the log replaying to the same state).  Separately, games played by the
non-random bots end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.game.playout import CHEAP_BOTS, heuristic, leaks, options_for, play
from tests.tiers import scaled
from webapp.game.registry import games

GAMES = sorted(games())
#: Shrinking a failed playout takes minutes and the seed already reproduces it.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
#: Actions before a bots-only game must have ended.
END_BUDGET = 40_000


def test_the_leak_check_finds_a_hidden_card_named_as_a_whole_word() -> None:
    hidden = frozenset({"jan-plain-1", "koa-3"})
    assert leaks(("jan-plain-10", "xkoa-3", "koa-3b"), hidden) == set()
    assert leaks({"hand": ("feb-plain-1", "jan-plain-1")}, hidden) == {"jan-plain-1"}
    assert leaks("koa-3", hidden) == {"koa-3"}


@pytest.mark.parametrize("name", GAMES)
def test_garbage_action_text_is_refused(name: str) -> None:
    game = games()[name]
    with pytest.raises(ValueError):
        game.apply(
            game.new_game(1, options_for(game, game.seat_counts[0])), game.parse_action("%%")
        )


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=scaled(25, 6), deadline=None, derandomize=True, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_playout_invariants_hold_at_every_step(name: str, seed: int, data: st.DataObject) -> None:
    game = games()[name]
    seats = data.draw(st.sampled_from(game.seat_counts))
    play(game, seed, [data.draw(st.sampled_from(CHEAP_BOTS)) for _ in range(seats)])


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=scaled(20, 8), deadline=None, derandomize=True, phases=NO_SHRINK)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_games_between_bots_end(name: str, seed: int, data: st.DataObject) -> None:
    game = games()[name]
    seats = data.draw(st.sampled_from(game.seat_counts))
    levels = [label for label in heuristic(game.bots) if label != "random"] or ["random"]
    labels = [data.draw(st.sampled_from(levels)) for _ in range(seats)]
    rng_gens = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    options = options_for(game, seats)
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
