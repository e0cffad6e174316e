"""Koa's rules: which actions are legal and how each one moves the match on.

``apply`` checks an action against docs/rules.md §1 and returns the next state, or raises
``IllegalAction`` with a reason code.  Decisions this module takes where the rules leave a
case open (each a careful player's reading):

- A card id is a type, so "the card taken by makan cannot be thrown the same turn" forbids
  throwing that type this turn (another copy is indistinguishable from the eaten one).
- If the only hiu a six-hiu hand could throw is the type just eaten, the makan rule wins
  and the hiu rule lapses for that throw (only possible with six copies of one hiu type).
- A ban is lifted for good once one of its ends happens (the eater throwing that type,
  the eater or the banned player becoming ceki); bans last only for their round.
- When a round ends, the state waits in ``round-over`` with every hand revealed until the
  ``next`` action deals the next round (the next starter plays it; the table's timer or
  any bot does at once).  A Quick match that ends in a draw plays another round.
- Quick matches also give the winner a mark, so ``Outcome.points`` are marks in both modes.
- The timeout action cabuts when the seat has not taken yet (that draw can win a koa,
  which ends the turn), then throws the card just drawn when legal, otherwise the first
  legal card in canonical type order (``cards.TYPES``).  After makan it throws the first
  legal card; in ``round-over`` it deals the next round.
- Koa claims use each seat's ceki as it stood before the draw (the drawer's 11 cards), and
  the six-hiu and gantung rules count the 12 cards held after taking.
- Ceki seats other than the drawer see a draw; what a seat saw stays in its view for the
  rest of the round (a player remembers it).
- A ban needs both the thrower and the eater to be out of ceki at the moment of eating;
  the same ban is not started twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from webapp.game.deck import next_seat, prepared_deals, remove_one, rng, seats_after
from webapp.game.koa.actions import Cabut, KoaAction, Makan, NextRound, Throw, Timeout
from webapp.game.koa.cards import DECK, INDEX, is_hiu, sort_cards
from webapp.game.koa.oracle import koa_cards
from webapp.game.koa.state import (
    GANTUNG,
    MODES,
    PUTUIH,
    SEATS,
    Ban,
    Draw,
    Event,
    KoaState,
    RoundResult,
    ThrowRecord,
    deal_round,
)
from webapp.game.protocol import IllegalAction, Outcome, Reason

HIU_LIMIT = 6


def is_gantung(state: KoaState, seat: int) -> bool:
    """Whether the seat holds two marks in a Full match (the gantung hiu rule applies)."""
    return state.mode == "full" and state.marks[seat] == GANTUNG


def hiu_forced(state: KoaState, seat: int) -> bool:
    """Whether the seat's throw this turn must be a hiu (six hiu, or gantung with any)."""
    held = sum(1 for card in state.hands[seat] if is_hiu(card))
    return held >= HIU_LIMIT or (held > 0 and is_gantung(state, seat))


def makan_problem(state: KoaState) -> str | None:
    """Why the seat to act may not makan now (None when it may)."""
    if state.phase != "take":
        return "wrong-phase"
    latest = state.latest_throw
    if latest is None or latest.seat != next_seat(state.turn, SEATS, -1):
        return "nothing-to-makan"
    if is_hiu(latest.card):
        if is_gantung(state, state.turn):
            return "makan-hiu-gantung"
        if state.hands[state.turn].count(latest.card) < 2:
            return "makan-hiu-needs-pair"
    return None


def legal_throws(state: KoaState) -> tuple[str, ...]:
    """The card types the seat to act may throw now, in canonical order.

    Order of the rules: the eaten type is never thrown; a forced hiu narrows the choice
    to hiu; bans remove banned types unless the kept hand is ceki; and when bans would
    leave nothing, they do not apply to this throw.
    """
    if state.phase != "throw":
        return ()
    seat = state.turn
    hand = state.hands[seat]
    candidates = [card for card in dict.fromkeys(hand) if card != state.eaten]
    if hiu_forced(state, seat):
        hiu = [card for card in candidates if is_hiu(card)]
        if hiu:
            candidates = hiu
    banned = {ban.card for ban in state.bans if ban.seat == seat}
    if banned:
        allowed = [
            card for card in candidates if card not in banned or koa_cards(remove_one(hand, card))
        ]
        if allowed:
            candidates = allowed
    return tuple(candidates)


