"""Koa bots: each a function of one seat's view and its own random generator.

The levels differ in what they know and use, not in deliberate mistakes; all of them keep
finished sets, because every non-random level throws so as to stay as close to ceki as it
can (``hand.distance``).

- ``random``: uniform over the legal actions.
- ``easy``: keeps the hand closest to ceki, knowing only its own cards; it sees a makan
  only when the card makes a mato with a pair it holds, and takes it if that helps.
- ``medium``: also tracks every card it has seen (thrown, eaten, drawn under its eyes) to
  know how many copies of each type are still live; among equally close hands it keeps
  the one with the most live useful cards, waits on the koa cards with the most live
  copies, and takes any makan that brings it closer to ceki.
- ``hard``: also weighs makan against the expected gain of a cabut, and reads the next
  opponent (the only seat that may makan its throw): it deals that opponent's hidden hand
  many times from the cards it cannot place (keeping the cards it knows they hold, and
  trusting less the deals that would have eaten a throw they left lying) to estimate how
  likely each throw is to be eaten, and weighs that against its own hand (less so late
  in the round; when that opponent is ceki it reads instead what they ate, threw and
  left lying).  It keeps the bans it holds over opponents, plays for its mandan (when
  its partner is ceki and it is far from ceki itself, denying the next opponent counts
  for more than its own hand), and near ceki values a hand by its chance to win the
  race to koa: how soon its outs come and how many live koa copies they leave, against
  a horizon that shortens once an opponent is ceki (so a hand one card away with many
  good outs can beat a ceki hand on one scarce koa card).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from webapp.game.koa.actions import Cabut, KoaAction, Makan, NextRound, Throw
from webapp.game.koa.cards import COPIES, GROUP_OF, INDEX, TYPES, koa_indexes
from webapp.game.koa.hand import distance, outs
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
#: Draws (by all four players) the race model looks ahead, and fewer once an opponent waits.
HORIZON = 28
HORIZON_OPPONENT_CEKI = 20
#: A turn offers a makan as well as a draw, so an out turns up a little more often.
OWN_DRAW_BOOST = 1.3
#: Score units of a certain koa in the race model (a ceki hand's live copy was worth 20).
RACE_SCALE = 200.0
#: Deals of the next opponent's hand sampled, and our recent throws they left that count.
OPPONENT_SAMPLES = 16
PASSES_READ = 3
#: How much a deal that would have eaten a throw they left lying still counts.
PASS_WEIGHT = 0.2
#: Score units lost when the next opponent eats our throw (their step, our ban, a lost draw).
MAKAN_COST = 30.0
#: Arena size below which feeding the next opponent costs less and less.
LATE_ARENA = 40
#: Danger units of throwing a type we hold a ban on (throwing it lifts the ban).
BAN_KEEP = 3.0
#: Near ceki, makan must beat the hand kept by this much (its draw comes a turn later).
NEAR_MAKAN_MARGIN = 3.0


@dataclass(frozen=True)
class Level:
    """What a bot level knows and uses."""

    counts_seen: bool  # track eaten and watched draws, not only own hand and pile
    live_waits: bool  # prefer koa cards with more live copies
    reads_opponent: bool  # avoid feeding the next opponent, keep bans, play for the mandan
    counts_outs: bool  # among equally close hands, keep the one with most live useful cards
    races: bool = False  # near ceki, value hands by their chance to win the race to koa
    samples_opponent: bool = False  # deal the next opponent's hand to see what it would eat


EASY = Level(counts_seen=False, live_waits=False, reads_opponent=False, counts_outs=False)
MEDIUM = Level(counts_seen=True, live_waits=True, reads_opponent=False, counts_outs=True)
HARD = Level(
    counts_seen=True,
    live_waits=True,
    reads_opponent=True,
    counts_outs=True,
    races=True,
    samples_opponent=True,
)


def random_bot(view: KoaView, rng: random.Random) -> KoaAction:
    """Uniform over the legal actions."""
    return rng.choice(view.legal)


def _vector(cards: tuple[str, ...]) -> list[int]:
    vector = [0] * len(TYPES)
    for card in cards:
        vector[INDEX[card]] += 1
    return vector


def known_hands(view: KoaView) -> list[list[int]]:
    """Copies of each type this seat knows to sit in each other hand (its own row is zero).

    Eaten cards and arena draws seen while ceki are known until thrown again.
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
    in other hands (eaten ones, and arena draws seen while ceki, until thrown again).
    """
    seen = [0] * len(TYPES)
    for record in view.throws:
        if record.eaten_by is None:
            seen[INDEX[record.card]] += 1
    if not full:
        return seen
    for row in known_hands(view):
        for i, n in enumerate(row):
            seen[i] += n
    return seen


def _would_eat(hand: list[int], index: int, d: int) -> bool:
    """Whether a hand at distance ``d`` gets closer to ceki by eating type ``index``."""
    if GROUP_OF[index] == 0 and hand[index] < 2:
        return False  # a hiu is eaten only onto a pair of it
    hand[index] += 1
    closer = distance(tuple(hand)) < d
    hand[index] -= 1
    return closer


class Reader:
    """One decision's worth of knowledge, computed once from the view."""

    def __init__(self, view: KoaView, level: Level, rng: random.Random | None = None) -> None:
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
        self.eats: list[float] | None = None
        # Late in the round their progress matters less (few draws remain to use it).
        self.makan_cost = MAKAN_COST * min(1.0, view.arena_count / LATE_ARENA)
        self.holds_ban = [0.0] * len(TYPES)
        for ban in view.bans:
            if ban.eater == self.seat:
                self.holds_ban[INDEX[ban.card]] = BAN_KEEP
        if level.samples_opponent and rng is not None:
            self.eats = self._sampled_eats(rng)
        self.unknown = max(1, sum(self.live))
        # Draws left in the race: shorter once an opponent waits (they may koa any time).
        opponent_ceki = view.ceki[(self.seat + 1) % SEATS] or view.ceki[(self.seat + 3) % SEATS]
        self.horizon = min(view.arena_count, HORIZON_OPPONENT_CEKI if opponent_ceki else HORIZON)

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

    def _sampled_eats(self, rng: random.Random) -> list[float] | None:
        """Chance that the next opponent would makan each type we could throw.

        Their hand is dealt many times from the cards we cannot place (keeping the ones we
        know they hold); a deal counts less when it would have eaten one of our recent
        throws they left lying.  A type is eaten when it brings their hand closer to ceki.
        None when the opponent is ceki (they eat for their waits, not for distance).
        """
        view = self.view
        opponent = (self.seat + 1) % SEATS
        if view.ceki[opponent]:
            return None
        known = known_hands(view)[opponent]
        size = view.hand_counts[opponent] - sum(known)
        pool = [i for i in range(len(TYPES)) for _ in range(self.live[i])]
        if size < 0 or size > len(pool):
            return None
        passed = [
            INDEX[record.card]
            for record in view.throws
            if record.seat == self.seat and record.eaten_by is None
        ][-PASSES_READ:]
        candidates = [i for i in range(len(TYPES)) if self.mine[i]]
        eats = [0.0] * len(TYPES)
        total = 0.0
        for _ in range(OPPONENT_SAMPLES):
            hand = list(known)
            for i in rng.sample(pool, size):
                hand[i] += 1
            d = distance(tuple(hand))
            if d == 0:
                continue  # they are not ceki
            weight = 1.0
            for t in passed:
                if _would_eat(hand, t, d):
                    weight *= PASS_WEIGHT
            total += weight
            for t in candidates:
                if _would_eat(hand, t, d):
                    eats[t] += weight
        if total <= 0:
            return None
        return [e / total for e in eats]

    def wait_value(self, vector: list[int]) -> float:
        """Live koa copies of a ceki hand (how likely its koa is drawn)."""
        waits = koa_indexes(tuple(vector))
        if self.level.live_waits:
            return float(sum(self.live[i] for i in waits))
        return float(len(waits))

    def outs(self, vector: list[int], d: int) -> float:
        """Live cards that would bring an 11-card hand at distance ``d`` closer to ceki."""
        return float(outs(vector, d, self.live))

    def hit_chance(self, waits: float, draws: int) -> float:
        """Chance that one of ``waits`` live koa copies turns up within ``draws`` draws."""
        if draws <= 0 or waits <= 0:
            return 0.0
        return 1.0 - (1.0 - min(1.0, waits / self.unknown)) ** draws

    def ceki_waits(self, vector: list[int]) -> float:
        """Live koa copies of the best ceki hand a 12-card hand can keep (0 if none)."""
        best = 0.0
        for index in range(len(TYPES)):
            if not vector[index]:
                continue
            vector[index] -= 1
            waits = koa_indexes(tuple(vector))
            vector[index] += 1
            if waits:
                value = float(sum(self.live[i] for i in waits))
                if value > best:
                    best = value
        return best

    def race_value(self, vector: list[int], d: int) -> float:
        """Chance an 11-card hand at distance 0 or 1 wins within the horizon (a rough model).

        A ceki hand wins when one of its live koa copies is drawn by anyone (every player
        draws, so the horizon counts all draws).  A hand one card away reaches ceki when
        its own draw brings an out, then waits on the koa copies that out leaves it.
        """
        if d == 0:
            return self.hit_chance(self.wait_value(vector), self.horizon)
        reach = 0.0
        weighted_waits = 0.0
        for t in range(len(TYPES)):
            weight = self.live[t]
            if not weight:
                continue
            vector[t] += 1
            if distance(tuple(vector)) == 0:
                self.live[t] -= 1  # the drawn copy is no longer live
                waits = self.ceki_waits(vector)
                self.live[t] += 1
                reach += weight
                weighted_waits += weight * waits
            vector[t] -= 1
        if not reach:
            return 0.0
        p = min(1.0, reach * OWN_DRAW_BOOST / self.unknown)
        waits = weighted_waits / reach
        value = 0.0
        missed = 1.0
        for turn in range(1, self.horizon // SEATS + 1):
            value += missed * p * self.hit_chance(waits, self.horizon - SEATS * turn)
            missed *= 1.0 - p
        return value

    def score(self, vector: list[int], d: int | None = None) -> float:
        """How good an 11-card hand is: distance first, then live waits or live outs."""
        if d is None:
            d = distance(tuple(vector))
        if self.level.races and d <= 1:
            return -100.0 + RACE_SCALE * self.race_value(vector, d)
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
        # A hand one card away may beat a ceki hand on dead or scarce koa cards.
        scored = 1 if self.level.races and closest == 0 else closest
        for index in choices:
            d = dists[index]
            if d > scored:
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
                if self.eats is not None:
                    value -= caution / CAUTION * self.makan_cost * self.eats[index]
                    value -= caution * self.holds_ban[index]
                    if vector[index] >= 2 and self.eats[index] > 0.3:
                        value -= 1.0  # an eaten copy would ban the ones we keep
                else:
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
        if not self.level.counts_outs and self.mine[index] < 2:
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
        if self.level.races and d_now <= 1:
            # The race value already counts the draw a cabut would bring.
            margin = NEAR_MAKAN_MARGIN
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
        reader = Reader(view, level, rng)
        if view.phase == "take":
            return reader.decide_take()
        return reader.decide_throw()

    return bot


easy_bot = _level_bot(EASY)
medium_bot = _level_bot(MEDIUM)
hard_bot = _level_bot(HARD)
easy_bot.__doc__ = "Closest to ceki, knowing only its hand and the pile."
medium_bot.__doc__ = "Also counts every seen card and waits on live koa cards."
hard_bot.__doc__ = "Also deals the next opponent's hand to avoid feeding it, and races to koa."

BOTS: dict[str, Bot[KoaView, KoaAction]] = {
    "random": random_bot,
    "easy": easy_bot,
    "medium": medium_bot,
    "hard": hard_bot,
}
