"""Kowah's 120-card deck: the 30 card types, their kinds, suits and canonical order.

A suit card's *kind* is its rank ("5" for ``coins-5``, ``strings-5`` and ``myriads-5``); each
honour is a kind of its own. Triples are three cards of one kind; pairs are two cards of one
type. Hands are kept sorted in the deck's canonical order so that equal hands are equal tuples.
"""

from __future__ import annotations

from webapp.game.deck import build_deck

SUITS: tuple[str, ...] = ("coins", "strings", "myriads")
HONOURS: tuple[str, ...] = ("old-thousand", "red-flower", "white-flower")
RANKS: tuple[int, ...] = tuple(range(1, 10))
COPIES = 4

#: Every card type in canonical order: coins 1-9, strings 1-9, myriads 1-9, then the honours.
TYPES: tuple[str, ...] = tuple(f"{suit}-{rank}" for suit in SUITS for rank in RANKS) + HONOURS

#: The full deck, every copy, in canonical order.
DECK: tuple[str, ...] = build_deck(TYPES, COPIES)

#: The position of each type in the canonical order (the sort key for hands).
ORDER: dict[str, int] = {card: index for index, card in enumerate(TYPES)}


def kind(card: str) -> str:
    """The kind a triple groups by: the rank of a suit card, the card itself for an honour.

    >>> kind("coins-5"), kind("myriads-5"), kind("red-flower")
    ('5', '5', 'red-flower')
    """
    return KIND[card]


def _kind(card: str) -> str:
    suit, _, rank = card.rpartition("-")
    return rank if suit in SUITS else card


KIND: dict[str, str] = {card: _kind(card) for card in TYPES}

#: Every kind, ranks first, and the types of each kind.
KINDS: tuple[str, ...] = tuple(dict.fromkeys(KIND[card] for card in TYPES))
TYPES_OF_KIND: dict[str, tuple[str, ...]] = {
    k: tuple(card for card in TYPES if KIND[card] == k) for k in KINDS
}


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in canonical order.

    >>> sort_cards(["red-flower", "strings-2", "coins-9"])
    ('coins-9', 'strings-2', 'red-flower')
    """
    return tuple(sorted(cards, key=ORDER.__getitem__))
