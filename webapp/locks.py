"""Locks by name, for changes that read, change and write back one thing (a room): held in
this process, and in Redis too when several processes share the site, so two processes
never change the same room at once and lose one of the changes.

A lock is reentrant within a thread (or greenlet): a room change may call another under
the same lock.  Should Redis be away, a change goes on under this process's lock alone
(logged): better a rare lost update than a site that refuses every room change.  Small
notes go beside the locks (:meth:`note`, :meth:`noted`: the rematch opened for a finished
table), kept for ``NOTE_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import redis

log = logging.getLogger(__name__)

#: Seconds a Redis lock lasts if its holder dies holding it, and a change waits for one.
LOCK_SECONDS, WAIT_SECONDS = 10.0, 10.0
#: Seconds a note is kept (a rematch is asked for within minutes of the match's end).
NOTE_SECONDS = 6 * 3600
PREFIX = "lapau:"


class Locks:
    """Named locks and notes of one process (the whole site, without Redis)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.locks: dict[str, threading.RLock] = defaultdict(threading.RLock)
        self.notes: dict[str, str] = {}

    def local(self, name: str) -> threading.RLock:
        with self.lock:
            return self.locks[name]

    @contextmanager
    def hold(self, name: str) -> Iterator[None]:
        with self.local(name):
            yield

    def note(self, name: str, value: str) -> None:
        self.notes[name] = value

    def noted(self, name: str) -> str | None:
        return self.notes.get(name)


class RedisLocks(Locks):
    """Named locks held in this process and in Redis; notes in Redis."""

    def __init__(self, client: redis.Redis) -> None:
        super().__init__()
        self.client = client
        #: The names this thread holds in Redis already, with how deep.
        self.held = threading.local()

    @contextmanager
    def hold(self, name: str) -> Iterator[None]:
        with self.local(name):
            depth: dict[str, int] = self.held.__dict__.setdefault("depth", {})
            if depth.get(name):
                depth[name] += 1
                try:
                    yield
                finally:
                    depth[name] -= 1
                return
            shared = self.client.lock(
                PREFIX + "lock:" + name,
                timeout=LOCK_SECONDS,
                sleep=0.01,
                blocking_timeout=WAIT_SECONDS,
            )
            try:
                acquired = bool(shared.acquire())
            except redis.RedisError:
                acquired = False
            if not acquired:
                log.warning("lock %s held in this process only (Redis away or stuck)", name)
            depth[name] = 1
            try:
                yield
            finally:
                depth[name] = 0
                if acquired:
                    try:
                        shared.release()
                    except redis.RedisError:
                        log.warning("lock %s not released (it lapses)", name)

    def note(self, name: str, value: str) -> None:
        self.client.set(PREFIX + "note:" + name, value, ex=NOTE_SECONDS)

    def noted(self, name: str) -> str | None:
        found = self.client.get(PREFIX + "note:" + name)
        return None if found is None else str(found)
