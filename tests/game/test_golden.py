"""The golden playouts still come out the same: a rules change shows up here first.

Each case of ``tests/game/golden`` is played again from its seed by its bots and compared
with the checked-in record (moves, outcome, the action log's hash).  When this fails on
purpose, raise the game's RULES_VERSION and run ``python -m tests.game.golden --write``.
"""

from __future__ import annotations

import pytest

from tests.game.golden import CASES, current, stored
from webapp.game.registry import games


def test_every_game_has_golden_playouts() -> None:
    assert sorted(CASES) == sorted(games())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_golden_playouts_come_out_the_same(name: str) -> None:
    golden, now = stored(name), current(name)
    assert golden["rules_version"] == now["rules_version"], (
        f"{name}'s RULES_VERSION changed: write the golden playouts again on purpose"
    )
    assert len(golden["playouts"]) == len(now["playouts"])
    for expected, played in zip(golden["playouts"], now["playouts"], strict=True):
        assert played == expected, f"{name} seed {expected['seed']} {expected['bots']}"
