"""Koa's cards and the ceki oracle: the 30 types, their 9 groups, and ``koa_cards``.

A card id is its type (the six copies of a type are identical), so a hand is a multiset
of ids.  Whether an 11-card hand is ceki depends only on how many cards of each type it
holds, which makes the oracle a small arithmetic test on a 30-number count vector that is
memoised, because the engine asks it after every throw and the bots ask it constantly.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from webapp.game.deck import build_deck

#: The 30 types in the canonical order (hiu first, then the eight suit groups).
TYPES: tuple[str, ...] = (
    "hiu-babak",
    "hiu-kucing",
    "hiu-pinci",
    "hiu-bunga",
    "hiu-panjang",
    "hiu-kasuik",
    "bengkok-hitam",
    "bengkok-gadang",
    "bengkok-halus",
    "jarum-wajik",
    "jarum-udang",
    "jarum-halus",
    "suduang-hitam",
    "suduang-pinggang",
    "suduang-putih",
    "babi-pusek",
    "babi-gadang",
    "babi-halus",
    "betung-enam",
    "betung-manih",
    "betung-halus",
    "sisir-bendera",
    "sisir-gadang",
    "sisir-halus",
    "pacah-lapan",
    "pacah-manih",
    "pacah-halus",
    "tali-bulat",
    "tali-merah",
    "tali-halus",
)
COPIES = 6
HAND_SIZE = 11
#: The full 180-card deck in canonical order.
DECK: tuple[str, ...] = build_deck(TYPES, COPIES)
#: Position of each type in ``TYPES``; hands are kept sorted by it.
INDEX: dict[str, int] = {card: i for i, card in enumerate(TYPES)}
#: The nine groups in order; a card's group is its id before the first ``-``.
GROUPS: tuple[str, ...] = tuple(dict.fromkeys(card.partition("-")[0] for card in TYPES))
#: Group number of each type index.
GROUP_OF: tuple[int, ...] = tuple(GROUPS.index(card.partition("-")[0]) for card in TYPES)
#: Type indexes of each group.
GROUP_TYPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(len(TYPES)) if GROUP_OF[i] == g) for g in range(len(GROUPS))
)
HIU = 0  # group number of the hiu


def group(card: str) -> str:
    """The group of a card id.

    >>> group("babi-pusek")
    'babi'
    """
    return card.partition("-")[0]


def is_hiu(card: str) -> bool:
    """Whether a card is one of the six hiu types.

    >>> is_hiu("hiu-kucing"), is_hiu("tali-merah")
    (True, False)
    """
    return card.startswith("hiu-")


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in the canonical type order (hands are stored this way).

    >>> sort_cards(["tali-halus", "hiu-babak", "babi-pusek"])
    ('hiu-babak', 'babi-pusek', 'tali-halus')
    """
    return tuple(sorted(cards, key=INDEX.__getitem__))


def counts(cards: Iterable[str]) -> tuple[int, ...]:
    """How many cards of each type, as a 30-number vector in ``TYPES`` order.

    >>> counts(["babi-pusek", "babi-pusek", "hiu-babak"])[:1], sum(counts(["babi-pusek"]))
    ((1,), 1)
    """
    vector = [0] * len(TYPES)
    for card in cards:
        vector[INDEX[card]] += 1
    return tuple(vector)


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
