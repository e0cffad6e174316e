"""Kowah's rules oracle (docs/rules.md §2, Checki): which hands are checki, which pair shows."""

from __future__ import annotations

import itertools

import pytest

from webapp.game.kowah import checki_pairs
from webapp.game.kowah.actions import parse_action
from webapp.game.kowah.cards import DECK, HONOURS, SUITS, TYPES, kind, sort_cards
from webapp.game.kowah.oracle import MULTIPLIER, claimant, win_reason
from webapp.game.protocol import IllegalAction


def hand(text: str) -> list[str]:
    """``"coins-5*2 strings-5"`` -> ['coins-5', 'coins-5', 'strings-5']."""
    cards: list[str] = []
    for word in text.split():
        card, _, count = word.partition("*")
        cards += [card] * int(count or 1)
    return cards


def test_deck_has_120_cards_of_30_types_four_copies_each() -> None:
    assert len(DECK) == 120
    assert len(TYPES) == 30
    assert all(DECK.count(card) == 4 for card in TYPES)


def test_three_suits_of_ranks_one_to_nine_and_three_honours() -> None:
    suits = {card.rpartition("-")[0] for card in TYPES if card not in HONOURS}
    assert suits == {"coins", "strings", "myriads"}
    assert HONOURS == ("old-thousand", "red-flower", "white-flower")
    assert {kind(card) for card in TYPES if card not in HONOURS} == {str(r) for r in range(1, 10)}


def test_each_honour_is_its_own_kind_and_never_wild() -> None:
    assert len({kind(card) for card in HONOURS}) == 3
    assert checki_pairs(hand("old-thousand*2 red-flower coins-4*3 strings-6*2")) == frozenset()


CHECKI_CASES = [
    # (paragraph point, hand, exposable pairs)
    (
        "two suit triples + identical pair",
        "coins-5 strings-5 myriads-5 coins-7*3 coins-1*2",
        {"coins-1"},
    ),
    (
        "suit triple with suits free",
        "coins-5*2 strings-5 coins-7 strings-7 myriads-7 coins-9*2",
        {"coins-9"},
    ),
    ("honour triple of one honour", "red-flower*3 coins-2*3 white-flower*2", {"white-flower"}),
    (
        "two honour triples and an honour pair",
        "red-flower*3 old-thousand*3 white-flower*2",
        {"white-flower"},
    ),
    ("honour triple must be one honour", "red-flower*2 white-flower coins-2*3 strings-4*2", set()),
    (
        "pair must be identical: same rank other suit is no pair",
        "coins-5*3 coins-7*3 coins-1 strings-1",
        set(),
    ),
    (
        "pair must be identical: two honours differ",
        "coins-5*3 coins-7*3 red-flower white-flower",
        set(),
    ),
    (
        "2-2-1: either suited pair may be exposed",
        "coins-5*2 strings-5*2 myriads-5 coins-8*3",
        {"coins-5", "strings-5"},
    ),
    (
        "2-2-1 with an honour triple",
        "myriads-3*2 strings-3*2 coins-3 old-thousand*3",
        {"myriads-3", "strings-3"},
    ),
    ("shared rank 3-2-0 is not checki", "coins-5*3 strings-5*2 coins-8*3", set()),
    (
        "shared rank 2-2-1 rule: 3-1-1 is not checki",
        "coins-5*3 strings-5 myriads-5 coins-8*3",
        set(),
    ),
    ("shared rank 4-1-0 is not checki", "coins-5*4 strings-5 coins-8*3", set()),
    (
        "(decided) two triples may share a rank",
        "coins-5*2 strings-5*2 myriads-5*2 red-flower*2",
        {"red-flower"},
    ),
    (
        "(decided) two triples may share a rank, any suits",
        "coins-5*3 strings-5*3 coins-9*2",
        {"coins-9"},
    ),
    (
        "(decided) eight of one rank, 3-3-2: the pair is the type held twice",
        "coins-2*3 strings-2*3 myriads-2*2",
        {"myriads-2"},
    ),
    (
        "(decided) eight of one rank, 2-3-3",
        "coins-5*2 strings-5*3 myriads-5*3",
        {"coins-5"},
    ),
    (
        "(decided) eight of one rank, 4-2-2: either type held twice",
        "coins-5*4 strings-5*2 myriads-5*2",
        {"strings-5", "myriads-5"},
    ),
    (
        "(decided) eight of one rank, 4-3-1: no type held twice",
        "coins-5*4 strings-5*3 myriads-5",
        set(),
    ),
    ("(decided) eight of one rank, 4-4-0: no type held twice", "coins-5*4 myriads-5*4", set()),
    (
        "not checki: loose cards",
        "coins-1 coins-2 coins-3 coins-4 coins-5 coins-6 coins-7 coins-8",
        set(),
    ),
    ("not checki: two pairs", "coins-5*3 coins-1*2 strings-2*2 myriads-9", set()),
    ("not checki: four of a kind plus pairs", "coins-5*4 coins-1*2 coins-2*2", set()),
]


