"""What one seat of a Kowah deal may know: the view the table renders and the bots decide from.

A seat sees its own hand, every discard and who made it, hand and stock counts, declared seats
and their exposed pairs, the cards everyone knows to be in a hand (taken discards, publicly
drawn cards kept), and stock draws once anyone has declared. Whether an undeclared seat is
checki is not shown to others: declaring rides on the discard, so a seat that keeps a checki
hand undeclared looks like any other. When the deal ends every hand is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.kowah.actions import KowahAction, Take
from webapp.game.kowah.cards import TYPES
from webapp.game.kowah.rules import legal_actions
from webapp.game.kowah.state import Event, KowahState, PileCard
from webapp.game.protocol import Outcome

#: How many of the latest events a view carries (enough for a full round at four seats).
EVENT_WINDOW = 24


@dataclass(frozen=True)
class SeatView:
    """One seat as the viewer sees it."""

    seat: int
    #: Cards in that hand now (8, or 9 during its turn).
    hand_count: int
    #: The exposed pair type once the seat declared checki, else ``None``. The third card of
    #: exactly this type is the seat's winning card.
    exposed: str | None
    #: Cards everyone knows to be in that hand besides the exposed pair (taken discards,
    #: publicly drawn cards kept), in canonical order.
    known: tuple[str, ...]
    #: The whole hand, only once the deal is over (and the viewer's own hand always).
    hand: tuple[str, ...] | None


@dataclass(frozen=True)
class EventView:
    """One event as the viewer may see it; ``seq`` numbers events from the deal's start.

    ``kind``: "start", "draw", "take", "discard", "declare", "win" or "stock-out"
    (see :class:`webapp.game.kowah.state.Event`). ``card`` is ``None`` on a stock draw the
    viewer may not see.
    """

    seq: int
    kind: str
    seat: int
    card: str | None
    source: int | None
    reason: str | None


@dataclass(frozen=True)
class KowahView:
    """Everything seat ``seat`` (``None``: a spectator) may know of the deal right now."""

    #: The viewing seat, ``None`` for a spectator.
    seat: int | None
    #: Number of seats (2, 3 or 4).
    players: int
    #: The viewer's own hand in canonical order (empty for a spectator).
    hand: tuple[str, ...]
    #: Whether the viewer's hand is locked (declared checki).
    locked: bool
    #: Every seat, in seat order.
    seats: tuple[SeatView, ...]
    #: Cards left in the stock.
    stock_count: int
    #: Discards still face up, oldest first, with the seat that discarded each.
    pile: tuple[PileCard, ...]
    #: The pile's cards by the seat that discarded them.
    thrown: tuple[tuple[str, ...], ...]
    #: The discard the acting seat may take at its take step (``None`` when there is none).
    latest_discard: PileCard | None
    #: Whether the viewer may take ``latest_discard`` now.
    can_take: bool
    #: Whether stock draws are shown to all (someone has declared).
    public_draws: bool
    #: The seat whose turn it is (``None`` once the deal is over).
    turn: int | None
    #: The acting seat's step: "take", "discard" or "over".
    phase: str
    #: The card the viewer drew from the stock this turn (only during its own turn).
    drawn: str | None
    #: The discard the viewer took this turn: it may not be discarded again this turn.
    taken: str | None
    #: The viewer's legal actions (empty unless it is the viewer's decision).
    legal: tuple[KowahAction, ...]
    #: The latest events, oldest first.
    events: tuple[EventView, ...]
    #: The result once the deal is over: winner, reason, multiplier in ``detail``.
    outcome: Outcome | None


def view(state: KowahState, seat: int | None) -> KowahView:
    """The deal as ``seat`` may see it (``None``: a spectator)."""
    over = state.phase == "over"
    acting = seat == state.turn and not over
    start = max(0, len(state.events) - EVENT_WINDOW)
    events = tuple(
        _event_view(start + index, event, seat, over)
        for index, event in enumerate(state.events[start:])
    )
    latest = state.pile[-1] if state.pile and state.phase == "take" else None
    legal = legal_actions(state) if acting else ()
    return KowahView(
        seat=seat,
        players=state.players,
        hand=state.hands[seat] if seat is not None else (),
        locked=seat is not None and state.exposed[seat] is not None,
        seats=tuple(_seat_view(state, other, seat, over) for other in range(state.players)),
        stock_count=len(state.stock),
        pile=state.pile,
        thrown=state.thrown,
        latest_discard=latest,
        can_take=Take() in legal,
        public_draws=state.public_draws,
        turn=None if over else state.turn,
        phase=state.phase,
        drawn=state.drawn if acting else None,
        taken=state.taken if acting else None,
        legal=legal,
        events=events,
        outcome=state.result,
    )


def _seat_view(state: KowahState, seat: int, viewer: int | None, over: bool) -> SeatView:
    return SeatView(
        seat=seat,
        hand_count=len(state.hands[seat]),
        exposed=state.exposed[seat],
        known=state.known[seat],
        hand=state.hands[seat] if over or seat == viewer else None,
    )


def _event_view(seq: int, event: Event, viewer: int | None, over: bool) -> EventView:
    visible = event.public or event.seat == viewer
    return EventView(
        seq=seq,
        kind=event.kind,
        seat=event.seat,
        card=event.card if visible else None,
        source=event.source,
        reason=event.reason,
    )


def hidden_cards(state: KowahState, seat: int | None) -> frozenset[str]:
    """Card types the seat may not see anywhere now: no copy is in a place it can see."""
    seen: set[str] = {entry.card for entry in state.pile}
    seen.update(pair for pair in state.exposed if pair is not None)
    for other in range(state.players):
        seen.update(state.known[other])
        if other == seat or state.phase == "over":
            seen.update(state.hands[other])
    return frozenset(card for card in TYPES if card not in seen)


def all_cards(state: KowahState) -> tuple[str, ...]:
    """Every card of the deal in every zone (hands, stock, pile)."""
    in_hands = tuple(card for hand in state.hands for card in hand)
    return in_hands + state.stock + tuple(entry.card for entry in state.pile)
