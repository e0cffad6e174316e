"""CPU-bound work off the event loop: one gevent loop serves every player at once.

Under gunicorn's gevent worker, :func:`off_loop` runs a function in a real OS thread of a
small pool; the calling greenlet waits for the result while every other greenlet keeps
running.  That helps only for work that releases the GIL while it computes, as
``hashlib.scrypt`` does (its time is spent in OpenSSL).  Without gevent (tests, a
threaded server) the function simply runs in the calling thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from gevent import get_hub, monkey
from gevent.threadpool import ThreadPool

P = ParamSpec("P")
T = TypeVar("T")

#: Threads for CPU work: a core is left to the event loop (a queue forms beyond them).
THREADS = max(1, min(4, (os.cpu_count() or 2) - 1))
_pools: list[ThreadPool] = []


def pool() -> ThreadPool:
    """This process's pool, made on first use (after gunicorn has forked the worker)."""
    hub = get_hub()
    if not _pools or _pools[0].hub is not hub:
        _pools[:] = [ThreadPool(THREADS, hub=hub)]
    return _pools[0]


def off_loop(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function(*args, **kwargs)``, computed where it cannot hold up the event loop."""
    if not monkey.is_module_patched("threading"):
        return function(*args, **kwargs)
    result: T = pool().spawn(function, *args, **kwargs).get()
    return result
