"""Koa's actions and their text forms, which are also the action log's format.

An action never names its seat: it is always played by the seat the game waits for, so a
log is just the sequence of texts.  ``parse_action`` is the exact inverse of ``str``
(see :mod:`webapp.game.actions`).

>>> parse_action("throw babi-pusek")
Throw(card='babi-pusek')
>>> str(parse_action("cabut"))
'cabut'

"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.actions import NextRound, OnCard, Timeout, Word, parser
from webapp.game.koa.cards import INDEX

__all__ = ["Cabut", "KoaAction", "Makan", "NextRound", "Throw", "Timeout", "parse_action"]


@dataclass(frozen=True)
class Cabut(Word):
    """Draw the top card of the arena."""

    word = "cabut"


@dataclass(frozen=True)
class Makan(Word):
    """Take the latest throw of the player on your left (seat - 1)."""

    word = "makan"


@dataclass(frozen=True)
class Throw(OnCard):
    """Throw one card of this type face up."""

    verb = "throw"


KoaAction = Cabut | Makan | Throw | NextRound | Timeout

_parse = parser([Cabut, Makan, Throw, NextRound, Timeout], INDEX)


def parse_action(text: str) -> KoaAction:
    """The action written as ``text``; :class:`IllegalAction` when it is none."""
    action: KoaAction = _parse(text)
    return action
