"""Who owns each live table: one process at a time, by a lease.

The owner of a table is the only process that changes it: it applies the moves, stores
them, runs the turn timer and the bots, and publishes each new version on the table's
channel.  Every other process with sockets on the table keeps a read-only replica,
updated from those messages, renders it for its own sockets, and forwards the moves they
send to the owner (webapp/play/hub.py says how).

- One process (no ``REDIS_URL``: ``make run``, most tests): :class:`OneProcess` grants
  every lease at once and nothing expires, so the process owns every table, as always.
- Several (Redis): :class:`RedisLeases` keeps a key per table, ``lease:table:<id>``,
  holding the owner's process id, taken with ``SET NX PX`` and renewed by the owner every
  third of its time to live.  A process that dies stops renewing; within the time to live
  another one takes the table and restores it from its stored log.  Two owners at once
  (a process paused past its lease) can still never store a move twice: the log's key
  (table, seq) refuses the second, and its writer reloads the table.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Sequence
from typing import Protocol

import redis

log = logging.getLogger(__name__)

#: Seconds a lease lasts unless renewed: a dead owner's tables move within this (plus
#: one round of the hub's tending, a third of it).
LEASE_SECONDS = 3.0

# Take the lease when it is free, or keep it when it is ours: one atomic step.
CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# Give it back only if it is still ours.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases(Protocol):
    """The tables' leases, as one process sees them."""

    #: Whether other processes may own tables (then moves are forwarded to the owner).
    shared: bool
    #: Seconds a lease lasts unless renewed.
    seconds: float

    @property
    def process(self) -> str:
        """This process's name among the owners."""

    def claim(self, table_id: str) -> bool:
        """Take the table's lease if it is free or ours already (and renew it); whether
        this process owns the table now."""

    def renew(self, table_ids: Sequence[str]) -> list[str]:
        """Renew these leases of ours; the tables among them no longer ours."""

    def free(self, table_ids: Sequence[str]) -> list[str]:
        """The tables among these whose lease nobody holds (one look for them all)."""

    def release(self, table_id: str) -> None:
        """Give the lease up (a finished or forgotten table, a stopping server)."""


class OneProcess:
    """The only process: it owns every table, and no lease ever expires."""

    shared = False
    seconds = LEASE_SECONDS
    process = "this process"

    def claim(self, table_id: str) -> bool:
        return True

    def renew(self, table_ids: Sequence[str]) -> list[str]:
        return []

    def free(self, table_ids: Sequence[str]) -> list[str]:
        return list(table_ids)

    def release(self, table_id: str) -> None:
        pass


class RedisLeases:
    """Leases in Redis, shared by every process of every dyno."""

    shared = True

    def __init__(self, client: redis.Redis, seconds: float = LEASE_SECONDS, name: str = "") -> None:
        self.client = client
        self.seconds = seconds
        #: The process's name, if given (tests name their hubs).
        self.name = name
        self.token = secrets.token_hex(3)
        self._claim = client.register_script(CLAIM)
        self._release = client.register_script(RELEASE)

    @property
    def process(self) -> str:
        """Unique among running hubs: the host, the process id (read at each call:
        forked workers share what was made before the fork) and a random part (a process
        id is reused after a restart; two apps in one test process)."""
        return self.name or f"{socket.gethostname()}:{os.getpid()}:{self.token}"

    @staticmethod
    def key(table_id: str) -> str:
        return f"lease:table:{table_id}"

    def claim(self, table_id: str) -> bool:
        try:
            return bool(self._claim(keys=[self.key(table_id)], args=self._args()))
        except redis.RedisError as error:
            log.warning("could not claim table %s: %s", table_id, error)
            return False  # unknown: acting as owner could apply a move twice

    def renew(self, table_ids: Sequence[str]) -> list[str]:
        if not table_ids:
            return []
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for table_id in table_ids:
                    self._claim(keys=[self.key(table_id)], args=self._args(), client=pipe)
                kept = pipe.execute()
        except redis.RedisError as error:
            # Not renewed: another process may take them once they expire, so they are
            # given up now rather than moved from two places.
            log.warning("could not renew %d leases: %s", len(table_ids), error)
            return list(table_ids)
        return [table_id for table_id, ok in zip(table_ids, kept, strict=True) if not ok]

    def free(self, table_ids: Sequence[str]) -> list[str]:
        if not table_ids:
            return []
        try:
            holders = self.client.mget([self.key(table_id) for table_id in table_ids])
        except redis.RedisError as error:
            log.warning("could not read %d leases: %s", len(table_ids), error)
            return []
        return [table_id for table_id, holder in zip(table_ids, holders, strict=True) if not holder]

    def release(self, table_id: str) -> None:
        try:
            self._release(keys=[self.key(table_id)], args=[self.process])
        except redis.RedisError as error:
            log.warning("could not release table %s: %s", table_id, error)  # it expires

    def _args(self) -> list[str | int]:
        return [self.process, int(self.seconds * 1000)]


def leases_for(client: redis.Redis | None) -> Leases:
    """The leases of the site's processes: in Redis when there is one (a redis-py client),
    else this process's alone."""
    return RedisLeases(client) if client is not None else OneProcess()
