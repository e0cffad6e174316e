"""Events between the site's parts: an owner announces a change, its listeners follow.

An :class:`Event` is a list of listeners that its owner emits after a change it made (a
table finished, a guest's tables moved to their account, a room changed).  The
composition root (``create_app``) appends the listeners, so who hears what is written
in one place; a listener that fails is logged and skipped, since it must not undo the
change it was told about.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import ParamSpec

log = logging.getLogger(__name__)

P = ParamSpec("P")


class Event(list[Callable[P, None]]):
    """The listeners of one kind of change, called in the order they were added.

    >>> heard = []
    >>> finished = Event[[str]]("table finished")
    >>> finished.append(heard.append)
    >>> finished.append(lambda table: 1 / 0)
    >>> finished.emit("t1")
    >>> heard
    ['t1']
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def emit(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for listener in list(self):
            try:
                listener(*args, **kwargs)
            except Exception:  # the change stands, whatever a listener does
                log.exception("a listener of %r failed", self.name)
