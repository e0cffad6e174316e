"""gunicorn's gevent worker, fitted for clients that hold on (gunicorn.conf.py calls
:func:`fit` once the app is loaded).

The worker serves every connection in a greenlet of one pool (``--worker-connections``),
and a connection holds its place in it whether or not it ever sends a whole request.
Three of the worker's methods are wrapped:

- ``handle``, for each connection accepted.  Where no proxy stands in front, one address
  holds at most ``LAPAU_ADDRESS_CONNECTIONS`` of the pool, counted from the accept, so a
  head that crawls in (slowloris) counts too.  A connection past that is answered from a
  small pool of its own: it has :data:`REFUSED_HEAD_SECONDS` to send its head, gets the
  localized 429 page (webapp/edge.py) and is closed, never taking a place in the pool
  everybody shares.  Behind a proxy every connection is the proxy's: the edge counts
  requests by the address the proxy reports instead.
- ``timeout_ctx``, the wait for a request's head: gunicorn's ``keepalive`` seconds (a
  second for a refused connection).  The waiting connections are remembered, so that on
  SIGTERM :meth:`Fitting.close_idle` closes the idle ones at once instead of letting them
  hold the worker up to its graceful timeout.
- ``handle_request``: a connection the edge asked to close (a refusal, a body left
  unread) is closed once its answer is sent; gunicorn drops an application's own
  ``Connection: close``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gevent import Timeout, getcurrent
from gevent.pool import Pool

from webapp.edge import Holds, address_key, this_connection

#: Refused connections answered at once, beside the pool.  An address opening connections
#: faster than they can be refused has the ones past this closed unanswered.
REFUSALS = 200
#: Seconds a refused connection has to send its head before it is closed unanswered.
REFUSED_HEAD_SECONDS = 1.0


class Fitting:
    """The wrapped methods of one worker, and what they keep."""

    def __init__(self, worker: Any) -> None:
        config = worker.wsgi.config
        self.worker = worker
        self.handle_connection = worker.handle
        self.handle_one = worker.handle_request
        # Behind a proxy every connection is the proxy's: the edge counts by request.
        self.counted = not config["PROXIES"]
        self.peers = Holds(config["ADDRESS_CONNECTIONS"])
        self.refusals = Pool(REFUSALS)
        #: Connections waiting for a request's head, and the timeout each waits under.
        self.waiting: dict[Any, Timeout] = {}

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        counted = self.counted and isinstance(addr, tuple)
        with self.peers.hold(address_key(addr[0]) if counted else None) as admitted:
            if admitted:
                self.handle_connection(listener, client, addr)
                return
        # gevent closes ``client`` as this returns: the refusal gets a copy of its own.
        if not self.refusals.full():
            self.refusals.spawn(self.refuse, listener, client.dup(), addr)

    def refuse(self, listener: Any, client: Any, addr: Any) -> None:
        this_connection().refused = True
        self.handle_connection(listener, client, addr)

    @contextmanager
    def timeout_ctx(self) -> Iterator[None]:
        seconds = self.worker.cfg.keepalive
        if this_connection().refused or not self.worker.alive:  # refused, or the worker stopping
            seconds = min(seconds, REFUSED_HEAD_SECONDS)
        # As gunicorn's own: on expiry the block ends quietly, with no request read.
        timeout = Timeout(seconds, False)
        me = getcurrent()
        self.waiting[me] = timeout
        try:
            with timeout:
                yield
        finally:
            self.waiting.pop(me, None)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> None:
        self.handle_one(listener_name, req, sock, addr)
        if this_connection().closing:
            raise StopIteration  # gunicorn's own way to end a connection after a response

    def close_idle(self) -> None:
        """End every wait for a request's head now, as if it had timed out (SIGTERM)."""
        for waiter, timeout in list(self.waiting.items()):
            waiter.kill(timeout, block=False)


def fit(worker: Any) -> Fitting:
    """Wrap the worker's methods (before it starts serving)."""
    fitting = Fitting(worker)
    worker.handle = fitting.handle
    worker.timeout_ctx = fitting.timeout_ctx
    worker.handle_request = fitting.handle_request
    return fitting
