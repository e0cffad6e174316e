"""What an open table costs the browser while nobody touches it: Chromium's CPU seconds.

python benchmarks/clock_cpu.py [--pages 3] [--seconds 10]

Starts the site (gunicorn with the gevent worker, a throwaway instance folder, as the
tests do), opens ``--pages`` Koi-Koi practice tables with the 60-second turn clock in
Debian's Chromium at 360x640, waits until each is the guest's turn, then reads the CPU
time of every Chromium process from /proc before and after ``--seconds`` of idling.
During that time each page shows only its turn clock counting down.  It prints one JSON
object: the CPU seconds, their share of one core per page, and the clock's seconds as
the first page showed them at the start and at the end (they must have gone down).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.conftest import CHROMIUM, LiveServer  # noqa: E402


def chromium_cpu_seconds() -> float:
    """User and system CPU of every running Chromium process, from /proc."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue  # ended meanwhile
        if b"chrom" not in command.split(b"\0")[0]:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def measure(pages: int, seconds: float) -> dict[str, object]:
    with (
        LiveServer(Path(tempfile.mkdtemp())) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM)  # the tests' browser
        context = browser.new_context(viewport={"width": 360, "height": 640})
        opened = []
        for _ in range(pages):
            page = context.new_page()
            page.goto(f"{server.url}/en/play/koikoi")
            page.check("input[name=clock][value='60']")
            page.locator(".setup-form button").click()
            page.wait_for_selector("#status[data-turn='1'] .timer")
            opened.append(page)
        clock = opened[0].locator("#status .timer")
        shown = [clock.inner_text()]
        before = chromium_cpu_seconds()
        time.sleep(seconds)
        used = chromium_cpu_seconds() - before
        shown.append(clock.inner_text())
        browser.close()
    return {
        "pages": pages,
        "seconds": seconds,
        "chromium_cpu_seconds": round(used, 2),
        "core_share_per_page": round(used / seconds / pages, 3),
        "clock_shown": shown,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    print(json.dumps(measure(args.pages, args.seconds), indent=2))


if __name__ == "__main__":
    main()
