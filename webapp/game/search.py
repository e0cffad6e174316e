"""The ``expert`` level: information-set Monte Carlo search over any game of the protocol.

A bot sees only its seat's view, so the search cannot look at the state.  It deals the
cards the view does not show at random, consistently with what it does show (each game's
``sample`` function), and on each such deal (a determinization) plays every candidate
action followed by a playout to the end of the round (the game's ``settled`` value for the
searching seat): the cheap ``playout`` bot at every seat, or where a game has one its own
``rollout``, a cheap policy on a compact copy of the state, many times faster.  Every
candidate sees the same deal and the same playout generator, so their values differ by the
action more than by luck.

The ``prior`` bot (``hard``) proposes an action, and where every legal action would be too
many candidates for the budget the ``proposers`` (the other levels) propose the rest.  The
search moves away from the prior only when another candidate's advantage over it, paired
deal by deal, is clear of its own noise.  With few deals the expert therefore plays like
``hard``; with more it corrects ``hard`` where looking ahead shows it wrong.

The budget is counted in deals (so a decision repeats in any process, from the generator it
is given), with a wall-clock cap on top that may stop the search early on a loaded machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")


class Decision(Protocol):
    """What the search needs of a view: whose it is, and how many choices it has."""

    @property
    def seat(self) -> int | None: ...

    @property
    def legal(self) -> Sequence[object]: ...


V = TypeVar("V", bound=Decision)

#: An advantage this many standard errors above the prior's is trusted: a strict test,
#: because with a dozen candidates a loose one would often pick the luckiest, not the best.
CONFIDENCE = 2.0
#: Below this many deals the prior plays: a spread measured on fewer is no measure
#: (a game may ask for more: Koa's expert searching 8 deals lost to ``hard``).
MIN_DEALS = 4
#: A playout that has not ended after this many actions counts as a draw (never seen).
MAX_PLAYOUT = 5000
#: The default budget: deals per decision, and the wall-clock cap in seconds.
DEALS = 64
SECONDS = 0.3


@dataclass(frozen=True)
class Rules(Generic[S, A, V]):
    """The parts of a game the search plays with.

    ``sample(view, rng)`` deals a full state consistent with ``view``; ``settled(state,
    seat)`` is the seat's value in [0, 1] once the search horizon (the round) is reached,
    else ``None``.
    """

    legal_actions: Callable[[S], tuple[A, ...]]
    apply: Callable[[S, A], S]
    view: Callable[[S, int | None], V]
    to_act: Callable[[S], int | None]
    sample: Callable[[V, random.Random], S]
    settled: Callable[[S, int], float | None]
    #: A game's own fast playout (``rollout(state, seat, rng)``: the seat's value at the
    #: horizon) used instead of playing ``playout`` through ``apply`` and ``view``.
    rollout: Callable[[S, int, random.Random], float] | None = None


def unseen(deck: Sequence[str], seen: Iterable[str], rng: random.Random) -> list[str]:
    """The deck less one copy of each ``seen`` card, shuffled: what ``sample`` deals at random.

    Every game's ``sample`` starts here: the cards its view shows (or that everyone knows to
    sit in a hand) stay where they are, and the rest go anywhere the view cannot see.

    >>> sorted(unseen(["a", "a", "b", "c"], ["a", "c"], random.Random(1)))
    ['a', 'b']
    """
    pool = list(deck)
    for card in seen:
        pool.remove(card)  # ValueError when the view shows more copies than the deck holds
    rng.shuffle(pool)
    return pool


@dataclass(frozen=True)
class Found(Generic[A]):
    """What a search found: the chosen action, the prior's, and each candidate's mean value."""

    action: A
    prior: A
    values: dict[str, float]
    deals: int

    def advice(
        self, reason: str, count: int = 0, card: str | None = None, slug: str | None = None
    ) -> Advice:
        """A hint for the chosen action with ``reason``, and the search's figure for it."""
        value = self.values.get(str(self.action)) if self.deals else None
        return Advice(str(self.action), reason, count, card, slug, value, self.deals)


@dataclass(frozen=True)
class Advice:
    """A hint: the expert's action (its text) and why, as a reason code with its figures.

    ``count`` and ``card`` fill the reason's sentence (a number of cards, a card the reason
    names), ``slug`` a yaku's name; ``value`` is the search's mean value of the move over
    ``deals`` deals (a share of deals won, or Koi-Koi points), ``None`` when nothing was
    searched.  Plain strings and numbers: it crosses from the worker process.
    """

    action: str
    reason: str
    count: int = 0
    card: str | None = None
    slug: str | None = None
    value: float | None = None
    deals: int = 0


