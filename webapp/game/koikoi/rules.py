"""Koi-Koi's rules (docs/rules.md §3): the deal, a turn, yaku checks, koi-koi, rounds and the match.

``new_game`` draws the first starter and deals round 1; ``apply`` returns the next state
or raises ``IllegalAction``.  A turn is a hand card, then the stock's top card, each
capturing by month (one match: take it; two: the player chooses; three: take all four;
none: it stays on the field), then the yaku check.

Decisions docs/rules.md leaves open, taken here:

- Red and Blue Ribbons replaces Red Poems and Blue Ribbons (10 = 5 + 5, not added twice).
- Kuttsuki is a hand whose months all come in pairs (four month pairs); a hand that is
  both teshi and kuttsuki is announced as teshi.  Either scores 6 for its holder with no
  doubling; the field redeal (four of a month) is checked before the hands.  Such a round
  counts as one of the match's rounds, and its winner starts the next.
- The starter draw takes two different cards from a seeded shuffle, seat 0 first.
- After a round with no winner the seat that did not start that round starts the next.
- "New or improved yaku" compares the mover's yaku after the turn with those at its start;
  a yaku replaced by a higher one (Three Lights by Four Lights) counts as new.
- A new yaku formed with no hand card left is scored at once; a koi-koi call passes the turn.
- House rules (``house``) change only what they name; with many koi-koi calls a new or
  improved yaku after a koi-koi asks the mover again (stop or call) instead of ending the
  round, and a round whose hands run out after calls still scores nothing.
- A round ends in phase ``round-over`` (both hands shown) until the next round's starter
  plays ``next``; the last round ends the match directly.  The timeout rule plays the
  first hand card in deck order, takes the first option of any choice, and stops.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from webapp.game.actions import Timeout
from webapp.game.deck import prepared_deals, remove_one, shuffled
from webapp.game.koikoi.actions import KoiKoi, KoikoiAction, Next, Play, Stop, Take
from webapp.game.koikoi.cards import DECK, MONTH, MONTHS, ORDER, sort_cards
from webapp.game.koikoi.house import house_rules
from webapp.game.koikoi.oracle import SPECIAL_HAND_POINTS, improved, round_points, yaku
from webapp.game.koikoi.state import Event, KoikoiState, Pending, RoundResult
from webapp.game.protocol import IllegalAction, Outcome, Reason

ROUND_CHOICES = (3, 6, 12)
DEFAULT_OPTIONS: Mapping[str, Any] = {"rounds": 12}
HAND_SIZE = 8
#: Events kept for announcements; a turn makes at most about eight.
EVENTS_KEPT = 16


def starter_draw(seed: int) -> tuple[tuple[tuple[str, str], ...], int]:
    """The months drawn before round 1 (one pair per draw) and the seat that starts.

    >>> draws, seat = starter_draw(1)
    >>> draws[-1][0] != draws[-1][1]
    True
    """
    draws: list[tuple[str, str]] = []
    attempt = 0
    while True:
        first, second = shuffled(DECK, seed, "starter", attempt)[:2]
        months = (MONTH[first], MONTH[second])
        draws.append(months)
        if months[0] != months[1]:
            earlier = MONTHS.index(months[0]) < MONTHS.index(months[1])
            return tuple(draws), 0 if earlier else 1
        attempt += 1


def special_hand(hand: tuple[str, ...]) -> str | None:
    """``teshi`` (four of a month), ``kuttsuki`` (four month pairs) or None.

    >>> special_hand(("jan-crane", "jan-poetry", "jan-plain-1", "jan-plain-2",
    ...               "feb-poetry", "mar-poetry", "apr-ribbon", "may-ribbon"))
    'teshi'
    >>> special_hand(("jan-crane", "jan-poetry", "feb-poetry", "feb-warbler",
    ...               "mar-poetry", "mar-curtain", "apr-ribbon", "apr-cuckoo"))
    'kuttsuki'
    """
    counts = Counter(MONTH[card] for card in hand)
    if 4 in counts.values():
        return "teshi"
    if len(hand) == HAND_SIZE and all(count % 2 == 0 for count in counts.values()):
        return "kuttsuki"
    return None


def _four_of_a_month(cards: tuple[str, ...]) -> bool:
    return 4 in Counter(MONTH[card] for card in cards).values()


def _deal(state: KoikoiState, number: int, starter: int) -> KoikoiState:
    """Deal round ``number``, redealing as the rules say, and settle a special hand."""
    redeals: list[str] = []
    events: list[Event] = [Event("deal", starter, codes=(str(number),))]
    attempt = 0
    while True:
        prepared = attempt == 0 and number <= len(state.deals)
        order = (
            state.deals[number - 1]
            if prepared
            else shuffled(DECK, state.seed, "deal", number, attempt)
        )
        attempt += 1
        hands = (sort_cards(order[:HAND_SIZE]), sort_cards(order[HAND_SIZE : 2 * HAND_SIZE]))
        field = sort_cards(order[2 * HAND_SIZE : 3 * HAND_SIZE])
        if _four_of_a_month(field):
            redeals.append("four-on-field")
            events.append(Event("redeal", None, codes=("four-on-field",)))
            continue
        specials = (special_hand(hands[0]), special_hand(hands[1]))
        if specials[0] and specials[1]:
            redeals.append("both-special")
            events.append(Event("redeal", None, codes=("both-special",)))
            continue
        break
    dealt = replace(
        state,
        number=number,
        starter=starter,
        redeals=tuple(redeals),
        hands=hands,
        field=field,
        stock=order[3 * HAND_SIZE :],
        captured=((), ()),
        phase="play",
        turn=starter,
        pending=None,
        turn_start=0,
        koikoi=None,
        events=(),
        event_count=0,
        calls=(0, 0),
    )
    dealt = _emit(dealt, *events)
    for seat, special in enumerate(specials):
        if special:
            dealt = _emit(dealt, Event(special, seat))
            return _end_round(dealt, seat, special, {})
    return dealt


def new_game(seed: int, options: Mapping[str, Any]) -> KoikoiState:
    """Draw for the first starter and deal round 1 of a match.

    >>> state = new_game(7, {"rounds": 3})
    >>> len(state.hands[0]), len(state.hands[1]), len(state.field), len(state.stock)
    (8, 8, 8, 24)
    """
    given = {**DEFAULT_OPTIONS, **options}.get("rounds")
    # A form or a URL hands the option over as text: "6" means 6.
    rounds = int(given) if isinstance(given, str) and given.isdigit() else given
    if rounds not in ROUND_CHOICES or isinstance(rounds, bool):
        raise IllegalAction("bad-option", f"rounds={given!r}")
    house = house_rules(options)
    draws, starter = starter_draw(seed)
    blank = KoikoiState(
        seed=seed,
        rounds=rounds,
        number=0,
        scores=(0, 0),
        results=(),
        starter_draw=draws,
        starter=starter,
        redeals=(),
        hands=((), ()),
        field=(),
        stock=(),
        captured=((), ()),
        phase="play",
        turn=starter,
        pending=None,
        turn_start=0,
        koikoi=None,
        events=(),
        event_count=0,
        house=house,
        deals=prepared_deals(options, DECK),
    )
    return _deal(blank, 1, starter)


def _emit(state: KoikoiState, *events: Event) -> KoikoiState:
    return replace(
        state,
        events=(state.events + events)[-EVENTS_KEPT:],
        event_count=state.event_count + len(events),
    )


def _set_seat(
    pair: tuple[tuple[str, ...], tuple[str, ...]], seat: int, cards: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return (cards, pair[1]) if seat == 0 else (pair[0], cards)


def matches(field: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The field cards of ``card``'s month (what it may capture).

    >>> matches(("jan-crane", "mar-plain-1", "mar-poetry"), "mar-curtain")
    ('mar-plain-1', 'mar-poetry')
    """
    month = MONTH[card]
    return tuple(other for other in field if MONTH[other] == month)


