"""benchmarks/hostile.py keeps working: every attack runs, small and short (``--quick``),
against its own real server, and a line of figures comes out for each.  The test runs
every attack at the smallest size that still answers a bystander; a run by hand keeps
the benchmark's own sizes.

Its figures are not checked here (a second per phase on a busy machine says nothing);
that the bystanders were answered at all, and that the server logged no traceback, are.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.live, pytest.mark.slow]

ATTACK_LINE = re.compile(
    r"^\| ([\w-]+): [^|]+ \| (\d+) / (\d+) \| .* \| (ok|MISSED) \| [^|]*\|$", re.M
)


def test_every_attack_runs_and_the_bystanders_are_answered() -> None:
    done = subprocess.run(
        # Half a second a phase is enough for a bystander's move or two in each.
        [sys.executable, "benchmarks/hostile.py", "--quick", "--seconds", "0.5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    named = re.search(r"^# attacks: (.+)$", done.stdout, re.M)
    assert named, done.stdout
    lines = {
        name: (int(calm), int(attacked))
        for name, calm, attacked, _ in ATTACK_LINE.findall(done.stdout)
    }
    assert sorted(lines) == sorted(named.group(1).split(", ")), done.stdout
    assert sum(calm + attacked for calm, attacked in lines.values()) > 0, done.stdout
    assert "# server tracebacks in all: 0;" in done.stdout, done.stdout
