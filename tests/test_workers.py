"""How many workers gunicorn starts (gunicorn.conf.py): one unless Redis lets several
share the site, then ``WEB_CONCURRENCY`` or one per core; and the garbage collector's
young threshold and greenlet tracking its processes run with."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from collections.abc import Callable
from typing import cast

from tests.conftest import ROOT

CONF = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
worker_count = cast(Callable[[dict[str, str]], int], CONF["worker_count"])


def test_without_redis_one_worker_serves_everything_whatever_the_platform_says() -> None:
    assert worker_count({}) == 1
    assert worker_count({"WEB_CONCURRENCY": "8"}) == 1


def test_with_redis_the_platforms_count_or_one_per_core() -> None:
    redis = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert worker_count({**redis, "WEB_CONCURRENCY": "3"}) == 3
    assert worker_count(redis) == (os.cpu_count() or 1)
    assert worker_count({**redis, "WEB_CONCURRENCY": "lots"}) == (os.cpu_count() or 1)


def test_the_config_makes_collections_rarer_and_spawns_untracked() -> None:
    # In a process of its own: both settings are the process's, and the config makes them
    # as gunicorn's master loads it, before the worker is forked and imports the site.
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gc, runpy, gevent; runpy.run_path('gunicorn.conf.py');"
            " print(gc.get_threshold()[0], gevent.config.track_greenlet_tree)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == [str(CONF["GC_YOUNG"]), "False"]
    assert CONF["GC_YOUNG"] > 700  # Python's own