def _capture(state: KoikoiState, card: str, taken: tuple[str, ...]) -> KoikoiState:
    """The seat in turn captures ``taken`` from the field with ``card``."""
    seat = state.turn
    field = tuple(other for other in state.field if other not in taken)
    captured = _set_seat(state.captured, seat, state.captured[seat] + (card, *taken))
    state = replace(state, field=field, captured=captured, pending=None)
    return _emit(state, Event("capture", seat, (card, *taken)))


def _land(state: KoikoiState, card: str, source: str) -> KoikoiState:
    """Play ``card`` (from hand or stock) onto the field; two matches leave a choice."""
    found = matches(state.field, card)
    if not found:
        field = tuple(sorted((*state.field, card), key=ORDER.__getitem__))
        state = replace(state, field=field, pending=None)
        return _emit(state, Event("field", state.turn, (card,)))
    if len(found) == 2:
        return replace(state, phase="choose", pending=Pending(source, card, found))
    return _capture(state, card, found)


def _flip(state: KoikoiState) -> KoikoiState:
    """Turn over the stock's top card and play it; then end the turn unless a choice waits."""
    card, stock = state.stock[0], state.stock[1:]
    state = _emit(replace(state, stock=stock, phase="play"), Event("flip", state.turn, (card,)))
    state = _land(state, card, "stock")
    return state if state.phase == "choose" else _end_turn(state)


