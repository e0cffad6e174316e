"""Tiers: a name for a rating, taken from life at the lapau, the coffee stall where
people sit down to play cards.

A player is a newcomer until their first rated matches of a game are played (their
rating is still provisional); after that the rating alone gives the tier.  Thresholds
sit 150 points apart around the starting 1500, roughly where an established player
is expected to score 70 % against the tier below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l


@dataclass(frozen=True)
class Tier:
    code: str
    floor: float
    name: Any

    def __str__(self) -> str:
        return str(self.name)


NEWCOMER = Tier("newcomer", 0.0, _l("Newcomer"))

#: From the top down: the first whose floor the rating reaches.
TIERS: tuple[Tier, ...] = (
    Tier("legend", 1850.0, _l("Legend of the lapau")),
    Tier("ace", 1700.0, _l("Ace")),
    Tier("old-hand", 1550.0, _l("Old hand")),
    Tier("regular", 1400.0, _l("Regular")),
    Tier("apprentice", 0.0, _l("Apprentice")),
)


def tier_of(rating: float, provisional: bool = False) -> Tier:
    """The tier of a rating (a provisional rating is a newcomer's).

    >>> [tier_of(r).code for r in (1200, 1400, 1549.6, 1700, 2100)]
    ['apprentice', 'regular', 'old-hand', 'ace', 'legend']
    >>> tier_of(1900, provisional=True).code
    'newcomer'
    """
    if provisional:
        return NEWCOMER
    # The rating people see is rounded; the tier must agree with it.
    shown = round(rating)
    return next(tier for tier in TIERS if shown >= tier.floor)
