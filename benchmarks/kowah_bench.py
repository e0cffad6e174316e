"""Kowah figures: checki oracle calls per second, random deals per second, bot decision times.

Run ``.venv/bin/python benchmarks/kowah_bench.py [--games N] [--seed S]``. The oracle is timed
on fresh hands (cache missed) and on repeated ones (cache hit). Bot times are per decision that
offers a choice (a lone legal action is answered without thought), for each level playing
every seat of 3-seat deals against ``medium``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import percentile
from webapp.game.kowah import GAME, checki_pairs
from webapp.game.kowah.cards import DECK
from webapp.game.kowah.oracle import _checki_pairs


def oracle_rate(fresh: bool, seconds: float = 1.0) -> float:
    rng = random.Random(1)
    hands = [rng.sample(DECK, 8) for _ in range(5000)]
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if fresh:
            _checki_pairs.cache_clear()
        for hand in hands:
            checki_pairs(hand)
        calls += len(hands)
    return calls / (time.perf_counter() - start)


def random_deal_rate(games: int, seed: int, with_views: bool) -> float:
    start = time.perf_counter()
    for game in range(games):
        state = GAME.new_game(seed + game, {})
        rng = random.Random(seed + game)
        while (mover := GAME.to_act(state)) is not None:
            if with_views:
                action = GAME.bots["random"](GAME.view(state, mover), rng)
            else:
                action = rng.choice(GAME.legal_actions(state))
            state = GAME.apply(state, action)
    return games / (time.perf_counter() - start)


def bot_times(level: str, games: int, seed: int) -> list[float]:
    times: list[float] = []
    for game in range(games):
        seat_of_level = game % 3
        state = GAME.new_game(seed + game, {})
        rng = random.Random(seed + game)
        while (mover := GAME.to_act(state)) is not None:
            seen = GAME.view(state, mover)
            if mover == seat_of_level:
                begin = time.perf_counter()
                action = GAME.bots[level](seen, rng)
                if len(seen.legal) > 1:
                    times.append(time.perf_counter() - begin)
            else:
                action = GAME.bots["medium"](seen, rng)
            state = GAME.apply(state, action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"checki_pairs, fresh hands: {oracle_rate(fresh=True):,.0f} calls/s")
    print(f"checki_pairs, cached hands: {oracle_rate(fresh=False):,.0f} calls/s")
    games = max(1, args.games // 3)
    rate = random_deal_rate(games, args.seed, with_views=False)
    print(f"random deals (legal_actions + apply): {rate:,.1f} deals/s")
    rate = random_deal_rate(games, args.seed, with_views=True)
    print(f"random deals (view + random bot + apply): {rate:,.1f} deals/s")
    for level in ("random", "easy", "medium", "hard"):
        times = bot_times(level, args.games, args.seed)
        p50, p95, p99 = (1000 * percentile(times, q) for q in (0.5, 0.95, 0.99))
        print(
            f"bot {level:>6}: {len(times)} decisions, ms per decision "
            f"p50 {p50:.3f}  p95 {p95:.3f}  p99 {p99:.3f}  max {1000 * max(times):.3f}"
        )


if __name__ == "__main__":
    main()
