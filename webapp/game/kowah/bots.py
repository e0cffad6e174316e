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
    """
    table = _LIVE_COST if counting else _COUNT_COST
    held = [0] * len(TYPES)
    for card in hand:
        held[ORDER[card]] += 1
    kinds = len(_KIND_TYPES)
    triple = [0.0] * kinds
    double = [INF] * kinds
    one = [INF] * kinds  # the best single triple when kind k holds the pair
    for k, types in enumerate(_KIND_TYPES):
        have = sum(held[i] for i in types)
        pool = sum(live[i] for i in types)
        triple[k] = table[max(0, 3 - have)][min(pool, 12)]
        if len(types) == 3:
            double[k] = table[max(0, 6 - have)][min(pool, 12)]
    order = sorted(range(kinds), key=triple.__getitem__)
    for k in range(kinds):
        others = [j for j in order[:3] if j != k]
        one[k] = triple[others[0]]
    best = INF
    for i in range(len(TYPES)):
        k = _TYPE_KIND[i]
        need = max(0, 2 - held[i])
        pair = table[need][live[i]] + _wait_cost(live[i] - need, wait)
        if pair == INF:
            continue
        others = [j for j in order[:3] if j != k]
        two = triple[others[0]] + triple[others[1]]
        for j in _RANK_KINDS:
            if j != k and double[j] < two:
                two = double[j]
        best = min(best, pair + two)
    for k, p, q, r in _BLOCKS:
        if held[p] + held[q] + held[r] < 2:
            continue
        block = (
            table[max(0, 2 - held[p])][live[p]]
            + table[max(0, 2 - held[q])][live[q]]
            + table[max(0, 1 - held[r])][live[r]]
            + _wait_cost(live[p] - max(0, 2 - held[p]), wait)
        )
        best = min(best, block + one[k])
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


def _without(hand: Sequence[str], card: str) -> list[str]:
    cards = list(hand)
    cards.remove(card)
    return cards


class _Planner:
    """The shared decision procedure; a level is what it knows (counting, danger)."""

    def __init__(self, counting: bool, safe: bool) -> None:
        self.counting = counting
        self.safe = safe

    def __call__(self, view: KowahView, rng: random.Random) -> KowahAction:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        live = _live(view, self.counting)
        wait = 1.0 / view.players if self.counting else 0.0
        if view.phase == "declare":
            declares = [a for a in legal if isinstance(a, Declare)]
            if self.counting:
                return max(declares, key=lambda a: live[ORDER[a.card]])
            return declares[0]
        if view.phase == "take":
            return self._take_or_draw(view, live, wait, legal)
        discards = [a for a in legal if isinstance(a, Discard)]
        return self._best_discard(view.hand, discards, view, live, wait, rng)[1]

    def _allowed(self, discards: list[Discard], view: KowahView) -> list[Discard]:
        if not self.safe:
            return discards
        danger = _danger(view)
        safe = [a for a in discards if a.card not in danger]
        return safe or discards

    def _best_discard(
        self,
        hand: Sequence[str],
        discards: list[Discard],
        view: KowahView,
        live: list[int],
        wait: float,
        rng: random.Random,
    ) -> tuple[float, Discard]:
        scored = [
            (hand_cost(_without(hand, a.card), live, self.counting, wait), a)
            for a in self._allowed(discards, view)
        ]
        best = min(cost for cost, _ in scored)
        return best, rng.choice([a for cost, a in scored if cost == best])

    def _take_or_draw(
        self, view: KowahView, live: list[int], wait: float, legal: tuple[KowahAction, ...]
    ) -> KowahAction:
        draw, take = legal[0], legal[1]
        latest = view.latest_discard
        if latest is None or not isinstance(take, Take):
            return draw
        now = hand_cost(view.hand, live, self.counting, wait)
        hand = list(view.hand) + [latest.card]
        options = [Discard(card) for card in dict.fromkeys(view.hand) if card != latest.card]
        allowed = self._allowed(options, view)
        after = min(hand_cost(_without(hand, a.card), live, self.counting, wait) for a in allowed)
        return take if after < now else draw


def random_bot(view: KowahView, rng: random.Random) -> KowahAction:
    """Any legal action, uniformly."""
    return rng.choice(view.legal)


easy: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=False, safe=False)
medium: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=False, safe=True)
hard: Callable[[KowahView, random.Random], KowahAction] = _Planner(counting=True, safe=True)

BOTS: dict[str, Callable[[KowahView, random.Random], KowahAction]] = {
    "random": random_bot,
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
