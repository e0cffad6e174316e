"""The edge of the site: whom a request comes from, and how much of the one worker a single
client may hold, and for how long.

One gevent worker serves everybody through a fixed number of connections (the Procfile's
``--worker-connections 2000``).  A client that holds connections without finishing its
requests takes them from everyone else, so:

- **Who.** A client is the connection's own address or, with ``LAPAU_PROXIES`` set, the
  one the router reports in ``X-Forwarded-For`` (werkzeug's ProxyFix, trusting exactly
  that many proxies: with none configured, a forged header changes nothing).  An IPv6
  address counts by its /64, which a phone on mobile data has to itself.
- **How many.** One client holds at most ``LAPAU_ADDRESS_CONNECTIONS`` requests at once
  (:data:`ADDRESS_CONNECTIONS`; an open WebSocket is a request that lasts).  Where no
  proxy stands in front, webapp/worker.py counts its connections as well, from the moment
  they are accepted, before a head is read.
- **How long.** A body is read here, whole, before the app sees it (bodies are at most
  16 KB), and must arrive within ``LAPAU_BODY_SECONDS`` (:data:`BODY_SECONDS`), or it is
  answered 408 and its connection closed.  A head must arrive within gunicorn's
  ``keepalive`` (gunicorn.conf.py).
- **The answer.** A refused page gets the localized 429 (or 408) page, rendered once per
  language and status, so a thousand refusals cost a thousand copies and not a thousand
  renders; its connection is then closed.  A refused WebSocket is let in only to be told
  why in its page's notice and closed (webapp/sockets.py); the page tries again later.
"""

from __future__ import annotations

import io
import ipaddress
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from flask import Flask, g, render_template
from gevent import Timeout, monkey
from gevent.local import local
from werkzeug import Request
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.middleware.proxy_fix import ProxyFix

from webapp import flood, logs
from webapp.locale import LANGUAGES, guess_language
from webapp.request_log import MAX_AGENT, logged_path

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: Requests (and, without a proxy, connections) one client may hold at once: a tenth of
#: the worker's 2,000.  Generous on purpose: a family or a school shares one address, and
#: so do strangers behind a carrier's NAT (common on Indonesian mobile networks).  A
#: player holds a page socket and a table's, a page load a few more for a moment, so 200
#: lets some eighty people play from one address while one attacker leaves nine tenths of
#: the worker to everyone else.
ADDRESS_CONNECTIONS = 200
#: Seconds a request's body has to arrive whole.  The largest real form is 3.2 KB, a
#: second's worth on the slowest mobile data; ten allow for a stalling network.
BODY_SECONDS = 10.0
#: The environ key that tells the app why the edge refused a socket ("busy").
REFUSED = "lapau.refused"
#: Why a request is refused, and its status.
STATUSES = {"busy": 429, "slow": 408, "large": 413}
TEMPLATES = {429: "errors/busy.html", 408: "errors/slow.html", 413: "errors/413.html"}
#: Bodies past the limit one address may send, then one a minute, that the app answers
#: with its own 413 page (a way back to the reader's form included); past them the
#: ready-made page is copied.  A reader who pasted too much never sees the difference; a
#: client posting 6 MB after 6 MB rendered a page each time (400 a second took the whole
#: worker in benchmarks/hostile.py).
OVERSIZE_PAGES = 5
#: Addresses whose oversize bodies are remembered at once; past it the oldest go.
MAX_REMEMBERED = 10_000
#: Seconds a refused page asks the browser to wait before it tries again.
RETRY_AFTER = 10


@dataclass
class Connection:
    """What the worker and the edge tell each other about one connection."""

    #: Set by the worker: one connection too many from its address; refuse its request.
    refused: bool = False
    #: Set here: close the connection after this response (its body was left unread).
    closing: bool = False


_connections = local()


def this_connection() -> Connection:
    """The connection this greenlet serves (gunicorn's gevent worker serves each in a
    greenlet of its own; elsewhere, as in tests, nothing is ever set on it)."""
    found: Connection | None = getattr(_connections, "state", None)
    if found is None:
        found = _connections.state = Connection()
    return found


