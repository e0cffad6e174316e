"""Kowah's rules (docs/rules.md §2): the deal, legal actions and the pure transition ``apply``.

A turn is take (draw the stock's top, or take the latest discard), then discard; a discard
that leaves 8 checki cards may declare at once, naming the pair to expose (``discard X
declare P``). The choice rides on the discard, so no step ever waits on a seat after it
discarded: others could tell from that wait that the hand is checki (issue #15). Declared
seats have no choices left, so their turns (draw; discard that card unless it wins) are
played automatically as soon as they come up. Winning cards are claimed automatically the
moment they are drawn or discarded.
Decisions where docs/rules.md is silent: copies of a type are indistinguishable, so a taken type
may not be discarded in the same turn even when another copy is held; the deal ends drawn at
once when the draw that empties the stock wins nothing (the drawer does not discard); the
winning card joins the winner's hand; the turn timer draws if nothing was taken, discards
the drawn card (or else the first legal card in canonical order), and declares with the first
exposable pair in canonical order when the hand left is checki, as the bots would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from webapp.game.actions import Timeout
from webapp.game.deck import next_seat, prepared_deals, remove_one, rng, shuffled
from webapp.game.kowah.actions import Discard, Draw, KowahAction, Take
from webapp.game.kowah.cards import DECK, sort_cards
from webapp.game.kowah.oracle import MULTIPLIER, Ending, checki_pairs, claimant, win_reason
from webapp.game.kowah.state import (
    DEFAULT_PLAYERS,
    HAND_SIZE,
    PLAYER_COUNTS,
    Event,
    KowahState,
    Phase,
    PileCard,
)
from webapp.game.protocol import IllegalAction, Outcome


def new_game(seed: int, options: Mapping[str, Any]) -> KowahState:
    """Shuffle (or take the prepared deal), deal 8 to each player and pick the first
    player from the seed.

    >>> state = new_game(1, {"players": 4})
    >>> [len(hand) for hand in state.hands], len(state.stock), state.phase
    ([8, 8, 8, 8], 88, 'take')
    """
    players = options.get("players", DEFAULT_PLAYERS)
    if players not in PLAYER_COUNTS:
        raise IllegalAction("bad-players", str(players))
    prepared = prepared_deals(options, DECK)
    order = prepared[0] if prepared else shuffled(DECK, seed, "kowah", "deal")
    hands = tuple(
        sort_cards(order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)
    )
    first = rng(seed, "kowah", "first").randrange(players)
    return KowahState(
        seed=seed,
        players=players,
        hands=hands,
        stock=order[players * HAND_SIZE :],
        pile=(),
        exposed=(None,) * players,
        known=((),) * players,
        turn=first,
        phase="take",
        drawn=None,
        taken=None,
        events=(Event("start", first),),
    )


def legal_actions(state: KowahState) -> tuple[KowahAction, ...]:
    """The actions the acting seat may choose now (the timer's "timeout" is not among them).

    >>> legal_actions(new_game(1, {}))
    (Draw(),)
    """
    seat = state.turn
    if state.phase == "take":
        if state.pile and state.exposed[seat] is None:
            return (Draw(), Take())
        return (Draw(),)
    if state.phase == "discard":
        if state.exposed[seat] is not None and state.drawn is not None:
            return (Discard(state.drawn),)
        hand = state.hands[seat]
        return tuple(
            action
            for card in dict.fromkeys(hand)
            if card != state.taken
            for action in (
                Discard(card),
                *(Discard(card, pair) for pair in _pairs_left(hand, card)),
            )
        )
    return ()


def _pairs_left(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The pairs the hand left by discarding ``card`` may expose, in canonical order."""
    return sort_cards(list(checki_pairs(remove_one(hand, card))))


def to_act(state: KowahState) -> int | None:
    """The seat whose decision the deal waits for (``None`` once it is over)."""
    return None if state.phase == "over" else state.turn


def outcome(state: KowahState) -> Outcome | None:
    """How the deal ended, or ``None`` while it goes on."""
    return state.result


def apply(state: KowahState, action: KowahAction) -> KowahState:
    """The state after the acting seat's ``action``; raises ``IllegalAction`` with a reason.

    >>> state = apply(new_game(1, {}), Draw())
    >>> state.phase, len(state.hands[state.turn])
    ('discard', 9)
    """
    if state.phase == "over":
        raise IllegalAction("game-over")
    if isinstance(action, Timeout):
        return _timeout(state)
    if isinstance(action, Draw):
        _need_phase(state, "take")
        return _draw(state)
    if isinstance(action, Take):
        return _take(state)
    if isinstance(action, Discard):
        return _discard(state, action.card, action.declare)
    raise IllegalAction("bad-action", repr(action))


def timeout_action(state: KowahState) -> KowahAction:
    """The action the table plays when the acting seat's timer runs out."""
    return Timeout()


def _need_phase(state: KowahState, phase: Phase) -> None:
    if state.phase != phase:
        raise IllegalAction("wrong-phase", f"{state.phase}, not {phase}")


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` less one copy of ``card`` when present (known cards are a lower bound)."""
    return remove_one(cards, card) if card in cards else cards


def _win(state: KowahState, winner: int, card: str, source: int, drawn: bool) -> KowahState:
    """End the deal: ``winner`` claims ``card`` from the drawer's hand or the pile."""
    reason = win_reason(winner, source, drawn)
    hands, pile, known = state.hands, state.pile, state.known
    if winner != source or not drawn:
        if drawn:
            hands = _set(hands, source, remove_one(hands[source], card))
            known = _set(known, source, _without(known[source], card))
        else:
            pile = pile[:-1]
        hands = _set(hands, winner, sort_cards(hands[winner] + (card,)))
    multiplier = MULTIPLIER[reason]
    result = Outcome(
        winners=(winner,),
        points=tuple(multiplier if seat == winner else 0 for seat in range(state.players)),
        reason=reason,
        detail={
            "card": card,
            "pair": state.exposed[winner],
            "multiplier": multiplier,
            "source": source,
        },
    )
    event = Event("win", winner, card, source=source, reason=reason)
    return replace(
        state,
        hands=hands,
        pile=pile,
        known=known,
        phase="over",
        events=state.events + (event,),
        result=result,
    )


def _draw(state: KowahState) -> KowahState:
    seat = state.turn
    card, stock = state.stock[0], state.stock[1:]
    public = state.public_draws
    known = (
        _set(state.known, seat, sort_cards(state.known[seat] + (card,))) if public else state.known
    )
    state = replace(
        state,
        hands=_set(state.hands, seat, sort_cards(state.hands[seat] + (card,))),
        stock=stock,
        known=known,
        phase="discard",
        drawn=card,
        events=state.events + (Event("draw", seat, card, public=public),),
    )
    winner = claimant(card, seat, state.exposed, drawn=True)
    if winner is not None:
        return _win(state, winner, card, seat, drawn=True)
    if not stock:
        result = Outcome(winners=(), points=(0,) * state.players, reason=Ending.STOCK_OUT)
        return replace(
            state,
            phase="over",
            events=state.events + (Event("stock-out", seat),),
            result=result,
        )
    return state


def _take(state: KowahState) -> KowahState:
    _need_phase(state, "take")
    seat = state.turn
    if state.exposed[seat] is not None:
        raise IllegalAction("hand-locked")
    if not state.pile:
        raise IllegalAction("no-discard")
    card = state.pile[-1].card
    return replace(
        state,
        hands=_set(state.hands, seat, sort_cards(state.hands[seat] + (card,))),
        pile=state.pile[:-1],
        known=_set(state.known, seat, sort_cards(state.known[seat] + (card,))),
        phase="discard",
        taken=card,
        events=state.events + (Event("take", seat, card),),
    )


def _discard(state: KowahState, card: str, declare: str | None) -> KowahState:
    _need_phase(state, "discard")
    seat = state.turn
    if card not in state.hands[seat]:
        raise IllegalAction("card-not-in-hand", card)
    if state.exposed[seat] is not None and card != state.drawn:
        raise IllegalAction("hand-locked", card)
    if card == state.taken:
        raise IllegalAction("discard-just-taken", card)
    if declare is not None and declare not in _pairs_left(state.hands[seat], card):
        raise IllegalAction("pair-not-exposable", declare)
    state = _lay_down(state, card)
    if state.phase == "over":
        return state
    if declare is not None:
        state = _declare(state, declare)
    return _end_turn(state)


def _declare(state: KowahState, pair: str) -> KowahState:
    """The acting seat locks its hand, exposing ``pair`` (checked by the caller)."""
    seat = state.turn
    known = tuple(other for other in state.known[seat] if other != pair)
    return replace(
        state,
        exposed=_set(state.exposed, seat, pair),
        known=_set(state.known, seat, known),
        events=state.events + (Event("declare", seat, pair),),
    )


def _end_turn(state: KowahState) -> KowahState:
    """Pass the turn on, playing the locked turns of declared seats as they come up."""
    while True:
        state = replace(
            state,
            turn=next_seat(state.turn, state.players),
            phase="take",
            drawn=None,
            taken=None,
        )
        if state.exposed[state.turn] is None:
            return state
        state = _draw(state)
        if state.phase == "over":
            return state
        assert state.drawn is not None
        state = _lay_down(state, state.drawn)
        if state.phase == "over":
            return state


def _lay_down(state: KowahState, card: str) -> KowahState:
    """The acting seat discards ``card`` face up; a seat waiting on it wins at once."""
    seat = state.turn
    state = replace(
        state,
        hands=_set(state.hands, seat, remove_one(state.hands[seat], card)),
        pile=state.pile + (PileCard(seat, card),),
        known=_set(state.known, seat, _without(state.known[seat], card)),
        events=state.events + (Event("discard", seat, card),),
    )
    winner = claimant(card, seat, state.exposed, drawn=False)
    if winner is not None:
        return _win(state, winner, card, seat, drawn=False)
    return state


def _timeout(state: KowahState) -> KowahState:
    if state.phase == "take":
        state = _draw(state)
        if state.phase == "over":
            return state
    if state.phase == "discard":
        # Legal discards come in canonical order: the drawn card, else the first of them;
        # a hand left checki declares with its first pair.
        card = state.drawn
        if card is None:
            card = next(a.card for a in legal_actions(state) if isinstance(a, Discard))
        pairs = () if state.exposed[state.turn] else _pairs_left(state.hands[state.turn], card)
        state = _discard(state, card, pairs[0] if pairs else None)
    return state
