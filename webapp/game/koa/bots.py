"""Koa bots: each a function of one seat's view and its own random generator.

The levels differ in what they know and use, not in deliberate mistakes; all of them keep
finished sets, because every non-random level throws so as to stay as close to ceki as it
can (``hand.distance``).

- ``random``: uniform over the legal actions.
- ``easy``: keeps the hand closest to ceki, knowing only its own cards; it sees a makan
  only when the card makes a mato with a pair it holds, and takes it if that helps.
- ``medium``: also tracks every card it has seen (thrown, eaten, drawn under its eyes) to
  know how many copies of each type are still live, waits on the koa cards with the most
  live copies, and takes any makan that brings it closer to ceki.
- ``hard``: also counts outs: among equally close hands it keeps the one with the most
  live cards that would bring it closer, and weighs makan against the expected gain of a
  cabut.  It reads the next opponent (who may makan its throw) from what that player
  ate, threw and left lying, avoids feeding them and lifting bans it holds over
  opponents, weighs the takabek a throw could earn it, and plays for its mandan (when its
  partner is ceki and it is far from ceki itself, denying the next opponent counts for
  more than its own hand).

Counting outs, and weighing makan by them, is the largest part of what separates the
two upper levels (measured with the simulator; figures in benchmarks/README.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from webapp.game.koa.actions import Cabut, KoaAction, Makan, NextRound, Throw
from webapp.game.koa.cards import COPIES, GROUP_OF, INDEX, TYPES
from webapp.game.koa.hand import distance, outs
from webapp.game.koa.oracle import koa_indexes
from webapp.game.koa.state import SEATS
from webapp.game.koa.view import KoaView
from webapp.game.protocol import Bot

HIU_LIMIT = 6
#: Weight of the next opponent's interest in a throw (in live-card units of the outs).
CAUTION = 1.5
#: The same when our mandan already waits and we are far from ceki: denial first.
CAUTION_PARTNER_CEKI = 2.0
#: Hard takes by makan when the gain beats this share of a cabut's expected gain
#: (measured: half of it is best; makan is worth more than its card, cabut feeds throws).
CABUT_SHARE = 0.5


@dataclass(frozen=True)
class Level:
    """What a bot level knows and uses."""

    counts_seen: bool  # track eaten and watched draws, not only own hand and pile
    live_waits: bool  # prefer koa cards with more live copies
    weighs_makan: bool  # consider every makan, not only one that makes a mato with a pair
    counts_outs: bool  # among equally close hands, keep the one with most live useful cards
    reads_opponent: bool  # avoid feeding the next opponent, keep bans, play for the mandan


EASY = Level(
    counts_seen=False, live_waits=False, weighs_makan=False, counts_outs=False, reads_opponent=False
)
MEDIUM = Level(
    counts_seen=True, live_waits=True, weighs_makan=True, counts_outs=False, reads_opponent=False
)
HARD = Level(
    counts_seen=True, live_waits=True, weighs_makan=True, counts_outs=True, reads_opponent=True
)


def random_bot(view: KoaView, rng: random.Random) -> KoaAction:
    """Uniform over the legal actions."""
    return rng.choice(view.legal)


def _vector(cards: tuple[str, ...]) -> list[int]:
    vector = [0] * len(TYPES)
    for card in cards:
        vector[INDEX[card]] += 1
    return vector


def known_in_hands(view: KoaView) -> list[list[int]]:
    """Copies of each type known to sit in each seat's hand besides this seat's own.

    Eaten throws, and arena draws seen while ceki, count until the seat throws that type.
    """
    known: list[list[int]] = [[0] * len(TYPES) for _ in range(SEATS)]
    # Replay the round in order: a take comes before the throw of the same turn.
    steps: list[tuple[int, int, int, int]] = []  # (turn, order, seat, +index / -index-1)
    for record in view.throws:
        steps.append((record.turn, 1, record.seat, -INDEX[record.card] - 1))
        if record.eaten_by is not None:
            steps.append((record.turn + 1, 0, record.eaten_by, INDEX[record.card]))
    for draw in view.arena_draws:
        if draw.seat != view.seat:
            steps.append((draw.turn, 0, draw.seat, INDEX[draw.card]))
    steps.sort()
    for _, _, seat, code in steps:
        if code >= 0:
            known[seat][code] += 1
        elif known[seat][-code - 1] > 0:
            known[seat][-code - 1] -= 1
    if view.seat is not None:
        known[view.seat] = [0] * len(TYPES)
    return known


def seen_elsewhere(view: KoaView, full: bool) -> list[int]:
    """Copies of each type this seat knows to be out of the arena and not in its hand.

    The face-up pile always counts; with ``full`` knowledge also the cards known to sit
    in other hands (:func:`known_in_hands`).
    """
    seen = [0] * len(TYPES)
    for record in view.pile:
        seen[INDEX[record.card]] += 1
    if not full:
        return seen
    for row in known_in_hands(view):
        for i, n in enumerate(row):
            seen[i] += n
    return seen


class Reader:
    """One decision's worth of knowledge, computed once from the view."""

    def __init__(self, view: KoaView, level: Level) -> None:
        assert view.seat is not None
        self.view = view
        self.level = level
        self.seat = view.seat
        self.hand = list(view.hand)
        self.mine = _vector(view.hand)
        seen = seen_elsewhere(view, level.counts_seen)
        # Live copies: those that may still turn up (arena or unknown parts of hands).
        self.live = [max(0, COPIES - self.mine[i] - seen[i]) for i in range(len(TYPES))]
        self.danger = self._danger() if level.reads_opponent else [0.0] * len(TYPES)

    def _danger(self) -> list[float]:
        """How much the next opponent (who may makan our throw) would like each type.

        Our throws they left lying were no use to them (recent ones say most), what they
        threw themselves they do not keep, and what they ate they collect.  Unseen copies
        make a pair in their hand likelier.
        """
        view = self.view
        opponent = (self.seat + 1) % SEATS
        wants = [0.0] * len(TYPES)
        eaten_groups = [0] * 9
        for i in range(len(TYPES)):
            wants[i] = 0.25 * self.live[i]
        last_turn = view.turn_no
        for record in view.throws:
            index = INDEX[record.card]
            group = GROUP_OF[index]
            recent = 1.0 if last_turn - record.turn <= 12 else 0.5
            if record.eaten_by == opponent:
                wants[index] += 2.5
                eaten_groups[group] += 1
            elif record.seat == self.seat:
                wants[index] -= 1.5 * recent  # they passed on it
            if record.seat == opponent:
                wants[index] -= 1.0 * recent
        for i in range(len(TYPES)):
            wants[i] += 1.0 * min(eaten_groups[GROUP_OF[i]], 2)
            if GROUP_OF[i] == 0:
                wants[i] -= 1.5  # a hiu can only be eaten by someone holding its pair
        if view.ceki[opponent]:
            wants = [w * 0.5 for w in wants]
        # A ban we hold over an opponent ends when we throw that type ourselves.
        for ban in view.bans:
            if ban.eater == self.seat:
                wants[INDEX[ban.card]] += 3.0
        return wants

    def wait_value(self, vector: list[int]) -> float:
        """Live koa copies of a ceki hand (how likely its koa is drawn)."""
        waits = koa_indexes(tuple(vector))
        if self.level.live_waits:
            return float(sum(self.live[i] for i in waits))
        return float(len(waits))

    def outs(self, vector: list[int], d: int) -> float:
        """Live cards that would bring an 11-card hand at distance ``d`` closer to ceki."""
        return float(outs(vector, d, self.live))

    def score(self, vector: list[int], d: int | None = None) -> float:
        """How good an 11-card hand is: distance first, then live waits or live outs."""
        if d is None:
            d = distance(tuple(vector))
        if d == 0:
            live = self.wait_value(vector)
            if live == 0 and self.level.live_waits:
                return -100.0 + 0.5  # ceki on dead koa cards: as good as one card away
            return 20.0 * live
        if self.level.counts_outs:
            return -100.0 * d + self.outs(vector, d)
        return -100.0 * d

    def keep_value(self, vector: list[int], index: int) -> float:
        """How much a card helps shape the hand, beyond the distance (higher: keep)."""
        held = vector[index]
        group = GROUP_OF[index]
        mates = sum(vector[i] for i in range(len(TYPES)) if GROUP_OF[i] == group) - held
        value = 0.0
        if held >= 3:
            value += 6.0
        elif held == 2:
            value += 4.0 if group else 2.5  # a hiu pair can never be the koa pair
        value += 1.0 * min(mates, 4)
        if self.level.counts_seen:
            value += 0.35 * self.live[index]
        return value

    def best_throw(self, vector: list[int], choices: list[int]) -> tuple[float, int]:
        """The throw (among type indexes) leaving the best hand, and its score."""
        view = self.view
        partner_ceki = view.ceki[(self.seat + 2) % SEATS]
        best_index = choices[0]
        best_value = -1e9
        base = distance(tuple(vector)) if self.level.reads_opponent else 0
        # Distance of every choice first: only the closest ones earn the costlier scoring.
        dists = {}
        for index in choices:
            vector[index] -= 1
            dists[index] = distance(tuple(vector))
            vector[index] += 1
        closest = min(dists.values())
        for index in choices:
            d = dists[index]
            if d > closest:
                value = -100.0 * d
            else:
                vector[index] -= 1
                value = self.score(vector, d)
                vector[index] += 1
            value -= 0.1 * self.keep_value(vector, index)
            if self.level.reads_opponent:
                caution = CAUTION
                if partner_ceki and base >= 3:
                    caution = CAUTION_PARTNER_CEKI  # our team waits: deny the next opponent
                value -= caution * self.danger[index]
                if vector[index] >= 2 and self.danger[index] > 1.0:
                    value -= 1.0  # an eaten copy would ban the ones we keep
            if value > best_value:
                best_value = value
                best_index = index
        return best_value, best_index

    def decide_take(self) -> KoaAction:
        view = self.view
        latest = view.latest_throw
        if not view.can_makan or latest is None:
            return Cabut()
        index = INDEX[latest.card]
        if not self.level.weighs_makan and self.mine[index] < 2:
            return Cabut()  # easy only sees makan that completes a mato
        now = self.score(self.mine)
        vector = list(self.mine)
        vector[index] += 1
        choices = [i for i in range(len(TYPES)) if vector[i] and i != index]
        hiu = sum(vector[i] for i in range(6))
        if hiu >= HIU_LIMIT:
            forced = [i for i in choices if GROUP_OF[i] == 0]
            choices = forced or choices
        after, _ = self.best_throw(vector, choices)
        # Cabut is free and may draw a koa card; makan must earn its place.
        d_now = distance(tuple(self.mine))
        margin = 30.0 if d_now == 0 else 50.0
        if self.level.reads_opponent:
            # Cabut is worth its chance of a useful card: outs over the unknown cards.
            unknown = max(1, sum(self.live))
            margin = 10.0 if d_now == 0 else 100.0 * self.outs(list(self.mine), d_now) / unknown
            margin *= CABUT_SHARE
        if after > now + margin:
            return Makan()
        return Cabut()

    def decide_throw(self) -> KoaAction:
        legal = [INDEX[a.card] for a in self.view.legal if isinstance(a, Throw)]
        vector = list(self.mine)
        _, index = self.best_throw(vector, legal)
        return Throw(TYPES[index])


def _level_bot(level: Level) -> Callable[[KoaView, random.Random], KoaAction]:
    def bot(view: KoaView, rng: random.Random) -> KoaAction:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase == "round-over":
            return NextRound()
        reader = Reader(view, level)
        if view.phase == "take":
            return reader.decide_take()
        return reader.decide_throw()

    return bot


easy_bot = _level_bot(EASY)
medium_bot = _level_bot(MEDIUM)
hard_bot = _level_bot(HARD)
easy_bot.__doc__ = "Closest to ceki, knowing only its hand and the pile."
medium_bot.__doc__ = "Also counts every seen card, waits on live koa cards, weighs every makan."
hard_bot.__doc__ = "Also counts outs, reads the next opponent, keeps bans, plays for its mandan."

BOTS: dict[str, Bot[KoaView, KoaAction]] = {
    "random": random_bot,
    "easy": easy_bot,
    "medium": medium_bot,
    "hard": hard_bot,
}
