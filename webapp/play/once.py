"""What a render works out once for all its seats: a move's render names the same cards,
refuses the same moves and posts to the same address for every seat of one language,
and each of those is a few catalogue or URL-map lookups."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import g

T = TypeVar("T")


def once(kind: str, key: Hashable, work: Callable[[], T]) -> T:
    """``work()`` for ``key``, remembered in this app context: one request, or one
    language's render of a move (webapp/channels.py), so one language either way."""
    done: dict[Hashable, T] = g.setdefault(kind, {})
    if key not in done:
        done[key] = work()
    return done[key]
