"""Deck and seat helpers shared by the games: seeded shuffles and turn order.

Randomness comes only from the game's seed: a shuffle is keyed by the seed and a salt
(the round number, a redeal counter), so a state never has to carry a live generator
and replaying a log deals exactly the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from webapp.game.protocol import IllegalAction

#: The table option holding a prepared deal (a guided game): each round's deck order,
#: top first, round 1 first.  Rounds beyond it are shuffled from the seed as usual.
DEAL_OPTION = "deal"


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


def prepared_deals(options: Mapping[str, Any], deck: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """Each round's prepared order from the table's options (empty when the deal is
    shuffled); every order must hold exactly the deck's cards.

    >>> prepared_deals({"deal": [["b", "a"]]}, ["a", "b"])
    (('b', 'a'),)
    >>> prepared_deals({"deal": [["a", "a"]]}, ["a", "b"])
    Traceback (most recent call last):
    ...
    webapp.game.protocol.IllegalAction: bad-option: deal
    """
    given = options.get(DEAL_OPTION, ())
    whole = sorted(deck)
    if not isinstance(given, list | tuple) or not all(isinstance(o, list | tuple) for o in given):
        raise IllegalAction("bad-option", DEAL_OPTION)
    orders = tuple(tuple(str(card) for card in order) for order in given)
    if any(sorted(order) != whole for order in orders):
        raise IllegalAction("bad-option", DEAL_OPTION)
    return orders


def arranged(deck: Iterable[str], *parts: Iterable[str]) -> tuple[str, ...]:
    """A prepared deck order: ``parts`` in turn (hands, then the top of the stock), then
    the deck's other cards in its own order (ValueError when a part holds a card the deck
    has no copy left of).

    >>> arranged(["a", "a", "b", "c"], ["b", "a"], ["c"])
    ('b', 'a', 'c', 'a')
    """
    rest = list(deck)
    order = [card for part in parts for card in part]
    for card in order:
        rest.remove(card)
    return (*order, *rest)


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
