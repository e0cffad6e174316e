"""Kowah's fast playout for the expert's search: a deal played to its end on count vectors.

A deal through ``rules.apply``, ``view`` and the ``medium`` bot costs about 20 ms (new
frozen states and events, the view, the bot's estimator built afresh each decision), and
the search wants thousands.  ``play_deal`` keeps hands as 30-number vectors and moves the
deal on by the same rules (``rules.py``: draw or take the latest discard, no discarding the
taken type, declaring on the discard, the declared seats' automatic turns, claims from the
drawer then in turn order, stock-out) with a policy between ``easy`` and ``medium``: keep
the hand with the fewest cards missing from checki by its nearest shape (memoised per
hand; ``medium`` also weighs every shape, a soft minimum left out here for speed), take a
discard only when that helps, never discard a declared seat's winning card unless forced,
and always declare.  It returns the moves it chose, so a test replays them through
``rules.apply``.
"""

from __future__ import annotations

import random
from itertools import permutations

from webapp.game.kowah.cards import KIND, KINDS, ORDER, TYPES, TYPES_OF_KIND
from webapp.game.kowah.oracle import checki_pairs
from webapp.game.kowah.state import KowahState

#: Move codes: a draw, a take; a discard is ``(type index, declared pair index or -1)``.
DRAW = (-1, -1)
TAKE = (-2, -1)

_COSTS: dict[tuple[int, ...], int] = {}
_CACHE_LIMIT = 1 << 18
#: Each type's kind, each kind's types, and each rank's two-two-one blocks (p, q, r).
_KIND = tuple(KINDS.index(KIND[card]) for card in TYPES)
_TYPES_OF = tuple(tuple(ORDER[card] for card in TYPES_OF_KIND[k]) for k in KINDS)
_BLOCKS = tuple(tuple(permutations(types)) if len(types) == 3 else () for types in _TYPES_OF)


_SHAPES: dict[tuple[int, ...], int] = {}
_RANKS = tuple(types for types in _TYPES_OF if len(types) == 3)
_HONOURS = tuple(types[0] for types in _TYPES_OF if len(types) == 1)
#: A rank's counts (a, b, c) as the number a*25 + b*5 + c (at most 4 copies), mapped to that
#: of its counts sorted: suits are interchangeable within a rank, and so are the ranks.
_SORTED = tuple(
    sum(n * 5**k for k, n in enumerate(sorted((a, b, c), reverse=True)))
    for a in range(5)
    for b in range(5)
    for c in range(5)
)


def missing(held: list[int]) -> int:
    """Cards an 8-card hand lacks for its nearest checki shape (memoised by hand, and by
    the hand's shape: its honours' counts and its ranks' counts, each up to order)."""
    key = tuple(held)
    cost = _COSTS.get(key)
    if cost is None:
        shape = (
            *sorted([held[i] for i in _HONOURS]),
            *sorted([_SORTED[held[a] * 25 + held[b] * 5 + held[c]] for a, b, c in _RANKS]),
        )
        cost = _SHAPES.get(shape)
        if cost is None:
            cost = _SHAPES[shape] = _missing(held)
        if len(_COSTS) >= _CACHE_LIMIT:
            _COSTS.clear()
        _COSTS[key] = cost
    return cost


def _missing(held: list[int]) -> int:
    """Cards an 8-card hand lacks for its nearest checki shape.

    The shapes are ``medium``'s (``bots._Estimator`` knowing only its own hand, where every
    missing card is still live): a pair type and two triples of other kinds (or two of one
    rank), or a rank's two-two-one block and a triple of another kind.
    """
    have = [sum([held[i] for i in types]) for types in _TYPES_OF]
    triple = [3 - n if n < 3 else 0 for n in have]
    double = [6 - n if n < 6 else 0 if len(_TYPES_OF[k]) == 3 else 99 for k, n in enumerate(have)]
    order = sorted(range(len(have)), key=triple.__getitem__)[:3]
    doubles = sorted(range(len(have)), key=double.__getitem__)[:2]
    cost = 99
    for k in range(len(have)):
        others = [triple[j] for j in order if j != k]
        two = min(others[0] + others[1], next(double[j] for j in doubles if j != k))
        pair = min(2 - held[i] if held[i] < 2 else 0 for i in _TYPES_OF[k])
        cost = min(cost, pair + two)
        if have[k] >= 2 and _BLOCKS[k]:
            for p, q, r in _BLOCKS[k]:
                block = (2 - held[p] if held[p] < 2 else 0) + (2 - held[q] if held[q] < 2 else 0)
                block += 1 - held[r] if held[r] < 1 else 0
                cost = min(cost, block + others[0])
    return cost


