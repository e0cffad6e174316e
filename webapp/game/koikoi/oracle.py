"""Koi-Koi yaku and round scores: the rules oracle of docs/rules.md §3 "Yaku".

``yaku(captured)`` names every yaku a collection of captured cards forms, with its points
before doubling.  The replacement rules live here: only the highest light yaku counts,
Boar-Deer-Butterflies replaces Animals, and the ribbon yaku (Red Poems, Blue Ribbons, or
Red and Blue Ribbons, which replaces both) replace Ribbons, their "+1 per further ribbon"
being that bonus already.  ``round_points`` applies the two doublings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from webapp.game.koikoi.cards import (
    ANIMALS,
    BLUES,
    BOAR_DEER_BUTTERFLIES,
    CURTAIN,
    DRY_LIGHTS,
    LIGHTS,
    MOON,
    PLAINS,
    POEMS,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
)
from webapp.game.koikoi.house import STANDARD, HouseRules

#: Every yaku slug, in the order results list them.
SLUGS: Final = (
    "five-lights",
    "four-lights",
    "rainy-four-lights",
    "three-lights",
    "flower-viewing",
    "moon-viewing",
    "boar-deer-butterflies",
    "red-poems",
    "blue-ribbons",
    "red-and-blue-ribbons",
    "animals",
    "ribbons",
    "plains",
)

#: Points at which a round score doubles.
DOUBLE_AT: Final = 7
#: Points for teshi or kuttsuki.
SPECIAL_HAND_POINTS: Final = 6


VIEWINGS: Final = ("flower-viewing", "moon-viewing")


def yaku(captured: Iterable[str], house: HouseRules = STANDARD) -> dict[str, int]:
    """Each yaku the captured cards form under ``house``, with its points before doubling.

    >>> yaku(["jan-crane", "mar-curtain", "aug-moon"])
    {'three-lights': 5}
    >>> yaku(["jan-crane", "mar-curtain", "nov-rain-man"])
    {}
    >>> yaku(["mar-curtain", "sep-sake-cup", "aug-moon"])
    {'flower-viewing': 5, 'moon-viewing': 5}
    >>> yaku(["jul-boar", "oct-deer", "jun-butterflies", "feb-warbler", "aug-geese"])
    {'boar-deer-butterflies': 7}
    >>> yaku(["jan-poetry", "feb-poetry", "mar-poetry", "jun-blue", "sep-blue", "oct-blue"])
    {'red-and-blue-ribbons': 10}
    """
    cards = set(captured)
    found: dict[str, int] = {}
    lights = len(cards & LIGHTS)
    dry = len(cards & DRY_LIGHTS)
    if lights == 5:
        found["five-lights"] = 10
    elif dry == 4:
        found["four-lights"] = 8
    elif lights == 4:
        found["rainy-four-lights"] = 7
    elif dry == 3:
        found["three-lights"] = 5
    viewing = house.viewing != "off" and not (house.rain_spoils and RAIN_MAN in cards)
    if viewing and SAKE_CUP in cards:
        if CURTAIN in cards:
            found["flower-viewing"] = 5
        if MOON in cards:
            found["moon-viewing"] = 5
    animals = len(cards & ANIMALS)
    if BOAR_DEER_BUTTERFLIES <= cards:
        found["boar-deer-butterflies"] = 5 + animals - 3
    ribbons = len(cards & RIBBONS)
    poems, blues = POEMS <= cards, BLUES <= cards
    if poems and not blues:
        found["red-poems"] = 5 + ribbons - 3
    if blues and not poems:
        found["blue-ribbons"] = 5 + ribbons - 3
    if poems and blues:
        found["red-and-blue-ribbons"] = 10 + ribbons - 6
    if animals >= 5 and "boar-deer-butterflies" not in found:
        found["animals"] = 1 + animals - 5
    if ribbons >= 5 and not (poems or blues):
        found["ribbons"] = 1 + ribbons - 5
    plains = len(cards & PLAINS) - (not house.sake_plain and SAKE_CUP in cards)
    if plains >= 10:
        found["plains"] = 1 + plains - 10
    if house.viewing == "with-yaku" and all(slug in VIEWINGS for slug in found):
        # Viewings alone score nothing at such a table.
        for slug in VIEWINGS:
            found.pop(slug, None)
    return found


def improved(before: Mapping[str, int], after: Mapping[str, int]) -> bool:
    """Whether ``after`` has a new yaku or one worth more than in ``before``.

    A quantity yaku growing by one card counts, and so does a yaku replaced by a better
    one (Three Lights becoming Four Lights).

    >>> improved({"plains": 1}, {"plains": 2})
    True
    >>> improved({"plains": 1}, {"plains": 1})
    False
    """
    return any(points > before.get(slug, 0) for slug, points in after.items())


@dataclass(frozen=True)
class RoundScore:
    """A round winner's score: ``base`` points, then ×2 at 7+, then ×2 after the opponent's
    koi-koi, then ×``multiplier`` for the winner's own calls (house rule ``many``; else 1)."""

    base: int
    seven_doubled: bool
    koikoi_doubled: bool
    multiplier: int = 1

    @property
    def points(self) -> int:
        doubled = (2 if self.seven_doubled else 1) * (2 if self.koikoi_doubled else 1)
        return self.base * doubled * self.multiplier


