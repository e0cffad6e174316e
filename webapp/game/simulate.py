"""The bot-strength simulator: plays seeded deals between bot levels for any registered game.

``python -m webapp.game.simulate koa --games 500 --seed 1 --bots hard,random,hard,random``
plays each deal once per seating (duplicate play): every rotation of the bot list for team
games, every permutation for games where each seat plays alone, so every bot sits in every
position on the same cards.  It prints one JSON object: wins by lineup team and by seat,
draws, each lineup team's and each bot level's share of decided games with a 95% interval
clustered by deal (all seatings of one seed together), points, turns, bot milliseconds per
decision and games per second.  It finds games through the registry and names none.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from webapp.game.protocol import Bot
from webapp.game.registry import AnyGame, get
from webapp.game.search import Expert

#: A game that has not ended after this many actions is stopped and counted as unfinished.
MAX_ACTIONS = 50_000


@dataclass(frozen=True)
class GameRecord:
    """One played game: who sat where and how it ended."""

    seed: int
    labels: tuple[str, ...]  # bot level per seat
    lineup: tuple[int, ...]  # index in the bot list per seat
    winners: tuple[int, ...]
    points: tuple[int, ...]
    rounds: int | None
    turns: int
    finished: bool


@dataclass
class Batch:
    """Records and timings from one worker."""

    records: list[GameRecord] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)


def seatings(game: AnyGame, seats: int) -> list[tuple[int, ...]]:
    """Which bot-list index sits at each seat, for every seating of one deal.

    Team games rotate the list; games where everyone plays alone use every permutation.

    >>> from webapp.game.protocol import solo_teams
    >>> class Fake:
    ...     teams = staticmethod(solo_teams)
    >>> seatings(Fake(), 2)  # type: ignore[arg-type]
    [(0, 1), (1, 0)]
    """
    solo = all(len(team) == 1 for team in game.teams(seats))
    if solo:
        return list(itertools.permutations(range(seats)))
    return [tuple((seat + shift) % seats for seat in range(seats)) for shift in range(seats)]


def bot_named(game: AnyGame, label: str) -> Bot[Any, Any]:
    """A bot level by name; ``expert@N`` searches N deals a decision with no clock cap.

    The budget in deals makes a run repeatable on a busy machine, where the clock cap of
    the default ``expert`` would cut its searches short.
    """
    level, _, deals = label.partition("@")
    bot = game.bots.get(level)
    if bot is not None and not deals:
        return bot
    if isinstance(bot, Expert) and deals.isdigit():
        return bot.budgeted(int(deals), None)
    raise SystemExit(f"unknown bot level {label!r}; known: {sorted(game.bots)} and expert@N")


def play_one(
    game: AnyGame,
    seed: int,
    options: Mapping[str, Any],
    bots: Sequence[str],
    lineup: tuple[int, ...],
    times: dict[str, list[float]],
) -> GameRecord:
    """Play one game with bot ``bots[lineup[seat]]`` at each seat."""
    labels = tuple(bots[index] for index in lineup)
    players = {label: bot_named(game, label) for label in labels}
    gens = [random.Random(f"{seed}:{lineup}:{seat}") for seat in range(len(lineup))]
    state = game.new_game(seed, options)
    turns = 0
    previous: int | None = None
    actions = 0
    outcome = game.outcome(state)
    while outcome is None and actions < MAX_ACTIONS:
        seat = game.to_act(state)
        if seat is None:
            break
        if seat != previous:
            turns += 1
            previous = seat
        label = labels[seat]
        view = game.view(state, seat)
        start = time.perf_counter()
        action = players[label](view, gens[seat])
        times.setdefault(label, []).append((time.perf_counter() - start) * 1000.0)
        state = game.apply(state, action)
        actions += 1
        outcome = game.outcome(state)
    if outcome is None:
        return GameRecord(seed, labels, lineup, (), (), None, turns, False)
    rounds = outcome.detail.get("rounds")
    return GameRecord(
        seed,
        labels,
        lineup,
        tuple(outcome.winners),
        tuple(outcome.points),
        int(rounds) if rounds is not None else None,
        turns,
        True,
    )


def run_batch(
    name: str, seeds: Sequence[int], options: Mapping[str, Any], bots: Sequence[str]
) -> Batch:
    """Play every seating of every seed (one worker's share)."""
    game = get(name)
    batch = Batch()
    for seed in seeds:
        for lineup in seatings(game, len(bots)):
            batch.records.append(play_one(game, seed, options, bots, lineup, batch.times))
    return batch


def share_ci(clusters: Mapping[int, tuple[float, float]]) -> dict[str, float | None]:
    """A ratio of wins to decided games with a 95% interval clustered by seed.

    >>> share_ci({1: (1, 1), 2: (0, 1), 3: (1, 1), 4: (1, 1)})["share"]
    0.75
    """
    total_x = sum(x for x, _ in clusters.values())
    total_n = sum(n for _, n in clusters.values())
    if total_n == 0:
        return {"share": None, "low": None, "high": None}
    share = total_x / total_n
    count = len(clusters)
    if count < 2:
        return {"share": share, "low": None, "high": None}
    spread = sum((x - share * n) ** 2 for x, n in clusters.values())
    variance = count / (count - 1) * spread / total_n**2
    half = 1.96 * math.sqrt(variance)
    return {"share": share, "low": max(0.0, share - half), "high": min(1.0, share + half)}


def percentiles(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p95 and p99 of a list (None when empty)."""
    if not values:
        return {"p50": None, "p95": None, "p99": None}
    ordered = sorted(values)
    last = len(ordered) - 1

    def at(q: float) -> float:
        return round(ordered[min(last, int(q * len(ordered)))], 4)

    return {"p50": at(0.50), "p95": at(0.95), "p99": at(0.99)}


def summarize(game: AnyGame, bots: Sequence[str], batch: Batch, seconds: float) -> dict[str, Any]:
    """The report printed by the command line."""
    seats = len(bots)
    teams = game.teams(seats)
    records = batch.records
    decided = [r for r in records if r.finished and r.winners]
    report: dict[str, Any] = {
        "game": game.name,
        "bots": list(bots),
        "games": len(records),
        "deals": len({r.seed for r in records}),
        "draws": sum(1 for r in records if r.finished and not r.winners),
        "unfinished": sum(1 for r in records if not r.finished),
        "decided": len(decided),
    }
    # Lineup teams: the bot-list positions that play together, wherever they sit.
    team_report = []
    for team in teams:
        clusters: dict[int, tuple[float, float]] = {}
        wins = 0
        for record in records:
            x, n = clusters.get(record.seed, (0.0, 0.0))
            if record.finished and record.winners:
                won = any(record.lineup[seat] in team for seat in record.winners)
                wins += won
                clusters[record.seed] = (x + won, n + 1)
            else:
                clusters[record.seed] = (x, n)
        team_report.append(
            {
                "positions": list(team),
                "bots": "+".join(bots[i] for i in team),
                "wins": wins,
                **share_ci(clusters),
            }
        )
    report["teams"] = team_report
    report["wins_per_seat"] = [
        sum(1 for r in decided if seat in r.winners) for seat in range(seats)
    ]
    # Per level: each seat occurrence of a level counts once per decided game.
    levels: dict[str, Any] = {}
    for label in dict.fromkeys(bots):
        clusters = {}
        points = 0.0
        occurrences = 0
        rounds = 0
        for record in records:
            mine = [seat for seat, lab in enumerate(record.labels) if lab == label]
            x, n = clusters.get(record.seed, (0.0, 0.0))
            if record.finished and record.winners:
                x += sum(1 for seat in mine if seat in record.winners)
                n += len(mine)
            clusters[record.seed] = (x, n)
            if record.finished and record.points:
                points += sum(record.points[seat] for seat in mine)
                occurrences += len(mine)
                rounds += (record.rounds or 0) * len(mine)
        entry: dict[str, Any] = {**share_ci(clusters)}
        entry["points_per_game"] = points / occurrences if occurrences else None
        if rounds:
            entry["points_per_round"] = points / rounds
        entry["ms_per_decision"] = percentiles(batch.times.get(label, []))
        entry["decisions"] = len(batch.times.get(label, []))
        levels[label] = entry
    report["levels"] = levels
    round_counts = [r.rounds for r in records if r.finished and r.rounds]
    total_rounds = sum(round_counts) if round_counts else sum(1 for r in records if r.finished)
    report["mean_rounds_per_game"] = (
        total_rounds / max(1, sum(1 for r in records if r.finished)) if round_counts else None
    )
    report["mean_turns_per_round"] = (
        sum(r.turns for r in records if r.finished) / total_rounds if total_rounds else None
    )
    everything = [t for ts in batch.times.values() for t in ts]
    report["ms_per_decision"] = percentiles(everything)
    report["seconds"] = round(seconds, 2)
    report["games_per_second"] = round(len(records) / seconds, 3) if seconds else None
    return report


def parse_value(text: str) -> Any:
    """An option value: an int when it looks like one, otherwise the text.

    >>> parse_value("12"), parse_value("full")
    (12, 'full')
    """
    try:
        return int(text)
    except ValueError:
        return text


def seat_options(game: AnyGame, seats: int, options: Mapping[str, Any]) -> dict[str, int]:
    """The player count option of a game with several: the number of bots decides it,
    over the game's default; an explicit contradictory one stops the run."""
    if len(game.seat_counts) == 1:
        return {}
    given = options.get("players", seats)
    if given != seats:
        raise SystemExit(
            f"--options players={given} contradicts the {seats} bots given: "
            "the number of bots decides the player count"
        )
    return {"players": seats}


def simulate(
    name: str,
    games: int,
    seed: int,
    bots: Sequence[str],
    options: Mapping[str, Any],
    processes: int = 1,
) -> dict[str, Any]:
    """Play ``games`` deals (each in every seating) and summarize them."""
    game = get(name)
    if len(bots) not in game.seat_counts:
        raise SystemExit(f"{name} is played by {game.seat_counts} players, not {len(bots)}")
    for label in bots:
        bot_named(game, label)
    merged = {**game.default_options, **options, **seat_options(game, len(bots), options)}
    seeds = list(range(seed, seed + games))
    start = time.perf_counter()
    batch = Batch()
    if processes <= 1:
        batch = run_batch(name, seeds, merged, bots)
    else:
        chunks = [seeds[i::processes] for i in range(processes)]
        with ProcessPoolExecutor(processes) as pool:
            parts = pool.map(
                run_batch,
                [name] * processes,
                chunks,
                [merged] * processes,
                [list(bots)] * processes,
            )
            for part in parts:
                batch.records.extend(part.records)
                for label, values in part.times.items():
                    batch.times.setdefault(label, []).extend(values)
    report = summarize(game, bots, batch, time.perf_counter() - start)
    report["options"] = merged
    report["seed"] = seed
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webapp.game.simulate", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100, help="number of deals")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument("--bots", required=True, help="bot level per seat, comma separated")
    parser.add_argument("--options", action="append", default=[], help="key=value, repeatable")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.options:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--options wants key=value, got {item!r}")
        options[key] = parse_value(value)
    bots = [label.strip() for label in args.bots.split(",") if label.strip()]
    report = simulate(args.game, args.games, args.seed, bots, options, args.processes)
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