def parse_options(options: Mapping[str, Any]) -> str:
    """The match mode from the table's options (``quick`` unless ``full`` is asked).

    >>> parse_options({}), parse_options({"mode": "full"})
    ('quick', 'full')
    """
    mode = str(options.get("mode", "quick"))
    if mode not in MODES:
        raise IllegalAction("bad-option", f"mode={mode}")
    return mode


def new_game(seed: int, options: Mapping[str, Any]) -> KoaState:
    """A new match: the first starter is drawn at random from the seed (the first round
    is a prepared deal when the options give one).

    >>> state = new_game(7, {})
    >>> [len(hand) for hand in state.hands], len(state.arena), state.mode
    ([11, 11, 11, 11], 136, 'quick')
    """
    mode = parse_options(options)
    starter = rng(seed, "koa-starter").randrange(SEATS)
    prepared = prepared_deals(options, DECK)
    first = prepared[0] if prepared else None
    return deal_round(seed, mode, 1, starter, (0,) * SEATS, first)


def legal_actions(state: KoaState) -> tuple[KoaAction, ...]:
    """Every action the seat to act may take (the timeout is the table's, not listed)."""
    if state.phase == "take":
        if makan_problem(state) is None:
            return (Cabut(), Makan())
        return (Cabut(),)
    if state.phase == "throw":
        return tuple(Throw(card) for card in legal_throws(state))
    if state.phase == "round-over":
        return (NextRound(),)
    return ()


def to_act(state: KoaState) -> int | None:
    """The seat the match waits for (None once it is over)."""
    return None if state.phase == "match-over" else state.turn


def _end_round(
    state: KoaState, winner: int | None, card: str | None, events: list[Event]
) -> KoaState:
    marks = list(state.marks)
    if winner is not None:
        marks[winner] += 1
        events.append(Event("mark", winner))
    over = winner is not None and (state.mode == "quick" or marks[winner] >= PUTUIH)
    if winner is None:
        events.append(Event("arena-habis", state.turn))
        next_starter = next_seat(state.starter, SEATS)
    else:
        next_starter = winner
    if over:
        assert winner is not None
        events.append(Event("match-over", winner))
    result = RoundResult(
        round_no=state.round_no,
        winner=winner,
        card=card,
        drawer=state.turn if winner is not None else None,
        hands=state.hands,
        marks=tuple(marks),
    )
    return replace(
        state,
        marks=tuple(marks),
        phase="match-over" if over else "round-over",
        turn=next_starter,
        result=result,
        last_throw_open=False,
    )


def _cabut(state: KoaState, events: list[Event]) -> KoaState:
    seat = state.turn
    card = state.arena[0]
    watchers = tuple(s for s in range(SEATS) if s != seat and state.koa[s])
    hands = list(state.hands)
    hands[seat] = sort_cards((*hands[seat], card))
    state = replace(
        state,
        hands=tuple(hands),
        arena=state.arena[1:],
        draws=(*state.draws, Draw(seat, card, state.turn_no, watchers)),
        phase="throw",
        drawn=card,
        eaten=None,
        last_throw_open=False,
    )
    events.append(Event("cabut", seat, card))
    # The drawer first, then the others in turn order after the drawer.
    for claimant in (seat, *seats_after(seat, SEATS)):
        if card in state.koa[claimant]:
            events.append(Event("koa", claimant, card, other=seat))
            return _end_round(state, claimant, card, events)
    return state


def _makan(state: KoaState, events: list[Event]) -> KoaState:
    problem = makan_problem(state)
    if problem is not None:
        raise IllegalAction(problem)
    seat = state.turn
    latest = state.throws[-1]
    card = latest.card
    hands = list(state.hands)
    hands[seat] = sort_cards((*hands[seat], card))
    events.append(Event("makan", seat, card, other=latest.seat))
    bans = state.bans
    # No ban starts when either the eater or the thrower is already ceki.
    if not state.koa[seat] and not state.koa[latest.seat]:
        ban = Ban(latest.seat, seat, card)
        if ban not in bans:
            bans = (*bans, ban)
            events.append(Event("ban", seat, card, other=latest.seat))
    return replace(
        state,
        hands=tuple(hands),
        throws=(*state.throws[:-1], replace(latest, eaten_by=seat)),
        bans=bans,
        phase="throw",
        drawn=None,
        eaten=card,
        last_throw_open=False,
    )


