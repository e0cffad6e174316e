"""Guided tables: a lesson's table (webapp/adapters/lesson.py) and its coach.

A table is guided when its options name its game's lesson (:data:`LESSON_OPTION`) and
hold the lesson's deal.  It is an ordinary table (the same engine, hub, bots and pages)
with a coach: the bots play from the lesson's seed, so the table meets each of the
person's moves at a version known in advance.  The coach learns those versions by playing
the lesson through once (with the engine and the hub's own bot generators), then says the
step's line while the table waits at one, and refuses any other move there with the
step's explanation, changing nothing.  A table dealt from an older lesson (another deal)
plays on as a plain practice table, without a coach.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from webapp import adapters
from webapp.adapters.lesson import Lesson
from webapp.game import registry
from webapp.game.deck import DEAL_OPTION
from webapp.play import clock
from webapp.play.hub import Refusal, bot_random

#: The table option that marks a guided table (engines ignore it).
LESSON_OPTION = "lesson"
#: The person's seat at a guided table.
SEAT = 0


def lesson_of(game: str) -> Lesson | None:
    return adapters.get(game).lesson


def table_options(lesson: Lesson) -> dict[str, Any]:
    """A lesson table's options: the lesson's, marked, without a clock (a lesson waits)."""
    return {**lesson.options, LESSON_OPTION: 1, clock.OPTION: 0}


def _plain(value: Any) -> Any:
    """Tuples as lists, as a table's options come back from the database (JSON)."""
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True)
class Move:
    """One action of a played-through lesson: the table's version before it, the state
    it was played in, its text, and the step it is (None: a bot's)."""

    version: int
    state: Any
    text: str
    step: int | None


def play_through(game_name: str, lesson: Lesson) -> Iterator[Move]:
    """The lesson's game as a table plays it: the steps for seat 0, the lesson's bots for
    the others (the hub's generators), until the game ends or the steps run out.  The
    state after the last move is ``game.apply(move.state, ...)`` of the last one."""
    game = registry.get(game_name)
    state = game.new_game(lesson.seed, {**game.default_options, **table_options(lesson)})
    steps = iter(enumerate(lesson.steps))
    version = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)
        if seat is None:
            return
        if seat == SEAT:
            index, step = next(steps, (None, None))
            if index is None or step is None:
                return
            action = game.parse_action(step.move)
        else:
            index = None
            view = game.view(state, seat)
            action = game.bots[lesson.level](view, bot_random(lesson.seed, version, seat))
        yield Move(version, state, str(action), index)
        state = game.apply(state, action)
        version += 1


@dataclass(frozen=True)
class Guide:
    """The coach of a lesson's tables: the version at which the table waits for each step."""

    lesson: Lesson
    waits: Mapping[int, int]

    def check(self, version: int, seat: int, text: str) -> None:
        """Refuse, with the step's explanation, any move but the step's at its version."""
        index = self.waits.get(version)
        if seat != SEAT or index is None:
            return
        step = self.lesson.steps[index]
        if text != step.move:
            raise Refusal("lesson", step.wrong)

    def line(self, version: int, seat: int | None, over: bool) -> Any:
        """What the coach says to ``seat`` now (None: nothing, to anyone but the person)."""
        if seat != SEAT:
            return None
        if over:
            return self.lesson.end
        index = self.waits.get(version)
        if index is not None:
            return self.lesson.steps[index].say
        done = [i for v, i in self.waits.items() if v < version]
        after = self.lesson.steps[max(done)].after if done else None
        return after or self.lesson.watch

    def wrong(self, version: int) -> Any:
        """The explanation of the step the table waits for (None when it waits for none)."""
        index = self.waits.get(version)
        return None if index is None else self.lesson.steps[index].wrong


@cache
def guide(game: str) -> Guide | None:
    """The coach of ``game``'s lesson, played through once per process."""
    lesson = lesson_of(game)
    if lesson is None:
        return None
    waits = {
        move.version: move.step for move in play_through(game, lesson) if move.step is not None
    }
    return Guide(lesson, waits)


def coach_for(game: str, options: Mapping[str, Any]) -> Guide | None:
    """The coach of a table with these options: a table of its game's lesson, dealt from
    the lesson as it stands (an older lesson's table plays on without one)."""
    lesson = lesson_of(game)
    if lesson is None or not options.get(LESSON_OPTION):
        return None
    if _plain(options.get(DEAL_OPTION)) != _plain(lesson.options.get(DEAL_OPTION)):
        return None
    return guide(game)
