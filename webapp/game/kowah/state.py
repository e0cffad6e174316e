"""Kowah's frozen data: events, the discard pile, the state of one deal, and arranged deals.

One state is one deal.  Nothing here decides a rule; ``rules`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from webapp.game.kowah.cards import DECK, sort_cards
from webapp.game.protocol import Outcome

HAND_SIZE = 8
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
DEFAULT_PLAYERS = 3

Phase = Literal["take", "discard", "over"]


@dataclass(frozen=True)
class Event:
    """Something that happened, in order; the views filter what each seat may see of it.

    ``kind`` is "start" (``seat`` plays first), "draw" (``public`` when everyone saw the card),
    "take", "discard", "declare" (``card`` is the exposed pair; right after its seat's discard),
    "win" (``seat`` won ``card`` with ``reason`` from ``source``) or "stock-out" (``seat``
    drew the last card and the deal is drawn).
    """

    kind: str
    seat: int
    card: str | None = None
    public: bool = True
    source: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class PileCard:
    """A discard still lying face up, and the seat that discarded it."""

    seat: int
    card: str


@dataclass(frozen=True)
class KowahState:
    """One deal of Kowah.

    ``hands`` are kept in canonical order; ``stock[0]`` is the top card. ``pile`` lists the
    discards still face up, oldest first (a taken discard leaves it). ``exposed`` is each
    seat's exposed pair type once declared. ``known`` lists, per seat, cards every seat knows
    to be in that hand (taken discards and publicly drawn cards kept), apart from the exposed
    pair. ``drawn``/``taken`` record the current turn's card.
    """

    seed: int
    players: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    pile: tuple[PileCard, ...]
    exposed: tuple[str | None, ...]
    known: tuple[tuple[str, ...], ...]
    turn: int
    phase: Phase
    drawn: str | None
    taken: str | None
    events: tuple[Event, ...]
    result: Outcome | None = None

    @property
    def public_draws(self) -> bool:
        """Whether stock draws are shown to all (from the first declaration on)."""
        return any(pair is not None for pair in self.exposed)

    @cached_property  # once for a state, which every seat's view (and every reader's) shares
    def thrown(self) -> tuple[tuple[str, ...], ...]:
        """The pile's cards by the seat that discarded them, oldest first."""
        return tuple(
            tuple(entry.card for entry in self.pile if entry.seat == seat)
            for seat in range(self.players)
        )


def arranged_deal(
    hands: Sequence[Sequence[str]], stock_top: Sequence[str] = (), first: int = 0, seed: int = 0
) -> KowahState:
    """A deal with chosen hands and stock top (for lessons, puzzles and tests).

    The cards not named stay in the stock after ``stock_top``, in canonical order.

    >>> hands = [["coins-1"] * 4 + ["coins-2"] * 4, ["coins-3"] * 4 + ["coins-4"] * 4]
    >>> state = arranged_deal(hands, stock_top=["red-flower"], first=1)
    >>> len(state.stock), state.stock[0], state.turn
    (104, 'red-flower', 1)
    """
    rest = list(DECK)
    for card in [card for hand in hands for card in hand] + list(stock_top):
        rest.remove(card)  # ValueError when a card is named more often than it exists
    if len(hands) not in PLAYER_COUNTS or any(len(hand) != HAND_SIZE for hand in hands):
        raise ValueError("bad deal")
    players = len(hands)
    return KowahState(
        seed=seed,
        players=players,
        hands=tuple(sort_cards(list(hand)) for hand in hands),
        stock=tuple(stock_top) + tuple(rest),
        pile=(),
        exposed=(None,) * players,
        known=((),) * players,
        turn=first,
        phase="take",
        drawn=None,
        taken=None,
        events=(Event("start", first),),
    )
