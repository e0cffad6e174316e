"""Instructions per applied move, counted exactly: ``table_bench.py people`` under valgrind.

python benchmarks/instructions.py [--game koa] [--moves 400] [CHECKOUT ...]

CPU time on a shared machine moves by a fifth between runs of the same code, so a change
of a few percent does not show in it.  Valgrind counts the instructions the process
executes instead (cachegrind without its cache model), which does not depend on what
else the machine is doing.  Each checkout given (this one by default; another tree of the
repository, a ``git worktree`` say, to compare) runs the in-process people benchmark
twice, its warm-up and then 100 or 100 + MOVES moves, and the difference divided by
MOVES is one move's instructions: imports, the app's start and the warm-up cancel out.
Hash seeds are fixed.  The runs go one per core at a time; valgrind makes each about
fifty times slower (two or three minutes here).

Needs valgrind (Debian: ``apt-get install valgrind``); prints one JSON object per checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE_MOVES = 100
COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(checkout: Path, game: str, moves: int) -> int:
    """The instructions one run of the people benchmark executes, start to end."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(checkout / "benchmarks" / "table_bench.py"),
        "people",
        "--game",
        game,
        "--moves",
        str(moves),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = COUNTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="koa", choices=("koa", "kowah", "koikoi"))
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("checkouts", nargs="*", type=Path, default=[ROOT])
    args = parser.parse_args()
    checkouts = [checkout.resolve() for checkout in args.checkouts]
    for checkout in checkouts:
        # A fresh tree's first runs would compile its modules (and make whatever else a
        # first start leaves on disk), each on its own count: one short run first,
        # without valgrind.
        bench = [str(checkout / "benchmarks" / "table_bench.py"), "people", "--game", args.game]
        subprocess.run([sys.executable, *bench, "--moves", "1"], check=True, capture_output=True)
    runs = [(checkout, count) for checkout in checkouts for count in (0, 1)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        counts = list(
            pool.map(
                lambda run: instructions(run[0], args.game, BASE_MOVES + run[1] * args.moves),
                runs,
            )
        )
    for index, checkout in enumerate(args.checkouts):
        fewer, more = counts[2 * index], counts[2 * index + 1]
        report = {
            "checkout": str(checkout),
            "game": args.game,
            "moves": args.moves,
            "instructions_per_move": round((more - fewer) / args.moves),
        }
        print(json.dumps(report))


if __name__ == "__main__":
    main()
