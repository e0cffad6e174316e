"""A table's turn clock: 30 or 60 seconds a turn, or none at all (WCAG 2.2.1: a player
who needs more time can have it).  The choice is a table option, stored with the table
(engines ignore it), made on the practice setup or by a room's host.  Standard library
only: the rooms' rules use it too (their names are in words.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The clocks a table may have, in the rules' seconds (0: no clock).
CLOCKS: tuple[int, ...] = (30, 60, 0)
#: The option's name in a table's options and in the setup and room forms.
OPTION = "clock"
#: The rules' turn (docs/rules.md: 30 seconds for the whole turn): rooms open with it, and
#: tables that never chose have it.
STANDARD = 30
#: Practice against bots is for learning: a relaxed clock unless the player asks.
PRACTICE = 60


def parse(raw: str) -> int | None:
    """The clock whose text form is ``raw`` ("30", "60", "0"); None if it is none of them."""
    return next((seconds for seconds in CLOCKS if str(seconds) == raw), None)


def of(options: Mapping[str, Any]) -> int:
    """A table's clock in the rules' seconds (0: none)."""
    chosen = options.get(OPTION, STANDARD)
    return chosen if chosen in CLOCKS else STANDARD


def turn_length(options: Mapping[str, Any], standard_seconds: float) -> float | None:
    """How long a person's turn lasts at this table, in this server's seconds (None: no
    clock).  ``standard_seconds`` is how long the rules' 30 seconds last on this server
    (tests stretch it), and a 60-second clock lasts twice that."""
    seconds = of(options)
    return None if seconds == 0 else standard_seconds * seconds / STANDARD
