"""Koa's fast playout for the expert's search: a round played to its end on count vectors.

The search plays thousands of rounds a decision, and a round through ``rules.apply``,
``view`` and a bot level costs 25-100 ms (new frozen states, the view's bookkeeping, the
bots' readings).  ``play_round`` keeps each hand as a mutable 30-number vector and moves
the same round on by the same rules (``rules.py``: makan and its hiu and gantung limits,
bans and their lifting, the forced hiu, koa claims in turn order from the drawer, arena
habis) with a cheap policy close to ``easy``: throw the card that leaves the hand closest
to ceki (then the most koa cards, then the card with least to build on), and makan only to
complete a mato that brings the hand closer.  It returns the moves it made, so a test
replays them through ``rules.apply`` and checks the same round and winner.
"""

from __future__ import annotations

import random

from webapp.game.deck import next_seat
from webapp.game.koa.cards import GROUP_OF, GROUP_TYPES, INDEX, TYPES, counts
from webapp.game.koa.hand import _DISTANCES as known
from webapp.game.koa.hand import distance
from webapp.game.koa.oracle import koa_indexes
from webapp.game.koa.rules import HIU_LIMIT, is_gantung
from webapp.game.koa.state import SEATS, KoaState

#: Move codes besides a throw (a throw is its type index).
CABUT = -1
MAKAN = -2
_HIU = tuple(i for i in range(len(TYPES)) if GROUP_OF[i] == 0)


def _keep(hand: list[int], index: int) -> float:
    """How much a held type helps shape the hand (``easy``'s reading, without live counts)."""
    held = hand[index]
    group = GROUP_OF[index]
    value = 6.0 if held >= 3 else (4.0 if group else 2.5) if held == 2 else 0.0
    mates = sum([hand[i] for i in GROUP_TYPES[group]]) - held
    return value + min(mates, 4)


def _throw_choice(hand: list[int], legal: list[int], rng: random.Random) -> int:
    """The legal throw leaving the closest hand, then most koa cards, then least kept."""
    closest, tied = 99, legal
    for index in legal:
        hand[index] -= 1
        d = known.get(tuple(hand))
        if d is None:
            d = distance(tuple(hand))
        hand[index] += 1
        if d < closest:
            closest, tied = d, [index]
        elif d == closest:
            tied.append(index)
    if len(tied) == 1:
        return tied[0]
    best, best_key = tied[0], 1e9
    for index in tied:
        key = _keep(hand, index) + rng.random() * 0.01
        if closest == 0:
            hand[index] -= 1
            key -= 10.0 * len(koa_indexes(tuple(hand)))  # ceki: wait on the most koa cards
            hand[index] += 1
        if key < best_key:
            best, best_key = index, key
    return best


def _makan_pays(hand: list[int], card: int) -> bool:
    """Whether eating ``card`` (held twice: a mato) brings the hand closer to ceki."""
    now = distance(tuple(hand))
    if now == 0:
        return False  # ceki already: cabut may draw a koa card
    hand[card] += 1
    after = 99
    for index in range(len(TYPES)):
        if hand[index] and index != card:
            hand[index] -= 1
            after = min(after, distance(tuple(hand)))
            hand[index] += 1
    hand[card] -= 1
    return after < now


def _legal_throws(
    hand: list[int], seat: int, eaten: int, gantung: bool, bans: list[tuple[int, int, int]]
) -> list[int]:
    """``rules.legal_throws`` on a count vector (hand of 12)."""
    candidates = [i for i in range(len(TYPES)) if hand[i] and i != eaten]
    held_hiu = sum(hand[i] for i in _HIU)
    if held_hiu >= HIU_LIMIT or (held_hiu and gantung):
        hiu = [i for i in candidates if i in _HIU]
        if hiu:
            candidates = hiu
    banned = {card for thrower, _, card in bans if thrower == seat}
    if banned:
        allowed = []
        for i in candidates:
            if i in banned:
                hand[i] -= 1
                ceki = bool(koa_indexes(tuple(hand)))
                hand[i] += 1
                if not ceki:
                    continue
            allowed.append(i)
        if allowed:
            candidates = allowed
    return candidates


def play_round(state: KoaState, rng: random.Random) -> tuple[int | None, list[int]]:
    """Play the round of ``state`` (in ``take`` or ``throw``) to its end.

    Returns the koa winner (None on arena habis) and the moves: ``CABUT``, ``MAKAN`` or
    the index of the type thrown.
    """
    hands = [list(counts(hand)) for hand in state.hands]
    arena = [INDEX[card] for card in state.arena]
    drawn = 0
    koa = [frozenset(INDEX[card] for card in waits) for waits in state.koa]
    bans = [(ban.seat, ban.eater, INDEX[ban.card]) for ban in state.bans]
    gantung = [is_gantung(state, seat) for seat in range(SEATS)]
    turn, phase = state.turn, state.phase
    eaten = -1 if state.eaten is None else INDEX[state.eaten]
    latest = state.latest_throw
    open_throw = None if latest is None else (latest.seat, INDEX[latest.card])
    moves: list[int] = []
    while True:
        hand = hands[turn]
        if phase == "take":
            phase = "throw"
            if open_throw is not None:
                thrower, card = open_throw
                open_throw = None
                allowed = thrower == next_seat(turn, SEATS, -1) and (
                    card not in _HIU or (not gantung[turn] and hand[card] >= 2)
                )
                if allowed and hand[card] >= 2 and _makan_pays(hand, card):
                    moves.append(MAKAN)
                    hand[card] += 1
                    eaten = card
                    ban = (thrower, turn, card)
                    if not koa[turn] and not koa[thrower] and ban not in bans:
                        bans.append(ban)
                    continue
            card = arena[drawn]
            drawn += 1
            moves.append(CABUT)
            hand[card] += 1
            eaten = -1
            for step in range(SEATS):
                claimant = (turn + step) % SEATS
                if card in koa[claimant]:
                    return claimant, moves
            continue
        legal = _legal_throws(hand, turn, eaten, gantung[turn], bans)
        card = _throw_choice(hand, legal, rng)
        moves.append(card)
        hand[card] -= 1
        waits = koa_indexes(tuple(hand))
        if bans:
            was_ceki = bool(koa[turn])
            bans = [
                ban
                for ban in bans
                if not (ban[1] == turn and ban[2] == card)
                and not (waits and not was_ceki and turn in (ban[0], ban[1]))
            ]
        koa[turn] = waits
        if drawn == len(arena):
            return None, moves
        open_throw = (turn, card)
        eaten = -1
        turn = next_seat(turn, SEATS)
        phase = "take"


def rollout(state: KoaState, seat: int, rng: random.Random) -> float:
    """The searching seat's team's share of the round ``play_round`` plays from ``state``."""
    winner, _ = play_round(state, rng)
    if winner is None:
        return 0.5
    return 1.0 if (winner - seat) % 2 == 0 else 0.0
