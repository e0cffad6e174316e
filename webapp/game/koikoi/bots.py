"""Koi-Koi bots, one per level, each a function of a seat's view and its own generator.

Levels differ in what they know, not in deliberate mistakes:

- ``random``: uniform over the legal actions.
- ``easy``: knows which cards are precious (lights, then yaku pieces, then plains); takes
  the dearest capture, lays down its cheapest card, always stops.
- ``medium``: knows the yaku and weighs each move by how much it advances its own yaku,
  but keeps no track of the opponent's pile or of which cards are gone, and does not look
  ahead to what a move leaves the opponent; like most people it captures whenever it can
  (choosing the capture by its yaku) and lays a card down only when it cannot; calls
  koi-koi on a cheap yaku early in the round.
- ``hard``: also tracks every card still unseen and the opponent's pile; it too captures
  whenever it can, and values each capture (or each card to lay down, when none matches)
  by the yaku it brings nearer for itself minus those it leaves the opponent (what
  lies on the field after its move and who is likely to hold that month), and decides
  stop or koi-koi by sampling the unseen cards into opponent hands and stocks and playing
  the round out (determinization), weighing the gain against the doubled loss when the
  opponent completes a yaku first; in the last round it plays for the match.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from webapp.game.koikoi.actions import KoiKoi, KoikoiAction, Play, Stop, Take
from webapp.game.koikoi.cards import (
    ANIMALS,
    BLUES,
    BOAR_DEER_BUTTERFLIES,
    CURTAIN,
    DECK,
    DRY_LIGHTS,
    MOON,
    PLAINS,
    POEMS,
    RAIN_MAN,
    RIBBONS,
    SAKE_CUP,
)
from webapp.game.koikoi.house import STANDARD, HouseRules
from webapp.game.koikoi.sim import INDEX, WORTH, by_month, deal_unseen, mask_of, rollout
from webapp.game.koikoi.view import KoikoiView, Pile
from webapp.game.protocol import Bot

Probs = list[float]


def random_bot(view: KoikoiView, rng: random.Random) -> KoikoiAction:
    """Uniform over the legal actions."""
    return rng.choice(view.legal)


def _cards(pile: Pile) -> tuple[str, ...]:
    return (*pile.lights, *pile.animals, *pile.ribbons, *pile.plains)


@dataclass(frozen=True)
class Seen:
    """What a seat knows, as card indices: the basis of every bot's reasoning."""

    me: int
    hand: tuple[int, ...]
    field: tuple[int, ...]
    mine: int
    theirs: int
    unseen: tuple[int, ...]
    opponent_count: int

    @staticmethod
    def of(view: KoikoiView) -> Seen:
        me = view.seat if view.seat is not None else view.to_act or 0
        visible = {*view.hand, *view.field, *_cards(view.captured[0]), *_cards(view.captured[1])}
        if view.pending is not None:
            visible.add(view.pending.card)
        return Seen(
            me=me,
            hand=tuple(INDEX[card] for card in view.hand),
            field=tuple(INDEX[card] for card in view.field),
            mine=mask_of(_cards(view.captured[me])),
            theirs=mask_of(_cards(view.captured[1 - me])),
            unseen=tuple(INDEX[card] for card in DECK if card not in visible),
            opponent_count=view.hand_counts[1 - me],
        )