def address_key(address: str | None) -> str | None:
    """Who counts as one client: an IPv4 address as it is, an IPv6 address by its /64.

    >>> address_key("203.0.113.9"), address_key("::ffff:203.0.113.9")
    ('203.0.113.9', '203.0.113.9')
    >>> address_key("2001:db8:1:2:a:b:c:d"), address_key(None)
    ('2001:db8:1:2::/64', None)
    """
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]  # not an address (a Unix socket's peer): counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Holds:
    """How many things (connections, requests) each key holds at once, up to ``cap``.

    >>> holds = Holds(cap=1)
    >>> with holds.hold("a") as first, holds.hold("a") as second, holds.hold("b") as other:
    ...     first, second, other
    (True, False, True)
    >>> holds.held
    {}
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: dict[str, int] = {}
        self.lock = threading.Lock()

    @contextmanager
    def hold(self, key: str | None) -> Iterator[bool]:
        """Whether ``key`` may hold one more; if so it does until the block ends.  A key
        of None (a proxy's connection) is never counted."""
        if key is None:
            yield True
            return
        with self.lock:
            admitted = self.held.get(key, 0) < self.cap
            if admitted:
                self.held[key] = self.held.get(key, 0) + 1
        try:
            yield admitted
        finally:
            if admitted:
                with self.lock:
                    self.held[key] -= 1
                    if not self.held[key]:
                        del self.held[key]


def deadline(seconds: float) -> AbstractContextManager[Any]:
    """A gevent timeout where gevent runs the sockets (a blocked read cannot be
    interrupted otherwise; the test client's bodies are in memory anyway)."""
    return Timeout(seconds) if monkey.is_module_patched("socket") else nullcontext()


def read_within(stream: IO[bytes], size: int, seconds: float) -> bytes | None:
    """Up to ``size`` bytes of ``stream`` (fewer if it ends), or None if they do not
    all come within ``seconds``."""
    chunks: list[bytes] = []
    timer = deadline(seconds)
    try:
        with timer:
            while size > 0 and (chunk := stream.read(min(size, 65536))):
                chunks.append(chunk)
                size -= len(chunk)
    except Timeout as expired:
        if expired is not timer:
            raise
        return None
    return b"".join(chunks)


def language_of(environ: WSGIEnvironment) -> str:
    """The language of a refused request: its path's prefix, else the reader's guess."""
    request = Request(environ)
    prefix = request.path.lstrip("/").partition("/")[0]
    return prefix if prefix in LANGUAGES else guess_language(request)


def render_refusal(app: Flask, status: int, language: str) -> tuple[list[tuple[str, str]], bytes]:
    """The refusal page for ``status`` in ``language``, as the app answers it (its
    security headers included), with nothing personal: no cookie, no way back."""
    host = app.config["SERVER_NAME"] or "localhost"
    base = f"{app.config['PREFERRED_URL_SCHEME']}://{host}"
    with app.test_request_context(f"/{language}/", base_url=base):
        g.lang_code = language
        response = app.make_response((render_template(TEMPLATES[status], back=None), status))
        response = app.process_response(response)
    dropped = {"set-cookie", "vary", "etag", "content-length"}
    headers = [(name, value) for name, value in response.headers if name.lower() not in dropped]
    if status == 429:
        headers.append(("Retry-After", str(RETRY_AFTER)))
    return headers, response.get_data()


class Edge:
    """The WSGI middleware that counts each client's requests and reads their bodies."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.requests = Holds(app.config["ADDRESS_CONNECTIONS"])
        self.pages: dict[tuple[int, str], tuple[list[tuple[str, str]], bytes]] = {}
        self.oversize = flood.Budgets(rate=1 / 60, burst=OVERSIZE_PAGES, keys=MAX_REMEMBERED)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        with self.requests.hold(address_key(environ.get("REMOTE_ADDR"))) as admitted:
            why = None if admitted and not this_connection().refused else "busy"
            if why is None:
                why = self.read_body(environ)
            if why is None:
                return self.wsgi_app(environ, start_response)
            this_connection().closing = True
            if environ.get("PATH_INFO", "").startswith("/ws/"):
                environ[REFUSED] = why  # the socket tells its page (webapp/sockets.py)
                return self.wsgi_app(environ, start_response)
            return self.refuse(environ, start_response, STATUSES[why], started)

    def read_body(self, environ: WSGIEnvironment) -> str | None:
        """Read the body into memory within :data:`BODY_SECONDS`; why not, if it was not
        ("slow"), or why the ready-made page answers it ("large").

        A body longer than the app accepts is never read, and its connection is closed
        after the answer: the app's 413 from its length alone, or, for an address past
        :data:`OVERSIZE_PAGES`, the ready-made one."""
        limit: int = self.app.config["MAX_CONTENT_LENGTH"]
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if length.isdigit() and int(length) > limit:
            this_connection().closing = True
            return None if self.app_answers_oversize(environ) else "large"
        size = int(length) if length.isdigit() else limit + 1 if chunked else 0
        if not size:
            return None
        body = read_within(environ["wsgi.input"], size, self.app.config["BODY_SECONDS"])
        if body is None:
            return "slow"
        environ["wsgi.input"] = io.BytesIO(body)
        return None

    def app_answers_oversize(self, environ: WSGIEnvironment) -> bool:
        """Whether this oversize body is still one the app answers (see OVERSIZE_PAGES)."""
        key = address_key(environ.get("REMOTE_ADDR"))
        if key is None:
            return True
        return self.oversize.admits(key)

    def refuse(
        self, environ: WSGIEnvironment, start_response: StartResponse, status: int, started: float
    ) -> list[bytes]:
        language = language_of(environ)
        if (status, language) not in self.pages:
            self.pages[status, language] = render_refusal(self.app, status, language)
        headers, body = self.pages[status, language]
        start_response(
            f"{status} {HTTP_STATUS_CODES[status]}",
            [*headers, ("Content-Length", str(len(body)))],
        )
        logs.event(
            "request",
            method=environ.get("REQUEST_METHOD"),
            path=logged_path(environ.get("PATH_INFO", "")),
            status=status,
            ms=round((time.perf_counter() - started) * 1000, 1),
            bytes=len(body),
            client=environ.get("REMOTE_ADDR"),
            agent=environ.get("HTTP_USER_AGENT", "")[:MAX_AGENT],
        )
        return [body]


def init_app(app: Flask) -> None:
    """Wrap the app: ProxyFix (when proxies are trusted) finds the client, then the edge."""
    proxies: int = app.config["PROXIES"]
    edge = Edge(app, app.wsgi_app)
    if proxies:
        app.wsgi_app = ProxyFix(edge, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    else:
        app.wsgi_app = edge  # type: ignore[method-assign]