def _end_turn(state: KoikoiState) -> KoikoiState:
    """Check the mover's yaku: a stop/koi-koi prompt, a round end, or the other's turn."""
    seat = state.turn
    pile = state.captured[seat]
    before, after = yaku(pile[: state.turn_start], state.house), yaku(pile, state.house)
    if improved(before, after):
        state = _emit(state, Event("yaku", seat, codes=tuple(after)))
        if state.koikoi is not None and state.house.koikoi_calls == "once":
            return _end_round(state, seat, "after-koikoi", after)
        if not state.hands[seat]:
            return _end_round(state, seat, "last-card", after)
        return replace(state, phase="decide")
    return _pass_turn(state)


def _pass_turn(state: KoikoiState) -> KoikoiState:
    other = 1 - state.turn
    if not state.hands[0] and not state.hands[1]:
        return _end_round(state, None, "hands-out", {})
    return replace(
        state, phase="play", turn=other, pending=None, turn_start=len(state.captured[other])
    )


def _end_round(
    state: KoikoiState, winner: int | None, reason: str, found: Mapping[str, int]
) -> KoikoiState:
    """Score the round, record its result, and end the round (or the match)."""
    multiplier = 1
    if winner is None:
        base, seven, doubled, points = 0, False, False, 0
    elif reason in ("teshi", "kuttsuki"):
        base, seven, doubled, points = SPECIAL_HAND_POINTS, False, False, SPECIAL_HAND_POINTS
    else:
        score = round_points(found, state.calls[1 - winner] > 0, state.house, state.calls[winner])
        base, seven, doubled, multiplier, points = (
            score.base,
            score.seven_doubled,
            score.koikoi_doubled,
            score.multiplier,
            score.points,
        )
    result = RoundResult(
        number=state.number,
        starter=state.starter,
        winner=winner,
        reason=reason,
        yaku=tuple(found.items()),
        base=base,
        seven_doubled=seven,
        koikoi_doubled=doubled,
        points=points,
        koikoi=state.koikoi,
        multiplier=multiplier,
    )
    scores = state.scores
    if winner is not None:
        scores = (scores[0] + points, scores[1]) if winner == 0 else (scores[0], scores[1] + points)
    phase = "match-over" if state.number >= state.rounds else "round-over"
    state = replace(
        state, scores=scores, results=(*state.results, result), phase=phase, pending=None
    )
    return _emit(state, Event("round-end", winner, codes=(reason,)))


def next_starter(state: KoikoiState) -> int:
    """Who starts the round after the last finished one: its winner, else the other seat."""
    last = state.results[-1]
    return last.winner if last.winner is not None else 1 - last.starter


