"""Golden playouts: fixed seeds and bot line-ups per game, played to the end, whose move
count, outcome and action-log hash are checked in (``<game>.json`` beside this file), in
the spirit of python-chess's perft files.

A change to any of them is a change of the rules (or of the bots these line-ups use):
make it on purpose, raise the game's ``RULES_VERSION`` if stored logs would replay
differently, and write the files again::

    python -m tests.game.golden --write

Only bots whose choices depend on nothing but their view and their seeded generator play
here: ``random`` everywhere, and ``easy`` where a game needs a bot that can win (Koa).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webapp.game.registry import games

HERE = Path(__file__).resolve().parent
#: A playout that has not ended after this many actions is a failure, not a result.
MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class Case:
    """One playout: the deal's seed, the table's options, the bot level at each seat."""

    seed: int
    options: dict[str, Any]
    bots: tuple[str, ...]


def _cases(options: dict[str, Any], bots: tuple[str, ...], seeds: tuple[int, ...]) -> list[Case]:
    return [Case(seed, options, bots) for seed in seeds]


ALTERNATE = ("easy", "random", "easy", "random")
#: The playouts of each game: every option that changes the play, and for Kowah seeds
#: picked so that each way a deal ends shows up (stock out, draw, self-draw, discard).
CASES: dict[str, list[Case]] = {
    "koa": [
        case
        for mode in ("quick", "full")
        for bots in (("easy",) * 4, ALTERNATE)
        for case in _cases({"mode": mode}, bots, (1, 2, 3))
    ],
    "kowah": [
        *_cases({"players": 2}, ("random",) * 2, (1, 12, 22, 26)),
        *_cases({"players": 3}, ("random",) * 3, (1, 4, 5, 30)),
        *_cases({"players": 4}, ("random",) * 4, (1, 18, 27, 39)),
    ],
    "koikoi": [
        *_cases({"rounds": 3}, ("random", "random"), (1, 2)),
        *_cases({"rounds": 3}, ("easy", "random"), (1, 2)),
        *_cases({"rounds": 6}, ("easy", "easy"), (1,)),
        *_cases({"rounds": 12}, ("random", "easy"), (1,)),
    ],
}


def play(name: str, case: Case) -> dict[str, Any]:
    """Play one case to its end: the record the golden file keeps for it."""
    game = games()[name]
    gens = [random.Random(f"{case.seed}:{seat}") for seat in range(len(case.bots))]
    state = game.new_game(case.seed, case.options)
    log: list[str] = []
    while (seat := game.to_act(state)) is not None:
        assert len(log) < MAX_ACTIONS, f"{name} {case} did not end"
        action = game.bots[case.bots[seat]](game.view(state, seat), gens[seat])
        state = game.apply(state, action)
        log.append(str(action))
    outcome = game.outcome(state)
    assert outcome is not None
    record = {
        "seed": case.seed,
        "options": case.options,
        "bots": list(case.bots),
        "moves": len(log),
        "winners": list(outcome.winners),
        "points": list(outcome.points),
        "reason": outcome.reason,
        "detail": outcome.detail,
        "log_sha256": hashlib.sha256("\n".join(log).encode()).hexdigest(),
    }
    # As the file holds it: JSON turns tuples into lists.
    return dict(json.loads(json.dumps(record)))


def path_of(name: str) -> Path:
    return HERE / f"{name}.json"


def current(name: str) -> dict[str, Any]:
    """The golden file of ``name`` as the engine plays it now."""
    return {
        "about": (
            f"Golden playouts of {name}: a rules change must change them on purpose, "
            "together with the game's RULES_VERSION. See README.md; regenerate with "
            "python -m tests.game.golden --write"
        ),
        "game": name,
        "rules_version": games()[name].rules_version,
        "playouts": [play(name, case) for case in CASES[name]],
    }


def dumps(golden: dict[str, Any]) -> str:
    """The file's text: its header fields, then one playout a line (a diff shows which).

    >>> print(dumps({"game": "g", "playouts": [{"seed": 1}, {"seed": 2}]}), end="")
    {
     "game": "g",
     "playouts": [
      {"seed": 1},
      {"seed": 2}
     ]
    }
    """
    header = {key: value for key, value in golden.items() if key != "playouts"}
    lines = [
        f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},"
        for key, value in header.items()
    ]
    rows = [f"  {json.dumps(record, ensure_ascii=False)}" for record in golden["playouts"]]
    return "\n".join(["{", *lines, ' "playouts": [', ",\n".join(rows), " ]", "}"]) + "\n"


def stored(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path_of(name).read_text())
    return found
