"""The bot-strength simulator: the number of bots decides the player count."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.game.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("bots", [["hard", "random"], ["hard", "random", "easy", "medium"]])
def test_the_number_of_bots_decides_kowahs_player_count(bots: list[str]) -> None:
    report = simulate("kowah", 1, 1, bots, {})
    assert report["options"]["players"] == len(bots)
    assert report["games"] == math.factorial(len(bots))  # every seating of one deal
    assert report["unfinished"] == 0


def test_an_explicit_player_count_that_agrees_is_accepted() -> None:
    assert simulate("kowah", 1, 1, ["hard", "random"], {"players": 2})["games"] == 2


def test_a_player_count_that_contradicts_the_bots_is_a_clear_error() -> None:
    command = [sys.executable, "-m", "webapp.game.simulate", "kowah", "--games", "1"]
    command += ["--bots", "hard,random", "--options", "players=3"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "players=3" in done.stderr and "2 bots" in done.stderr
