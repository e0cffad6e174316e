"""What one Koi-Koi seat (or a spectator) may know: the only door from the state to a screen.

A seat sees its own hand, the field, both captured piles, the stock count, the scores and
the yaku both players have formed or nearly formed; not the other hand, not the stock
order.  Once a round is over both hands are revealed.  Bots read these views only.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.koikoi.actions import KoikoiAction
from webapp.game.koikoi.cards import KIND, PLAINS, SAKE_CUP, sort_cards
from webapp.game.koikoi.house import HouseRules
from webapp.game.koikoi.oracle import Progress, RoundScore, near_yaku, round_points, yaku
from webapp.game.koikoi.rules import legal_actions, next_starter, to_act
from webapp.game.koikoi.state import Event, KoikoiState, Pending, RoundResult


@dataclass(frozen=True)
class Pile:
    """A captured pile grouped by printed kind, in deck order.

    The sake cup is listed among the animals; ``plain_count`` counts it as a plain too
    (how the Plains yaku counts), unless a house rule says it is an animal only.
    """

    lights: tuple[str, ...]
    animals: tuple[str, ...]
    ribbons: tuple[str, ...]
    plains: tuple[str, ...]
    plain_count: int


@dataclass(frozen=True)
class YakuLine:
    """One yaku formed and its points before doubling."""

    slug: str
    points: int


@dataclass(frozen=True)
class Prompt:
    """The stop / koi-koi question put to ``seat``: stopping now would score ``score``."""

    seat: int
    score: RoundScore


@dataclass(frozen=True)
class KoikoiView:
    """One seat's screen of a Koi-Koi match (``seat`` None: a spectator).

    Fields:
        seat: whose view this is (None for a spectator).
        round, rounds: the current round (1-based) and the match length.
        scores: each seat's match total so far.
        phase: ``play``, ``choose``, ``decide``, ``round-over`` or ``match-over``.
        to_act: the seat the game waits for (None when the match is over).
        turn: the seat whose turn it is in the round.
        starter: the seat that started this round.
        starter_draw: the months each seat drew for the first starter (seat 0 first),
            one pair per draw; the earlier month started round 1.
        redeals: why this round was redealt, one code per redeal.
        hand: this seat's hand (empty for a spectator).
        hand_counts: how many cards each seat holds.
        field: the face-up cards in the middle, in deck order.
        stock_count: cards left in the stock.
        captured: each seat's captured pile grouped by kind.
        yaku: each seat's yaku formed so far, with points before doubling.
        near: each seat's yaku begun, still possible and missing one or two cards.
        pending: the played or turned-over card waiting for the player to choose which of
            two same-month field cards it takes (``pending.source``: hand or stock).
        prompt: the stop / koi-koi question while a seat decides.
        koikoi: the seat that last called koi-koi this round, if any.
        calls: how often each seat called koi-koi this round.
        house: the table's house rules (the standard rules unless the table chose others).
        legal: this seat's legal actions when it is to act (else empty).
        events: the latest events of this round, oldest first; ``event_count`` is how many
            the round has had, so a screen can announce only the new ones.
        result: the round just finished (in ``round-over`` and ``match-over``).
        revealed: both hands at the end of that round (seat 0 first), else None.
        history: every finished round's result, in order.
        next_starter: who starts the next round (in ``round-over``), else None.
    """

    seat: int | None
    round: int
    rounds: int
    scores: tuple[int, int]
    phase: str
    to_act: int | None
    turn: int
    starter: int
    starter_draw: tuple[tuple[str, str], ...]
    redeals: tuple[str, ...]
    hand: tuple[str, ...]
    hand_counts: tuple[int, int]
    field: tuple[str, ...]
    stock_count: int
    captured: tuple[Pile, Pile]
    yaku: tuple[tuple[YakuLine, ...], tuple[YakuLine, ...]]
    near: tuple[tuple[Progress, ...], tuple[Progress, ...]]
    pending: Pending | None
    prompt: Prompt | None
    koikoi: int | None
    calls: tuple[int, int]
    house: HouseRules
    legal: tuple[KoikoiAction, ...]
    events: tuple[Event, ...]
    event_count: int
    result: RoundResult | None
    revealed: tuple[tuple[str, ...], tuple[str, ...]] | None
    history: tuple[RoundResult, ...]
    next_starter: int | None


def _pile(cards: tuple[str, ...], house: HouseRules) -> Pile:
    ordered = sort_cards(cards)

    def of(kind: str) -> tuple[str, ...]:
        return tuple(card for card in ordered if KIND[card] == kind)

    plains = sum(c in PLAINS and (house.sake_plain or c != SAKE_CUP) for c in cards)
    return Pile(of("light"), of("animal"), of("ribbon"), of("plain"), plains)


def _lines(cards: tuple[str, ...], house: HouseRules) -> tuple[YakuLine, ...]:
    return tuple(YakuLine(slug, points) for slug, points in yaku(cards, house).items())


def stake(state: KoikoiState, seat: int) -> RoundScore:
    """What ``seat`` would score by stopping now, under the table's rules."""
    found = yaku(state.captured[seat], state.house)
    return round_points(found, state.calls[1 - seat] > 0, state.house, state.calls[seat])


def view(state: KoikoiState, seat: int | None) -> KoikoiView:
    """The match as ``seat`` may see it (None: a spectator)."""
    over = state.phase in ("round-over", "match-over")
    acting = to_act(state)
    prompt = None
    if state.phase == "decide":
        prompt = Prompt(state.turn, stake(state, state.turn))
    mine, theirs = state.captured
    house = state.house
    return KoikoiView(
        seat=seat,
        round=state.number,
        rounds=state.rounds,
        scores=state.scores,
        phase=state.phase,
        to_act=acting,
        turn=state.turn,
        starter=state.starter,
        starter_draw=state.starter_draw,
        redeals=state.redeals,
        hand=state.hands[seat] if seat is not None else (),
        hand_counts=(len(state.hands[0]), len(state.hands[1])),
        field=state.field,
        stock_count=len(state.stock),
        captured=(_pile(mine, house), _pile(theirs, house)),
        yaku=(_lines(mine, house), _lines(theirs, house)),
        near=(near_yaku(mine, theirs, house=house), near_yaku(theirs, mine, house=house)),
        pending=state.pending,
        prompt=prompt,
        koikoi=state.koikoi,
        calls=state.calls,
        house=house,
        legal=legal_actions(state) if seat is not None and seat == acting else (),
        events=state.events,
        event_count=state.event_count,
        result=state.results[-1] if over else None,
        revealed=state.hands if over else None,
        history=state.results,
        next_starter=next_starter(state) if state.phase == "round-over" else None,
    )


def all_cards(state: KoikoiState) -> tuple[str, ...]:
    """Every card in every zone (hands, field, stock, captured piles, a pending card)."""
    pending = (state.pending.card,) if state.pending else ()
    return (
        *state.hands[0],
        *state.hands[1],
        *state.field,
        *state.stock,
        *state.captured[0],
        *state.captured[1],
        *pending,
    )


def hidden_cards(state: KoikoiState, seat: int | None) -> frozenset[str]:
    """Cards the seat may not see now: the stock, and the hands it does not hold.

    Once a round is over both hands are shown, so only the stock stays hidden.
    """
    hidden = set(state.stock)
    if state.phase not in ("round-over", "match-over"):
        for other in (0, 1):
            if other != seat:
                hidden.update(state.hands[other])
    return frozenset(hidden)
