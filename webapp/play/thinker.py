"""Where expert bots think: worker processes, so the event loop never runs a search.

A search costs a few hundred milliseconds of CPU; on the gevent loop it would stall every
table of the process.  ``Thinker.decide`` sends the view to a process pool (created on first
use, one worker a core) and waits for the answer without blocking the loop: under gevent a
thread of gevent's own pool (a real OS thread) waits on the future, so only the asking
greenlet sleeps.  When more searches wait than there are workers, each gets a smaller
share of the clock, so a table waits about ``SECONDS`` for its expert whatever the load.
A bot's search whose answer is not back by its deadline (a full clock and ``GRACE``: the
pool is swamped, or the machine is; not while the pool's processes start) is cancelled and
the table plays ``hard``'s move instead, so no table waits for its bot much longer than
the bot delay it already has; so does a table whose search raised.
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
from webapp.game.search import SECONDS, Advice, advise, think, warm

log = logging.getLogger(__name__)

#: The least clock a search gets however many wait (it still plays hard's move, at worst).
FLOOR = 0.03
#: A hint's clock: a person who asked can wait a second, and more deals make a surer reason.
HINT_SECONDS = 1.0
#: How long past a search's clock its answer may take to come back (handing the view to a
#: worker and the move back costs a few milliseconds on an idle machine) before the table
#: stops waiting for it.
GRACE = 0.5


def _patched() -> bool:
    """Whether gevent has made this process's threads green (the gunicorn gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


#: What a cancelled search hands back from gevent's thread (see :func:`_result`).
_CANCELLED = object()
#: What a search too late for its deadline hands back from there.
_LATE = object()


def _result(future: Future[Any], timeout: float | None) -> Any:
    """The future's result, or ``_CANCELLED``, or ``_LATE``: gevent's threadpool prints a
    traceback for a task that raises, and a pool shutting down with the server cancels
    what waits."""
    try:
        return future.result(timeout)
    except CancelledError:
        return _CANCELLED
    except TimeoutError:
        return _LATE


def _wait(future: Future[Any], timeout: float | None) -> Any:
    """The future's result within ``timeout`` seconds (None: however long); raises
    :class:`CancelledError` if it was cancelled and :class:`TimeoutError` if it is late
    (cancelled then, if not started)."""
    if _patched():
        import gevent

        result = gevent.get_hub().threadpool.spawn(_result, future, timeout).get()
    else:
        result = _result(future, timeout)
    if result is _CANCELLED:
        raise CancelledError
    if result is _LATE:
        future.cancel()  # still queued: it never runs; running: its clock ends it soon
        raise TimeoutError
    return result


class Thinker:
    """A lazily started process pool that decides for expert bots."""

    def __init__(
        self,
        workers: int | None = None,
        seconds: float = SECONDS,
        hint_seconds: float = HINT_SECONDS,
        grace: float = GRACE,
    ) -> None:
        self.workers = workers or len(os.sched_getaffinity(0))
        self.seconds = seconds
        self.hint_seconds = hint_seconds
        self.grace = grace
        self.waiting = 0
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None
        #: Each worker's first job (:func:`~webapp.game.search.warm`): until all are done,
        #: starting processes that import the games (seconds on a busy machine) is not
        #: lateness.
        self.warming: list[Future[int]] = []

    def budget(self, seconds: float | None = None) -> float:
        """This search's clock (``seconds``, else the bot's budget), shared out once searches
        queue."""
        full = self.seconds if seconds is None else seconds
        with self.lock:
            share = full * min(1.0, self.workers / max(1, self.waiting))
        return max(FLOOR, share)

    def decide(self, game: str, view: Any, seed: str) -> Any:
        """The expert's action for ``view`` (``hard``'s if the pool fails or is late).

        Its clock shrinks as searches queue, but it may wait behind theirs: about one full
        clock for all of them together (see :meth:`budget`), hence a full clock and the
        grace as its deadline."""
        found = self._run(think, game, view, seed, self.seconds, self.seconds + self.grace)
        if found is None:
            return registry.get(game).bots["hard"](view, random.Random(seed))
        return found

    def advise(self, game: str, view: Any, seed: str) -> Advice | None:
        """A hint for the seat of ``view``: the expert's move and why (None if the pool fails)."""
        # No deadline: no table waits for a hint, and the person who asked would rather
        # have it late than not at all.
        advice: Advice | None = self._run(advise, game, view, seed, self.hint_seconds, None)
        return advice

    def _run(
        self, job: Callable[[str, Any, str, float], Any], game: str, view: Any, seed: str,
        seconds: float, deadline: float | None,
    ) -> Any:  # fmt: skip
        """``job(game, view, seed, clock)`` in a worker, waited for without blocking the loop;
        None when the pool has failed or the answer is not back within ``deadline`` seconds
        (once the pool's processes have started)."""
        with self.lock:
            self.waiting += 1
            if self.pool is None:
                # Spawned, not forked: a fork of a process running threads may inherit locks.
                context = multiprocessing.get_context("spawn")
                self.pool = ProcessPoolExecutor(self.workers, mp_context=context)
                self.warming = [self.pool.submit(warm) for _ in range(self.workers)]
            pool = self.pool
            started = all(job.done() for job in self.warming)
        try:
            future = pool.submit(job, game, view, seed, self.budget(seconds))
            return _wait(future, deadline if started else None)
        except CancelledError:
            return None  # the server is stopping: its pool dropped the searches that waited
        except TimeoutError:
            log.warning("expert search on %s later than %.2f s", game, deadline)
            return None
        except (BrokenProcessPool, OSError, RuntimeError):
            # A worker died or the pool is shut down: that must not stop the table.
            log.exception("expert search failed")
            with self.lock:
                if self.pool is pool:
                    self.pool = None
            return None
        except Exception:
            # The search itself raised (a bug in a game's search, with the worker's
            # traceback): the table plays hard's move instead of waiting for ever, and the
            # pool, which is fine, stays.
            log.exception("expert search on %s raised", game)
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
