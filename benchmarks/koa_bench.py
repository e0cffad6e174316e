"""Koa figures: koa_cards calls per second, random rounds and matches per second, bot ms.

Run ``.venv/bin/python benchmarks/koa_bench.py [--games N] [--seed S]``.  The oracle is
timed on fresh random 11-card hands with its cache cleared and on repeated hands (cache
hit).  Random players almost never reach ceki, so a random round nearly always runs the
arena out: "random rounds" are rounds of four random players played to their end, and
"matches" are whole Quick matches between ``easy`` bots.  Bot times are per decision
that offers a choice, for each level playing all four seats.  Times are CPU seconds of
this process (``time.process_time``), so a busy machine does not inflate them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webapp.game.koa import GAME, koa_cards
from webapp.game.koa.cards import DECK
from webapp.game.koa.oracle import _koa_of_vector, koa_indexes

# CPU time of this process: the other workers sharing the machine do not inflate it.
clock = time.process_time


def oracle_rate(fresh: bool, seconds: float = 1.0) -> float:
    rng = random.Random(1)
    hands = [rng.sample(DECK, 11) for _ in range(5000)]
    calls, start = 0, clock()
    while clock() - start < seconds:
        if fresh:
            koa_indexes.cache_clear()
            _koa_of_vector.cache_clear()
        for hand in hands:
            koa_cards(hand)
        calls += len(hands)
    return calls / (clock() - start)


def random_round_rate(rounds: int, seed: int) -> tuple[float, float]:
    """Random rounds per second and actions per second (with a view per decision)."""
    actions = 0
    start = clock()
    for number in range(rounds):
        state = GAME.new_game(seed + number, {})
        rng = random.Random(seed + number)
        while state.phase in ("take", "throw"):
            mover = GAME.to_act(state)
            state = GAME.apply(state, GAME.bots["random"](GAME.view(state, mover), rng))
            actions += 1
    seconds = clock() - start
    return rounds / seconds, actions / seconds


def match_rate(games: int, seed: int, level: str) -> float:
    start = clock()
    for number in range(games):
        state = GAME.new_game(seed + number, {})
        gens = [random.Random(f"{seed + number}:{seat}") for seat in range(4)]
        while (mover := GAME.to_act(state)) is not None:
            state = GAME.apply(state, GAME.bots[level](GAME.view(state, mover), gens[mover]))
    return games / (clock() - start)


def bot_times(level: str, games: int, seed: int) -> list[float]:
    times: list[float] = []
    for number in range(games):
        state = GAME.new_game(seed + number, {})
        gens = [random.Random(f"{seed + number}:{seat}") for seat in range(4)]
        while (mover := GAME.to_act(state)) is not None:
            view = GAME.view(state, mover)
            begin = clock()
            action = GAME.bots[level](view, gens[mover])
            if len(view.legal) > 1:
                times.append((clock() - begin) * 1000)
            state = GAME.apply(state, action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"koa_cards, cache cleared: {oracle_rate(True):,.0f} calls/s")
    print(f"koa_cards, cached:        {oracle_rate(False):,.0f} calls/s")
    rounds, actions = random_round_rate(args.games, args.seed)
    print(f"random rounds (4 random players, to arena habis or koa): {rounds:.2f} rounds/s")
    print(f"engine with a view per decision: {actions:,.0f} actions/s")
    print(f"quick matches between easy bots: {match_rate(args.games, args.seed, 'easy'):.2f}/s")
    for level in ("random", "easy", "medium", "hard"):
        if level == "random":
            times = sorted(bot_times_random(args.games, args.seed))
        else:
            times = bot_times(level, args.games, args.seed)
        last = len(times) - 1
        p50, p95, p99 = (times[min(last, int(q * len(times)))] for q in (0.5, 0.95, 0.99))
        print(
            f"bot {level:>6}: {len(times)} decisions, ms p50 {p50:.3f}  p95 {p95:.3f}  "
            f"p99 {p99:.3f}  max {times[-1]:.3f}"
        )


def bot_times_random(games: int, seed: int) -> list[float]:
    """Random bots never finish a match, so time them over single rounds."""
    times: list[float] = []
    for number in range(games):
        state = GAME.new_game(seed + number, {})
        rng = random.Random(seed + number)
        while state.phase in ("take", "throw"):
            view = GAME.view(state, GAME.to_act(state))
            begin = clock()
            action = GAME.bots["random"](view, rng)
            if len(view.legal) > 1:
                times.append((clock() - begin) * 1000)
            state = GAME.apply(state, action)
    return times


if __name__ == "__main__":
    main()
