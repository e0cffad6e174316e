"""Finds the games: every subpackage of ``webapp.game`` that exposes ``GAME``.

The simulator and the live tables look games up here by name, so no module outside a
game's own package needs to import it, and adding a game means adding a package.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from webapp.game.protocol import Game

AnyGame = Game[Any, Any, Any]
PACKAGE = __name__.rpartition(".")[0]


@cache
def games() -> dict[str, AnyGame]:
    """Every registered game by name, in a stable order."""
    root = importlib.import_module(PACKAGE)
    found: dict[str, AnyGame] = {}
    for module in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{PACKAGE}.{module.name}")
        descriptor = getattr(package, "GAME", None)
        if isinstance(descriptor, Game):
            found[descriptor.name] = descriptor
    return found


def get(name: str) -> AnyGame:
    """The game called ``name`` (KeyError when there is none)."""
    return games()[name]
