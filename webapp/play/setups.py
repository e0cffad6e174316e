"""What a player chooses before a practice table starts, per game.

The web layer's own description of each game's setup form: the option the engine
accepts, its allowed values with their labels, and how many seats each choice gives.
Engines are found by name through the registry; nothing here imports them.
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
    hint: Any = None  # what the option's choices mean, where their names do not say

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


SETUPS: dict[str, Setup] = {
    setup.game: setup
    for setup in (
        Setup(
            game="koa",
            title="Koa",
            option="mode",
            label=_l("Match"),
            choices=(("quick", _l("Quick match")), ("full", _l("Full match"))),
            hint=_l(
                "Quick: the first koa wins the match. Full: each koa gives its winner a mark"
                " (batu, gantung, putuih), and the first player to reach putuih wins the"
                " match for their team."
            ),
            default="quick",
            seats=4,
            bot_names=("Sutan", "Malin", "Bagindo"),
        ),
        Setup(
            game="kowah",
            title="Kowah",
            option="players",
            label=_l("Players"),
            choices=((2, "2"), (3, "3"), (4, "4")),
            default=3,
            seats={2: 2, 3: 3, 4: 4},
            bot_names=("Baba Liem", "Nyonya Tan", "Baba Oei"),
        ),
        Setup(
            game="koikoi",
            title="Koi-Koi",
            option="rounds",
            label=_l("Rounds"),
            choices=((3, "3"), (6, "6"), (12, "12")),
            default=12,
            seats=2,
            bot_names=("Hana",),
        ),
    )
}
