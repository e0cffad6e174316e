"""Kowah bots, one per level, each deciding from a seat's view and its own generator only.

The levels differ in what they know. ``random`` picks any legal action. ``easy`` knows its own
hand: it keeps the cards closest to checki (fewest cards missing). ``medium`` also watches the
declared seats and never discards their winning cards unless forced. ``hard`` also counts the
live copies of every type (those not visible in its hand, the discards, the exposed pairs and
the cards known to be in other hands): it prefers the shapes whose missing cards and whose
wait have more live copies, and declares with the pair that has more live copies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import exp, log

from webapp.game.kowah.cards import COPIES, KIND, KINDS, ORDER, TYPES, TYPES_OF_KIND
from webapp.game.kowah.state import Declare, Discard, KowahAction, Take
from webapp.game.kowah.view import KowahView

INF = float("inf")
_TYPE_KIND: tuple[int, ...] = tuple(KINDS.index(KIND[card]) for card in TYPES)
_KIND_TYPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(ORDER[card] for card in TYPES_OF_KIND[k]) for k in KINDS
)
_RANK_KINDS: tuple[int, ...] = tuple(k for k, types in enumerate(_KIND_TYPES) if len(types) == 3)
_BLOCKS: tuple[tuple[int, int, int, int], ...] = tuple(
    (k, p, q, r)
    for k in _RANK_KINDS
    for p in _KIND_TYPES[k]
    for q in _KIND_TYPES[k]
    for r in _KIND_TYPES[k]
    if len({p, q, r}) == 3
)


def _collect_costs(counting: bool) -> tuple[tuple[float, ...], ...]:
    """``table[need][pool]``: the cost of still needing ``need`` cards out of ``pool`` live ones.

    Without counting it is the number of cards missing; with counting, the expected draws to
    find them (in units of the unseen cards), so scarce cards cost more.
    """
    table = []
    for need in range(7):
        row = []
        for pool in range(13):
            if need > pool:
                row.append(INF)
            elif counting:
                row.append(sum(1.0 / (pool - i) for i in range(need)))
            else:
                row.append(float(need))
        table.append(tuple(row))
    return tuple(table)


_COUNT_COST = _collect_costs(counting=False)
_LIVE_COST = _collect_costs(counting=True)


def hand_cost(hand: Sequence[str], live: Sequence[int], counting: bool, wait: float) -> float:
    """How far an 8-card hand is from a checki worth having (0: checki, ``inf``: hopeless).

    ``live[i]`` counts the copies of ``TYPES[i]`` the bot cannot see; ``wait`` weighs the
    scarcity of the winning card once checki (0 ignores it).

    >>> live = [4] * len(TYPES)
    >>> hand_cost(["coins-1", "coins-1", "coins-2", "strings-2", "myriads-2",
    ...            "red-flower", "red-flower", "red-flower"], live, False, 0.0)
    0.0
    >>> hand_cost(["coins-1", "coins-1", "coins-2", "strings-2", "myriads-2",
    ...            "red-flower", "red-flower", "coins-9"], live, False, 0.0)
    1.0
    """
    return _Estimator(live, counting, wait).cost(_held(hand))


def _held(hand: Sequence[str]) -> list[int]:
    held = [0] * len(TYPES)
    for card in hand:
        held[ORDER[card]] += 1
    return held


class _Estimator:
    """Scores hands against every checki shape, for one decision's knowledge of live cards.

    A shape is a pair type plus two triples of other kinds (or twice one rank), or a rank's
    two-two-one block plus one triple. A shape's cost adds up what its missing cards cost;
    the hand's cost is its cheapest shape's.
    """

    def __init__(self, live: Sequence[int], counting: bool, wait: float, soft: float = 0.0) -> None:
        self.soft = soft
        self.live = live
        self.table = _LIVE_COST if counting else _COUNT_COST
        self.pools = [min(12, sum(live[i] for i in types)) for types in _KIND_TYPES]
        # waiting on a pair type whose remaining live copies are n costs wait_on[n]
        self.wait_on = [_wait_cost(n, wait) for n in range(COPIES + 1)]

    def cost(self, held: list[int]) -> float:
        table, live, pools, wait_on = self.table, self.live, self.pools, self.wait_on
        inf = INF
        # the three cheapest triples and the two cheapest double triples, with their kinds
        t1 = t2 = t3 = d1 = d2 = inf
        k1 = k2 = kd1 = -1
        triple = [0.0] * len(_KIND_TYPES)
        for k, types in enumerate(_KIND_TYPES):
            have = 0
            for i in types:
                have += held[i]
            cost = table[3 - have if have < 3 else 0][pools[k]]
            triple[k] = cost
            if cost < t1:
                t1, t2, t3, k1, k2 = cost, t1, t2, k, k1
            elif cost < t2:
                t2, t3, k2 = cost, t2, k
            elif cost < t3:
                t3 = cost
            if len(types) == 3:
                cost = table[6 - have if have < 6 else 0][pools[k]]
                if cost < d1:
                    d1, d2, kd1 = cost, d1, k
                elif cost < d2:
                    d2 = cost
        best = inf
        soft, mass = self.soft, 0.0
        for i in range(len(TYPES)):
            have = held[i]
            need = 2 - have if have < 2 else 0
            pair = table[need][live[i]]
            if pair == inf:
                continue
            pair += wait_on[live[i] - need]
            k = _TYPE_KIND[i]
            two = t2 + t3 if k == k1 else (t1 + t3 if k == k2 else t1 + t2)
            double = d2 if k == kd1 else d1
            total = pair + (double if double < two else two)
            if total < best:
                best = total
            if soft and total < inf:
                mass += exp(-total / soft)
        for k, p, q, r in _BLOCKS:
            if held[p] + held[q] + held[r] < 2:
                continue
            need = 2 - held[p] if held[p] < 2 else 0
            block = (
                table[need][live[p]]
                + wait_on[live[p] - need if live[p] >= need else 0]
                + table[2 - held[q] if held[q] < 2 else 0][live[q]]
                + table[1 - held[r] if held[r] < 1 else 0][live[r]]
                + (t2 if k == k1 else t1)
            )
            if block < best:
                best = block
            if soft and block < inf:
                mass += exp(-block / soft)
        if soft and mass > 0.0:
            return -soft * log(mass)
        return best


def _wait_cost(pool: int, wait: float) -> float:
    if not wait:
        return 0.0
    return wait / pool if pool > 0 else INF


def _live(view: KowahView, counting: bool) -> list[int]:
    """Copies of each type the bot cannot see (only its own hand when not counting)."""
    live = [COPIES] * len(TYPES)
    for card in view.hand:
        live[ORDER[card]] -= 1
    if counting:
        for entry in view.pile:
            live[ORDER[entry.card]] -= 1
        for seat in view.seats:
            if seat.seat == view.seat:
                continue
            for card in seat.known:
                live[ORDER[card]] -= 1
            if seat.exposed is not None:
                live[ORDER[seat.exposed]] -= 2
    return [max(0, n) for n in live]


def _danger(view: KowahView) -> frozenset[str]:
    """The other seats' winning cards: discarding one hands them the deal."""
    return frozenset(
        seat.exposed for seat in view.seats if seat.exposed is not None and seat.seat != view.seat
    )


