"""Twin deals: the same public history over different hidden cards, for the leak scans.

An observer (a seat, or ``None`` for a spectator) may not tell two deals apart that differ
only in cards it cannot see.  A twin swaps two card types that are hidden from the observer
everywhere in the deal (every copy, in every zone) and replays the same action log.  For as
long as the log still replays and both types stay hidden from the observer in both deals,
everything the observer is shown must be identical: its view (hand counts, whose turn and
which step, events and their numbering) and the seat the table waits for (which decides
the turn timer).  The scan chooses the swaps that change what the acting seats may do, so a
rule that waits on a seat's hidden cards shows up as a difference.  What the rules announce
although it follows from hidden cards (Koa's "who is ceki") ends the comparison where it
differs: from there on the deals are publicly different.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from webapp.game.protocol import IllegalAction
from webapp.game.registry import AnyGame

#: Per game, the facts its rules announce to everyone although hidden cards decide them.
#: (Kowah's and Koi-Koi's announcements are actions, so the twin's log stops replaying.)
ANNOUNCED: dict[str, Callable[[Any], Any]] = {
    "koa": lambda state: tuple(bool(cards) for cards in state.koa),
}


def relabel(value: Any, swap: Mapping[str, str]) -> Any:
    """``value`` with every card id in ``swap`` replaced, through dataclasses and containers.

    >>> relabel(("a", ["b", "c"], {"a": 1}), {"a": "b", "b": "a"})
    ('b', ['a', 'c'], {'b': 1})
    """
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, tuple):
        return tuple(relabel(item, swap) for item in value)
    if isinstance(value, list):
        return [relabel(item, swap) for item in value]
    if isinstance(value, frozenset):
        return frozenset(relabel(item, swap) for item in value)
    if isinstance(value, dict):
        return {relabel(key, swap): relabel(item, swap) for key, item in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: relabel(getattr(value, f.name), swap) for f in fields(value) if f.init}
        return replace(value, **changes)
    return value


def twin_game(game: AnyGame, swap: tuple[str, str]) -> AnyGame:
    """``game`` dealing every deal with the two types of ``swap`` exchanged."""
    both = {swap[0]: swap[1], swap[1]: swap[0]}

    def deal(seed: int, options: Mapping[str, Any]) -> Any:
        return relabel(game.new_game(seed, options), both)

    return replace(game, new_game=deal)


def bot_log(game: AnyGame, seed: int, options: Mapping[str, Any], level: str = "easy") -> list[str]:
    """The action texts of a whole game played by seeded ``level`` bots at every seat."""
    state = game.new_game(seed, options)
    gens: dict[int, random.Random] = {}
    log: list[str] = []
    while (seat := game.to_act(state)) is not None:
        rng = gens.setdefault(seat, random.Random(f"{seed}:{seat}"))
        action = game.bots[level](game.view(state, seat), rng)
        state = game.apply(state, action)
        log.append(str(action))
    return log


def states(game: AnyGame, start: Any, log: Sequence[str]) -> list[Any]:
    """The state after each prefix of ``log`` (``[start, ...]``), up to the first refusal."""
    found = [start]
    for text in log:
        try:
            found.append(game.play(found[-1], text))
        except IllegalAction:
            break
    return found


@dataclass(frozen=True)
class Twin:
    """A swap of two hidden types, and the deal replayed under it."""

    swap: tuple[str, str]
    #: How many log prefixes the observer cannot tell apart from the original (``0..n-1``).
    span: int
    #: At how many of those the acting seat's legal actions differ between the deals.
    matters: int
    states: list[Any]


def twins(
    game: AnyGame,
    seed: int,
    options: Mapping[str, Any],
    log: Sequence[str],
    observer: int | None,
    count: int,
    tries: int = 40,
) -> tuple[list[Any], list[Twin]]:
    """The original states and the ``count`` twins whose swap matters most to the players,
    out of ``tries`` swaps drawn (seeded) from the types hidden at the deal."""
    original = states(game, game.new_game(seed, options), log)
    pairs = list(itertools.combinations(sorted(game.hidden_cards(original[0], observer)), 2))
    found = []
    for pair in random.Random(f"{seed}:{observer}").sample(pairs, min(tries, len(pairs))):
        swap = {pair[0]: pair[1], pair[1]: pair[0]}
        twin = states(game, relabel(original[0], swap), log)
        span = matters = 0
        announced: Callable[[Any], Any] = ANNOUNCED.get(game.name, _nothing)
        for ours, theirs in zip(original, twin, strict=False):
            if not _hidden(game, ours, observer, pair) or not _hidden(game, theirs, observer, pair):
                break
            if announced(ours) != announced(theirs):
                break
            span += 1
            if game.to_act(ours) is not None:
                matters += game.legal_actions(ours) != relabel(game.legal_actions(theirs), swap)
        found.append(Twin(pair, span, matters, twin))
    found.sort(key=lambda twin: (-twin.matters, -twin.span, twin.swap))
    return original, found[:count]


def _nothing(state: Any) -> None:
    return None


def _hidden(game: AnyGame, state: Any, observer: int | None, pair: tuple[str, str]) -> bool:
    hidden = game.hidden_cards(state, observer)
    return pair[0] in hidden and pair[1] in hidden


def observation(game: AnyGame, state: Any, observer: int | None) -> tuple[Any, int | None]:
    """What the observer is shown of ``state``: its view, and the seat the table waits for."""
    return game.view(state, observer), game.to_act(state)


def observers(game: AnyGame, state: Any) -> Iterator[int | None]:
    """Every seat, then a spectator."""
    yield from range(game.seats(state))
    yield None
