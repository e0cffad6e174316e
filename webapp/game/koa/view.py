"""What one seat of a Koa table may know: the view a screen (or a bot) is built from.

``view(state, seat)`` is the only door from the state to a seat: it copies the public
record (throws, who ate what, ceki badges, marks, counts), the seat's own hand, the bans
that concern it and the arena draws it saw while ceki, and nothing else until the round
ends, when every hand is revealed.  ``hidden_cards`` names the card ids a seat could not
know about, which the leak tests look for in every view.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.koa.actions import KoaAction
from webapp.game.koa.cards import sort_cards
from webapp.game.koa.rules import hiu_forced, legal_actions, makan_problem
from webapp.game.koa.state import (
    SEATS,
    Ban,
    Draw,
    Event,
    KoaState,
    Piles,
    RoundResult,
    ThrowRecord,
)


@dataclass(frozen=True)
class KoaView:
    """One seat's screen (``seat`` None: a spectator, who sees no hand).

    Fields, in the order a table page would render them:

    - ``mode`` ``quick``/``full``; ``round_no`` starts at 1; ``marks`` per seat (batu,
      gantung, putuih are 1, 2, 3 marks); ``starter`` began this round.
    - ``hand``: this seat's own cards in canonical order; ``koa_cards`` its koa cards
      when it is ceki; ``hand_counts`` every seat's number of cards; ``arena_count``.
    - ``throws``: every throw of this round in order, with thrower and, when eaten, the
      eater (the throw pile is the ones not eaten); ``latest_throw`` the throw the next
      seat may still makan, and ``can_makan`` whether this seat may makan it now.
    - ``ceki``: the public ceki badge of each seat.
    - ``bans``: the takabek bans where this seat is the banned thrower or the eater.
    - ``arena_draws``: the arena draws this seat has seen this round (its own draws, and
      everyone's while it was ceki).
    - ``to_act`` the seat the table waits for; ``phase`` ``take``, ``throw``,
      ``round-over`` or ``match-over``; ``turn_no`` counts turns in the round (the turn
      timer restarts when it changes); ``legal`` this seat's legal actions when it acts.
    - ``drawn``: the card this seat just drew this turn; ``eaten``: the card it just ate
      (not throwable this turn); ``must_throw_hiu``: a hiu rule forces its throw.
    - ``events``: what the last action did, with cards this seat may not see blanked.
    - ``result``: at round or match end, the result with every hand revealed; during a
      round, the previous round's winner and marks without hands (``hands`` empty).
    - ``winners``: the winning team's seats once the match is over.
    - ``piles``: the throws as piles (the state's, shared): ``pile`` the face-up throw pile
      (the throws nobody ate), ``thrown`` its cards by the seat that threw them.
    """

    seat: int | None
    mode: str
    round_no: int
    starter: int
    marks: tuple[int, ...]
    hand: tuple[str, ...]
    koa_cards: tuple[str, ...]
    hand_counts: tuple[int, ...]
    arena_count: int
    throws: tuple[ThrowRecord, ...]
    latest_throw: ThrowRecord | None
    can_makan: bool
    ceki: tuple[bool, ...]
    bans: tuple[Ban, ...]
    arena_draws: tuple[Draw, ...]
    to_act: int | None
    phase: str
    turn_no: int
    legal: tuple[KoaAction, ...]
    drawn: str | None
    eaten: str | None
    must_throw_hiu: bool
    events: tuple[Event, ...]
    result: RoundResult | None
    winners: tuple[int, ...]
    piles: Piles

    @property
    def pile(self) -> tuple[ThrowRecord, ...]:
        return self.piles.pile

    @property
    def thrown(self) -> tuple[tuple[str, ...], ...]:
        return self.piles.thrown

    @property
    def my_turn(self) -> bool:
        """Whether the table waits for this seat."""
        return self.seat is not None and self.seat == self.to_act


def _sees_draw(draw: Draw, seat: int | None) -> bool:
    return seat is not None and seat in draw.seers


def _event_for(event: Event, state: KoaState, seat: int | None) -> Event:
    if event.kind == "cabut" and event.card is not None:
        draw = state.draws[-1] if state.draws else None
        over = state.phase in ("round-over", "match-over")
        if not over and not (draw is not None and _sees_draw(draw, seat)):
            return Event(event.kind, event.seat, None, event.other)
    return event


def view(state: KoaState, seat: int | None) -> KoaView:
    """What ``seat`` (None: a spectator) may know of the match.

    >>> from webapp.game.koa.rules import new_game
    >>> mine = view(new_game(3, {}), 0)
    >>> len(mine.hand), mine.hand_counts, mine.arena_count
    (11, (11, 11, 11, 11), 136)
    >>> view(new_game(3, {}), None).hand
    ()
    """
    over = state.phase in ("round-over", "match-over")
    playing = state.phase in ("take", "throw")
    acting = seat is not None and seat == state.turn and state.phase != "match-over"
    hand = state.hands[seat] if seat is not None else ()
    koa = tuple(sort_cards(state.koa[seat])) if seat is not None else ()
    result = state.result
    if result is not None and not over:
        # The previous round's summary: its hands belong to a deck since reshuffled.
        result = RoundResult(result.round_no, result.winner, None, None, (), result.marks)
    latest = state.latest_throw if playing else None
    winners: tuple[int, ...] = ()
    if state.phase == "match-over" and state.result is not None and state.result.winner is not None:
        winners = tuple(sorted((state.result.winner, (state.result.winner + 2) % SEATS)))
    return KoaView(
        seat=seat,
        mode=state.mode,
        round_no=state.round_no,
        starter=state.starter,
        marks=state.marks,
        hand=hand,
        koa_cards=koa,
        hand_counts=tuple(len(h) for h in state.hands),
        arena_count=len(state.arena),
        throws=state.throws,
        latest_throw=latest,
        can_makan=acting and state.phase == "take" and makan_problem(state) is None,
        ceki=tuple(bool(k) for k in state.koa),
        bans=tuple(ban for ban in state.bans if seat in (ban.seat, ban.eater)),
        arena_draws=() if seat is None else state.seen_draws[seat],
        to_act=None if state.phase == "match-over" else state.turn,
        phase=state.phase,
        turn_no=state.turn_no,
        legal=legal_actions(state) if acting else (),
        drawn=state.drawn if acting and state.phase == "throw" else None,
        eaten=state.eaten if acting and state.phase == "throw" else None,
        must_throw_hiu=acting and state.phase == "throw" and hiu_forced(state, state.turn),
        events=tuple(_event_for(event, state, seat) for event in state.events),
        result=result,
        winners=winners,
        piles=state.piles,
    )


def all_cards(state: KoaState) -> tuple[str, ...]:
    """Every card of the state in every zone: hands, arena and the throw pile."""
    pile = tuple(record.card for record in state.pile)
    return tuple(card for hand in state.hands for card in hand) + state.arena + pile


def hidden_cards(state: KoaState, seat: int | None) -> frozenset[str]:
    """Card ids that lie only where ``seat`` may not look (other hands, the arena)."""
    hidden_zones = set(state.arena)
    visible = {record.card for record in state.throws}
    if state.phase in ("round-over", "match-over"):
        # Every hand is revealed at the end of a round; only the arena stays face down.
        visible.update(card for hand in state.hands for card in hand)
    else:
        for other in range(SEATS):
            if other != seat:
                hidden_zones.update(state.hands[other])
        if seat is not None:
            visible.update(state.hands[seat])
        visible.update(draw.card for draw in state.draws if _sees_draw(draw, seat))
    return frozenset(hidden_zones - visible)
