"""The two shapes every game's actions take, their text forms and the parser of those.

An action is a single word (``cabut``, ``stop``, ``next``) or a verb on one card
(``throw babi-pusek``, ``play jan-crane``); its text is the action log's format and what
a move button sends.  An action never names its seat: the game knows who is to act.
Each game declares its actions as small subclasses and gets its ``parse_action`` from
:func:`parser`, the exact inverse of ``str``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from webapp.game.protocol import IllegalAction


@dataclass(frozen=True)
class Word:
    """An action written as one word, named by the subclass's ``word``."""

    word: ClassVar[str]

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class OnCard:
    """An action on one card, written ``verb card``; the subclass names the ``verb``."""

    verb: ClassVar[str]
    card: str

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


@dataclass(frozen=True)
class NextRound(Word):
    """Deal the next round once everyone has seen the last one's result."""

    word = "next"


@dataclass(frozen=True)
class Timeout(Word):
    """The turn timer ran out: the table completes the seat's turn by the game's fixed rule."""

    word = "timeout"


def parser(
    kinds: Iterable[type[Word] | type[OnCard]], cards: Container[str]
) -> Callable[[str], Any]:
    """The parser of a game's action texts, given its action classes and card ids.

    It refuses with ``IllegalAction("bad-action")`` what is no action, and with
    ``"unknown-card"`` a known verb on a card the game does not have.

    >>> @dataclass(frozen=True)
    ... class Play(OnCard):
    ...     verb = "play"
    >>> parse = parser([Play, Timeout], {"jan-crane"})
    >>> parse("play jan-crane"), parse("timeout")
    (Play(card='jan-crane'), Timeout())
    >>> parse("play moon")
    Traceback (most recent call last):
    ...
    webapp.game.protocol.IllegalAction: unknown-card: play moon
    """
    words: dict[str, Word] = {}
    verbs: dict[str, type[OnCard]] = {}
    for kind in kinds:
        if issubclass(kind, Word):
            words[kind.word] = kind()
        else:
            verbs[kind.verb] = kind

    def parse_action(text: str) -> Word | OnCard:
        if text in words:
            return words[text]
        verb, _, card = text.partition(" ")
        if verb not in verbs or not card:
            raise IllegalAction("bad-action", text)
        if card not in cards:
            raise IllegalAction("unknown-card", text)
        return verbs[verb](card)

    return parse_action
