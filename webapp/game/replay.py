"""Replay: a game's state is the fold of its action log over the deal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import reduce
from typing import Any, TypeVar

from webapp.game.protocol import Game

S = TypeVar("S")


def replay(game: Game[S, Any, Any], seed: int, options: Mapping[str, Any], log: Iterable[str]) -> S:
    """Rebuild a state from its seed, options and the text form of every action."""
    return reduce(game.play, log, game.new_game(seed, options))
