"""Koa hints: why the expert's move is good, read from the seat's view and the search.

Every reason is about the hand the move leaves (its koa cards and how many copies of them
may still come, or how far it is from ceki), or about the take (makan or cabut); the
search's figure (the share of deals the move won) goes along.
"""

from __future__ import annotations

from webapp.game.koa.actions import Cabut, KoaAction, Makan, Throw
from webapp.game.koa.bots import seen_elsewhere
from webapp.game.koa.cards import COPIES, INDEX, TYPES, counts
from webapp.game.koa.hand import distance
from webapp.game.koa.oracle import koa_indexes
from webapp.game.koa.view import KoaView
from webapp.game.search import Advice, Found


def _live(view: KoaView, hand: tuple[int, ...]) -> list[int]:
    """Copies of each type that may still come: not in ``hand`` and not seen elsewhere."""
    seen = seen_elsewhere(view, True)
    return [max(0, COPIES - hand[i] - seen[i]) for i in range(len(TYPES))]


def explain(view: KoaView, found: Found[KoaAction]) -> Advice:
    """The reason for ``found.action`` at ``view``."""
    action = found.action
    if isinstance(action, Makan):
        return found.advice("makan-closer")
    if isinstance(action, Cabut):
        return found.advice("cabut-better")
    assert isinstance(action, Throw)
    hand = list(counts(view.hand))
    hand[INDEX[action.card]] -= 1
    kept = tuple(hand)
    waits = koa_indexes(kept)
    if waits:
        live = _live(view, kept)
        return found.advice("ceki-waits", count=sum(live[i] for i in waits))
    return found.advice("ceki-distance", count=distance(kept))
