"""Deck and seat helpers shared by the games: seeded shuffles and turn order.

Randomness comes only from the game's seed: a shuffle is keyed by the seed and a salt
(the round number, a redeal counter), so a state never has to carry a live generator
and replaying a log deals exactly the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable


def rng(seed: int, *salt: object) -> random.Random:
    """A generator determined by the seed and the salt.

    >>> rng(7, "deal", 1).random() == rng(7, "deal", 1).random()
    True
    """
    key = ":".join(str(part) for part in (seed, *salt))
    return random.Random(key)


def shuffled(cards: Iterable[str], seed: int, *salt: object) -> tuple[str, ...]:
    """The cards in a seeded random order.

    >>> shuffled(["a", "b", "c"], 1, "x") == shuffled(["a", "b", "c"], 1, "x")
    True
    """
    order = list(cards)
    rng(seed, *salt).shuffle(order)
    return tuple(order)


def build_deck(types: Iterable[str], copies: int) -> tuple[str, ...]:
    """Every type repeated ``copies`` times, in a fixed order.

    >>> build_deck(["a", "b"], 2)
    ('a', 'a', 'b', 'b')
    """
    return tuple(card for card in types for _ in range(copies))


def next_seat(seat: int, seats: int, step: int = 1) -> int:
    """The seat ``step`` places after ``seat`` in turn order.

    >>> next_seat(3, 4)
    0
    >>> next_seat(0, 4, -1)
    3
    """
    return (seat + step) % seats


def seats_after(seat: int, seats: int) -> tuple[int, ...]:
    """Every other seat in turn order, starting with the one after ``seat``.

    >>> seats_after(2, 4)
    (3, 0, 1)
    """
    return tuple(next_seat(seat, seats, step) for step in range(1, seats))


def remove_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The cards with one copy of ``card`` taken out (ValueError when absent).

    >>> remove_one(("a", "b", "a"), "a")
    ('b', 'a')
    """
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]
