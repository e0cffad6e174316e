"""Jobs the expert tests hand to a thinker's worker process.

A spawned worker imports the module of each job it runs: these live apart from the test
module, which imports the whole site, so a worker starts in a fraction of a second.
"""

from __future__ import annotations

import os
import sys
import time


def occupy(free: str, seconds: float) -> None:
    """Hold the worker for ``seconds``, or until the file ``free`` exists."""
    deadline = time.monotonic() + seconds
    while not os.path.exists(free) and time.monotonic() < deadline:
        time.sleep(0.01)


def broken_search(game: str, view: object, seed: str, seconds: float) -> object:
    """A search with a bug."""
    raise ValueError("Sample larger than population or is negative")


def site_modules() -> list[str]:
    """The modules of the web site (Flask and ours outside the engines) loaded so far."""
    return sorted(
        name
        for name in sys.modules
        if name == "flask" or (name.startswith("webapp.") and not name.startswith("webapp.game"))
    )
