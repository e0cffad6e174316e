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
    return (min(total, 9), min(top, 3))


@lru_cache(maxsize=1 << 18)
def distance(vector: tuple[int, ...]) -> int:
    """Cards to replace before the hand contains a ceki 11-card hand.

    >>> from webapp.game.koa.cards import counts
    >>> distance(counts(["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    ...                 + ["babi-pusek"] * 2))
    0
    >>> distance(counts(["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
    ...                 + ["babi-pusek", "sisir-halus"]))
    1
    """
    signature = [_group_signature(vector, members) for members in GROUP_TYPES]
    base = _sets_overlap(tuple(sorted(signature)))  # no pair held yet: any pair will do
    best = base
    # Taking cards out for the pair never helps the sets, so take + base bounds a pair
    # choice: try pairs before singles and skip what cannot beat the best so far.
    pairs = [i for i in _NON_HIU if vector[i] >= 2]
    singles = [i for i in _NON_HIU if vector[i] == 1]
    work = list(vector)
    for take, choices in ((2, pairs), (1, singles)):
        for i in choices:
            if take + base <= best:
                break
            work[i] -= take
            g = GROUP_OF[i]
            changed = list(signature)
            changed[g] = _group_signature(work, GROUP_TYPES[g])
            value = take + _sets_overlap(tuple(sorted(changed)))
            work[i] += take
            if value > best:
                best = value
    return HAND_SIZE - min(best, HAND_SIZE)
