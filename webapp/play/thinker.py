"""Where expert bots think: worker processes, so the event loop never runs a search.

A search costs a few hundred milliseconds of CPU; on the gevent loop it would stall every
table of the process.  ``Thinker.decide`` sends the view to a process pool (created on first
use, one worker a core) and waits for the answer without blocking the loop: under gevent a
thread of gevent's own pool (a real OS thread) waits on the future, so only the asking
greenlet sleeps.  When more searches wait than there are workers, each gets a smaller
share of the clock, so a table waits about ``SECONDS`` for its expert whatever the load.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from webapp.game import registry
from webapp.game.search import SECONDS, Advice, advise, think

log = logging.getLogger(__name__)

#: The least clock a search gets however many wait (it still plays hard's move, at worst).
FLOOR = 0.03
#: A hint's clock: a person who asked can wait a second, and more deals make a surer reason.
HINT_SECONDS = 1.0


def _patched() -> bool:
    """Whether gevent has made this process's threads green (the gunicorn gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


#: What a cancelled search hands back from gevent's thread (see :func:`_result`).
_CANCELLED = object()


def _result(future: Future[Any]) -> Any:
    """The future's result, or ``_CANCELLED``: gevent's threadpool prints a traceback for a
    task that raises, and a pool shutting down with the server cancels what waits."""
    try:
        return future.result()
    except CancelledError:
        return _CANCELLED


def _wait(future: Future[Any]) -> Any:
    if not _patched():
        return future.result()
    import gevent

    result = gevent.get_hub().threadpool.spawn(_result, future).get()
    if result is _CANCELLED:
        raise CancelledError
    return result


class Thinker:
    """A lazily started process pool that decides for expert bots."""

    def __init__(
        self,
        workers: int | None = None,
        seconds: float = SECONDS,
        hint_seconds: float = HINT_SECONDS,
    ) -> None:
        self.workers = workers or len(os.sched_getaffinity(0))
        self.seconds = seconds
        self.hint_seconds = hint_seconds
        self.waiting = 0
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None

    def budget(self, seconds: float | None = None) -> float:
        """This search's clock (``seconds``, else the bot's budget), shared out once searches
        queue."""
        full = self.seconds if seconds is None else seconds
        with self.lock:
            share = full * min(1.0, self.workers / max(1, self.waiting))
        return max(FLOOR, share)

    def decide(self, game: str, view: Any, seed: str) -> Any:
        """The expert's action for ``view`` (``hard``'s if the pool fails)."""
        found = self._run(think, game, view, seed, self.seconds)
        if found is None:
            return registry.get(game).bots["hard"](view, random.Random(seed))
        return found

    def advise(self, game: str, view: Any, seed: str) -> Advice | None:
        """A hint for the seat of ``view``: the expert's move and why (None if the pool fails)."""
        advice: Advice | None = self._run(advise, game, view, seed, self.hint_seconds)
        return advice

    def _run(
        self, job: Callable[[str, Any, str, float], Any], game: str, view: Any, seed: str,
        seconds: float,
    ) -> Any:  # fmt: skip
        """``job(game, view, seed, clock)`` in a worker, waited for without blocking the loop;
        None when the pool has failed."""
        with self.lock:
            self.waiting += 1
            if self.pool is None:
                # Spawned, not forked: a fork of a process running threads may inherit locks.
                context = multiprocessing.get_context("spawn")
                self.pool = ProcessPoolExecutor(self.workers, mp_context=context)
            pool = self.pool
        try:
            return _wait(pool.submit(job, game, view, seed, self.budget(seconds)))
        except CancelledError:
            return None  # the server is stopping: its pool dropped the searches that waited
        except (BrokenProcessPool, OSError, RuntimeError):
            # A worker died or the pool is shut down: that must not stop the table.
            log.exception("expert search failed")
            with self.lock:
                if self.pool is pool:
                    self.pool = None
            return None
        finally:
            with self.lock:
                self.waiting -= 1

    def close(self, wait: bool = False) -> None:
        """Stop the workers (``wait``: until they have exited; a server shutting down does not)."""
        with self.lock:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)
