"""A guided first game: a prepared deal, real bots, and a coach line for every move.

A game's adapter may offer one :class:`Lesson`: the deal (engine options holding the
prepared deck, see ``webapp.game.deck.DEAL_OPTION``), the seed that picks the first player
and seeds the bots, the bots' level, and the person's moves in order, each with what the
coach says before it (what to do and why) and when another move is tried.  The bots play
their seats as at any table; their play is deterministic from the seed, so the same
moves always meet the same table (tests/play/test_lessons.py plays every lesson through).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """One move of the person: its action text, and the coach's words."""

    move: str
    #: Said while the table waits for this move: what to do, and why.
    say: Any
    #: Said when another move is tried: why this one, and not that (nothing changes).
    wrong: Any
    #: Said after the move while the others play, where there is more to tell.
    after: Any = None


@dataclass(frozen=True)
class Lesson:
    """A game's guided first game; the person sits in seat 0."""

    seed: int
    options: Mapping[str, Any]
    level: str
    steps: tuple[Step, ...]
    #: What the lesson teaches, on its start page.
    intro: Any
    #: Said once the game is over.
    end: Any
    #: Said while the others play and the last step has nothing more to tell.
    watch: Any
