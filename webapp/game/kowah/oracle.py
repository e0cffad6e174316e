"""Kowah's rules oracle: which 8-card hands are checki, which pair they may expose, who claims.

Checki is two triples (three cards of one kind: suits free for ranks, one honour for honours)
and one identical pair. When the pair shares its rank with a triple, the five cards of that
rank must be two of one suit, two of a second and one of the third, and either suited pair may
be exposed. Two triples may share a rank (six cards of one rank, suits free, are two triples),
and eight cards of one rank are checki when some split into two triples and a pair passes
those rules, the exposed pair being a type held exactly twice (docs/rules.md §2, decided), so that
its third copy is a card the player does not hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from webapp.game.deck import seats_after
from webapp.game.kowah.cards import KIND
from webapp.game.protocol import Reason


class Ending(Reason):
    """How a Kowah deal ends: a win (by the card's source) or the stock running out."""

    SELF_DRAW = "self-draw"
    DRAW = "draw"
    DISCARD = "discard"
    STOCK_OUT = "stock-out"


#: Win multipliers by how the winning card came.
SELF_DRAW, OTHER_DRAW, DISCARD = 3, 1, 2
MULTIPLIER: dict[str, int] = {
    Ending.SELF_DRAW: SELF_DRAW,
    Ending.DRAW: OTHER_DRAW,
    Ending.DISCARD: DISCARD,
}


def checki_pairs(hand: Iterable[str]) -> frozenset[str]:
    """The pair types an 8-card hand may expose when declaring; empty when it is not checki.

    >>> sorted(checki_pairs(["coins-5", "strings-5", "myriads-5", "coins-7", "strings-7",
    ...                      "strings-7", "red-flower", "red-flower"]))
    ['red-flower']
    >>> sorted(checki_pairs(["coins-5", "coins-5", "strings-5", "strings-5", "myriads-5",
    ...                      "old-thousand", "old-thousand", "old-thousand"]))
    ['coins-5', 'strings-5']
    >>> checki_pairs(["coins-5", "coins-5", "coins-5", "strings-5", "strings-5",
    ...               "coins-7", "strings-7", "myriads-7"])
    frozenset()
    """
    cards = tuple(sorted(hand))
    if len(cards) != 8:
        return frozenset()
    return _checki_pairs(cards)


@lru_cache(maxsize=1 << 16)
def _checki_pairs(cards: tuple[str, ...]) -> frozenset[str]:
    # Group by kind, then by type within the kind: the shape of each kind decides.
    kinds: dict[str, dict[str, int]] = {}
    for card in cards:
        types = kinds.setdefault(KIND[card], {})
        types[card] = types.get(card, 0) + 1
    pairs: frozenset[str] | None = None
    for types in kinds.values():
        size = sum(types.values())
        if size == 3 or size == 6:
            # One triple, or two triples of one rank (honours never reach six).
            continue
        if pairs is not None:
            return frozenset()  # only one kind may hold the pair
        if size == 2 and len(types) == 1:
            pairs = frozenset(types)
        elif size == 5 and sorted(types.values()) == [1, 2, 2]:
            pairs = frozenset(card for card, count in types.items() if count == 2)
        elif size == 8:
            # Eight of one rank: a pair type held exactly twice always leaves a split that
            # passes (3-3-2: c c s + c s s; 4-2-2: c c s + c c s, each triple 2-2-1 with the
            # pair), and no other type may be exposed; 4-3-1 and 4-4-0 are not checki.
            pairs = frozenset(card for card, count in types.items() if count == 2)
        else:
            return frozenset()
    return pairs or frozenset()


def claimant(card: str, source: int, exposed: tuple[str | None, ...], drawn: bool) -> int | None:
    """The seat that wins ``card``, drawn from the stock or discarded by ``source``, if any.

    A drawer wins first when the card is their own winning card; otherwise the first declared
    seat waiting on it in turn order after ``source``. (With four copies of each type two seats
    can never wait on the same card, but the priority is kept as the rules state it.)

    >>> claimant("coins-5", 0, (None, "coins-5", None), drawn=True)
    1
    >>> claimant("coins-5", 1, (None, "coins-5", None), drawn=True)
    1
    >>> claimant("coins-5", 1, (None, "coins-5", None), drawn=False) is None
    True
    >>> claimant("coins-5", 2, ("coins-5", "coins-5", None), drawn=False)
    0
    """
    if drawn and exposed[source] == card:
        return source
    for seat in seats_after(source, len(exposed)):
        if exposed[seat] == card:
            return seat
    return None


def win_reason(winner: int, source: int, drawn: bool) -> Ending:
    """The outcome reason of a win: a self-draw, another's draw or a discard.

    >>> [str(win_reason(1, 1, True)), str(win_reason(2, 1, True)), str(win_reason(2, 1, False))]
    ['self-draw', 'draw', 'discard']
    """
    if not drawn:
        return Ending.DISCARD
    return Ending.SELF_DRAW if winner == source else Ending.DRAW
