"""One structured log line per request (see webapp/logs.py): what was asked, the answer,
how long it took, how many bytes went back, and to whom.

- The path is logged without its query string, which may carry a sign-in code or a
  ``next`` address, and with any room's code masked: a code is the key to its room
  (anyone holding it may sit down), so a log reader must not learn it.  Table ids stay:
  they only let someone watch, never play, and they are what a bug report names.
- The client's address is the one ``LAPAU_PROXIES`` lets through (webapp/edge.py).
- Left out when they succeed: static files (content-hashed and cached for a year, they
  repeat what the page's own line says), ``/healthz`` (a platform asks every few
  seconds), and upgraded WebSockets (their sessions have lines of their own).  Any of
  them failing is logged.
"""

from __future__ import annotations

import re
import time
from typing import Any

from flask import Flask, Response, g, request, request_finished, request_started

from webapp import logs
from webapp.health import PATH as HEALTH_PATH

#: The segment after ``/room/`` is a room's code unless it is one of the fixed words.
ROOM_CODE = re.compile(r"(/room/)(?!(?:new|join|again)(?:/|$))[^/]+")
MAX_AGENT = 200


def logged_path(path: str) -> str:
    """
    >>> logged_path("/en/room/ABCDEF/join"), logged_path("/ws/room/abcdef")
    ('/en/room/*/join', '/ws/room/*')
    >>> logged_path("/en/room/join"), logged_path("/en/room/again/t1"), logged_path("/en/room/")
    ('/en/room/join', '/en/room/again/t1', '/en/room/')
    """
    return ROOM_CODE.sub(r"\1*", path)


def worth_logging(path: str, status: int) -> bool:
    if status >= 400:
        return True
    upgraded = request.headers.get("Upgrade", "").lower() == "websocket"
    return not (upgraded or path == HEALTH_PATH or path.startswith("/static/"))


def started(_app: Flask, **_extra: Any) -> None:
    g.request_started = time.perf_counter()


def finished(_app: Flask, response: Response, **_extra: Any) -> None:
    if not worth_logging(request.path, response.status_code):
        return
    began = g.get("request_started", time.perf_counter())
    logs.event(
        "request",
        method=request.method,
        path=logged_path(request.path),
        status=response.status_code,
        ms=round((time.perf_counter() - began) * 1000, 1),
        bytes=response.calculate_content_length(),
        client=request.remote_addr,
        agent=request.user_agent.string[:MAX_AGENT],
    )


def init_app(app: Flask) -> None:
    request_started.connect(started, app)
    request_finished.connect(finished, app)
