"""Kowah hints: why the expert's move is good, read from the seat's view and the search.

A discard that declares names the winning card and its copies still to come; a discard
that keeps a declared seat's winning card in hand says so; otherwise the reason is how
close to checki the hand left is, or why the take was worth it (or not).
"""

from __future__ import annotations

from webapp.game.kowah.actions import Discard, KowahAction, Take
from webapp.game.kowah.bots import _live
from webapp.game.kowah.cards import ORDER, TYPES
from webapp.game.kowah.rollout import missing
from webapp.game.kowah.view import KowahView
from webapp.game.search import Advice, Found


def explain(view: KowahView, found: Found[KowahAction]) -> Advice:
    """The reason for ``found.action`` at ``view``."""
    action = found.action
    if isinstance(action, Take):
        return found.advice("take-closer")
    if not isinstance(action, Discard):
        return found.advice("draw-better")
    if action.declare is not None:
        live = _live(view, True)[ORDER[action.declare]]
        return found.advice("declare", count=live, card=action.declare)
    waited = {
        seat.exposed for seat in view.seats if seat.exposed is not None and seat.seat != view.seat
    }
    kept = [card for card in view.hand if card in waited and card != action.card]
    if kept:
        return found.advice("keeps-danger", card=kept[0])
    held = [0] * len(TYPES)
    for card in view.hand:
        held[ORDER[card]] += 1
    held[ORDER[action.card]] -= 1
    return found.advice("checki-distance", count=missing(held))
