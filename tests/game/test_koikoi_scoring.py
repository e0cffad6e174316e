"""The Koi-Koi yaku oracle and round scores against docs/rules.md §3 "Yaku", case by case."""

from __future__ import annotations

import pytest

from webapp.game.koikoi import yaku
from webapp.game.koikoi.cards import ANIMALS, DECK, KIND, LIGHTS, PLAINS, RIBBONS
from webapp.game.koikoi.oracle import SLUGS, improved, near_yaku, round_points

FIVE = ["jan-crane", "mar-curtain", "aug-moon", "nov-rain-man", "dec-phoenix"]
ISC = ["jul-boar", "oct-deer", "jun-butterflies"]
POEMS = ["jan-poetry", "feb-poetry", "mar-poetry"]
BLUES = ["jun-blue", "sep-blue", "oct-blue"]
PLAIN_TEN = [
    "jan-plain-1",
    "jan-plain-2",
    "feb-plain-1",
    "feb-plain-2",
    "mar-plain-1",
    "mar-plain-2",
    "apr-plain-1",
    "apr-plain-2",
    "may-plain-1",
    "may-plain-2",
]

YAKU_TABLE = [
    # lights: only the highest counts; the rain man only in five and rainy four
    ("five-lights", FIVE, {"five-lights": 10}),
    ("four-lights", ["jan-crane", "mar-curtain", "aug-moon", "dec-phoenix"], {"four-lights": 8}),
    (
        "rainy-four-lights",
        ["jan-crane", "mar-curtain", "aug-moon", "nov-rain-man"],
        {"rainy-four-lights": 7},
    ),
    ("three-lights", ["jan-crane", "mar-curtain", "dec-phoenix"], {"three-lights": 5}),
    ("rain-man-not-in-three-lights", ["jan-crane", "mar-curtain", "nov-rain-man"], {}),
    ("two-lights-nothing", ["jan-crane", "dec-phoenix"], {}),
    # viewings: both count, the sake cup serves both
    ("flower-viewing", ["mar-curtain", "sep-sake-cup"], {"flower-viewing": 5}),
    ("moon-viewing", ["aug-moon", "sep-sake-cup"], {"moon-viewing": 5}),
    (
        "both-viewings-and-three-lights",
        ["mar-curtain", "aug-moon", "jan-crane", "sep-sake-cup"],
        {"three-lights": 5, "flower-viewing": 5, "moon-viewing": 5},
    ),
    ("curtain-and-moon-without-cup", ["mar-curtain", "aug-moon"], {}),
    # boar-deer-butterflies: 5, +1 per further animal, replaces animals
    ("boar-deer-butterflies", ISC, {"boar-deer-butterflies": 5}),
    ("isc-plus-one", [*ISC, "feb-warbler"], {"boar-deer-butterflies": 6}),
    (
        "isc-replaces-animals",
        [*ISC, "feb-warbler", "apr-cuckoo"],
        {"boar-deer-butterflies": 7},
    ),
    (
        "isc-sake-cup-is-a-further-animal",
        [*ISC, "sep-sake-cup"],
        {"boar-deer-butterflies": 6},
    ),
    ("two-of-isc-nothing", ["jul-boar", "oct-deer"], {}),
    # ribbon yaku: 5 (+1 per further ribbon) replace ribbons; both sets make one yaku
    ("red-poems", POEMS, {"red-poems": 5}),
    ("red-poems-plus-one", [*POEMS, "apr-ribbon"], {"red-poems": 6}),
    (
        "red-poems-replace-ribbons",
        [*POEMS, "apr-ribbon", "may-ribbon"],
        {"red-poems": 7},
    ),
    ("blue-ribbons", BLUES, {"blue-ribbons": 5}),
    (
        "blue-ribbons-replace-ribbons",
        [*BLUES, "nov-ribbon", "jul-ribbon", "jan-poetry"],
        {"blue-ribbons": 8},
    ),
    ("red-and-blue-ribbons", [*POEMS, *BLUES], {"red-and-blue-ribbons": 10}),
    (
        "red-and-blue-plus-one",
        [*POEMS, *BLUES, "nov-ribbon"],
        {"red-and-blue-ribbons": 11},
    ),
    # quantity yaku: 1 at the threshold, +1 per further card
    (
        "animals",
        ["feb-warbler", "apr-cuckoo", "may-bridge", "aug-geese", "nov-swallow"],
        {"animals": 1},
    ),
    (
        "animals-plus-one",
        ["feb-warbler", "apr-cuckoo", "may-bridge", "aug-geese", "nov-swallow", "jul-boar"],
        {"animals": 2},
    ),
    (
        "sake-cup-is-an-animal",
        ["feb-warbler", "apr-cuckoo", "may-bridge", "aug-geese", "sep-sake-cup"],
        {"animals": 1},
    ),
    ("four-animals-nothing", ["feb-warbler", "apr-cuckoo", "may-bridge", "aug-geese"], {}),
    (
        "ribbons",
        ["jan-poetry", "feb-poetry", "apr-ribbon", "may-ribbon", "jun-blue"],
        {"ribbons": 1},
    ),
    (
        "ribbons-plus-one",
        ["jan-poetry", "feb-poetry", "apr-ribbon", "may-ribbon", "jun-blue", "nov-ribbon"],
        {"ribbons": 2},
    ),
    ("plains", PLAIN_TEN, {"plains": 1}),
    ("plains-plus-one", [*PLAIN_TEN, "nov-lightning"], {"plains": 2}),
    ("sake-cup-is-a-plain", [*PLAIN_TEN[:9], "sep-sake-cup"], {"plains": 1}),
    ("nine-plains-nothing", PLAIN_TEN[:9], {}),
    ("rain-man-is-no-animal", ["feb-warbler", "apr-cuckoo", "may-bridge", "nov-rain-man"], {}),
    ("empty", [], {}),
    (
        "sake-cup-counts-twice",
        [
            "feb-warbler",
            "apr-cuckoo",
            "may-bridge",
            "aug-geese",
            "sep-sake-cup",
            *PLAIN_TEN[:9],
        ],
        {"animals": 1, "plains": 1},
    ),
    (
        "several-yaku-add-up",
        [*FIVE, "sep-sake-cup", *POEMS, *ISC],
        {
            "five-lights": 10,
            "flower-viewing": 5,
            "moon-viewing": 5,
            "boar-deer-butterflies": 6,
            "red-poems": 5,
        },
    ),
]


