"""Hand arithmetic for the bots: how far a hand is from ceki, on count vectors.

``distance`` is the number of cards of a hand that must change before it holds an 11-card
ceki hand (0 for a ceki hand).  A ceki hand is one non-hiu pair plus nine cards whose
groups each hold a multiple of three with one type three times, so the best target is
found by choosing the pair type and, per group, how many of the three sets it hosts.
"""

from __future__ import annotations

from functools import lru_cache

from webapp.game.koa.cards import GROUP_OF, GROUP_TYPES, HAND_SIZE, HIU, TYPES

_NON_HIU = tuple(i for i in range(len(TYPES)) if GROUP_OF[i] != HIU)


@lru_cache(maxsize=1 << 16)
def _sets_overlap(signature: tuple[tuple[int, int], ...]) -> int:
    """Most cards that fit three sets (one a mato) given each group's (total, top count).

    Groups are interchangeable here, so callers pass the signature sorted and the cache
    sees few distinct keys.
    """
    single = [min(total, 3) for total, _ in signature]
    double = [min(total, 6) for total, _ in signature]
    best = 0
    groups = len(signature)
    for host in range(groups):
        total, top = signature[host]
        rest = total - top
        three = top + min(rest, 6)
        if three > best:
            best = three
        s1 = s2 = d1 = 0
        for g in range(groups):
            if g == host:
                continue
            value = single[g]
            if value > s1:
                s2 = s1
                s1 = value
            elif value > s2:
                s2 = value
            if double[g] > d1:
                d1 = double[g]
        candidate = top + min(rest, 3) + s1
        if candidate > best:
            best = candidate
        candidate = top + max(d1, s1 + s2)
        if candidate > best:
            best = candidate
    return best


def _group_signature(
    vector: tuple[int, ...] | list[int], members: tuple[int, ...]
) -> tuple[int, int]:
    total = 0
    top = 0
    for i in members:
        n = vector[i]
        total += n
        if n > top:
            top = n
    return (total if total < 9 else 9, top if top < 3 else 3)


def _overlap(work: list[int], signature: list[tuple[int, int]]) -> int:
    """Most cards of ``work`` that fit one ceki hand, given its group signatures.

    ``work`` is modified while searching and restored before returning.
    """
    base = _sets_overlap(tuple(sorted(signature)))  # no pair held yet: any pair will do
    best = base
    # Taking cards out for the pair never helps the sets, so take + base bounds a pair
    # choice: try pairs before singles and skip what cannot beat the best so far.
    for take in (2, 1):
        if take + base <= best:
            break
        for i in _NON_HIU:
            held = work[i]
            if held < take or (take == 1 and held != 1):
                continue
            work[i] = held - take
            g = GROUP_OF[i]
            kept = signature[g]
            signature[g] = _group_signature(work, GROUP_TYPES[g])
            value = take + _sets_overlap(tuple(sorted(signature)))
            signature[g] = kept
            work[i] = held
            if value > best:
                best = value
                if take + base <= best:
                    break
    return best


_DISTANCES: dict[tuple[int, ...], int] = {}
_CACHE_LIMIT = 1 << 19


def _remember(key: tuple[int, ...], value: int) -> None:
    if len(_DISTANCES) >= _CACHE_LIMIT:
        _DISTANCES.clear()  # bounded memory; the hot hands come straight back
    _DISTANCES[key] = value


def distance(vector: tuple[int, ...]) -> int:
    """Cards to replace before the hand contains a ceki 11-card hand (memoised).

    >>> from webapp.game.koa.cards import counts
    >>> distance(counts(["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    ...                 + ["babi-pusek"] * 2))
    0
    >>> distance(counts(["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    ...                 + ["babi-pusek", "sisir-halus"]))
    1
    """
    known = _DISTANCES.get(vector)
    if known is not None:
        return known
    shape = _shape(vector)
    value = _SHAPES.get(shape)
    if value is None:
        signature = [_group_signature(vector, members) for members in GROUP_TYPES]
        value = HAND_SIZE - min(_overlap(list(vector), signature), HAND_SIZE)
        if len(_SHAPES) >= _CACHE_LIMIT:
            _SHAPES.clear()
        _SHAPES[shape] = value
    _remember(vector, value)
    return value


_SHAPES: dict[tuple[int, ...], int] = {}
#: The non-hiu groups' type indexes, and each group's counts (a, b, c) as one number
#: a*49 + b*7 + c (a count is at most 6), mapped to that of its counts sorted.
_TRIPLES = tuple(members for members in GROUP_TYPES[HIU + 1 :] if len(members) == 3)
_SORTED = tuple(
    sum(n * 7**k for k, n in enumerate(sorted((a, b, c), reverse=True)))
    for a in range(7)
    for b in range(7)
    for c in range(7)
)


def _shape(vector: tuple[int, ...]) -> tuple[int, ...]:
    """What ``distance`` depends on: the hiu group's signature, and the other groups' counts
    up to order (types inside a group, and the non-hiu groups, are interchangeable).

    Far fewer shapes than hands occur, so the playouts of the search find most of them
    already computed.
    """
    total, top = _group_signature(vector, GROUP_TYPES[HIU])
    codes = sorted([_SORTED[vector[a] * 49 + vector[b] * 7 + vector[c]] for a, b, c in _TRIPLES])
    return (total, top, *codes)


def outs(vector: list[int], d: int, weights: list[int]) -> int:
    """Sum of ``weights`` over the types whose one more copy brings the hand below ``d``.

    With live copies as weights this counts the live cards that would help.

    >>> from webapp.game.koa.cards import INDEX, counts
    >>> hand = list(counts(["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    ...                    + ["babi-pusek", "sisir-halus"]))
    >>> weights = [0] * 30
    >>> weights[INDEX["babi-pusek"]] = 4
    >>> weights[INDEX["tali-merah"]] = 5
    >>> outs(hand, 1, weights)
    4
    """
    signature = [_group_signature(vector, members) for members in GROUP_TYPES]
    total = 0
    for t, weight in enumerate(weights):
        if not weight:
            continue
        vector[t] += 1
        key = tuple(vector)
        value = _DISTANCES.get(key)
        if value is None:
            g = GROUP_OF[t]
            kept = signature[g]
            signature[g] = _group_signature(vector, GROUP_TYPES[g])
            value = HAND_SIZE - min(_overlap(vector, signature), HAND_SIZE)
            signature[g] = kept
            _remember(key, value)
        vector[t] -= 1
        if value < d:
            total += weight
    return total
