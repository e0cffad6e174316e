"""How long each test file takes, for the order in which the workers take the files.

``make test`` hands whole files to its workers, costliest first (tests/conftest.py): the
minute-long files start at once, side by side, and the short ones fill in after them,
instead of one worker drawing a minute-long file last and the whole run waiting on it.
The seconds come from a full run (``costs.txt``, next to this file); a file not listed
there is estimated by its marks.  To record them again after a full run with durations:

    .venv/bin/python -m pytest tests webapp -n 3 --durations=0 -q > run.log
    .venv/bin/python -m tests.costs run.log > tests/costs.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

RECORDED = Path(__file__).with_name("costs.txt")
#: A line of pytest's ``--durations`` report: seconds, phase, test id.
DURATION = re.compile(r"^([0-9.]+)s (?:setup|call|teardown)\s+([^:\s]+)::", re.M)
#: Files shorter than this are left to the estimate by marks.
LISTED = 2.0


def recorded() -> dict[str, float]:
    """The recorded seconds of each listed file, by its path from the repository."""
    lines = RECORDED.read_text().splitlines()
    return {
        path: float(seconds)
        for seconds, path in (line.split() for line in lines if not line.startswith("#"))
    }


def estimated(item: pytest.Item) -> float:
    """A test's rough seconds by its marks (means of a full run on the 2-core machine)."""
    if item.get_closest_marker("slow"):
        return 20
    if item.get_closest_marker("e2e"):
        return 5
    return 1.5 if item.get_closest_marker("live") else 0.25


def by_file(log: str) -> dict[str, float]:
    """Seconds per file in a ``--durations=0`` report."""
    seconds: dict[str, float] = {}
    for taken, path in DURATION.findall(log):
        seconds[path] = seconds.get(path, 0.0) + float(taken)
    return seconds


def main(log: Path) -> None:
    print("# Seconds per test file in a full run (tests/costs.py says how to record them).")
    for path, seconds in sorted(by_file(log.read_text()).items(), key=lambda pair: -pair[1]):
        if seconds >= LISTED:
            print(f"{seconds:.0f} {path}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
