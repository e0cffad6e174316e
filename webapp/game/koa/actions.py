"""Koa's actions and their text forms, which are also the action log's format.

An action never names its seat: it is always played by the seat the game waits for, so a
log is just the sequence of texts.  ``parse_action`` is the exact inverse of ``str``.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.koa.cards import INDEX
from webapp.game.protocol import IllegalAction


@dataclass(frozen=True)
class Cabut:
    """Draw the top card of the arena."""

    def __str__(self) -> str:
        return "cabut"


@dataclass(frozen=True)
class Makan:
    """Take the latest throw of the player on your left (seat - 1)."""

    def __str__(self) -> str:
        return "makan"


@dataclass(frozen=True)
class Throw:
    """Throw one card of this type face up."""

    card: str

    def __str__(self) -> str:
        return f"throw {self.card}"


@dataclass(frozen=True)
class NextRound:
    """Deal the next round once everyone has seen the last one's result."""

    def __str__(self) -> str:
        return "next"


@dataclass(frozen=True)
class Timeout:
    """The turn timer ran out: the table completes the seat's turn by a fixed rule."""

    def __str__(self) -> str:
        return "timeout"


KoaAction = Cabut | Makan | Throw | NextRound | Timeout

_SIMPLE: dict[str, KoaAction] = {
    "cabut": Cabut(),
    "makan": Makan(),
    "next": NextRound(),
    "timeout": Timeout(),
}


def parse_action(text: str) -> KoaAction:
    """The action written as ``text`` (``IllegalAction("bad-action")`` when malformed).

    >>> parse_action("throw babi-pusek")
    Throw(card='babi-pusek')
    >>> str(parse_action("cabut"))
    'cabut'
    """
    simple = _SIMPLE.get(text)
    if simple is not None:
        return simple
    verb, _, card = text.partition(" ")
    if verb == "throw" and card in INDEX:
        return Throw(card)
    raise IllegalAction("bad-action", text)