@pytest.mark.parametrize(
    ("cards", "pairs"), [(c[1], c[2]) for c in CHECKI_CASES], ids=[c[0] for c in CHECKI_CASES]
)
def test_checki_pairs_follows_the_checki_paragraph(cards: str, pairs: set[str]) -> None:
    assert checki_pairs(hand(cards)) == frozenset(pairs)


@pytest.mark.parametrize("size", [0, 7, 9])
def test_only_eight_card_hands_can_be_checki(size: int) -> None:
    cards = hand("coins-5*3 coins-7*3 coins-1*2 strings-1*3")[:size]
    assert checki_pairs(cards) == frozenset()


def test_checki_pairs_ignores_card_order() -> None:
    cards = hand("coins-5*2 strings-5*2 myriads-5 coins-8*3")
    assert checki_pairs(reversed(cards)) == checki_pairs(sort_cards(cards))


def passing_splits(counts: tuple[int, int, int]) -> set[str]:
    """docs/rules.md §2 read literally for eight cards of rank 5 held as ``counts`` per suit.

    Every pair type held exactly twice, with every way to split the other six cards into two
    triples; a split passes when the pair and each triple (all of one rank) make five cards
    two of one suit, two of a second and one of the third.
    """
    found = set()
    for p, held in enumerate(counts):
        if held != 2:
            continue
        rest = [n - 2 * (i == p) for i, n in enumerate(counts)]
        for first in itertools.product(*(range(n + 1) for n in rest)):
            if sum(first) != 3:
                continue
            second = [n - f for n, f in zip(rest, first, strict=True)]
            fives = [[t + 2 * (i == p) for i, t in enumerate(triple)] for triple in (first, second)]
            if all(sorted(five) == [1, 2, 2] for five in fives):
                found.add(f"{SUITS[p]}-5")
    return found


@pytest.mark.parametrize(
    "counts", [c for c in itertools.product(range(5), repeat=3) if sum(c) == 8]
)
def test_eight_of_one_rank_follow_the_split_rules(counts: tuple[int, int, int]) -> None:
    cards = [f"{suit}-5" for suit, n in zip(SUITS, counts, strict=True) for _ in range(n)]
    assert checki_pairs(cards) == frozenset(passing_splits(counts))


def test_an_exposed_pair_type_is_held_exactly_twice() -> None:
    # the third card of exactly that type is the winning card, so it is never already held
    for _, cards, _pairs in CHECKI_CASES:
        for pair in checki_pairs(hand(cards)):
            assert hand(cards).count(pair) == 2


@pytest.mark.parametrize(
    ("card", "source", "exposed", "drawn", "winner"),
    [
        ("coins-5", 0, ("coins-5", None, None), True, 0),  # self-draw
        ("coins-5", 1, ("coins-5", None, None), True, 0),  # another's draw
        ("coins-5", 1, ("coins-5", None, None), False, 0),  # another's discard
        ("coins-5", 0, (None, "coins-6", None), True, None),  # nobody waits on it
        # several claims: the drawer first, then turn order after the drawer or discarder
        ("coins-5", 1, ("coins-5", "coins-5", "coins-5"), True, 1),
        ("coins-5", 1, ("coins-5", "coins-5", "coins-5"), False, 2),
        ("coins-5", 2, ("coins-5", "coins-5", None, "coins-5"), False, 3),
        ("coins-5", 3, (None, "coins-5", "coins-5", None), True, 1),
    ],
)
def test_claim_priority(
    card: str, source: int, exposed: tuple[str | None, ...], drawn: bool, winner: int | None
) -> None:
    assert claimant(card, source, exposed, drawn) == winner


def test_multipliers_self_draw_three_other_draw_one_discard_two() -> None:
    assert MULTIPLIER[win_reason(0, 0, True)] == 3
    assert MULTIPLIER[win_reason(0, 1, True)] == 1
    assert MULTIPLIER[win_reason(0, 1, False)] == 2


@pytest.mark.parametrize(
    "text", ["draw", "take", "discard coins-5", "discard coins-5 declare red-flower", "timeout"]
)
def test_actions_round_trip_through_their_text(text: str) -> None:
    assert str(parse_action(text)) == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "bad-action"),
        ("discard", "bad-action"),
        ("draw coins-1", "bad-action"),
        ("makan", "bad-action"),
        ("discard coins-10", "unknown-card"),
        ("discard coins-5 declare", "unknown-card"),
        ("discard coins-5 declare coins-10", "unknown-card"),
        ("draw declare coins-5", "bad-action"),
        ("declare coins-5", "bad-action"),
        ("pass", "bad-action"),
    ],
)
def test_unknown_action_text_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction) as err:
        parse_action(text)
    assert err.value.reason == reason
