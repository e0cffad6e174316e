"""Koi-Koi hints: why the expert's move is good, read from the seat's view and the search.

Stopping names the opponent's nearest yaku when they are one card from it; a capture names
the card it takes that counts towards the most yaku still open to the player (or that the
opponent needs); the search's figure is the points the move scored on average.
"""

from __future__ import annotations

from webapp.game.koikoi.actions import KoiKoi, KoikoiAction, Play, Stop, Take
from webapp.game.koikoi.oracle import COUNT_YAKU, SET_YAKU
from webapp.game.koikoi.rules import matches
from webapp.game.koikoi.view import KoikoiView
from webapp.game.search import Advice, Found


def _open_yaku(card: str, theirs: set[str]) -> int:
    """How many yaku ``card`` counts towards that the opponent has not made impossible
    (Plains left out: every plain counts for it, which says nothing about the card)."""
    sets = sum(card in cards and not cards & theirs for cards in SET_YAKU.values())
    counted = (pool for slug, (pool, _) in COUNT_YAKU.items() if slug != "plains")
    return sets + sum(card in pool for pool in counted)


def _taken(view: KoikoiView, action: KoikoiAction) -> list[str]:
    """The cards ``action`` captures for sure (a play matching two field cards chooses later)."""
    if isinstance(action, Take):
        assert view.pending is not None
        return [action.card, view.pending.card]
    if isinstance(action, Play):
        found = matches(view.field, action.card)
        return [action.card, *found] if len(found) in (1, 3) else []
    return []


def explain(view: KoikoiView, found: Found[KoikoiAction]) -> Advice:
    """The reason for ``found.action`` at ``view``."""
    action = found.action
    assert view.seat is not None
    near = view.near[1 - view.seat]
    if isinstance(action, Stop):
        close = [progress for progress in near if progress.missing == 1]
        if close:
            return found.advice("stop-threat", slug=close[0].slug)
        return found.advice("stop-bank")
    if isinstance(action, KoiKoi):
        return found.advice("koikoi-more")
    pile = view.captured[1 - view.seat]
    theirs = {*pile.lights, *pile.animals, *pile.ribbons, *pile.plains}
    taken = _taken(view, action)
    if taken:
        best = max(taken, key=lambda card: _open_yaku(card, theirs))
        count = _open_yaku(best, theirs)
        if count:
            return found.advice("takes-yaku", count=count, card=best)
        return found.advice("takes", card=taken[0])
    return found.advice("lays-down")
