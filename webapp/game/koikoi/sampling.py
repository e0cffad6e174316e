"""Koi-Koi for the expert's search: a match state behind a seat's view, and a round's value.

``sample`` deals the cards the view does not show (the other hand and the stock) at random;
everything else is copied from the view.  ``settled`` scores the round for the searching
seat once it is over: the points won, negative when the opponent won them.
"""

from __future__ import annotations

import random

from webapp.game.koikoi.bots import _cards
from webapp.game.koikoi.cards import DECK, sort_cards
from webapp.game.koikoi.state import KoikoiState
from webapp.game.koikoi.view import KoikoiView
from webapp.game.search import unseen


def _this_turn(view: KoikoiView) -> list[str]:
    """The cards the seat in turn has captured since it played its hand card, in order."""
    recent: list[str] = []
    if view.phase == "play":
        return recent
    for event in reversed(view.events):
        if event.seat == view.turn and event.kind == "play":
            break
        if event.seat == view.turn and event.kind == "capture":
            recent[:0] = event.cards
    return recent


def _piles(view: KoikoiView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both piles, the mover's with this turn's captures last (the rules compare yaku before)."""
    recent = _this_turn(view)
    piles = [_cards(view.captured[0]), _cards(view.captured[1])]
    older = tuple(card for card in piles[view.turn] if card not in recent)
    piles[view.turn] = (*older, *recent)
    return piles[0], piles[1]


def sample(view: KoikoiView, rng: random.Random) -> KoikoiState:
    """A state consistent with ``view``: the unseen cards dealt to the other hand and stock."""
    assert view.seat is not None
    other = 1 - view.seat
    seen = {*view.hand, *view.field, *_cards(view.captured[0]), *_cards(view.captured[1])}
    if view.pending is not None:
        seen.add(view.pending.card)
    pool = unseen(DECK, seen, rng)
    size = view.hand_counts[other]
    hands = [view.hand, view.hand]
    hands[other] = sort_cards(pool[:size])
    piles = _piles(view)
    return KoikoiState(
        seed=0,
        rounds=view.rounds,
        number=view.round,
        scores=view.scores,
        results=view.history,
        starter_draw=view.starter_draw,
        starter=view.starter,
        redeals=view.redeals,
        hands=(hands[0], hands[1]),
        field=view.field,
        stock=tuple(pool[size:]),
        captured=piles,
        phase=view.phase,
        turn=view.turn,
        pending=view.pending,
        turn_start=len(piles[view.turn]) - len(_this_turn(view)),
        koikoi=view.koikoi,
        events=view.events,
        event_count=view.event_count,
        house=view.house,
        calls=view.calls,
    )


def settled(state: KoikoiState, seat: int) -> float | None:
    """Points the seat won in the round just over (negative: the opponent's), else None."""
    if state.phase not in ("round-over", "match-over"):
        return None
    result = state.results[-1]
    if result.winner is None:
        return 0.0
    return float(result.points if result.winner == seat else -result.points)