def to_act(state: KoikoiState) -> int | None:
    """The seat whose decision the game waits for (None once the match is over)."""
    if state.phase == "match-over":
        return None
    if state.phase == "round-over":
        return next_starter(state)
    return state.turn


def legal_actions(state: KoikoiState) -> tuple[KoikoiAction, ...]:
    """Every action the seat to act may take now (the timeout action aside)."""
    if state.phase == "play":
        return tuple(Play(card) for card in state.hands[state.turn])
    if state.phase == "choose":
        assert state.pending is not None
        return tuple(Take(card) for card in state.pending.options)
    if state.phase == "decide":
        return (Stop(), KoiKoi())
    if state.phase == "round-over":
        return (Next(),)
    return ()


def apply(state: KoikoiState, action: KoikoiAction) -> KoikoiState:
    """The state after ``action`` by the seat to act; raises IllegalAction when refused."""
    if state.phase == "match-over":
        raise IllegalAction("game-over")
    if isinstance(action, Timeout):
        return _timeout(state)
    if isinstance(action, Next):
        if state.phase != "round-over":
            raise IllegalAction("round-not-over")
        return _deal(state, state.number + 1, next_starter(state))
    if isinstance(action, Play):
        if state.phase != "play":
            raise IllegalAction("not-play-phase")
        hand = state.hands[state.turn]
        if action.card not in hand:
            raise IllegalAction("card-not-in-hand", action.card)
        state = replace(
            state, hands=_set_seat(state.hands, state.turn, remove_one(hand, action.card))
        )
        state = _emit(state, Event("play", state.turn, (action.card,)))
        state = _land(state, action.card, "hand")
        return state if state.phase == "choose" else _flip(state)
    if isinstance(action, Take):
        if state.phase != "choose" or state.pending is None:
            raise IllegalAction("no-choice-pending")
        pending = state.pending
        if action.card not in pending.options:
            raise IllegalAction("not-an-option", action.card)
        state = _capture(replace(state, phase="play"), pending.card, (action.card,))
        return _flip(state) if pending.source == "hand" else _end_turn(state)
    if isinstance(action, Stop | KoiKoi):
        if state.phase != "decide":
            raise IllegalAction("no-decision-pending")
        if isinstance(action, Stop):
            state = _emit(state, Event("stop", state.turn))
            found = yaku(state.captured[state.turn], state.house)
            return _end_round(state, state.turn, "stop", found)
        seat = state.turn
        calls = (
            (state.calls[0] + 1, state.calls[1])
            if seat == 0
            else (state.calls[0], state.calls[1] + 1)
        )
        state = _emit(replace(state, koikoi=seat, calls=calls), Event("koikoi", seat))
        return _pass_turn(state)
    raise IllegalAction("bad-action", str(action))


def timeout_action(state: KoikoiState) -> KoikoiAction:
    """What the table plays when the seat to act runs out of time."""
    return Timeout()


def _timeout(state: KoikoiState) -> KoikoiState:
    """Finish the acting seat's turn by a fixed rule: first card, first option, stop."""
    if state.phase == "round-over":
        return apply(state, Next())
    seat, number = state.turn, state.number
    if state.phase == "play":
        state = apply(state, Play(state.hands[seat][0]))
    while state.number == number and state.turn == seat and state.phase in ("choose", "decide"):
        state = apply(state, legal_actions(state)[0])
    return state


class Ending(Reason):
    """How a Koi-Koi match ends: after its rounds."""

    ROUNDS_PLAYED = "rounds-played"


def outcome(state: KoikoiState) -> Outcome | None:
    """The match result once every round is played, else None."""
    if state.phase != "match-over":
        return None
    first, second = state.scores
    winners: tuple[int, ...] = () if first == second else ((0,) if first > second else (1,))
    return Outcome(
        winners=winners,
        points=state.scores,
        reason=Ending.ROUNDS_PLAYED,
        detail={
            "rounds": len(state.results),
            "results": tuple(result.as_dict() for result in state.results),
        },
    )