def _best_discard(
    held: list[int], taken: int, danger: set[int], rng: random.Random
) -> tuple[int, int]:
    options = [i for i, n in enumerate(held) if n and i != taken]
    options = [i for i in options if i not in danger] or options
    best, choices = 99, [options[0]]
    for i in options:
        held[i] -= 1
        cost = missing(held)
        held[i] += 1
        if cost < best:
            best, choices = cost, [i]
        elif cost == best:
            choices.append(i)
    return best, choices[0] if len(choices) == 1 else rng.choice(choices)


def _pair(held: list[int]) -> int:
    """The first pair (canonical order) an 8-card hand may expose, or -1 when not checki."""
    pairs = checki_pairs([TYPES[i] for i, n in enumerate(held) for _ in range(n)])
    return min((ORDER[card] for card in pairs), default=-1)


def play_deal(state: KowahState, rng: random.Random) -> tuple[int | None, list[tuple[int, int]]]:
    """Play the deal of ``state`` (in ``take`` or ``discard``) to its end.

    Returns the winner (None on stock-out) and the moves chosen (``DRAW``, ``TAKE`` or a
    discard); declared seats' automatic turns are the rules', not moves.
    """
    players = state.players
    hands = [[0] * len(TYPES) for _ in range(players)]
    for seat, hand in enumerate(state.hands):
        for name in hand:
            hands[seat][ORDER[name]] += 1
    stock = [ORDER[card] for card in state.stock]
    drawn_count = 0
    pile = [ORDER[entry.card] for entry in state.pile]
    exposed = [-1 if pair is None else ORDER[pair] for pair in state.exposed]
    turn, phase = state.turn, state.phase
    drawn = -1 if state.drawn is None else ORDER[state.drawn]
    taken = -1 if state.taken is None else ORDER[state.taken]
    moves: list[tuple[int, int]] = []

    def waiting(card: int, source: int, by_draw: bool) -> int | None:
        if by_draw and exposed[source] == card:
            return source
        for step in range(1, players):
            seat = (source + step) % players
            if exposed[seat] == card:
                return seat
        return None

    while True:
        held = hands[turn]
        if phase == "take":
            take = False
            if pile and exposed[turn] < 0:
                now = missing(held)
                held[pile[-1]] += 1
                after, _ = _best_discard(held, pile[-1], _danger(exposed, turn), rng)
                held[pile[-1]] -= 1
                take = after < now
            if take:
                moves.append(TAKE)
                taken = pile.pop()
                held[taken] += 1
                drawn = -1
            else:
                moves.append(DRAW)
                drawn = stock[drawn_count]
                drawn_count += 1
                held[drawn] += 1
                taken = -1
                winner = waiting(drawn, turn, True)
                if winner is not None:
                    return winner, moves
                if drawn_count == len(stock):
                    return None, moves
            phase = "discard"
            continue
        if exposed[turn] >= 0 and drawn >= 0:
            card, pair = drawn, -1
        else:
            _, card = _best_discard(held, taken, _danger(exposed, turn), rng)
            held[card] -= 1
            pair = _pair(held)
            held[card] += 1
        moves.append((card, pair))
        held[card] -= 1
        pile.append(card)
        winner = waiting(card, turn, False)
        if winner is not None:
            return winner, moves
        if pair >= 0:
            exposed[turn] = pair
        # The next seats' turns: the declared ones play themselves (draw, lay that card down).
        while True:
            turn = (turn + 1) % players
            phase, drawn, taken = "take", -1, -1
            if exposed[turn] < 0:
                break
            card = stock[drawn_count]
            drawn_count += 1
            winner = waiting(card, turn, True)
            if winner is not None:
                return winner, moves
            if drawn_count == len(stock):
                return None, moves
            pile.append(card)
            winner = waiting(card, turn, False)
            if winner is not None:
                return winner, moves


def _danger(exposed: list[int], turn: int) -> set[int]:
    """The other seats' winning cards."""
    return {pair for seat, pair in enumerate(exposed) if pair >= 0 and seat != turn}


def rollout(state: KowahState, seat: int, rng: random.Random) -> float:
    """1 when the searching seat wins the deal ``play_deal`` plays from ``state``, else 0."""
    winner, _ = play_deal(state, rng)
    return 1.0 if winner == seat else 0.0
