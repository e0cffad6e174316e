"""Koa's cards: the 30 types, their 9 groups, and hands as count vectors.

A card id is its type (the six copies of a type are identical), so a hand is a multiset
of ids, and ``counts`` turns it into the 30-number vector the oracle and the bots read.
"""

from __future__ import annotations

from collections.abc import Iterable

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
