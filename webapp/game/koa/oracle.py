"""Koa's rules oracle (docs/rules.md §1): which 11-card hands are ceki, and their koa cards.

Whether an 11-card hand is ceki depends only on how many cards of each type it holds,
which makes the oracle a small arithmetic test on a 30-number count vector that is
memoised, because the engine asks it after every throw and the bots ask it constantly.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from webapp.game.koa.cards import GROUP_TYPES, HAND_SIZE, HIU, TYPES, counts


def sets_ok(vector: tuple[int, ...] | list[int]) -> bool:
    """Whether 9 cards (as counts) split into three sets with at least one mato.

    Every kaki and mato lies inside one group, so each group's count must be a multiple
    of three; inside a group any three cards form a kaki, so one type with three copies
    is all the mato rule needs.
    """
    has_mato = False
    for members in GROUP_TYPES:
        total = 0
        for i in members:
            n = vector[i]
            total += n
            if n >= 3:
                has_mato = True
        if total % 3:
            return False
    return has_mato


@lru_cache(maxsize=1 << 17)
def koa_indexes(vector: tuple[int, ...]) -> frozenset[int]:
    """Koa type indexes of an 11-card count vector (memoised).

    Once the pair is out every group must hold a multiple of three, so the pair's group
    is the one group whose count leaves 2 over three; most hands fail that at once.
    """
    if sum(vector) != HAND_SIZE:
        return frozenset()
    pair_group = -1
    for g, members in enumerate(GROUP_TYPES):
        rest = sum(vector[i] for i in members) % 3
        if rest == 2 and pair_group < 0:
            pair_group = g
        elif rest:
            return frozenset()
    if pair_group <= HIU:  # no candidate group, or only the hiu (never a koa pair)
        return frozenset()
    found = []
    work = list(vector)
    for i in GROUP_TYPES[pair_group]:
        if vector[i] >= 2:
            work[i] -= 2
            if sets_ok(work):
                found.append(i)
            work[i] += 2
    return frozenset(found)


@lru_cache(maxsize=1 << 16)
def _koa_of_vector(vector: tuple[int, ...]) -> frozenset[str]:
    return frozenset(TYPES[i] for i in koa_indexes(vector))


def koa_cards(hand: Iterable[str]) -> frozenset[str]:
    """The koa cards an 11-card hand waits on (empty when the hand is not ceki).

    >>> sorted(koa_cards(["babi-pusek"] * 3 + ["babi-halus"] * 2 + ["babi-gadang"]
    ...                  + ["tali-merah"] * 2 + ["tali-halus"] + ["sisir-halus"] * 2))
    ['sisir-halus']
    >>> hand = ["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    >>> sorted(koa_cards(hand + ["betung-enam"] * 2))
    ['betung-enam']
    >>> sorted(koa_cards(["jarum-wajik"] * 5 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3))
    ['jarum-wajik']
    >>> koa_cards(["hiu-babak"] * 2 + hand)   # hiu is never a koa pair
    frozenset()
    >>> kaki3 = ["babi-pusek", "babi-pusek", "babi-halus", "tali-merah", "tali-merah", "tali-halus"]
    >>> koa_cards(kaki3 + ["pacah-lapan", "pacah-manih", "pacah-halus", "sisir-gadang"] * 1
    ...           + ["sisir-gadang"])   # three kaki alone is not ceki
    frozenset()
    """
    return _koa_of_vector(counts(hand))


def is_ceki(hand: Iterable[str]) -> bool:
    """Whether an 11-card hand is ceki.

    >>> is_ceki(["hiu-babak", "hiu-kucing", "hiu-pinci"] + ["tali-bulat"] * 3
    ...         + ["babi-halus"] * 3 + ["sisir-gadang"] * 2)
    True
    """
    return bool(koa_indexes(counts(hand)))
