"""Gunicorn settings read from the project root (the Procfile and Makefile run from there).

The worker class and connections stay on the command lines where people look for them;
this file adds what a command line cannot:

- the number of workers (``workers``): with ``REDIS_URL`` set, processes share the site
  through Redis, so ``WEB_CONCURRENCY`` (which a PaaS sets by dyno size) or else one per
  core; without it, one, whatever ``WEB_CONCURRENCY`` says, since each process would keep
  its own tables, presence and invites.  ``make run`` and the tests' servers say
  ``--workers 1`` on their command line, which wins over this.

- on SIGTERM the worker stops every table's clock and closes every socket (tables, rooms,
  players' pages) with code 1012 (service restart), so browsers reconnect at once and the
  worker exits within seconds instead of waiting out its graceful timeout (the PaaS kills
  it after 30 s).  Moves are stored before they are acknowledged: nothing is left to save.
- the worker resumes the stored unfinished tables once it is ready (``resume_tables``):
  the app factory does not, since every ``flask`` command builds the app as well.
- once the app is loaded, everything it loaded is moved out of the garbage collector's
  sight (``gc.freeze``): a full collection otherwise walks every module, template and
  catalogue again, and under load such a pause (100-170 ms, measured with
  benchmarks/load.py) stalled every table at once.
- young collections wait for 10,000 new objects (``GC_YOUNG``) instead of Python's 700:
  every move's render makes thousands (the parts it draws, each with what it read), and
  at 700 the collector ran a few times a move and took 5% of the worker's CPU under the
  issue's load (0.65 ms a move); at 10,000 it takes 2.5% (0.21 ms), each young
  collection pausing about 12 ms.
- greenlets do not record who spawned them and from where (gevent's
  ``track_greenlet_tree``, for debugging): every move arms its turn clock in a new
  greenlet, and the record of its spawning stack doubled what a spawn costs (8.1 µs
  against 4.2) and left its frames to the collector.
- the worker is fitted for clients that hold on (webapp/worker.py): a cap on the
  connections one address holds, refusals answered beside the shared pool, connections
  the site refused closed after their answer, idle ones closed at once on SIGTERM.
"""

from __future__ import annotations

import gc
import os
import signal
from typing import Any

from gevent import config as gevent_config

#: Seconds a connection may wait for a request's head: a new one for its first, a kept-
#: alive one between requests (gunicorn's gevent worker bounds both with this).  Facing
#: clients directly, 5: a head crawling in byte by byte (slowloris) is dropped, and a
#: phone's next click within seconds still reuses its connection.  Behind a router
#: (LAPAU_PROXIES), heads come whole and the router keeps connections open for reuse (90 s
#: on Heroku's Router 2.0): 95, so the router always closes first and never sends a
#: request down a connection this side is closing.  SIGTERM ends idle waits at once.
keepalive = 95 if int(os.environ.get("LAPAU_PROXIES") or 0) else 5


def worker_count(env: dict[str, str] | os._Environ[str] = os.environ) -> int:
    """One worker without Redis; with it, ``WEB_CONCURRENCY`` or one per core
    (tests/test_workers.py)."""
    if not env.get("REDIS_URL"):
        return 1
    configured = env.get("WEB_CONCURRENCY", "")
    if configured.isascii() and configured.isdigit() and int(configured) > 0:
        return int(configured)
    return os.cpu_count() or 1


workers = worker_count()

#: New objects between two young collections (see above).  Set here, in the master, it
#: holds in the worker it forks from the start: importing the site and making the app run
#: under it too (1.86 s of CPU instead of 2.1).
GC_YOUNG = 10_000
gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
gevent_config.track_greenlet_tree = False


def post_worker_init(worker: Any) -> None:
    app = worker.wsgi
    # After a restart every unfinished table resumes from its stored log: here, in the
    # serving worker, and not in create_app, which every flask command runs too.
    from webapp import resume_tables

    resume_tables(app)
    from webapp.worker import fit

    fitting = fit(worker)
    gc.collect()
    gc.freeze()
    previous = signal.getsignal(signal.SIGTERM)

    from webapp.services import Lapau

    def on_terminate(signum: int, frame: Any) -> None:
        # The handler runs inside gevent's loop, where nothing may block: closing the
        # sockets and the idle connections happens in greenlets of their own.
        import gevent

        if isinstance(app, Lapau):
            from webapp.sockets import shutdown

            gevent.spawn(shutdown, app)
        gevent.spawn(fitting.close_idle)
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_terminate)
