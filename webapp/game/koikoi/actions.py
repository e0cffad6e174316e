"""Koi-Koi's actions and their text forms (the action log's format).

``str()`` of an action is its log form and ``parse_action`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.actions import NextRound, OnCard, Timeout, Word, parser
from webapp.game.koikoi.cards import MONTH


@dataclass(frozen=True)
class Play(OnCard):
    """Play a hand card to the field (capturing what its month takes)."""

    verb = "play"


@dataclass(frozen=True)
class Take(OnCard):
    """Choose which of two same-month field cards the pending card captures."""

    verb = "take"


@dataclass(frozen=True)
class Stop(Word):
    """End the round now and score the yaku formed."""

    word = "stop"


@dataclass(frozen=True)
class KoiKoi(Word):
    """Play on for more (the round's only koi-koi call)."""

    word = "koikoi"


#: Koi-Koi calls dealing the next round "next", as the other games do.
Next = NextRound

KoikoiAction = Play | Take | Stop | KoiKoi | Next | Timeout

_parse = parser([Play, Take, Stop, KoiKoi, Next, Timeout], MONTH)


def parse_action(text: str) -> KoikoiAction:
    """The action written as ``text`` (its log form).

    >>> parse_action("play jan-crane")
    Play(card='jan-crane')
    >>> str(parse_action("take mar-plain-1"))
    'take mar-plain-1'
    >>> parse_action("koikoi")
    KoiKoi()
    """
    action: KoikoiAction = _parse(text)
    return action
