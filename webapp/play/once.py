"""What a table's render works out once rather than for every seat and every move: the
catalogue's words for its cards and refusals (each a few lookups through Flask-Babel),
and the memos of what it made (:class:`Remembered`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask_babel import get_locale

from webapp.channels import RENDER_LANGUAGE

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Words said, by kind and language: the catalogues do not change while a process runs.
SAID: dict[tuple[str, str], dict[Hashable, Any]] = {}


def language() -> str:
    """The language words are said in now: a move's render's, else Flask-Babel's."""
    return RENDER_LANGUAGE.get() or str(get_locale())


def said(kind: str, key: Hashable, words: Callable[[], T]) -> T:
    """``words()`` for ``key`` in the current language (translated text only: nothing
    that depends on anything else), said once for the life of the process."""
    done = SAID.setdefault((kind, language()), {})
    if key not in done:
        done[key] = words()
    found: T = done[key]
    return found


class Remembered(dict[K, V]):
    """A memo that starts again when full.  What a render remembers (a hand's row, a
    table's address, a filled-in sentence) comes back within a few moves, so forgetting
    it all past a bound costs each one a single remaking, and memory stays bounded
    however many tables, names and languages pass through the process."""

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (forgetting everything first when full)."""
        if len(self) >= self.most:
            self.clear()
        self[key] = value
        return value