def _throw(state: KoaState, card: str, events: list[Event]) -> KoaState:
    seat = state.turn
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("card-not-in-hand", card)
    if card not in legal_throws(state):
        if card == state.eaten:
            raise IllegalAction("throw-eaten-card", card)
        if hiu_forced(state, seat) and not is_hiu(card):
            raise IllegalAction("must-throw-hiu", card)
        raise IllegalAction("takabek", card)
    kept = remove_one(hand, card)
    hands = list(state.hands)
    hands[seat] = kept
    events.append(Event("throw", seat, card))
    was_ceki = bool(state.koa[seat])
    waits = koa_cards(kept)
    koa = list(state.koa)
    koa[seat] = waits
    bans = state.bans
    lifted = [ban for ban in bans if ban.eater == seat and ban.card == card]
    if waits and not was_ceki:
        events.append(Event("ceki", seat))
        lifted += [ban for ban in bans if seat in (ban.eater, ban.seat)]
    elif was_ceki and not waits:
        events.append(Event("not-ceki", seat))
    if lifted:
        for ban in dict.fromkeys(lifted):
            events.append(Event("ban-lifted", ban.eater, ban.card, other=ban.seat))
        bans = tuple(ban for ban in bans if ban not in lifted)
    state = replace(
        state,
        hands=tuple(hands),
        throws=(*state.throws, ThrowRecord(seat, card, state.turn_no)),
        koa=tuple(koa),
        bans=bans,
        drawn=None,
        eaten=None,
        last_throw_open=True,
    )
    if not state.arena:
        # Arena habis: the turn that drew the last card ended without a koa.
        return _end_round(state, None, None, events)
    return replace(state, turn=next_seat(seat, SEATS), turn_no=state.turn_no + 1, phase="take")


def _next_round(state: KoaState) -> KoaState:
    fresh = deal_round(state.seed, state.mode, state.round_no + 1, state.turn, state.marks)
    # The view shows the last round's summary (not its hands) during the next round.
    return replace(fresh, result=state.result)


def timeout_throw(state: KoaState) -> str:
    """The card the table throws for a seat whose timer ran out."""
    legal = legal_throws(state)
    if state.drawn is not None and state.drawn in legal:
        return state.drawn
    return min(legal, key=INDEX.__getitem__)


def timeout_action(state: KoaState) -> KoaAction:
    """What the table plays when the seat's timer runs out (completes the turn)."""
    return Timeout()


def apply(state: KoaState, action: KoaAction) -> KoaState:
    """The state after the seat to act plays ``action``.

    >>> from webapp.game.koa.state import deal_from
    >>> hands = [[card] * 11 for card in ("babi-pusek", "tali-merah", "sisir-halus", "tali-bulat")]
    >>> state = apply(deal_from(hands, ["jarum-wajik"] * 8), Cabut())
    >>> state.phase, state.drawn
    ('throw', 'jarum-wajik')
    >>> apply(state, Makan())
    Traceback (most recent call last):
    ...
    webapp.game.protocol.IllegalAction: wrong-phase
    """
    events: list[Event] = []
    if state.phase == "match-over":
        raise IllegalAction("match-over")
    if isinstance(action, NextRound | Timeout) and state.phase == "round-over":
        return _next_round(state)
    if isinstance(action, NextRound):
        raise IllegalAction("wrong-phase")
    if state.phase == "round-over":
        raise IllegalAction("round-over")
    if isinstance(action, Timeout):
        if state.phase == "take":
            state = _cabut(state, events)
        if state.phase == "throw":
            state = _throw(state, timeout_throw(state), events)
    elif isinstance(action, Cabut):
        if state.phase != "take":
            raise IllegalAction("wrong-phase")
        state = _cabut(state, events)
    elif isinstance(action, Makan):
        state = _makan(state, events)
    elif isinstance(action, Throw):
        if state.phase != "throw":
            raise IllegalAction("wrong-phase")
        state = _throw(state, action.card, events)
    else:
        raise IllegalAction("bad-action", str(action))
    return replace(state, events=tuple(events))


class Ending(Reason):
    """How a Koa match ends: a koa in a quick match, or the putuih (docs/rules.md)."""

    KOA = "koa"
    PUTUIH = "putuih"


def outcome(state: KoaState) -> Outcome | None:
    """The match result once it is over: the koa winner's team wins."""
    if state.phase != "match-over" or state.result is None or state.result.winner is None:
        return None
    winner = state.result.winner
    team = tuple(sorted((winner, next_seat(winner, SEATS, 2))))
    return Outcome(
        winners=team,
        points=state.marks,
        reason=Ending.KOA if state.mode == "quick" else Ending.PUTUIH,
        detail={
            "rounds": state.round_no,
            "mode": state.mode,
            "winner": winner,
            "card": state.result.card,
        },
    )
