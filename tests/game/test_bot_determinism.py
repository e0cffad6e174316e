"""Bots are deterministic: the same view and seed give the same action in any Python process.

String hashing changes with ``PYTHONHASHSEED``, so anything that lets the iteration order of
a set of card ids decide a choice (or the order of a float sum) makes a bot play differently
from one process to the next.  This file plays whole games between every level of every game
in two subprocesses with different hash seeds and compares the action logs.  Run as a script
it prints those logs as JSON.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.game.playout import heuristic
from tests.tiers import scaled

ROOT = Path(__file__).resolve().parents[2]
SEEDS = (1, 2)
#: A lineup of random players may never end (Koa); the logs are compared this far.
MAX_ACTIONS = 1500
#: The expert's game is compared whole in ``make test``; ``make check`` compares its first
#: 40 actions (a second less in each process, on each of the two cores).
EXPERT_ACTIONS = scaled(MAX_ACTIONS, 40)
OPTIONS: dict[str, dict[str, Any]] = {"koikoi": {"rounds": 3}}
#: The expert at a fixed budget of deals (its default also stops on the clock, which no two
#: processes share); 16 is the fewest at which the search may leave ``hard``'s move in every
#: game (Koa's and Kowah's ``min_deals``), so the search's own choices are compared too.
EXPERT = "expert@16"


def lineups(levels: list[str], seats: int) -> list[tuple[str, ...]]:
    """Every rotation of the level list, cut to the seat count: each level sits twice or more.

    >>> lineups(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'c'), ('c', 'a')]
    """
    return [tuple(levels[(i + s) % len(levels)] for s in range(seats)) for i in range(len(levels))]


def play(name: str, labels: tuple[str, ...], seed: int, most: int = MAX_ACTIONS) -> list[str]:
    """The action log of one game with these bot levels at the seats (``most`` actions)."""
    from webapp.game.registry import get
    from webapp.game.simulate import bot_named

    game = get(name)
    bots = {label: bot_named(game, label) for label in labels}
    options = {**game.default_options, **OPTIONS.get(name, {})}
    if len(game.seat_counts) > 1:
        options["players"] = len(labels)
    gens = [random.Random(f"{seed}:{seat}") for seat in range(len(labels))]
    state = game.new_game(seed, options)
    log: list[str] = []
    while game.outcome(state) is None and len(log) < most:
        seat = game.to_act(state)
        assert seat is not None
        action = bots[labels[seat]](game.view(state, seat), gens[seat])
        log.append(f"{seat} {action}")
        state = game.apply(state, action)
    return log


def koikoi_near_tie() -> str:
    """The hand and field of issue 19 where ``hard`` once followed the hash seed."""
    from dataclasses import replace

    from webapp.game.koikoi import GAME
    from webapp.game.koikoi.cards import DECK, sort_cards
    from webapp.game.koikoi.rules import new_game
    from webapp.game.koikoi.view import view

    hand = ("feb-plain-1", "apr-plain-1", "may-plain-1", "dec-plain-1")
    field = ("jan-plain-1", "mar-plain-1", "jun-plain-1", "jul-plain-1")
    rest = [card for card in DECK if card not in {*hand, *field}]
    state = replace(
        new_game(1, {}),
        hands=(hand, sort_cards(rest[:4])),
        field=field,
        stock=tuple(rest[4:]),
        captured=((), ()),
        phase="play",
        turn=0,
    )
    return " ".join(
        str(GAME.bots[level](view(state, 0), random.Random(0))) for level in heuristic(GAME.bots)
    )


def every_log() -> dict[str, Any]:
    from webapp.game.registry import games

    logs: dict[str, Any] = {"koikoi-near-tie": koikoi_near_tie()}
    for name, game in games().items():
        seats = max(count for count in game.seat_counts if count <= 4)
        levels = heuristic(game.bots)
        # a whole game of the expert against the other levels (one seed: it searches)
        expert_game = (EXPERT, *levels)[:seats]
        logs[f"{name} {','.join(expert_game)} seed 1"] = play(name, expert_game, 1, EXPERT_ACTIONS)
        for labels in lineups(levels, seats):
            for seed in SEEDS:
                logs[f"{name} {','.join(labels)} seed {seed}"] = play(name, labels, seed)
    return logs


def logs_under(*hash_seeds: str) -> list[dict[str, Any]]:
    """The logs printed by this file run under each hash seed (the processes run at once)."""
    runs = [
        subprocess.Popen(
            [sys.executable, __file__],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for hash_seed in hash_seeds
    ]
    outputs = [run.communicate()[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    return [json.loads(output) for output in outputs]


def test_every_bot_plays_the_same_games_under_any_hash_seed() -> None:
    first, second = logs_under("0", "6")
    assert first.keys() == second.keys()
    differ = [key for key in first if first[key] != second[key]]
    assert not differ, f"games that depend on the hash seed: {differ}"
    assert len(first) > 1 + len(SEEDS) * 2  # every game was played


if __name__ == "__main__":
    json.dump(every_log(), sys.stdout)
