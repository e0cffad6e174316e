"""The expert's time per decision: p50/p95/p99/max in CPU and wall-clock ms, and deals searched.

Run ``.venv/bin/python benchmarks/expert_bench.py [--game G] [--decisions N] [--seed S]
[--deals D] [--seconds T]``.  The expert (default budget: ``webapp.game.search.DEALS`` deals
with a ``SECONDS`` clock cap) decides at seat 0 against ``hard`` bots along seeded games,
only where it has a choice.  CPU time is this process's own, so it is the figure to trust on
a busy machine; the wall clock is what a table waits (the cap stops a search early when the
machine is slow, which the deals column shows).

``--playouts N`` measures instead the CPU time of one deal's playout (a sampled deal, a
move, the round played out) over N of them, with the game's fast ``rollout`` and through
``apply`` and the playout bot as before it.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import percentile
from webapp.game.registry import get
from webapp.game.search import DEALS, SECONDS, Expert


def measure(
    name: str, decisions: int, seed: int, deals: int, seconds: float
) -> dict[str, list[float]]:
    game = get(name)
    default = game.bots["expert"]
    assert isinstance(default, Expert)
    expert = default.budgeted(deals, seconds)
    found: dict[str, list[float]] = {"cpu": [], "wall": [], "deals": []}
    while len(found["cpu"]) < decisions:
        state = game.new_game(seed, game.default_options)
        gen = random.Random(seed)
        while (seat := game.to_act(state)) is not None and len(found["cpu"]) < decisions:
            view = game.view(state, seat)
            if seat == 0 and len(game.legal_actions(state)) > 1:
                cpu, wall = time.process_time(), time.perf_counter()
                result = expert.search(view, gen)
                found["cpu"].append((time.process_time() - cpu) * 1000)
                found["wall"].append((time.perf_counter() - wall) * 1000)
                found["deals"].append(result.deals)
                action = result.action
            else:
                action = game.bots["hard"](view, gen)
            state = game.apply(state, action)
        seed += 1
    return found


def playout_ms(name: str, playouts: int, seed: int, fast: bool) -> float:
    """CPU milliseconds per playout from positions along a game between ``hard`` bots."""
    game = get(name)
    expert = game.bots["expert"]
    assert isinstance(expert, Expert)
    rules = expert.rules if fast else dataclasses.replace(expert.rules, rollout=None)
    slow = Expert(rules, expert.prior, expert.playout)
    views = []
    state = game.new_game(seed, game.default_options)
    gen = random.Random(seed)
    while (seat := game.to_act(state)) is not None:
        view = game.view(state, seat)
        if len(game.legal_actions(state)) > 1:
            views.append((view, seat))
        state = game.apply(state, game.bots["hard"](view, gen))
    start = time.process_time()
    for n in range(playouts):
        view, seat = views[n % len(views)]
        dealt = rules.sample(view, gen)
        slow._play(dealt, rules.legal_actions(dealt)[0], seat, n)
    return (time.process_time() - start) * 1000 / playouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["koa", "kowah", "koikoi"], action="append")
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--playouts", type=int, default=0)
    args = parser.parse_args()
    for name in args.game or ["koa", "kowah", "koikoi"]:
        if args.playouts:
            fast, slow = (playout_ms(name, args.playouts, args.seed, f) for f in (True, False))
            print(f"{name:7} CPU ms a playout: rollout {fast:6.2f}  apply and bot {slow:6.2f}")
            continue
        found = measure(name, args.decisions, args.seed, args.deals, args.seconds)
        for key in ("cpu", "wall", "deals"):
            values = found[key]
            figures = "  ".join(
                f"{label} {percentile(values, share):8.1f}"
                for label, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
            )
            unit = "ms" if key != "deals" else "  "
            print(f"{name:7} {key:5} {unit} {figures}  ({len(values)} decisions)")


if __name__ == "__main__":
    main()