class _Planner:
    """The shared decision procedure; a level is what it knows (counting, danger)."""

    def __init__(self, counting: bool, safe: bool, soft: float = 0.0) -> None:
        self.counting = counting
        self.safe = safe
        self.soft = soft

    def __call__(self, view: KowahView, rng: random.Random) -> KowahAction:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        live = _live(view, self.counting)
        if view.phase == "declare":
            declares = [a for a in legal if isinstance(a, Declare)]
            if self.counting:
                return max(declares, key=lambda a: live[ORDER[a.card]])
            return declares[0]
        wait = 1.0 / view.players if self.counting else 0.0
        estimator = _Estimator(live, self.counting, wait, self.soft)
        held = _held(view.hand)
        if view.phase == "take":
            latest = view.latest_discard
            if latest is None or Take() not in legal:
                return legal[0]
            now = estimator.cost(held)
            held[ORDER[latest.card]] += 1
            after, _ = self._best_discard(estimator, held, view, latest.card, rng)
            return Take() if after < now else legal[0]
        return self._best_discard(estimator, held, view, view.taken, rng)[1]

    def _best_discard(
        self,
        estimator: _Estimator,
        held: list[int],
        view: KowahView,
        taken: str | None,
        rng: random.Random,
    ) -> tuple[float, Discard]:
        """The cheapest hand left by one discard (never the taken type), and that discard."""
        danger = _danger(view) if self.safe else frozenset()
        options = [TYPES[i] for i, n in enumerate(held) if n and TYPES[i] != taken]
        options = [card for card in options if card not in danger] or options
        best, choices = INF, [options[0]]
        for card in options:
            i = ORDER[card]
            held[i] -= 1
            cost = estimator.cost(held)
            held[i] += 1
            if cost < best:
                best, choices = cost, [card]
            elif cost == best:
                choices.append(card)
        return best, Discard(rng.choice(choices))


def random_bot(view: KowahView, rng: random.Random) -> KowahAction:
    """Any legal action, uniformly."""
    return rng.choice(view.legal)


easy: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=False, safe=False)
medium: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=False, safe=True)
hard: Callable[[KowahView, random.Random], KowahAction] = _Planner(
    counting=True, safe=True, soft=0.2
)

BOTS: dict[str, Callable[[KowahView, random.Random], KowahAction]] = {
    "random": random_bot,
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
