"""Rate limits on the forms worth hammering, declared on the views they limit.

A view states its limit where it is defined, under its route::

    @bp.post("/sign-in")
    @rate_limited("10/minute")                    # per client address
    @rate_limited("10/minute", key=account_key)   # and per account, from any address
    def sign_in() -> ...

Only its POSTs are counted.  :func:`bind`, the last step of ``create_app``, wraps every
declared view of the app in Flask-Limiter's check, so a view keeps its limit whichever
blueprint or order registers it.  The counts are kept in memory when the site runs as one
process, and in Redis when several share it (``REDIS_URL``): a client is counted once
whichever process answers it.  Should Redis be away, each process counts in memory
meanwhile (Flask-Limiter's fallback) rather than fail the form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

#: Who a limit counts: by default the client's address.
Key = Callable[[], str]
View = TypeVar("View", bound=Callable[..., Any])


@dataclass(frozen=True)
class Declared:
    limit: str
    key: Key | None = None


#: Each declared view's limits, in the order they are written above it.
DECLARED: dict[Callable[..., Any], list[Declared]] = {}


def rate_limited(limit: str, key: Key | None = None) -> Callable[[View], View]:
    """Limit the view's POSTs to ``limit`` (``"10/minute"``) per client address, or per
    what ``key`` returns."""

    def declare(view: View) -> View:
        # Decorators apply from the bottom up: the one written first goes first.
        DECLARED.setdefault(view, []).insert(0, Declared(limit, key))
        return view

    return declare


def make_limiter(redis_url: str | None = None) -> Limiter:
    """The site's limiter: counting in Redis at ``redis_url``, else in memory."""
    if redis_url is None:
        return Limiter(get_remote_address, storage_uri="memory://", headers_enabled=True)
    return Limiter(
        get_remote_address,
        storage_uri=redis_url,
        headers_enabled=True,
        key_prefix="lapau-limits",
        in_memory_fallback_enabled=True,
    )


def bind(app: Flask, limiter: Limiter) -> None:
    """Bind ``limiter`` to ``app`` and put it in front of every declared view."""
    limiter.init_app(app)
    for endpoint, view in list(app.view_functions.items()):
        limited: Any = view
        for declared in DECLARED.get(view, []):
            check = limiter.limit(declared.limit, key_func=declared.key, methods=["POST"])
            limited = check(limited)
        app.view_functions[endpoint] = limited
