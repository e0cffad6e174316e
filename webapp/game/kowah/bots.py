"""Kowah bots, one per level, each deciding from a seat's view and its own generator only.

The levels differ in what they know. ``random`` picks any legal action, except that it always
declares a checki hand, as every level does (docs/rules.md §2). ``easy`` knows its own
hand: it keeps the cards closest to checki by its one nearest shape (fewest cards missing)
and takes a discard that brings it closer. ``medium`` also sees every shape a hand could
become (a soft minimum over them, so a flexible hand counts for more than its nearest shape
alone) and watches the declared seats, never discarding their winning cards unless forced.
``hard`` also counts the live copies of every type (those not visible in its hand, the
discards, the exposed pairs and the cards known to be in other hands): it scores a hand by how
soon its missing cards and then its winning card can be expected, takes a discard only when
it beats the expected stock draw, and declares with the pair that has more live copies.

In two-player deals the earlier ``medium`` (the safe rule alone) only tied ``easy``: 0.495
[0.475, 0.515] over 1,000 deals; with the soft minimum it is a step above it
(benchmarks/README.md).
Declaring rides on the discard: having chosen its discard, a bot declares with it whenever
the hand left is checki.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import exp, log

from webapp.game.kowah.actions import Discard, KowahAction, Take
from webapp.game.kowah.cards import COPIES, KIND, KINDS, ORDER, TYPES, TYPES_OF_KIND
from webapp.game.kowah.view import KowahView
from webapp.game.protocol import Bot

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
        """The cheapest shape's cost, or with ``soft`` a soft minimum over every shape."""
        return self._soft_cost(held) if self.soft else self._min_cost(held)

    def _kind_costs(self, held: list[int]) -> tuple[list[float], list[float]]:
        """Per kind: the cost of a triple, and of two triples of one rank (``inf`` else)."""
        table, pools = self.table, self.pools
        triple = [INF] * len(_KIND_TYPES)
        double = [INF] * len(_KIND_TYPES)
        for k, types in enumerate(_KIND_TYPES):
            have = 0
            for i in types:
                have += held[i]
            triple[k] = table[3 - have if have < 3 else 0][pools[k]]
            if len(types) == 3:
                double[k] = table[6 - have if have < 6 else 0][pools[k]]
        return triple, double

    def _pair_cost(self, held: list[int], i: int) -> float:
        """Completing a pair of type ``i`` and then waiting on its remaining live copies."""
        live = self.live[i]
        need = 2 - held[i] if held[i] < 2 else 0
        if need > live:
            return INF
        return self.table[need][live] + self.wait_on[live - need]

    def _block_cost(self, held: list[int], p: int, q: int, r: int) -> float:
        """A two-two-one block waiting on type ``p`` (without its rank's other triple)."""
        table, live = self.table, self.live
        return (
            self._pair_cost(held, p)
            + table[2 - held[q] if held[q] < 2 else 0][live[q]]
            + table[1 - held[r] if held[r] < 1 else 0][live[r]]
        )

    def _min_cost(self, held: list[int]) -> float:
        triple, double = self._kind_costs(held)
        # the cheapest one triple and the cheapest two triples that leave out kind k: only
        # the three cheapest triples and the two cheapest doubles can be those
        kinds = range(len(triple))
        order = sorted(kinds, key=triple.__getitem__)[:3]
        doubles = sorted(kinds, key=double.__getitem__)[:2]
        one, two = [INF] * len(triple), [INF] * len(triple)
        for k in kinds:
            others = [triple[j] for j in order if j != k]
            one[k] = others[0]
            two[k] = min(others[0] + others[1], next(double[j] for j in doubles if j != k))
        best = INF
        for i in range(len(TYPES)):
            best = min(best, self._pair_cost(held, i) + two[_TYPE_KIND[i]])
        for k, p, q, r in _BLOCKS:
            if held[p] + held[q] + held[r] >= 2:
                best = min(best, self._block_cost(held, p, q, r) + one[k])
        return best

    def _soft_cost(self, held: list[int]) -> float:
        # -soft * log(sum over shapes of exp(-cost / soft)); the sums over triple choices
        # factor, since a shape's cost adds its parts: two distinct triples out of weights
        # w_k sum to ((sum w)^2 - sum w^2) / 2.
        soft = self.soft
        triple, double = self._kind_costs(held)
        weight = [exp(-cost / soft) for cost in triple]
        doubled = [exp(-cost / soft) for cost in double]
        total, squares, doubles = sum(weight), sum(w * w for w in weight), sum(doubled)
        two = [
            ((total - w) ** 2 - (squares - w * w)) / 2 + doubles - d
            for w, d in zip(weight, doubled, strict=True)
        ]
        mass = 0.0
        for i in range(len(TYPES)):
            pair = self._pair_cost(held, i)
            if pair < INF:
                mass += exp(-pair / soft) * two[_TYPE_KIND[i]]
        for k, p, q, r in _BLOCKS:
            if held[p] + held[q] + held[r] >= 2:
                block = self._block_cost(held, p, q, r)
                if block < INF:
                    mass += exp(-block / soft) * (total - weight[k])
        return -soft * log(mass) if mass > 0.0 else INF


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
        wait = 1.0 / view.players if self.counting else 0.0
        estimator = _Estimator(live, self.counting, wait, self.soft)
        held = _held(view.hand)
        if view.phase == "take":
            latest = view.latest_discard
            if latest is None or Take() not in legal:
                return legal[0]
            now = estimator.cost(held)
            # a counting bot weighs the discard against what a stock draw is worth on average
            draw = self._draw_value(estimator, held, live, now) if self.counting else now
            held[ORDER[latest.card]] += 1
            after, _ = self._best_discard(estimator, held, view, latest.card, rng)
            return Take() if after < draw else legal[0]
        discard = self._best_discard(estimator, held, view, view.taken, rng)[1]
        declares = _declaring(legal, discard.card)
        if not declares:
            return discard
        if self.counting:
            # the pair whose third copy is likelier to come
            return max(declares, key=lambda a: live[ORDER[str(a.declare)]])
        return declares[0]

    @staticmethod
    def _draw_value(estimator: _Estimator, held: list[int], live: list[int], now: float) -> float:
        """The expected cost after a stock draw: each unseen card in proportion to its copies,
        kept in place of the hand's least useful card when that helps."""
        spare = next(i for i, count in enumerate(held) if count)
        spare_cost = INF
        for i, count in enumerate(held):
            if count:
                held[i] -= 1
                cost = estimator.cost(held)
                held[i] += 1
                if cost < spare_cost:
                    spare, spare_cost = i, cost
        held[spare] -= 1
        total = 0.0
        for card, copies in enumerate(live):
            if copies:
                held[card] += 1
                total += copies * min(now, estimator.cost(held))
                held[card] -= 1
        held[spare] += 1
        unseen = sum(live)
        return total / unseen if unseen else now

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
    """Any legal action, uniformly; but like every bot it declares a checki hand (docs/rules.md §2):
    a discard is picked uniformly among the cards, then with one of its pairs if it has any."""
    action = rng.choice([a for a in view.legal if not isinstance(a, Discard) or not a.declare])
    declares = _declaring(view.legal, action.card) if isinstance(action, Discard) else []
    return rng.choice(declares) if declares else action


def _declaring(legal: Sequence[KowahAction], card: str) -> list[Discard]:
    """The legal discards of ``card`` that declare, one per exposable pair."""
    return [a for a in legal if isinstance(a, Discard) and a.card == card and a.declare]


easy_bot: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=False, safe=False)
medium_bot: Callable[[KowahView, random.Random], KowahAction] = _Planner(
    counting=False, safe=True, soft=0.08
)
hard_bot: Callable[[KowahView, random.Random], KowahAction] = _Planner(
    counting=True, safe=True, soft=0.08
)

BOTS: dict[str, Bot[KowahView, KowahAction]] = {
    "random": random_bot,
    "easy": easy_bot,
    "medium": medium_bot,
    "hard": hard_bot,
}
