"""A per-socket message budget: a burst, then a notice, then a close.

Every socket of the site (a table, a room, a player's own page) counts its browser's
messages against a :class:`Budget` (webapp/sockets.py): :data:`BURST` at once, refilled
at the ``SOCKET_RATE`` setting a second (webapp/config.py), which no hand on a phone
reaches.  The first message over the budget is dropped and the page is told to slow
down; :data:`GRACE` more while still over it close the socket with 1008 (policy
violation).  A dropped message is never parsed,
applied or stored: a flood costs the server a counter, not a render and a database write.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from flask_babel import lazy_gettext as _l

BURST = 20
GRACE = 10
#: The close frame's reason (for the logs and the browser's console, not for people).
REASON = "too many messages"
#: The notice a page shows, in the rooms' and the tables' words.
SLOW_DOWN = _l("Slow down: you are sending too many messages. Wait a moment.")

Verdict = Literal["admit", "warn", "drop", "close"]


class Budget:
    """The messages one socket may still send now (a token bucket).

    >>> now = [0.0]
    >>> budget = Budget(rate=1, burst=2, grace=1, clock=lambda: now[0])
    >>> [budget.take() for _ in range(5)]
    ['admit', 'admit', 'warn', 'close', 'close']
    >>> now[0] = 1.0
    >>> budget.take()
    'admit'
    """

    def __init__(
        self,
        rate: float,
        burst: int = BURST,
        grace: int = GRACE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.grace = rate, burst, grace
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()
        self.over = 0  # messages refused since the last one admitted

    def full(self) -> bool:
        """Whether the budget has refilled to its whole burst (nothing to remember)."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst

    def take(self) -> Verdict:
        """What to do with one more message: admit it (spending the budget), warn the
        page (the first one over), drop it, or close the socket (the flood goes on)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.over = 0
            return "admit"
        self.over += 1
        if self.over == 1:
            return "warn"
        return "close" if self.over > self.grace else "drop"


class Budgets:
    """One :class:`Budget` per key (a player, an address), for at most ``keys`` keys: past
    that, keys whose budget has refilled go first, then the oldest.

    >>> budgets = Budgets(rate=0, burst=1, keys=2)
    >>> [budgets.admits(key) for key in ("a", "a", "b", "c")], list(budgets.budgets)
    ([True, False, True, True], ['b', 'c'])
    """

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self.rate, self.burst, self.keys = rate, burst, keys
        self.budgets: dict[str, Budget] = {}

    def admits(self, key: str) -> bool:
        """Whether ``key`` may have one more now (spending its budget if so)."""
        budget = self.budgets.get(key)
        if budget is None:
            if len(self.budgets) >= self.keys:
                self.budgets = {k: kept for k, kept in self.budgets.items() if not kept.full()}
                while len(self.budgets) >= self.keys:  # insertion order: the oldest first
                    del self.budgets[next(iter(self.budgets))]
            budget = self.budgets[key] = Budget(rate=self.rate, burst=self.burst)
        return budget.take() == "admit"
