"""One playout driver for every engine's property tests.

``play`` deals a seeded game and lets bots play it, with the odd timeout, to its end or to a
step budget.  At every step it checks what holds for every game: the cards are conserved, no
view mentions a card hidden from its seat, each seat's view offers exactly its legal actions,
an action that is not legal is refused with a reason code, every action round-trips through
its text form, and at the end the log replays to the same state.  It returns every state and
action, so a game's own tests check what only that game knows on the whole playout.

The invariants do not depend on how well the bots play, so the tests drive them with the
cheap bots (``CHEAP_BOTS``); the strong bots' search costs most of the time of a playout.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from webapp.game.protocol import IllegalAction
from webapp.game.registry import AnyGame
from webapp.game.replay import replay

#: Bots whose choice costs next to nothing; ``easy`` moves games on where ``random`` dawdles.
CHEAP_BOTS = ("random", "easy")


def heuristic(levels: Iterable[str]) -> list[str]:
    """The levels that decide without searching (``expert`` searches for up to 300 ms a
    move: whole playouts of it belong to the simulator, not to the test suite)."""
    return sorted(level for level in levels if level != "expert")


#: A refusal's reason code: lowercase words joined by ``-``.
REASON = re.compile(r"[a-z]+(-[a-z]+)*")


@dataclass(frozen=True)
class Playout:
    """``actions[i]`` led from ``states[i]`` to ``states[i + 1]``."""

    options: Mapping[str, Any]
    states: list[Any]
    actions: list[Any]

    @property
    def final(self) -> Any:
        return self.states[-1]

    def steps(self) -> Iterator[tuple[Any, Any, Any]]:
        """Each action with the states before and after it."""
        return zip(self.states[:-1], self.actions, self.states[1:], strict=True)


def options_for(game: AnyGame, seats: int, **options: Any) -> dict[str, Any]:
    merged = {**game.default_options, **options}
    if len(game.seat_counts) > 1:
        merged["players"] = seats
    return merged


def leaks(view: Any, hidden: frozenset[str]) -> set[str]:
    """The hidden card ids that the view's text mentions as whole words (``jan-1`` is not
    in ``jan-10``).  A substring test first: splitting the text into words took two thirds
    of a playout's time."""
    text = repr(view)
    return {card for card in hidden if card in text and _whole(card).search(text)}


@functools.cache
def _whole(card: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")


def assert_refused(game: AnyGame, state: Any, action: Any) -> None:
    """Applying ``action`` raises ``IllegalAction`` with a reason code."""
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, action)
    assert REASON.fullmatch(caught.value.reason), caught.value.reason


def check_step(
    game: AnyGame, state: Any, deck: list[str], seen_texts: set[str], rng: random.Random
) -> tuple[Any, ...]:
    """The generic checks of one state (``deck`` sorted); returns its legal actions."""
    assert sorted(game.cards(state)) == deck
    mover = game.to_act(state)
    legal: tuple[Any, ...] = game.legal_actions(state)
    assert (mover is None) == (game.outcome(state) is not None) == (not legal)
    for seat in [*range(game.seats(state)), None]:
        view = game.view(state, seat)
        seen = leaks(view, game.hidden_cards(state, seat))
        assert not seen, f"seat {seat} sees hidden {sorted(seen)}"
        assert view.legal == (legal if seat == mover else ())
    if mover is not None:
        legal_texts = {str(action) for action in legal}
        seen_texts |= legal_texts
        # An action legal somewhere else but not here must be refused with a reason.
        refused = sorted(seen_texts - legal_texts - {str(game.timeout_action(state))})
        if refused:
            assert_refused(game, state, game.parse_action(rng.choice(refused)))
    return legal


def play(
    game: AnyGame,
    seed: int,
    labels: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    budget: int = 600,
    timeouts: float = 0.03,
    checks: bool = True,
) -> Playout:
    """Seat ``labels[i]``'s bot at seat ``i`` and play at most ``budget`` actions.

    Every action is legal and round-trips through its text, and the log replays to the last
    state.  ``checks=False`` leaves out the generic checks of every state, for a game's own
    tests of what test_playouts.py already checks for every game.
    """
    options = options_for(game, len(labels), **(options or {}))
    state = game.new_game(seed, options)
    rng = random.Random(seed)
    gens = [random.Random(f"{seed}:{seat}") for seat in range(len(labels))]
    deck = sorted(game.deck)
    states, actions = [state], []
    seen_texts: set[str] = set()
    for _ in range(budget):
        legal = check_step(game, state, deck, seen_texts, rng) if checks else ()
        seat = game.to_act(state)
        if seat is None:
            break
        if rng.random() < timeouts:
            action = game.timeout_action(state)
        else:
            action = game.bots[labels[seat]](game.view(state, seat), gens[seat])
            assert action in (legal or game.legal_actions(state))
        text = str(action)
        assert game.parse_action(text) == action and str(game.parse_action(text)) == text
        state = game.apply(state, action)
        states.append(state)
        actions.append(action)
    else:
        if checks:
            check_step(game, state, deck, seen_texts, rng)
    assert replay(game, seed, options, map(str, actions)) == state
    return Playout(options, states, actions)
