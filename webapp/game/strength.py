"""The published strength of the bot levels: each step of the ladder measured by the simulator.

``python -m webapp.game.strength`` plays every game's ladder, expert > hard > medium > easy >
random, one step at a time (the stronger level against the one below it, every seating of
each deal, as ``simulate`` plays them) and writes ``webapp/data/bot_strength.json``, which the
bots page shows.  ``--game koa`` measures one game again and keeps the others' figures;
``--scale 0.1`` plays a tenth of the deals (a quick look, not a figure to publish).

Koa's steps are team against team (the stronger level at seats 0 and 2), Kowah's and Koi-Koi's
one against one, so each step's parity is 50%.  The expert plays at a fixed budget of deals
(``expert@N``, no clock cap): its live budget is a clock, which a busy machine would cut.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from webapp.game.registry import AnyGame, games, get
from webapp.game.simulate import seat_options, simulate

#: The levels from the strongest down; each step is a level against the next.
LADDER = ("expert", "hard", "medium", "easy", "random")
#: Where the bots page reads the figures.
DATA = Path(__file__).resolve().parents[1] / "data" / "bot_strength.json"


#: Deals per step where a game names none, and the expert's budget in deals a decision
#: (at least every game's ``min_deals``: with fewer the expert plays ``hard``'s move).
DEALS = 100
EXPERT_DEALS = 32


def lineup(game: AnyGame, stronger: str, weaker: str) -> list[str]:
    """The bots of one step: team against team, or one against one.

    >>> lineup(get("koa"), "hard", "medium")
    ['hard', 'medium', 'hard', 'medium']
    >>> lineup(get("kowah"), "easy", "random")
    ['easy', 'random']
    """
    for seats in sorted(game.seat_counts):
        teams = game.teams(seats)
        if len(teams) == 2:
            return [stronger if seat in teams[0] else weaker for seat in range(seats)]
    raise ValueError(f"{game.name} has no two-sided seating")


def cpu_seconds() -> float:
    """This process's CPU time and that of its children that have ended (``--processes``
    plays in a pool of processes, which ``simulate`` closes before it returns)."""
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


def measure_step(
    name: str, stronger: str, weaker: str, scale: float, processes: int
) -> dict[str, Any]:
    """One step of one game's ladder, as the bots page shows it."""
    game = get(name)
    label = f"expert@{EXPERT_DEALS}" if stronger == "expert" else stronger
    deals = max(1, round(game.ladder_deals.get(stronger, DEALS) * scale))
    bots = lineup(game, label, weaker)
    cpu = cpu_seconds()
    report = simulate(name, deals, 1, bots, {}, processes)
    first = report["teams"][0]
    levels = report["levels"]
    return {
        "stronger": stronger,
        "weaker": weaker,
        "bots": bots,
        "deals": deals,
        "games": report["games"],
        "decided": report["decided"],
        "wins": first["wins"],
        "share": first["share"],
        "low": first["low"],
        "high": first["high"],
        "points": [levels[label]["points_per_game"], levels[weaker]["points_per_game"]],
        "seconds": report["seconds"],
        "cpu_seconds": round(cpu_seconds() - cpu, 1),
        "command": (
            f"python -m webapp.game.simulate {name} --games {deals} --seed 1 "
            f"--bots {','.join(bots)}"
        ),
    }


def measure(name: str, scale: float = 1.0, processes: int = 1) -> dict[str, Any]:
    """Every step of one game's ladder."""
    game = get(name)
    seats = len(lineup(game, LADDER[0], LADDER[1]))
    steps = [
        measure_step(name, stronger, weaker, scale, processes)
        for stronger, weaker in zip(LADDER, LADDER[1:], strict=False)
    ]
    return {
        "measured": time.strftime("%Y-%m-%d"),
        "expert_deals": EXPERT_DEALS,
        "options": {**game.default_options, **seat_options(game, seats, {})},
        "steps": steps,
    }


@cache
def published() -> dict[str, Any]:
    """The figures the site shows, read once per process."""
    return load(DATA)


def load(path: Path = DATA) -> dict[str, Any]:
    """The published figures (an empty record when none were measured)."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"games": {}}
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webapp.game.strength", description=__doc__)
    parser.add_argument("--game", action="append", choices=sorted(games()), help="repeatable")
    parser.add_argument("--scale", type=float, default=1.0, help="share of each step's deals")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    for name in args.game or list(games()):
        measured = measure(name, args.scale, args.processes)
        # read again and written after each game: a long run keeps what it has measured,
        # and runs of other games at the same time keep theirs
        data = load(args.out)
        data["games"][name] = measured
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        json.dump({name: measured}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
