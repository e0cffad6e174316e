"""Ranking: Elo per game for tables where every seat is a signed-in person.

A finished table is rated by :func:`webapp.ranking.ratings.make_hook`, which
``create_app`` adds to the hub's ``on_finish``; ``init_app`` adds the pages: a
leaderboard per game (``/<lang>/ranking/<game>``) and a profile per player
(``/<lang>/player/<username>``).  The maths is in :mod:`webapp.ranking.elo`, the tier
names in :mod:`webapp.ranking.tiers`, storage and queries in
:mod:`webapp.ranking.ratings`.

Other parts of the site (and their tests) read a rating with :func:`rating_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import click
from flask import Flask
from flask.cli import AppGroup

from webapp.play.store import Seat
from webapp.ranking import models, ratings, routes
from webapp.ranking.elo import INITIAL
from webapp.ranking.ratings import GAMES, Standing
from webapp.services import services

__all__ = [
    "GAMES",
    "INITIAL",
    "Standing",
    "init_app",
    "models",
    "rating_of",
    "standing_of",
    "table_change",
]


def rating_of(player: str, game: str) -> float:
    """A player's current rating in a game (``player`` as the tables name it,
    ``u-<account id>``); 1500.0 when they have no rated table of that game yet.

    Needs an app context (it reads the app's database).
    """
    return ratings.rating_of(services().database, player, game)


def standing_of(player: str, game: str) -> Standing | None:
    """Rating, rated tables played (wins, draws, losses), provisional and tier; None
    when the player has no rated table of that game."""
    account = ratings.player_account(player)
    if account is None:
        return None
    return ratings.standings(services().database, account).get(game)


cli = AppGroup("ranking", help="Ratings of finished tables.")


@cli.command("catch-up")
def catch_up_command() -> None:
    """Rate finished all-human tables that a stopped server left unrated."""
    count = ratings.catch_up(services().database)
    click.echo(f"Rated {count} table(s).")


def table_change(table_id: str, player: str) -> tuple[float, float] | None:
    """The player's rating before and after a finished table; None when the table was
    not rated (a bot or a guest sat there) or the player did not sit at it."""
    return ratings.table_change(services().database, table_id, player)


class SeatedTable(Protocol):
    """What a rating change needs of a table: a live session or a stored one will do."""

    @property
    def id(self) -> str: ...

    @property
    def seats(self) -> Sequence[Seat]: ...


def seat_change(table: SeatedTable, seat: int | None) -> tuple[int, int] | None:
    """For a table's result: the rating of the player in ``seat`` before and after it,
    rounded as the site shows ratings; None when the table was not rated."""
    player = table.seats[seat].player if seat is not None else None
    if not player:
        return None
    change = table_change(table.id, player)
    return None if change is None else (round(change[0]), round(change[1]))


def init_app(app: Flask) -> None:
    app.register_blueprint(routes.bp)
    app.cli.add_command(cli)
