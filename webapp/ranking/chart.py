"""The rating-history chart's geometry: numbers in, coordinates out, no markup.

The template (templates/ranking/_chart.html) draws the SVG from a :class:`Chart`; this
module only decides the scale, the grid lines and where each point goes, in a fixed
viewBox that the page scales to its width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 150
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 10, 22
STEPS = (10, 25, 50, 100, 250, 500)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str
    last: tuple[float, float]
    grid: tuple[tuple[float, int], ...]
    first_game: int
    last_game: int
    left: int
    right: int
    bottom: int
    low: int
    high: int
    start: int
    end: int


def nice_range(low: float, high: float, lines: int = 4) -> tuple[int, int, int]:
    """Bounds and step for the y axis: round numbers around ``low`` to ``high``.

    >>> nice_range(1483.2, 1541.7)
    (1475, 1550, 25)
    >>> nice_range(1500, 1500)
    (1490, 1510, 10)
    """
    span = max(high - low, 1.0)
    step = next((step for step in STEPS if span / step <= lines), STEPS[-1])
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        bottom, top = bottom - step, top + step
    return int(bottom), int(top), step


def chart(values: Sequence[float], games: int) -> Chart | None:
    """The chart of ``values`` (ratings, oldest first, the last after game ``games``).

    >>> c = chart([1500, 1520, 1510], games=2)
    >>> c.points
    '38.0,128.0 174.0,10.0 310.0,69.0'
    >>> c.first_game, c.last_game, [label for _y, label in c.grid]
    (0, 2, [1500, 1510, 1520])
    >>> chart([], games=0) is None
    True
    """
    if len(values) < 2:
        return None
    low, high, step = nice_range(min(values), max(values))
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_width * index / (len(values) - 1)

    def y(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    coordinates = [(round(x(i), 1), round(y(v), 1)) for i, v in enumerate(values)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{cx},{cy}" for cx, cy in coordinates),
        last=coordinates[-1],
        grid=tuple((round(y(level), 1), level) for level in range(low, high + 1, step)),
        first_game=games - (len(values) - 1),
        last_game=games,
        left=LEFT,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - BOTTOM,
        low=round(min(values)),
        high=round(max(values)),
        start=round(values[0]),
        end=round(values[-1]),
    )