class Expert(Generic[S, A, V]):
    """A bot (``expert(view, rng)``) that searches ``deals`` determinizations per decision."""

    def __init__(
        self,
        rules: Rules[S, A, V],
        prior: Callable[[V, random.Random], A],
        playout: Callable[[V, random.Random], A],
        proposers: Sequence[Callable[[V, random.Random], A]] = (),
        deals: int = DEALS,
        seconds: float | None = SECONDS,
        explain: Callable[[V, Found[A]], Advice] | None = None,
        min_deals: int = MIN_DEALS,
    ) -> None:
        self.rules = rules
        self.explain = explain
        self.min_deals = min_deals
        self.prior = prior
        self.playout = playout
        self.proposers = tuple(proposers)
        self.deals = deals
        self.seconds = seconds

    def budgeted(self, deals: int, seconds: float | None) -> Expert[S, A, V]:
        """The same expert with another budget (``seconds`` None: no clock cap)."""
        return Expert(
            self.rules,
            self.prior,
            self.playout,
            self.proposers,
            deals,
            seconds,
            self.explain,
            self.min_deals,
        )

    def __call__(self, view: V, rng: random.Random) -> A:
        return self.search(view, rng).action

    def search(
        self, view: V, rng: random.Random, deals: int | None = None, seconds: float | None = None
    ) -> Found[A]:
        """Search up to ``deals`` deals (default: the bot's) within ``seconds`` (its cap)."""
        deals = self.deals if deals is None else deals
        cap = self.seconds if seconds is None else seconds
        start = time.perf_counter()
        prior = self.prior(view, random.Random(rng.getrandbits(64)))
        if len(view.legal) < 2:
            return Found(prior, prior, {}, 0)
        seat = view.seat
        assert seat is not None, "a spectator has nothing to decide"
        state = self.rules.sample(view, rng)
        candidates = self._candidates(view, state, prior, rng)
        if len(candidates) < 2:
            return Found(prior, prior, {}, 0)
        rows: list[list[float]] = []
        deadline = math.inf if cap is None else start + cap
        for deal in range(deals):
            if deal:
                state = self.rules.sample(view, rng)
            playout_seed = rng.getrandbits(64)
            row: list[float] = []
            for action in candidates:
                # Checked between playouts: a deal cut short is dropped, never half counted.
                if time.perf_counter() > deadline:
                    break
                row.append(self._play(state, action, seat, playout_seed))
            if len(row) < len(candidates):
                break
            rows.append(row)
        values = {
            str(a): sum(r[i] for r in rows) / len(rows) for i, a in enumerate(candidates) if rows
        }
        return Found(self._choose(candidates, prior, rows), prior, values, len(rows))

    def _candidates(self, view: V, state: S, prior: A, rng: random.Random) -> list[A]:
        """Every legal action, or with ``proposers`` only the prior's and theirs.

        A deal costs a playout per candidate: searching the few moves that some level would
        make buys many more deals than searching every card in hand.
        """
        legal = list(dict.fromkeys(self.rules.legal_actions(state)))
        if not self.proposers:
            return legal
        proposed = [prior] + [
            bot(view, random.Random(rng.getrandbits(64))) for bot in self.proposers
        ]
        return [action for action in legal if action in proposed]

    def _play(self, state: S, action: A, seat: int, seed: int) -> float:
        rules, gen = self.rules, random.Random(seed)
        state = rules.apply(state, action)
        if rules.rollout is not None:
            value = rules.settled(state, seat)
            return rules.rollout(state, seat, gen) if value is None else value
        for _ in range(MAX_PLAYOUT):
            value = rules.settled(state, seat)
            if value is not None:
                return value
            mover = rules.to_act(state)
            assert mover is not None
            state = rules.apply(state, self.playout(rules.view(state, mover), gen))
        return 0.5

    def _choose(self, candidates: list[A], prior: A, rows: list[list[float]]) -> A:
        """The prior, unless another candidate beats it clearly, deal by deal."""
        if len(rows) < self.min_deals or prior not in candidates:
            return prior
        base = candidates.index(prior)
        best, best_score = prior, 0.0
        for index, action in enumerate(candidates):
            diffs = [row[index] - row[base] for row in rows]
            mean = sum(diffs) / len(diffs)
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
            score = mean - CONFIDENCE * spread / math.sqrt(len(diffs))
            if score > best_score:
                best, best_score = action, score
        return best


def warm() -> int:
    """A worker's first job: import every game, so its first search is not late for that.

    It lives here, beside the searches, so that a worker process imports the engines
    alone: a job defined under ``webapp.play`` would make it import the whole site.
    """
    from webapp.game.registry import games

    return len(games())


def think(game: str, view: Decision, seed: str, seconds: float) -> object:
    """The registered ``game``'s expert's action for ``view`` within ``seconds`` (a worker's job).

    The generator is seeded from ``seed``, a string, the same in every process.
    """
    from webapp.game.registry import get

    expert = get(game).bots["expert"]
    assert isinstance(expert, Expert)
    return expert.search(view, random.Random(seed), seconds=seconds).action


def advise(game: str, view: Decision, seed: str, seconds: float) -> Advice:
    """The registered ``game``'s expert's move for ``view`` with its reason (a hint; a
    worker's job, like :func:`think`)."""
    from webapp.game.registry import get

    expert = get(game).bots["expert"]
    assert isinstance(expert, Expert) and expert.explain is not None
    found = expert.search(view, random.Random(seed), seconds=seconds)
    if len(view.legal) < 2:
        return found.advice("only-move")
    return expert.explain(view, found)
