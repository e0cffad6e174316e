"""Koi-Koi figures: yaku oracle calls per second, random matches per second, bot decision times.

Run ``.venv/bin/python benchmarks/koikoi_bench.py [--games N] [--seed S]``.  Bot times are
per decision that offers a choice (a lone legal action is answered without thought), for
each level playing seat 0 and 1 in turn against ``medium``, over 12-round matches.  In the
same games it counts how often each level lays a card down while a capture was available
(people do it in about 3% of such plays).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import percentile
from webapp.game.koikoi import GAME, yaku
from webapp.game.koikoi.actions import Play
from webapp.game.koikoi.cards import DECK, MONTH
from webapp.game.koikoi.view import KoikoiView


def oracle_rate(seconds: float = 1.0) -> float:
    rng = random.Random(1)
    piles = [rng.sample(DECK, rng.randint(0, 24)) for _ in range(2000)]
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for pile in piles:
            yaku(pile)
        calls += len(piles)
    return calls / (time.perf_counter() - start)


def random_match_rate(games: int, seed: int, with_views: bool) -> float:
    start = time.perf_counter()
    for game in range(games):
        state = GAME.new_game(seed + game, {"rounds": 12})
        rng = random.Random(seed + game)
        while (mover := GAME.to_act(state)) is not None:
            if with_views:
                action = GAME.bots["random"](GAME.view(state, mover), rng)
            else:
                action = rng.choice(GAME.legal_actions(state))
            state = GAME.apply(state, action)
    return games / (time.perf_counter() - start)


def declined(view: KoikoiView, action: object) -> bool | None:
    """Whether a hand play lays a card down although one could capture (None: no capture)."""
    if view.phase != "play" or not isinstance(action, Play):
        return None
    months = {MONTH[card] for card in view.field}
    if not any(MONTH[card] in months for card in view.hand):
        return None
    return MONTH[action.card] not in months


def bot_times(level: str, games: int, seed: int, declines: list[bool]) -> list[float]:
    times: list[float] = []
    for game in range(games):
        seat = game % 2
        state = GAME.new_game(seed + game, {"rounds": 12})
        rng = random.Random(seed + game)
        while (mover := GAME.to_act(state)) is not None:
            seen = GAME.view(state, mover)
            bot = GAME.bots[level if mover == seat else "medium"]
            start = time.perf_counter()
            action = bot(seen, rng)
            elapsed = time.perf_counter() - start
            if mover == seat and len(seen.legal) > 1:
                times.append(elapsed * 1000)
            if mover == seat and (lay := declined(seen, action)) is not None:
                declines.append(lay)
            state = GAME.apply(state, action)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"yaku oracle: {oracle_rate():,.0f} calls/s")
    bare = random_match_rate(args.games, args.seed, False)
    viewed = random_match_rate(args.games, args.seed, True)
    print(f"random 12-round matches, engine only: {bare:.1f}/s")
    print(f"random 12-round matches, with views:  {viewed:.1f}/s")
    for level in ("random", "easy", "medium", "hard"):
        declines: list[bool] = []
        times = bot_times(level, args.games, args.seed, declines)
        print(
            f"bot {level:6}: {len(times)} decisions, ms p50 {percentile(times, 0.5):.2f}"
            f" p95 {percentile(times, 0.95):.2f} p99 {percentile(times, 0.99):.2f}"
            f" max {times[-1]:.2f}; lays a card down with a capture available in"
            f" {sum(declines)} of {len(declines)} plays ({sum(declines) / len(declines):.1%})"
        )


if __name__ == "__main__":
    main()