def _outcome_of(
    hand: tuple[int, ...], field: tuple[int, ...], pile: int, card: int, target: int | None
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Hand, field and pile after ``card`` (from the hand, or pending when not in it) lands.

    ``target`` is the chosen field card when two match; None takes what the rules take.
    """
    month = card >> 2
    new_hand = tuple(other for other in hand if other != card)
    same = [other for other in field if other >> 2 == month]
    if target is not None:
        same = [target]
    if not same:
        return new_hand, (*field, card), pile
    pile |= 1 << card
    for other in same:
        pile |= 1 << other
    return new_hand, tuple(other for other in field if other not in same), pile


#: A candidate action with the hand, field and pile (bit mask) it leads to.
Option = tuple[KoikoiAction, tuple[int, ...], tuple[int, ...], int]


def _options(view: KoikoiView, seen: Seen) -> list[Option]:
    """Each candidate action with the hand, field and pile it leads to (choices expanded)."""
    results: list[Option] = []
    if view.phase == "choose" and view.pending is not None:
        card = INDEX[view.pending.card]
        for option in view.pending.options:
            take = Take(option)
            results.append(
                (take, *_outcome_of(seen.hand, seen.field, seen.mine, card, INDEX[option]))
            )
        return results
    for action in view.legal:
        if not isinstance(action, Play):
            continue
        card = INDEX[action.card]
        same = [other for other in seen.field if other >> 2 == card >> 2]
        targets: list[int | None] = list(same) if len(same) == 2 else [None]
        for target in targets:
            results.append((action, *_outcome_of(seen.hand, seen.field, seen.mine, card, target)))
    return results


def _captures(options: list[Option], pile: int) -> list[Option]:
    """The options that capture (those that grow the pile), or all of them when none does."""
    return [option for option in options if option[3] != pile] or options


# --- potential: the expected yaku points of a pile given each card's chance to join it ---


def _indexes(cards: frozenset[str]) -> tuple[int, ...]:
    """Card indices in deck order: a set's own order follows the hash seed, and the order
    of a float sum or product decides near-ties between moves."""
    return tuple(sorted(INDEX[card] for card in cards))


_DRY: Final = _indexes(DRY_LIGHTS)
_RAIN: Final = INDEX[RAIN_MAN]
_SAKE, _CURTAIN, _MOON = INDEX[SAKE_CUP], INDEX[CURTAIN], INDEX[MOON]
_ISC: Final = _indexes(BOAR_DEER_BUTTERFLIES)
_POEMS: Final = _indexes(POEMS)
_BLUES: Final = _indexes(BLUES)
_ANIMALS: Final = _indexes(ANIMALS)
_RIBBONS: Final = _indexes(RIBBONS)
_PLAINS: Final = _indexes(PLAINS)
#: Plains without the sake cup, for tables where it is an animal only.
_PLAINS_ONLY: Final = _indexes(PLAINS - {SAKE_CUP})


def _excess(probs: Probs, cards: tuple[int, ...], need: int) -> float:
    """Expected ``max(0, n - need + 1)`` for n independent cards (normal approximation)."""
    mean = var = 0.0
    for card in cards:
        p = probs[card]
        mean += p
        var += p * (1.0 - p)
    gap = mean - (need - 1)
    if var < 1e-9:
        return max(0.0, gap)
    sigma = math.sqrt(var)
    z = gap / sigma
    cdf = 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
    pdf = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return gap * cdf + sigma * pdf


def potential(probs: Probs, house: HouseRules = STANDARD) -> float:
    """Expected yaku points of a player whose chance of ending with card i is ``probs[i]``,
    under the table's house rules."""
    dist = [1.0]
    for card in _DRY:
        p = probs[card]
        grown = [0.0] * (len(dist) + 1)
        for count, weight in enumerate(dist):
            grown[count] += weight * (1.0 - p)
            grown[count + 1] += weight * p
        dist = grown
    rain = probs[_RAIN]
    total = dist[3] * (5.0 + 2.0 * rain) + dist[4] * (8.0 + 2.0 * rain)
    viewing = 5.0 * probs[_SAKE] * (probs[_CURTAIN] + probs[_MOON])
    if house.viewing == "off":
        viewing = 0.0
    elif house.viewing == "with-yaku":
        viewing *= 0.5  # about even odds of another yaku beside it
    if house.rain_spoils:
        viewing *= 1.0 - rain
    total += viewing
    for group in (_ISC, _POEMS, _BLUES):
        total += 5.0 * probs[group[0]] * probs[group[1]] * probs[group[2]]
    total += _excess(probs, _ANIMALS, 5) + _excess(probs, _RIBBONS, 5)
    total += _excess(probs, _PLAINS if house.sake_plain else _PLAINS_ONLY, 10)
    return total


def _months(cards: tuple[int, ...]) -> list[int]:
    counts = [0] * 12
    for card in cards:
        counts[card >> 2] += 1
    return counts


def _none_held(unseen: int, of_month: int, hand: int) -> float:
    """Chance that a random ``hand`` of the ``unseen`` cards holds none of ``of_month``."""
    chance = 1.0
    for drawn in range(hand):
        left = unseen - drawn
        if left <= 0:
            break
        chance *= max(0.0, (left - of_month) / left)
    return chance


def _chances(
    hand: tuple[int, ...], field: tuple[int, ...], mine: int, theirs: int, seen: Seen
) -> tuple[Probs, Probs]:
    """Each card's chance to end in my pile and in the opponent's, the opponent to move next.

    Cards in a pile are certain; my hand cards are mine when their month lies on the
    field, else they risk being taken once laid down; field cards go to whoever holds
    their month (the opponent, moving first, when it likely holds one); unseen cards are
    in the opponent's hand or in the stock, which is only partly turned over.
    """
    unseen = seen.unseen
    total = len(unseen)
    opp = seen.opponent_count
    stock = total - opp
    flips = len(hand) + opp
    flipped = min(1.0, flips / stock) if stock else 0.0
    in_hand = opp / total if total else 0.0
    in_stock = 1.0 - in_hand
    per_month = _months(unseen)
    my_months = _months(hand)
    field_months = _months(field)
    held = [1.0 - _none_held(total, per_month[m], opp) for m in range(12)]
    mine_p = [0.0] * 48
    theirs_p = [0.0] * 48
    for card in hand:
        m = card >> 2
        if field_months[m]:
            mine_p[card] = 0.95 - (0.3 * held[m] if field_months[m] == 1 else 0.0)
            theirs_p[card] = 0.9 - mine_p[card]
        else:
            risk = 0.7 * held[m] * (0.6 if my_months[m] >= 2 else 1.0) + 0.05
            theirs_p[card] = risk
            mine_p[card] = 0.9 - risk
    for card in field:
        m = card >> 2
        taken = 0.85 * held[m]
        theirs_p[card] = taken
        if my_months[m]:
            mine_p[card] = (1.0 - taken) * 0.95
        else:
            theirs_p[card] = taken + (1.0 - held[m]) * 0.15
            mine_p[card] = (1.0 - held[m]) * 0.2
    for card in unseen:
        m = card >> 2
        mine_p[card] = in_stock * flipped * 0.45 + (0.15 if my_months[m] else 0.0)
        theirs_p[card] = in_hand * 0.75 + in_stock * flipped * 0.45
    for card in range(48):
        bit = 1 << card
        if mine & bit:
            mine_p[card], theirs_p[card] = 1.0, 0.0
        elif theirs & bit:
            mine_p[card], theirs_p[card] = 0.0, 1.0
    return mine_p, theirs_p


def _naive_chances(hand: tuple[int, ...], field: tuple[int, ...], mine: int) -> Probs:
    """Medium's picture: its own pile, hand and matches; every other card a fair chance."""
    my_months = _months(hand)
    field_months = _months(field)
    probs = [0.25] * 48
    for card in hand:
        probs[card] = 0.9 if field_months[card >> 2] else 0.6
    for card in field:
        if my_months[card >> 2]:
            probs[card] = 0.8
    for card in range(48):
        if mine >> card & 1:
            probs[card] = 1.0
    return probs


# --- the levels -----------------------------------------------------------------------


def _single(view: KoikoiView) -> KoikoiAction | None:
    return view.legal[0] if len(view.legal) == 1 else None


def easy_bot(view: KoikoiView, rng: random.Random) -> KoikoiAction:
    """Takes the dearest capture, lays down the cheapest card, always stops."""
    if (only := _single(view)) is not None:
        return only
    if view.phase == "decide":
        return Stop()
    seen = Seen.of(view)

    def worth(option: Option) -> float:
        action, _, _, pile = option
        gained = pile & ~seen.mine
        value = sum(WORTH[card] for card in range(48) if gained >> card & 1)
        if not gained and isinstance(action, Play):
            value = -WORTH[INDEX[action.card]]
        return value

    return max(_options(view, seen), key=worth)[0]


def medium_bot(view: KoikoiView, rng: random.Random) -> KoikoiAction:
    """Captures when it can, advancing its own yaku most; koi-koi on a cheap early yaku."""
    if (only := _single(view)) is not None:
        return only
    seen = Seen.of(view)
    if view.phase == "decide":
        assert view.prompt is not None
        cheap = view.prompt.score.points < 4 and len(seen.hand) >= 5
        return KoiKoi() if cheap else Stop()
    # Like most people it never lays a card down while it can capture: its weakness is its
    # picture of the cards, not passing up what lies in front of it.
    return max(
        _captures(_options(view, seen), seen.mine),
        key=lambda option: potential(_naive_chances(option[1], option[2], option[3]), view.house),
    )[0]


#: Sample rounds played out for one stop / koi-koi decision.
KOIKOI_SAMPLES: Final = 48


def _decide(view: KoikoiView, seen: Seen, rng: random.Random) -> KoikoiAction:
    """Stop or koi-koi by playing sampled rounds out after a koi-koi."""
    assert view.prompt is not None
    stake = view.prompt.score.points
    me, opp = seen.me, 1 - seen.me
    last = view.round == view.rounds
    lead = view.scores[me] - view.scores[opp]
    outcomes: list[int] = []
    for _ in range(KOIKOI_SAMPLES):
        opp_hand, stock = deal_unseen(list(seen.unseen), seen.opponent_count, rng)
        hands: tuple[list[int], list[int]] = ([], [])
        hands[me].extend(seen.hand)
        hands[opp].extend(opp_hand)
        piles = [0, 0]
        piles[me], piles[opp] = seen.mine, seen.theirs
        # After this koi-koi call: one more for this seat.
        calls = list(view.calls)
        calls[me] += 1
        winner, points = rollout(
            (hands[0], hands[1]),
            by_month(seen.field),
            stock,
            piles,
            opp,
            (calls[0], calls[1]),
            view.house,
        )
        outcomes.append(0 if winner is None else points if winner == me else -points)
    if last:
        # In the last round only the match counts: compare the chances to finish ahead.
        stop_wins = 1.0 if lead + stake > 0 else 0.5 if lead + stake == 0 else 0.0
        go_wins = sum(
            1.0 if lead + gain > 0 else 0.5 if lead + gain == 0 else 0.0 for gain in outcomes
        ) / len(outcomes)
        if go_wins != stop_wins:
            return KoiKoi() if go_wins > stop_wins else Stop()
    # Winning a round also means starting the next one, worth about a point.
    expected = sum(outcomes) / len(outcomes) + 1.0 * sum(o > 0 for o in outcomes) / len(outcomes)
    return KoiKoi() if expected > stake + 1.0 else Stop()


def hard_bot(view: KoikoiView, rng: random.Random) -> KoikoiAction:
    """Weighs its yaku against the opponent's with the unseen cards; samples koi-koi."""
    if (only := _single(view)) is not None:
        return only
    seen = Seen.of(view)
    if view.phase == "decide":
        return _decide(view, seen, rng)
    me, house = seen.me, view.house
    # A koi-koi doubles what the other side wins: weigh that side's yaku twice (and, with
    # many calls allowed, a side's own calls multiply what it wins).
    own = (1 + view.calls[me], 1 + view.calls[1 - me]) if house.koikoi_calls == "many" else (1, 1)
    mine_weight = (2.0 if view.calls[1 - me] else 1.0) * own[0]
    theirs_weight = (2.0 if view.calls[me] else 1.0) * own[1]

    def value(option: Option) -> float:
        _, hand, field, pile = option
        mine_p, theirs_p = _chances(hand, field, pile, seen.theirs, seen)
        return mine_weight * potential(mine_p, house) - theirs_weight * potential(theirs_p, house)

    # It weighs which capture, not whether to capture: laying a card down while a capture
    # lies there lost (a hard that did it in 15% of such plays scored 2.9 points a match
    # less than the same bot capturing whenever it could, benchmarks/README.md).
    return max(_captures(_options(view, seen), seen.mine), key=value)[0]


BOTS: dict[str, Bot[KoikoiView, KoikoiAction]] = {
    "random": random_bot,
    "easy": easy_bot,
    "medium": medium_bot,
    "hard": hard_bot,
}
