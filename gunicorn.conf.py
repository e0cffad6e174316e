"""Gunicorn settings read from the project root (the Procfile and Makefile run from there).

The worker class and counts stay on the command lines where people look for them; this
file adds what a command line cannot:

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
"""

from __future__ import annotations

import gc
import signal
from typing import Any


def post_worker_init(worker: Any) -> None:
    app = worker.wsgi
    # After a restart every unfinished table resumes from its stored log: here, in the
    # serving worker, and not in create_app, which every flask command runs too.
    from webapp import resume_tables

    resume_tables(app)
    gc.collect()
    gc.freeze()
    previous = signal.getsignal(signal.SIGTERM)

    def on_terminate(signum: int, frame: Any) -> None:
        if "lapau.sockets" in getattr(app, "extensions", {}):
            # The handler runs inside gevent's loop, where nothing may block: closing the
            # sockets happens in a greenlet of its own.
            import gevent

            from webapp.sockets import shutdown

            gevent.spawn(shutdown, app)
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_terminate)
