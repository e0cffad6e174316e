"""Koa's state: the frozen records of a match and the deal that starts each round.

The state holds everything, hidden or not; ``view.py`` decides what a seat may see and
``rules.py`` moves from one state to the next.  ``deal_from`` builds a round from explicit
hands and arena so tests can set up any position; ``deal_round`` deals one from the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from webapp.game.deck import shuffled
from webapp.game.koa.cards import DECK, HAND_SIZE, sort_cards
from webapp.game.koa.oracle import koa_cards

SEATS = 4
MODES = ("quick", "full")
#: Marks a player collects in a Full match: batu, gantung, putuih.
MARK_NAMES = ("batu", "gantung", "putuih")
PUTUIH = 3
GANTUNG = 2


@dataclass(frozen=True)
class ThrowRecord:
    """A card thrown face up and who threw it; ``eaten_by`` is the seat that ate it."""

    seat: int
    card: str
    turn: int
    eaten_by: int | None = None


@dataclass(frozen=True)
class Piles:
    """A round's throws, with the face-up pile and each seat's share of it worked out in
    one pass when first asked: every seat's view of a state (and every reader's) shares
    one, so a table draws the piles once a move, and a bot that never asks pays nothing."""

    throws: tuple[ThrowRecord, ...]

    @cached_property
    def _split(self) -> tuple[tuple[ThrowRecord, ...], tuple[tuple[str, ...], ...]]:
        pile: list[ThrowRecord] = []
        thrown: list[list[str]] = [[] for _ in range(SEATS)]
        for record in self.throws:
            if record.eaten_by is None:
                pile.append(record)
                thrown[record.seat].append(record.card)
        return tuple(pile), tuple(tuple(cards) for cards in thrown)

    @property
    def pile(self) -> tuple[ThrowRecord, ...]:
        """The throws nobody ate, in the order thrown."""
        return self._split[0]

    @property
    def thrown(self) -> tuple[tuple[str, ...], ...]:
        """The pile's cards by the seat that threw them, in the order thrown."""
        return self._split[1]


@dataclass(frozen=True)
class Ban:
    """Takabek: ``seat`` may not throw ``card`` because ``eater`` ate it from them."""

    seat: int
    eater: int
    card: str


@dataclass(frozen=True)
class Draw:
    """A card cabut from the arena; ``watchers`` are the ceki seats that saw it."""

    seat: int
    card: str
    turn: int
    watchers: tuple[int, ...]

    @property
    def seers(self) -> tuple[int, ...]:
        """The seats that saw the card: its drawer, and the ceki seats watching."""
        return (self.seat, *self.watchers)


@dataclass(frozen=True)
class Event:
    """One thing that happened in the last action, for a UI to announce.

    ``kind`` is a code: ``deal``, ``cabut``, ``makan``, ``throw``, ``ceki``, ``not-ceki``,
    ``ban``, ``ban-lifted``, ``koa``, ``arena-habis``, ``mark``, ``match-over``.
    ``card`` is ``None`` where the seat receiving the view may not see it.
    ``other`` is a second seat (the banned thrower of a ban, the drawer of a koa card).
    """

    kind: str
    seat: int
    card: str | None = None
    other: int | None = None


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: ``winner`` is None on arena habis (a draw).

    ``hands`` are every seat's final cards (shown to all at round end); ``card`` is the
    koa card drawn and ``drawer`` who drew it.
    """

    round_no: int
    winner: int | None
    card: str | None
    drawer: int | None
    hands: tuple[tuple[str, ...], ...]
    marks: tuple[int, ...]


@dataclass(frozen=True)
class KoaState:
    """A Koa match at one moment.

    ``phase`` is ``take`` (cabut or makan), ``throw``, ``round-over`` (waiting for the
    next round to be dealt) or ``match-over``.  ``koa[s]`` is the set of koa cards of a
    ceki seat (empty when not ceki).  The arena's top card is ``arena[0]``.
    """

    seed: int
    mode: str
    round_no: int
    starter: int
    marks: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    arena: tuple[str, ...]
    throws: tuple[ThrowRecord, ...]
    draws: tuple[Draw, ...]
    koa: tuple[frozenset[str], ...]
    bans: tuple[Ban, ...]
    turn: int
    turn_no: int
    phase: str
    drawn: str | None = None
    eaten: str | None = None
    events: tuple[Event, ...] = ()
    result: RoundResult | None = None
    last_throw_open: bool = False

    @property
    def latest_throw(self) -> ThrowRecord | None:
        """The most recent throw of this round, if it can still be eaten."""
        if self.last_throw_open and self.throws:
            return self.throws[-1]
        return None

    @cached_property
    def piles(self) -> Piles:
        """This round's throws as piles, shared by every seat's view of the state."""
        return Piles(self.throws)

    @property
    def pile(self) -> tuple[ThrowRecord, ...]:
        """The face-up throw pile: this round's throws nobody ate."""
        return self.piles.pile

    @cached_property
    def seen_draws(self) -> tuple[tuple[Draw, ...], ...]:
        """Each seat's arena draws this round (see :attr:`Draw.seers`), in one pass that
        every seat's view of the state shares."""
        seen: tuple[list[Draw], ...] = tuple([] for _ in range(SEATS))
        for draw in self.draws:
            for seat in draw.seers:
                seen[seat].append(draw)
        return tuple(map(tuple, seen))


def deal_from(
    hands: Sequence[Iterable[str]],
    arena: Iterable[str],
    starter: int = 0,
    *,
    seed: int = 0,
    mode: str = "quick",
    round_no: int = 1,
    marks: Sequence[int] = (0, 0, 0, 0),
) -> KoaState:
    """A round dealt from explicit hands and arena (top card first); tests build cases here.

    Ceki is checked on the dealt hands at once (a dealt hand can be ceki).

    >>> state = deal_from([["babi-pusek"] * 11] * 4, ["tali-merah"] * 2, starter=2)
    >>> state.turn, state.phase, len(state.arena)
    (2, 'take', 2)
    """
    sorted_hands = tuple(sort_cards(hand) for hand in hands)
    if len(sorted_hands) != SEATS:
        raise ValueError("koa needs four hands")
    koa = tuple(koa_cards(hand) if len(hand) == HAND_SIZE else frozenset() for hand in sorted_hands)
    events = (Event("deal", starter),) + tuple(
        Event("ceki", seat) for seat in range(SEATS) if koa[seat]
    )
    return KoaState(
        seed=seed,
        mode=mode,
        round_no=round_no,
        starter=starter,
        marks=tuple(marks),
        hands=sorted_hands,
        arena=tuple(arena),
        throws=(),
        draws=(),
        koa=koa,
        bans=(),
        turn=starter,
        turn_no=1,
        phase="take",
        events=events,
    )


def deal_round(
    seed: int,
    mode: str,
    round_no: int,
    starter: int,
    marks: Sequence[int],
    order: Sequence[str] | None = None,
) -> KoaState:
    """Shuffle the 180 cards for this round (salted by its number) and deal 11 each;
    ``order`` is a prepared deck (top first) dealt instead."""
    deck = tuple(order) if order else shuffled(DECK, seed, "koa-deal", round_no)
    hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(SEATS)]
    return deal_from(
        hands,
        deck[SEATS * HAND_SIZE :],
        starter,
        seed=seed,
        mode=mode,
        round_no=round_no,
        marks=marks,
    )
