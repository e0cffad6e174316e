"""A fast model of a Koi-Koi round for the bots' look-ahead: cards as bit masks, greedy play.

The engine's frozen states are right for the table but too slow to play thousands of
sample rounds per decision.  Here a card is its index in ``DECK`` (its month is
``index // 4``), a captured pile is an int bit mask, and ``base_points`` scores a mask
exactly as ``oracle.yaku`` does under any house rules (the tests compare them).  A yaku is
new or improved exactly when the total rises, because every replacement rule swaps a yaku
for a dearer one, so the model only tracks totals (with "rain spoils the viewings" a rain
man can lower the total while bringing a light yaku: the model misses that rare case).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Final

from webapp.game.koikoi.cards import (
    ANIMALS,
    BLUES,
    BOAR_DEER_BUTTERFLIES,
    CURTAIN,
    DECK,
    DRY_LIGHTS,
    KIND,
    LIGHTS,
    MOON,
    PLAINS,
    POEMS,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
)
from webapp.game.koikoi.house import STANDARD, HouseRules

INDEX: Final[dict[str, int]] = {card: index for index, card in enumerate(DECK)}


def mask_of(cards: Iterable[str]) -> int:
    """The bit mask of some cards.

    >>> bin(mask_of(["jan-crane", "jan-plain-1"]))
    '0b101'
    """
    mask = 0
    for card in cards:
        mask |= 1 << INDEX[card]
    return mask


LIGHT_M: Final = mask_of(LIGHTS)
DRY_M: Final = mask_of(DRY_LIGHTS)
ANIMAL_M: Final = mask_of(ANIMALS)
RIBBON_M: Final = mask_of(RIBBONS)
PLAIN_M: Final = mask_of(PLAINS)
POEM_M: Final = mask_of(POEMS)
BLUE_M: Final = mask_of(BLUES)
ISC_M: Final = mask_of(BOAR_DEER_BUTTERFLIES)
SAKE_B: Final = mask_of([SAKE_CUP])
CURTAIN_B: Final = mask_of([CURTAIN])
MOON_B: Final = mask_of([MOON])
RAIN_B: Final = mask_of([RAIN_MAN])


def base_points(mask: int, house: HouseRules = STANDARD) -> int:
    """The sum of the yaku points a captured mask forms (as ``oracle.yaku`` sums them).

    >>> base_points(mask_of(["jan-crane", "mar-curtain", "aug-moon", "sep-sake-cup"]))
    15
    """
    total = 0
    viewings = 0
    lights = (mask & LIGHT_M).bit_count()
    if lights >= 3:
        dry = (mask & DRY_M).bit_count()
        if lights == 5:
            total = 10
        elif dry == 4:
            total = 8
        elif lights == 4:
            total = 7
        elif dry == 3:
            total = 5
    if mask & SAKE_B and house.viewing != "off" and not (house.rain_spoils and mask & RAIN_B):
        if mask & CURTAIN_B:
            viewings += 5
        if mask & MOON_B:
            viewings += 5
    animals = (mask & ANIMAL_M).bit_count()
    if mask & ISC_M == ISC_M:
        total += animals + 2
    elif animals >= 5:
        total += animals - 4
    ribbons = (mask & RIBBON_M).bit_count()
    poems, blues = mask & POEM_M == POEM_M, mask & BLUE_M == BLUE_M
    if poems and blues:
        total += ribbons + 4
    elif poems or blues:
        total += ribbons + 2
    elif ribbons >= 5:
        total += ribbons - 4
    plains = (mask & PLAIN_M).bit_count() - (not house.sake_plain and bool(mask & SAKE_B))
    if plains >= 10:
        total += plains - 9
    if house.viewing == "with-yaku" and not total:
        return 0
    return total + viewings


def score(
    base: int, doubled_by_koikoi: bool, house: HouseRules = STANDARD, own_calls: int = 0
) -> int:
    """A round score from its base: ×2 at 7 or more, ×2 after the opponent's koi-koi, and
    ×(1 + own calls) under the house rule of many calls (as ``oracle.round_points``)."""
    seven = 2 if house.double_seven and base >= 7 else 1
    calls = 1 + own_calls if house.koikoi_calls == "many" else 1
    return base * seven * (2 if doubled_by_koikoi else 1) * calls


#: A static worth per card for the quick play policy: lights, then yaku pieces, then plains.
WORTH: Final[tuple[float, ...]] = tuple(
    10.0
    if KIND[card] == "light"
    else 8.0
    if card == SAKE_CUP
    else 5.0
    if card in BOAR_DEER_BUTTERFLIES or card in POEMS or card in BLUES
    else 3.0
    if KIND[card] in ("animal", "ribbon")
    else 1.0
    for card in DECK
)


Field = list[list[int]]


def by_month(cards: Iterable[int]) -> Field:
    """The field as twelve month buckets, so a capture looks at one bucket only."""
    buckets: Field = [[] for _ in range(12)]
    for card in cards:
        buckets[card >> 2].append(card)
    return buckets


def _take(field: Field, card: int) -> list[int]:
    """The field cards ``card`` captures: all of its month, or the dearer of exactly two."""
    same = field[card >> 2]
    if len(same) == 2:
        return [same[0] if WORTH[same[0]] >= WORTH[same[1]] else same[1]]
    return same[:]


def greedy_card(hand: list[int], field: Field, pile: int, house: HouseRules = STANDARD) -> int:
    """The quick policy: the best capture by worth and yaku gained, else the cheapest card."""
    best, best_gain = -1, 0.0
    base = -1
    for card in hand:
        taken = _take(field, card)
        if not taken:
            continue
        if base < 0:
            base = base_points(pile, house)
        mask = pile | 1 << card
        gain = WORTH[card]
        for other in taken:
            mask |= 1 << other
            gain += WORTH[other]
        gain += 10.0 * (base_points(mask, house) - base)
        if gain > best_gain:
            best, best_gain = card, gain
    if best >= 0:
        return best
    return min(hand, key=WORTH.__getitem__)


def land(field: Field, card: int, pile: int) -> int:
    """Play ``card`` on ``field`` (in place), returning the new pile mask of its player."""
    bucket = field[card >> 2]
    taken = _take(field, card)
    if not taken:
        bucket.append(card)
        return pile
    pile |= 1 << card
    for other in taken:
        bucket.remove(other)
        pile |= 1 << other
    return pile


def rollout(
    hands: tuple[list[int], list[int]],
    field: Field,
    stock: list[int],
    piles: list[int],
    mover: int,
    calls: tuple[int, int],
    house: HouseRules = STANDARD,
) -> tuple[int | None, int]:
    """Play the round out greedily from ``mover``'s turn; (winner, points) or (None, 0).

    ``calls`` counts each seat's koi-koi calls so far.  A new or improved yaku ends the
    round: the quick policy always stops, and after a koi-koi the rules end it anyway
    (or, with many calls allowed, the policy stops).  The lists are consumed: pass copies.
    ``stock`` is turned over from its end.
    """
    while hands[0] or hands[1]:
        hand = hands[mover]
        pile = piles[mover]
        card = greedy_card(hand, field, pile, house)
        hand.remove(card)
        after = land(field, stock.pop(), land(field, card, pile))
        piles[mover] = after
        if after != pile:
            gained = base_points(after, house)
            if gained > base_points(pile, house):
                return mover, score(gained, calls[1 - mover] > 0, house, calls[mover])
        mover = 1 - mover
    return None, 0


def deal_unseen(
    unseen: list[int], opponent_count: int, rng: random.Random
) -> tuple[list[int], list[int]]:
    """A random split of the unseen cards into an opponent hand and a stock (top last)."""
    cards = unseen[:]
    rng.shuffle(cards)
    return cards[:opponent_count], cards[opponent_count:]
