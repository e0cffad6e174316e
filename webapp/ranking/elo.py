"""Elo ratings for every game of Lapau: pure maths, no database and no Flask.

One rule covers the three games.  A finished match is a set of teams (Koa: two teams of
two mandan; Kowah: every player alone, two to four of them; Koi-Koi: two players
alone) and the teams that won.  Every pair of teams is one Elo game: the winning side
scores 1, the other 0, and two sides that both won or both did not win (a drawn match,
or two losers of a Kowah deal) score ½ each.  A team's rating is the mean of its
players' ratings.  Each player then moves by their own K times the team's surplus over
its expectation, averaged over the opposing teams, so K is spread over the opponents
of a Kowah deal instead of multiplied by them:

    change = K / (teams - 1) * sum(score - expected, over every other team)

With two teams this is plain team Elo (both mandan move by the team's change) and plain
one-against-one Elo; with more it is pairwise Elo scaled by the number of opponents.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

#: Where every player starts, in every game.
INITIAL = 1500.0
#: The first rated matches of a game move a player faster, to find their level.
PROVISIONAL_GAMES = 10
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0
#: The usual Elo scale: 400 points apart, the stronger side is expected to score 10:1.
SCALE = 400.0


@dataclass(frozen=True)
class Player:
    """A player's standing in one game before a match: rating and rated matches played."""

    rating: float = INITIAL
    games: int = 0

    @property
    def provisional(self) -> bool:
        """
        >>> Player(games=9).provisional, Player(games=10).provisional
        (True, False)
        """
        return self.games < PROVISIONAL_GAMES


def expected(rating: float, opponent: float) -> float:
    """The score ``rating`` is expected to make against ``opponent`` (0 to 1).

    >>> expected(1500, 1500)
    0.5
    >>> round(expected(1900, 1500), 3)
    0.909
    >>> round(expected(1500, 1900) + expected(1900, 1500), 12)
    1.0
    """
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / SCALE))


def k_factor(games: int) -> float:
    """How far one match moves a player who has ``games`` rated matches behind them.

    >>> k_factor(0), k_factor(9), k_factor(10), k_factor(250)
    (40.0, 40.0, 20.0, 20.0)
    """
    return K_PROVISIONAL if games < PROVISIONAL_GAMES else K_ESTABLISHED


def pair_score(team: int, other: int, winners: Collection[int]) -> float:
    """What ``team`` scored against ``other`` when ``winners`` (team indexes) won.

    >>> pair_score(0, 1, {0}), pair_score(1, 0, {0}), pair_score(1, 2, {0}), pair_score(0, 1, ())
    (1.0, 0.0, 0.5, 0.5)
    """
    won, other_won = team in winners, other in winners
    if won == other_won:
        return 0.5
    return 1.0 if won else 0.0


def team_rating(team: Sequence[Player]) -> float:
    """A team plays at its players' mean rating.

    >>> team_rating([Player(1600.0), Player(1400.0)])
    1500.0
    """
    return sum(player.rating for player in team) / len(team)


def changes(
    teams: Sequence[Sequence[Player]], winners: Collection[int]
) -> tuple[tuple[float, ...], ...]:
    """Every player's rating change, team by team, after one match.

    ``winners`` holds the indexes of the teams that won (none: a draw).

    Koi-Koi, two new players, the first wins: 40 × ½ each way.

    >>> changes([[Player()], [Player()]], {0})
    ((20.0,), (-20.0,))

    Koa, team Elo: both mandan of the winning team move by the team's change.

    >>> established = Player(1500.0, 30)
    >>> changes([[established, established], [established, established]], {1})
    ((-10.0, -10.0), (10.0, 10.0))

    Kowah, three players: K is shared over the two opponents; the losers draw each other.

    >>> changes([[established], [established], [established]], {2})
    ((-5.0,), (-5.0,), (10.0,))

    A drawn match between equals changes nothing.

    >>> changes([[Player()], [Player()], [Player()]], ())
    ((0.0,), (0.0,), (0.0,))
    """
    if len(teams) < 2:
        raise ValueError("a rated match needs two sides")
    ratings = [team_rating(team) for team in teams]
    surplus = []
    for index, rating in enumerate(ratings):
        total = 0.0
        for other, opponent in enumerate(ratings):
            if other != index:
                total += pair_score(index, other, winners) - expected(rating, opponent)
        surplus.append(total / (len(teams) - 1))
    return tuple(
        tuple(k_factor(player.games) * surplus[index] for player in team)
        for index, team in enumerate(teams)
    )
