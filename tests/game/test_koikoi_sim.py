"""The bots' fast round model agrees with the rules: scores, captures, and rounds that end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.game.koikoi import yaku
from webapp.game.koikoi.cards import DECK
from webapp.game.koikoi.oracle import improved
from webapp.game.koikoi.sim import base_points, by_month, deal_unseen, land, mask_of, rollout, score

piles = st.lists(st.sampled_from(DECK), unique=True, max_size=30)


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(cards=piles)
def test_base_points_sum_the_yaku(cards: list[str]) -> None:
    assert base_points(mask_of(cards)) == sum(yaku(cards).values())


@settings(max_examples=400, deadline=None, derandomize=True)
@given(cards=piles, more=piles)
def test_a_yaku_improves_exactly_when_the_total_rises(cards: list[str], more: list[str]) -> None:
    grown = [*cards, *(card for card in more if card not in cards)][: len(cards) + 8]
    assert improved(yaku(cards), yaku(grown)) == (
        base_points(mask_of(grown)) > base_points(mask_of(cards))
    )


def test_score_doubles_at_seven_and_after_koikoi() -> None:
    assert [score(6, False), score(7, False), score(8, True)] == [6, 14, 32]


def test_landing_takes_a_match_or_stays() -> None:
    field = by_month([DECK.index("jan-plain-1"), DECK.index("feb-plain-1")])
    pile = land(field, DECK.index("jan-crane"), 0)
    assert pile == mask_of(["jan-crane", "jan-plain-1"])
    assert [card for bucket in field for card in bucket] == [DECK.index("feb-plain-1")]
    assert land(field, DECK.index("dec-phoenix"), 0) == 0
    assert sum(map(len, field)) == 2


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_rollouts_end_with_a_scored_yaku_or_nothing(seed: int) -> None:
    rng = random.Random(seed)
    opp, stock = deal_unseen(list(range(48)), 8, rng)
    hand, stock = stock[:8], stock[8:]
    field, stock = stock[:8], stock[8:]
    piles = [0, 0]
    winner, points = rollout((hand, opp), by_month(field), stock, piles, 0, (0, 0))
    if winner is None:
        assert points == 0 and base_points(piles[0]) == base_points(piles[1]) == 0
    else:
        assert points == score(base_points(piles[winner]), False) > 0
    assert (piles[0] & piles[1]) == 0
