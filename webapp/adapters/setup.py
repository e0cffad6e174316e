"""What a player chooses before a table starts: a game's one option, and the bots' level.

Each game's adapter describes its setup form: the option the engine accepts, its allowed
values with their labels, how many seats each choice gives and what a new room opens with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

LEVELS: dict[str, Any] = {
    "easy": _l("Easy"),
    "medium": _l("Medium"),
    "hard": _l("Hard"),
    "expert": _l("Expert"),
}
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True)
class Setup:
    """A game's practice setup: one option with its choices, and the seat count."""

    game: str
    title: str
    option: str
    label: Any
    choices: tuple[tuple[Any, Any], ...]
    default: Any
    seats: Mapping[Any, int] | int
    bot_names: tuple[str, ...]
    #: The choice a new room opens with (practice opens with ``default``).
    room_default: Any
    hint: Any = None  # what the option's choices mean, where their names do not say
    #: Whether a choice reads alone ("Quick match") rather than after the label ("Players: 3").
    choices_name_themselves: bool = False

    def seat_count(self, value: Any) -> int:
        return self.seats if isinstance(self.seats, int) else self.seats[value]

    def parse(self, form: Mapping[str, str]) -> tuple[dict[str, Any], str] | None:
        """The engine options and bot level from a submitted form (None if invalid)."""
        raw = form.get(self.option, "")
        value = next((v for v, _ in self.choices if str(v) == raw), None)
        level = form.get("level", "")
        if value is None or level not in LEVELS:
            return None
        return {self.option: value}, level
