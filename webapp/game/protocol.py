"""The small protocol every game engine speaks.

A game is a bundle of pure functions over frozen dataclasses, in the manner of
python-chess and scalachess: ``new_game(seed, options)`` deals, ``apply(state, action)``
returns a new state or raises :class:`IllegalAction`, ``view(state, seat)`` is the only
door to what a seat (or a spectator, ``seat=None``) may know, and every action has a
short text form that is also the action log's format.  Bots are functions of a view and
their own random generator, so they cannot peek at the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar


class IllegalAction(ValueError):
    """An action the rules refuse, with a language-neutral reason code.

    >>> err = IllegalAction("makan-own", "card came from your mandan")
    >>> err.reason
    'makan-own'
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class Action(Protocol):
    """Every action renders to a short text (its log form) with ``str()``."""

    def __str__(self) -> str: ...


class Reason(StrEnum):
    """Why a game ended.  Each game lists its own reasons as a subclass (its ``Ending``);
    a member is its code, a string the templates translate and the logs show."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the seats that won (both partners in a team game), empty on a draw.
    ``points`` gives each seat's final score in the game's own unit (Koa: marks, Kowah:
    the winner's multiplier, Koi-Koi: match points).  ``reason`` is a code the templates
    translate; ``detail`` carries game-specific codes and numbers for the result screen.
    """

    winners: tuple[int, ...]
    points: tuple[int, ...]
    reason: Reason
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def draw(self) -> bool:
        return not self.winners


S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

#: A bot decides from a seat's view with its own generator; it never sees the state.
Bot = Callable[[V, random.Random], A]


@dataclass(frozen=True)
class Game(Generic[S, A, V]):
    """A game's descriptor: what the registry, the simulator and the hub need of it.

    ``to_act`` names the one seat whose decision the game waits for (``None`` once the
    game is over).  ``timeout_action`` is what the table plays when that seat's turn
    timer runs out; applying it completes the seat's turn.  ``teams`` lists the seats
    that win together (every seat alone in a game without partners).

    ``deck`` is the full deck (every copy), ``cards`` lists every card of a state in
    every zone (their multisets are equal at every step), and ``hidden_cards`` gives the
    card ids that a seat (``None``: a spectator) may not see anywhere at that moment: no
    view, page or message for that seat may mention one of them.

    ``rules_version`` is stored with every table: raise it with any change that makes an
    action log replay differently (tests/game/golden holds the playouts that show it).
    ``standard_rules`` tells whether a table's options play the rules as written (no house
    rule): only such matches count for the ratings.  ``ladder_deals`` is how many deals
    ``strength`` plays for each step of the bot ladder, by the step's stronger level: a
    close step needs many for its interval to clear 50%, a lopsided one a few dozen.
    """

    name: str
    seat_counts: tuple[int, ...]
    new_game: Callable[[int, Mapping[str, Any]], S]
    legal_actions: Callable[[S], tuple[A, ...]]
    apply: Callable[[S, A], S]
    view: Callable[[S, int | None], V]
    outcome: Callable[[S], Outcome | None]
    to_act: Callable[[S], int | None]
    timeout_action: Callable[[S], A]
    parse_action: Callable[[str], A]
    seats: Callable[[S], int]
    teams: Callable[[int], tuple[tuple[int, ...], ...]]
    bots: Mapping[str, Bot[V, A]]
    deck: tuple[str, ...]
    cards: Callable[[S], tuple[str, ...]]
    hidden_cards: Callable[[S, int | None], frozenset[str]]
    rules_version: int
    default_options: Mapping[str, Any] = field(default_factory=dict)
    standard_rules: Callable[[Mapping[str, Any]], bool] = lambda options: True
    ladder_deals: Mapping[str, int] = field(default_factory=dict)

    def play(self, state: S, text: str) -> S:
        """Apply an action given in its text form (as the log stores it)."""
        return self.apply(state, self.parse_action(text))


def solo_teams(seats: int) -> tuple[tuple[int, ...], ...]:
    """Teams for a game where everyone plays for themself.

    >>> solo_teams(3)
    ((0,), (1,), (2,))
    """
    return tuple((seat,) for seat in range(seats))
