"""PostgreSQL under gevent: a slow query waits on the event loop, not in front of it.

psycopg 3 waits for the server through the selectors gevent patched (from 3.1.14 on),
so a greenlet in a query lets every other greenlet run.  The probe runs the app as
gunicorn's gevent worker does (patched first, then loaded); forcing psycopg's C wait,
which ignores the patch, shows what the test would catch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def probe(database_url: str, **env: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.play.yield_probe", database_url],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


@pytest.mark.slow  # a real one-second query
@pytest.mark.databases("postgresql")
def test_a_slow_query_stalls_neither_a_ticking_greenlet_nor_a_playing_table(
    database_url: str,
) -> None:
    found = probe(database_url)
    assert found["slept"] >= 1
    # Yielding, the longest pause is a bot move's work (about 35 ms on a quiet machine);
    # blocking, it is the whole second (below). Half a second apart leaves room for a
    # busy machine without letting a blocking wait through.
    assert found["max_gap"] < 0.5, found
    # Bots a fiftieth of a second apart: dozens of stored moves while the query slept
    # (a blocking wait lets at most two through).
    assert found["moves_during_sleep"] >= 5, found


@pytest.mark.slow  # a real one-second query
@pytest.mark.databases("postgresql")
def test_a_blocking_wait_would_be_caught(database_url: str) -> None:
    found = probe(database_url, PSYCOPG_WAIT_FUNC="wait_c")
    assert found["max_gap"] >= 0.9, found
    assert found["moves_during_sleep"] <= 2, found
