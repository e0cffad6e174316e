"""What a player chooses before a table starts: a game's main option, its house rules (if
it has any), and the bots' level.

Each game's adapter describes its setup form: the option the engine accepts, its allowed
values with their labels, how many seats each choice gives and what a new room opens with;
and, for a game with house rules, each rule's choices and the named presets, the first
of them the standard rules (the only ones rated).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
class Rule:
    """A house rule's table option: its choices (engine value, label), the standard first."""

    option: str
    label: Any
    choices: tuple[tuple[Any, Any], ...]
    hint: Any = None

    @property
    def standard(self) -> Any:
        return self.choices[0][0]

    def value_of(self, options: Mapping[str, Any]) -> Any:
        return options.get(self.option, self.standard)

    def label_of(self, options: Mapping[str, Any]) -> Any:
        return dict(self.choices).get(self.value_of(options), self.value_of(options))


@dataclass(frozen=True)
class Preset:
    """A named set of house rules: each rule's value, and what the preset is."""

    name: str
    label: Any
    options: Mapping[str, Any]
    note: Any


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
    #: House rules and their presets (the standard rules first); none for most games.
    rules: tuple[Rule, ...] = ()
    presets: tuple[Preset, ...] = ()
    #: What each bot level below the expert knows, for the bots page.
    levels_known: Mapping[str, Any] = field(default_factory=dict)

    def seat_count(self, value: Any) -> int:
        return self.seats if isinstance(self.seats, int) else self.seats[value]

    def parse(self, form: Mapping[str, str]) -> tuple[dict[str, Any], str] | None:
        """The engine options and bot level from a submitted form (None if invalid).

        A house rule the form leaves out keeps its standard value.
        """
        raw = form.get(self.option, "")
        value = next((v for v, _ in self.choices if str(v) == raw), None)
        level = form.get("level", "")
        rules = self.rules_from(form)
        if value is None or level not in LEVELS or rules is None:
            return None
        return {self.option: value, **rules}, level

    def rules_from(self, form: Mapping[str, str]) -> dict[str, Any] | None:
        """Each house rule's value in a form (standard when absent); None if one is not offered."""
        chosen: dict[str, Any] = {}
        for rule in self.rules:
            raw = form.get(rule.option)
            value = (
                rule.standard
                if raw is None
                else next((v for v, _ in rule.choices if str(v) == raw), None)
            )
            if value is None:
                return None
            chosen[rule.option] = value
        return chosen

    def preset_named(self, name: str) -> Preset | None:
        return next((preset for preset in self.presets if preset.name == name), None)

    def preset_of(self, options: Mapping[str, Any]) -> Preset | None:
        """The preset a table's options play (None: a mix of the rules no preset names)."""
        for preset in self.presets:
            if all(rule.value_of(options) == rule.value_of(preset.options) for rule in self.rules):
                return preset
        return None

    def standard(self, options: Mapping[str, Any]) -> bool:
        """Whether the options play the standard rules (the only ones rated)."""
        return not self.presets or self.preset_of(options) == self.presets[0]
