"""Kowah's actions and their text forms (the action log's format).

A turn is take (``draw`` the stock's top, or ``take`` the latest discard), then
``discard``; a discard that leaves 8 checki cards may declare at once, naming the pair to
expose (``discard X declare P``).
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.actions import OnCard, Timeout, Word, parser
from webapp.game.kowah.cards import ORDER
from webapp.game.protocol import IllegalAction


@dataclass(frozen=True)
class Draw(Word):
    """Draw the top card of the stock."""

    word = "draw"


@dataclass(frozen=True)
class Take(Word):
    """Take the latest discard (the card the previous player just discarded)."""

    word = "take"


@dataclass(frozen=True)
class Discard(OnCard):
    """Discard one card of this type face up; with ``declare``, declare checki at once,
    exposing the pair of that type (the 8 cards kept must be checki)."""

    verb = "discard"
    declare: str | None = None

    def __str__(self) -> str:
        plain = super().__str__()
        return plain if self.declare is None else f"{plain} {DECLARE} {self.declare}"


#: The word joining a discard and the pair it declares, in the text form.
DECLARE = "declare"

KowahAction = Draw | Take | Discard | Timeout

_parse = parser([Draw, Take, Discard, Timeout], ORDER)


def parse_action(text: str) -> KowahAction:
    """An action from its text form (the log format).

    >>> parse_action("discard coins-5")
    Discard(card='coins-5', declare=None)
    >>> str(parse_action("discard coins-5 declare red-flower"))
    'discard coins-5 declare red-flower'
    """
    discard, joined, pair = text.partition(f" {DECLARE} ")
    action: KowahAction = _parse(discard)
    if not joined:
        return action
    if not isinstance(action, Discard):
        raise IllegalAction("bad-action", text)
    if pair not in ORDER:
        raise IllegalAction("unknown-card", text)
    return Discard(action.card, pair)