def round_points(
    found: Mapping[str, int],
    opponent_called_koikoi: bool,
    house: HouseRules = STANDARD,
    own_calls: int = 0,
) -> RoundScore:
    """The winner's round score from their yaku, whether the opponent called koi-koi and,
    under the house rule of many calls, how often the winner called.

    >>> round_points({"four-lights": 8}, True).points
    32
    >>> round_points({"plains": 1, "ribbons": 2}, True).points
    6
    >>> round_points({"three-lights": 5}, False, HouseRules(koikoi_calls="many"), 2).points
    15
    """
    base = sum(found.values())
    multiplier = 1 + own_calls if house.koikoi_calls == "many" else 1
    return RoundScore(
        base, house.double_seven and base >= DOUBLE_AT, opponent_called_koikoi, multiplier
    )


#: The named yaku a player completes by holding every card of a fixed set.
SET_YAKU: Final[dict[str, frozenset[str]]] = {
    "flower-viewing": frozenset({CURTAIN, SAKE_CUP}),
    "moon-viewing": frozenset({MOON, SAKE_CUP}),
    "boar-deer-butterflies": BOAR_DEER_BUTTERFLIES,
    "red-poems": POEMS,
    "blue-ribbons": BLUES,
}

#: Quantity yaku: the pool of cards that count and how many are needed.
COUNT_YAKU: Final[dict[str, tuple[frozenset[str], int]]] = {
    "three-lights": (DRY_LIGHTS, 3),
    "animals": (ANIMALS, 5),
    "ribbons": (RIBBONS, 5),
    "plains": (PLAINS, 10),
}


@dataclass(frozen=True)
class Progress:
    """How far a player is from a yaku not yet formed: ``have`` of ``need`` cards."""

    slug: str
    have: int
    need: int

    @property
    def missing(self) -> int:
        return self.need - self.have


def near_yaku(
    captured: Iterable[str],
    opponent: Iterable[str],
    within: int = 2,
    house: HouseRules = STANDARD,
) -> tuple[Progress, ...]:
    """Yaku not yet formed, begun and still possible, missing at most ``within`` cards.

    A set yaku stays possible while the opponent has captured none of its cards; a
    quantity yaku while enough counting cards are not in the opponent's pile.

    >>> near_yaku(["jul-boar", "oct-deer"], [])
    (Progress(slug='boar-deer-butterflies', have=2, need=3),)
    >>> near_yaku(["jul-boar", "oct-deer"], ["jun-butterflies"])
    ()
    """
    mine, theirs = set(captured), set(opponent)
    formed = yaku(mine, house)
    no_viewing = house.viewing == "off" or (house.rain_spoils and RAIN_MAN in mine)
    result: list[Progress] = []
    # Three Lights stands for the light yaku: a player with it already has one.
    light_formed = any(slug in formed for slug in SLUGS[:4])
    for slug in SLUGS:
        if slug in formed or (no_viewing and slug in VIEWINGS):
            continue
        if slug in SET_YAKU:
            needed = SET_YAKU[slug]
            if needed & theirs:
                continue
            have, need = len(needed & mine), len(needed)
        elif slug in COUNT_YAKU:
            if slug == "three-lights" and light_formed:
                continue
            pool, need = COUNT_YAKU[slug]
            if slug == "plains" and not house.sake_plain:
                pool = pool - {SAKE_CUP}
            if len(pool - theirs) < need:
                continue
            have = len(pool & mine)
        else:
            continue
        if have and 0 < need - have <= within:
            result.append(Progress(slug, have, need))
    return tuple(result)
