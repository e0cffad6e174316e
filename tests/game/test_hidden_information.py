"""Whole seeded games: what a seat or a spectator is shown does not depend on hidden cards.

Each case plays a game with bots, then replays its log over twin deals that swap two card
types the observer cannot see (tests/counterfactual.py).  Wherever the observer still cannot
see them, its view (hand counts, whose turn and which step, events and their numbering) and
the seat the table waits for (and so the turn timer) must be the same in both deals.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.counterfactual import bot_log, observation, observers, twins
from tests.tiers import quick_then_slow
from webapp.game.registry import get

#: One game of each in make check (the deals tests/play/test_leaks.py plays there too); the
#: other deals and Kowah's other player counts in make test.
CASES = quick_then_slow(
    [
        ("koa", {"mode": "quick"}, 1),
        ("kowah", {"players": 3}, 5),
        ("koikoi", {"rounds": 3}, 7),
    ],
    [
        ("koa", {"mode": "quick"}, 2),
        ("kowah", {"players": 2}, 4),
        ("kowah", {"players": 4}, 6),
        ("kowah", {"players": 3}, 11),
        ("koikoi", {"rounds": 3}, 8),
    ],
)


@pytest.mark.parametrize(("name", "options", "seed"), CASES)
def test_an_observer_cannot_tell_deals_apart_that_differ_in_cards_it_cannot_see(
    name: str, options: dict[str, Any], seed: int
) -> None:
    game = get(name)
    log = bot_log(game, seed, options)
    compared = mattered = 0
    for observer in observers(game, game.new_game(seed, options)):
        original, found = twins(game, seed, options, log, observer, count=6)
        mattered += sum(twin.matters for twin in found)
        for twin in found:
            for version in range(twin.span):
                ours = observation(game, original[version], observer)
                theirs = observation(game, twin.states[version], observer)
                assert ours == theirs, (
                    f"{observer=} tells {twin.swap} apart at version {version}: "
                    f"{log[max(0, version - 2) : version + 1]}"
                )
                compared += 1
    assert compared > 100
    assert mattered, "no swap changed what a player could do: the scan proved nothing"
