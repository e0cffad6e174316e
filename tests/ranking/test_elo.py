"""The Elo update of each game, as a table of rated results worked out by hand."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webapp.ranking import chart, elo, ratings, tiers
from webapp.ranking.elo import Player, changes


def new(rating: float = 1500.0) -> Player:
    return Player(rating, games=0)


def old(rating: float = 1500.0) -> Player:
    return Player(rating, games=50)


# (teams, winning team indexes, expected change of every player, team by team)
KOI_KOI = [
    pytest.param([[new()], [new()]], {0}, ((20.0,), (-20.0,)), id="new-players-first-wins"),
    pytest.param([[old()], [old()]], (), ((0.0,), (0.0,)), id="draw-between-equals"),
    pytest.param(
        [[old(1700)], [old(1500)]], {1}, ((-15.19,), (15.19,)), id="underdog-200-below-wins"
    ),
    pytest.param(
        [[old(1600)], [old(1400)]], (), ((-5.19,), (5.19,)), id="draw-costs-the-favourite"
    ),
    pytest.param([[new()], [old()]], {0}, ((20.0,), (-10.0,)), id="provisional-moves-double"),
]

KOA = [
    pytest.param(
        [[new(), new()], [new(), new()]], {0}, ((20.0, 20.0), (-20.0, -20.0)), id="new-teams"
    ),
    pytest.param(
        [[old(1600), old(1400)], [old(), old()]],
        {1},
        ((-10.0, -10.0), (10.0, 10.0)),
        id="team-rating-is-the-mean",
    ),
    pytest.param(
        [[old(1700), old(1500)], [old(1400), old(1400)]],
        {0},
        ((4.81, 4.81), (-4.81, -4.81)),
        id="favourites-win-little",
    ),
    pytest.param(
        [[old(), new()], [old(), old()]],
        {0},
        ((10.0, 20.0), (-10.0, -10.0)),
        id="each-mandan-by-their-own-k",
    ),
]

KOWAH = [
    pytest.param([[old()], [old()], [old()]], {2}, ((-5.0,), (-5.0,), (10.0,)), id="three-equal"),
    pytest.param(
        [[old()], [old()], [old()], [old()]],
        {0},
        ((10.0,), (-3.33,), (-3.33,), (-3.33,)),
        id="four-k-shared-by-three",
    ),
    pytest.param([[new()], [new()]], {1}, ((-20.0,), (20.0,)), id="two-players-is-a-duel"),
    pytest.param(
        [[old(1600)], [old(1500)], [old(1400)]],
        (),
        ((-4.0,), (0.0,), (4.0,)),
        id="stock-out-draw",
    ),
    pytest.param(
        [[new()], [old()], [old()]], {0}, ((20.0,), (-5.0,), (-5.0,)), id="provisional-winner"
    ),
]


def rounded(found: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(round(change, 2) + 0.0 for change in team) for team in found)


@pytest.mark.parametrize(("teams", "winners", "expected"), KOI_KOI)
def test_koikoi_is_one_against_one(
    teams: list[list[Player]], winners: set[int], expected: tuple[tuple[float, ...], ...]
) -> None:
    assert rounded(changes(teams, winners)) == expected


@pytest.mark.parametrize(("teams", "winners", "expected"), KOA)
def test_koa_is_team_elo_on_the_mean(
    teams: list[list[Player]], winners: set[int], expected: tuple[tuple[float, ...], ...]
) -> None:
    assert rounded(changes(teams, winners)) == expected


@pytest.mark.parametrize(("teams", "winners", "expected"), KOWAH)
def test_kowah_is_pairwise_with_k_shared_over_the_opponents(
    teams: list[list[Player]], winners: set[int], expected: tuple[tuple[float, ...], ...]
) -> None:
    assert rounded(changes(teams, winners)) == expected


def test_a_match_needs_two_sides() -> None:
    with pytest.raises(ValueError):
        changes([[old()]], {0})


ratings_strategy = st.floats(min_value=800, max_value=2600)


@given(
    st.lists(ratings_strategy, min_size=2, max_size=4),
    st.data(),
)
def test_established_players_trade_points_without_creating_any(
    values: list[float], data: st.DataObject
) -> None:
    winners = data.draw(st.sets(st.integers(0, len(values) - 1), max_size=1))
    found = changes([[old(value)] for value in values], winners)
    assert abs(sum(team[0] for team in found)) < 1e-9
    for index, team in enumerate(found):
        if index in winners:
            assert team[0] > 0
        assert abs(team[0]) <= elo.K_ESTABLISHED


@pytest.mark.parametrize("module", [elo, tiers, chart, ratings])
def test_doctests_pass(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0
