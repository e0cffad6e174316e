"""Koi-Koi house rules: the table options that change scoring or koi-koi, and named presets.

The standard rules (docs/rules.md §3, as cardgames.zone plays them) are the default: a table whose
options name no house rule plays exactly as before, so every stored log replays unchanged.
Each option is a key of the table's options; a missing key means the standard value.

- ``sake_plain``: the sake cup also counts as a plain for Plains (standard: yes).
- ``viewing``: Flower and Moon Viewing score (``on``, standard), only when the player also
  has another yaku that is not a viewing (``with-yaku``), or never (``off``).
- ``rain_spoils``: a player who has captured the rain man scores no viewing (standard: no).
- ``double_seven``: a round score of 7 or more doubles (standard: yes).
- ``koikoi_calls``: ``once`` (standard): one koi-koi per round in all, after which the next
  new or improved yaku ends the round; ``many``: each new or improved yaku asks again, either
  player may call any number of times, and each call adds 1 to the caller's own multiplier
  (×1 plus one per call) when the caller wins the round.  The ×2 for winning after the
  opponent's koi-koi holds in both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Final

from webapp.game.protocol import IllegalAction

VIEWINGS: Final = ("on", "with-yaku", "off")
CALLS: Final = ("once", "many")


@dataclass(frozen=True)
class HouseRules:
    """One table's house rules; the defaults are the standard rules."""

    sake_plain: bool = True
    viewing: str = "on"
    rain_spoils: bool = False
    double_seven: bool = True
    koikoi_calls: str = "once"

    @property
    def standard(self) -> bool:
        return self == STANDARD

    def as_options(self) -> dict[str, Any]:
        """The table options that name these rules."""
        return asdict(self)


STANDARD: Final = HouseRules()

#: Named presets, the standard first.  Where each comes from, in our words:
PRESETS: Final[dict[str, HouseRules]] = {
    # docs/rules.md §3: the rules of cardgames.zone, and what every rated match plays.
    "standard": STANDARD,
    # Nintendo's own leaflet lists the two viewings as yaku a table "may leave out"; many
    # phone and console versions offer switching them off.  Without them the sake cup is
    # still an animal and a plain, but no longer worth 5 points with one light.
    "no-viewing": HouseRules(viewing="off"),
    # Common ways to tame the sake cup (FudaWiki gathers them among its variations): it is
    # an animal only, the viewings count only beside another yaku, and, as some game
    # clients have it, the rain man in your own pile washes them out.
    "tamed-sake": HouseRules(viewing="with-yaku", rain_spoils=True, sake_plain=False),
    # The "soft koi" style (Board Game Arena offers it, after the Sloperama rules): call
    # koi-koi as often as you dare, each call raising your own multiplier.
    "bold-koikoi": HouseRules(koikoi_calls="many"),
    # Older tables played before the ×2 at 7 points caught on (FudaWiki notes it began as a
    # house rule itself): plain sums, and one koi-koi as standard.
    "no-double": HouseRules(double_seven=False),
}

_BOOLS: Final = ("sake_plain", "rain_spoils", "double_seven")
_CHOICES: Final[dict[str, tuple[str, ...]]] = {"viewing": VIEWINGS, "koikoi_calls": CALLS}
#: Every option this module reads (the rounds are the rules' own option).
KEYS: Final = tuple(field.name for field in fields(HouseRules))


def _flag(name: str, given: Any) -> bool:
    # A form or a URL hands a switch over as text.
    if isinstance(given, bool):
        return given
    if given in ("on", "true", "1"):
        return True
    if given in ("off", "false", "0"):
        return False
    raise IllegalAction("bad-option", f"{name}={given!r}")


def house_rules(options: Mapping[str, Any]) -> HouseRules:
    """The house rules a table's options name (missing keys: the standard value).

    >>> house_rules({"rounds": 12}).standard
    True
    >>> rules = house_rules({"viewing": "off", "double_seven": "off"})
    >>> rules.viewing, rules.double_seven, rules.sake_plain
    ('off', False, True)
    """
    values: dict[str, Any] = {}
    for name in _BOOLS:
        if name in options:
            values[name] = _flag(name, options[name])
    for name, allowed in _CHOICES.items():
        if name in options:
            if options[name] not in allowed:
                raise IllegalAction("bad-option", f"{name}={options[name]!r}")
            values[name] = options[name]
    return HouseRules(**values)


def preset_of(rules: HouseRules) -> str | None:
    """The preset these rules are, if any.

    >>> preset_of(STANDARD)
    'standard'
    >>> preset_of(HouseRules(viewing="off", koikoi_calls="many")) is None
    True
    """
    return next((name for name, preset in PRESETS.items() if preset == rules), None)
