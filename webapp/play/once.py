"""What a table's render works out once rather than for every seat and every move: the
catalogue's words for its cards and refusals (each a few lookups through Flask-Babel),
and the address its forms post to (a lookup in the URL map)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import g
from flask_babel import get_locale

T = TypeVar("T")

#: Words said, by kind and language: the catalogues do not change while a process runs.
SAID: dict[tuple[str, str], dict[Hashable, Any]] = {}


def said(kind: str, key: Hashable, words: Callable[[], T]) -> T:
    """``words()`` for ``key`` in the current language (translated text only: nothing
    that depends on anything else), said once for the life of the process."""
    done = SAID.setdefault((kind, str(get_locale())), {})
    if key not in done:
        done[key] = words()
    found: T = done[key]
    return found


def once(kind: str, key: Hashable, work: Callable[[], T]) -> T:
    """``work()`` for ``key``, remembered in this app context: one request, or one
    language's render of a move (webapp/channels.py)."""
    done: dict[Hashable, T] = g.setdefault(kind, {})
    if key not in done:
        done[key] = work()
    return done[key]
