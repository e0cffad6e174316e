"""What the site relies on in every game's per-seat view, whatever the game.

``game.view(state, seat)`` is the one door to what a seat may know (webapp/game/); each
game's view has fields of its own, which only its templates read.  The shared code (the
renderer, the table's templates, the hub handing a view to a bot) reads only these, so
a new game's view must offer them (tests/play/test_views.py holds every game to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from webapp.game.protocol import Action


@runtime_checkable
class View(Protocol):
    """One seat's view of a table: the fields every game's view has."""

    @property
    def seat(self) -> int | None:
        """Whose view this is (None: a spectator's)."""

    @property
    def hand(self) -> tuple[str, ...]:
        """This seat's cards (empty for a spectator)."""

    @property
    def phase(self) -> str:
        """Which step of the deal the table is at; each game names its own."""

    @property
    def legal(self) -> Sequence[Action]:
        """This seat's legal actions while it is to act, else none."""
