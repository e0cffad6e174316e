"""What each process holds that every process reads: who of its sockets is online, who
watches a room from it.

A *fact* is one process's value under a key (``presence:u-12``: that player's status as
this process's sockets make it; ``here:ABC234``: the people watching that room from this
process).  A process states its own (:meth:`put`, :meth:`drop`) and reads everyone's
(:meth:`gather`).  Alone (:class:`LocalFacts`), that is a dict.  With Redis
(:class:`RedisFacts`), each key is a hash with a field per process, and each value carries
the time it holds until: the process restates all of its facts every ``BEAT`` seconds,
so those of a process that died (kill -9, a lost dyno) stop counting within ``TTL``
seconds, and after Redis lost everything (a restart: the broker's ``on_gap``) it restates
them at once (:meth:`restate`).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Protocol

import redis

log = logging.getLogger(__name__)

#: Seconds a process's fact counts without being restated, and between restatements.
TTL, BEAT = 30.0, 10.0
PREFIX = "lapau:facts:"


class Facts(Protocol):
    def put(self, key: str, value: object) -> None: ...

    def drop(self, key: str) -> None: ...

    def gather(self, key: str) -> list[object]: ...

    def gather_many(self, keys: Sequence[str]) -> list[list[object]]: ...

    def restate(self) -> None: ...

    def close(self) -> None: ...


class LocalFacts:
    """The facts of a site that is one process.

    >>> facts = LocalFacts()
    >>> facts.put("here:ABC", ["u-1"]); facts.gather("here:ABC"), facts.gather("here:XYZ")
    ([['u-1']], [])
    """

    def __init__(self) -> None:
        self.mine: dict[str, object] = {}

    def put(self, key: str, value: object) -> None:
        self.mine[key] = value

    def drop(self, key: str) -> None:
        self.mine.pop(key, None)

    def gather(self, key: str) -> list[object]:
        return [self.mine[key]] if key in self.mine else []

    def gather_many(self, keys: Sequence[str]) -> list[list[object]]:
        return [self.gather(key) for key in keys]

    def restate(self) -> None:
        pass

    def close(self) -> None:
        pass


class RedisFacts:
    """Every process's facts, in Redis; this process's restated every ``beat`` seconds."""

    def __init__(self, client: redis.Redis, ttl: float = TTL, beat: float = BEAT) -> None:
        self.client = client
        self.ttl, self.beat = ttl, beat
        #: This process's field in every hash.
        self.origin = secrets.token_hex(8)
        self.lock = threading.Lock()
        self.mine: dict[str, object] = {}
        self.closed = threading.Event()
        self.beating: threading.Thread | None = None

    # Each change is written under the lock, so a restatement never writes back a fact
    # dropped meanwhile.

    def put(self, key: str, value: object) -> None:
        with self.lock:
            self.mine[key] = value
            self._start()
            self._write({key: value})

    def drop(self, key: str) -> None:
        with self.lock:
            self.mine.pop(key, None)
            try:
                self.client.hdel(PREFIX + key, self.origin)
            except redis.RedisError:
                log.warning("a fact not dropped (Redis away): %s", key)

    def gather(self, key: str) -> list[object]:
        """Every live process's value under ``key`` (none while Redis is away)."""
        return self.gather_many([key])[0]

    def gather_many(self, keys: Sequence[str]) -> list[list[object]]:
        """:meth:`gather` for each of ``keys``, in one round trip (a friends list)."""
        if not keys:
            return []
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.hgetall(PREFIX + key)
                found: list[dict[str, str]] = pipe.execute()
        except redis.RedisError:
            log.warning("facts not read (Redis away): %s", ", ".join(keys[:3]))
            return [[] for _ in keys]
        now = time.time()
        gathered, lapsed = [], []
        for key, held_by in zip(keys, found, strict=True):
            values = []
            for origin, raw in held_by.items():
                held = json.loads(raw)
                if held["until"] >= now:
                    values.append(held["value"])
                else:
                    lapsed.append((key, origin))  # a process that stopped restating: gone
            gathered.append(values)
        if lapsed:
            try:
                with self.client.pipeline(transaction=False) as pipe:
                    for key, origin in lapsed:
                        pipe.hdel(PREFIX + key, origin)
                    pipe.execute()
            except redis.RedisError:
                pass  # read again next time
        return gathered

    def restate(self) -> None:
        """Write every fact of this process again, with a fresh time to hold until."""
        with self.lock:
            self._write(self.mine)

    def _write(self, facts: dict[str, object]) -> None:
        if not facts:
            return
        until = time.time() + self.ttl
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for key, value in facts.items():
                    held = json.dumps({"until": until, "value": value})
                    pipe.hset(PREFIX + key, self.origin, held)
                    # The hash itself goes once no process restates anything in it.
                    pipe.expire(PREFIX + key, int(self.ttl) + 1)
                pipe.execute()
        except redis.RedisError:
            log.warning("facts not written (Redis away): %d", len(facts))

    def _start(self) -> None:
        if self.beating is None:
            self.beating = threading.Thread(target=self._beat, name="facts", daemon=True)
            self.beating.start()

    def _beat(self) -> None:
        while not self.closed.wait(self.beat):
            self.restate()

    def close(self) -> None:
        self.closed.set()