@pytest.mark.parametrize(
    ("cards", "expected"), [row[1:] for row in YAKU_TABLE], ids=[row[0] for row in YAKU_TABLE]
)
def test_yaku_table(cards: list[str], expected: dict[str, int]) -> None:
    assert yaku(cards) == expected


def test_yaku_slugs_are_the_thirteen_of_the_issue() -> None:
    found = {slug for _, cards, expected in YAKU_TABLE for slug in expected}
    assert found == set(SLUGS)
    assert len(SLUGS) == 13


def test_whole_deck_scores_every_top_yaku_once() -> None:
    assert yaku(DECK) == {
        "five-lights": 10,
        "flower-viewing": 5,
        "moon-viewing": 5,
        "boar-deer-butterflies": 5 + len(ANIMALS) - 3,
        "red-and-blue-ribbons": 10 + len(RIBBONS) - 6,
        "plains": 1 + len(PLAINS) - 10,
    }


def test_yaku_ignores_duplicates_and_order() -> None:
    assert yaku(reversed([*ISC, *ISC])) == {"boar-deer-butterflies": 5}


def test_deck_kinds_match_the_table() -> None:
    assert len(LIGHTS) == 5 and len(ANIMALS) == 9 and len(RIBBONS) == 10
    assert sum(KIND[card] == "plain" for card in DECK) == 24
    assert "sep-sake-cup" in ANIMALS and "sep-sake-cup" in PLAINS


@pytest.mark.parametrize(
    ("found", "koikoi", "points"),
    [
        ({"plains": 1}, False, 1),
        ({"three-lights": 5, "plains": 1}, False, 6),
        ({"rainy-four-lights": 7}, False, 14),
        ({"four-lights": 8}, True, 32),
        ({"red-poems": 5}, True, 10),
        ({"animals": 3, "ribbons": 3}, True, 12),
        ({"animals": 3, "ribbons": 4}, False, 14),
    ],
    ids=[
        "one",
        "six-no-double",
        "seven-doubles",
        "both-doublings",
        "koikoi-only",
        "six-koikoi",
        "sum-reaches-seven",
    ],  # fmt: skip
)
def test_round_score_doubles_at_seven_and_after_opponent_koikoi(
    found: dict[str, int], koikoi: bool, points: int
) -> None:
    assert round_points(found, koikoi).points == points


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ({}, {"plains": 1}, True),
        ({"plains": 1}, {"plains": 2}, True),
        ({"plains": 1}, {"plains": 1}, False),
        ({"three-lights": 5}, {"four-lights": 8}, True),
        ({"animals": 1}, {"boar-deer-butterflies": 5}, True),
        ({"red-poems": 5}, {"red-and-blue-ribbons": 10}, True),
    ],
    ids=["new", "quantity-plus-one", "same", "lights-upgrade", "isc-replaces", "ribbons-merge"],
)
def test_new_or_improved_yaku(
    before: dict[str, int], after: dict[str, int], expected: bool
) -> None:
    assert improved(before, after) is expected


def test_near_yaku_lists_begun_possible_yaku() -> None:
    near = {
        p.slug: (p.have, p.need) for p in near_yaku(["jan-crane", "mar-curtain", *POEMS[:2]], [])
    }
    assert near == {"three-lights": (2, 3), "flower-viewing": (1, 2), "red-poems": (2, 3)}


def test_near_yaku_drops_yaku_the_opponent_blocked() -> None:
    slugs = {p.slug for p in near_yaku(["mar-curtain"], ["sep-sake-cup"])}
    assert slugs == {"three-lights"}
