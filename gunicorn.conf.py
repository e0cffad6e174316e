"""Gunicorn settings read from the project root (the Procfile and Makefile run from there).

The worker class and counts stay on the command lines where people look for them; this
file adds what a command line cannot:

- on SIGTERM the worker closes every table socket with code 1012 (service restart) so
  browsers reconnect at once and the worker exits promptly instead of waiting out its
  graceful timeout.  Moves are already stored as they happen, so nothing is left to save.
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
        hub = getattr(app, "extensions", {}).get("lapau.hub")
        if hub is not None:
            # The handler runs inside gevent's loop, where nothing may block: closing the
            # sockets happens in a greenlet of its own.
            import gevent

            gevent.spawn(hub.shutdown)
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_terminate)
