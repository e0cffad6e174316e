"""The ranking pages: a leaderboard per game (and of its pairs of partners, where teams are
two people), and a profile per player.

Thin views: look up, call :mod:`webapp.ranking.ratings`, render.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, url_for
from markupsafe import Markup
from sqlalchemy import Engine
from werkzeug.routing import BuildError
from werkzeug.wrappers import Response

from webapp.adapters import setups
from webapp.auth import accounts
from webapp.play.players import signed_in_player
from webapp.ranking import elo, ratings, tiers
from webapp.ranking.chart import Chart, chart
from webapp.services import services

bp = Blueprint("ranking", __name__)


def engine() -> Engine:
    found: Engine = services().database
    return found


def titles() -> dict[str, str]:
    return {game: setups()[game].title for game in ratings.GAMES}


def rooms_url() -> str | None:
    """Where friends open a table together, when the site has rooms."""
    try:
        return url_for("rooms.index")
    except BuildError:
        return None


def player_link(username: str) -> Markup:
    """A link to a player's profile."""
    href = url_for("ranking.profile", username=username)
    return Markup('<a href="{}">{}</a>').format(href, username)


@bp.get("/<lang_code>/ranking/")
def index() -> Response:
    return redirect(url_for("ranking.board", game=ratings.GAMES[0]))


@bp.get("/<lang_code>/ranking/<game>")
def board(game: str) -> str:
    if game not in ratings.GAMES:
        abort(404)
    rows = ratings.leaderboard(engine(), game)
    me = signed_in_player()
    account = ratings.player_account(me)
    mine = None
    if account is not None and all(row.user_id != account for row in rows):
        found = ratings.standings(engine(), account).get(game)
        if found is not None:
            mine = (ratings.place_of(engine(), account, game), found)
    return render_template(
        "ranking/board.html",
        game=game,
        titles=titles(),
        rows=rows,
        mine=mine,
        me_id=account,
        rooms_url=rooms_url(),
        initial=int(elo.INITIAL),
        tiers=tiers.TIERS,
        newcomer=tiers.NEWCOMER,
        provisional_games=elo.PROVISIONAL_GAMES,
        pair_games=ratings.PAIR_GAMES,
    )


@bp.get("/<lang_code>/ranking/<game>/pairs")
def pairs(game: str) -> str:
    if game not in ratings.PAIR_GAMES:
        abort(404)
    return render_template(
        "ranking/pairs.html",
        game=game,
        titles=titles(),
        rows=ratings.pair_leaderboard(engine(), game),
        me_id=ratings.player_account(signed_in_player()),
        rooms_url=rooms_url(),
        provisional_games=elo.PROVISIONAL_GAMES,
        pair_games=ratings.PAIR_GAMES,
    )


@dataclass(frozen=True)
class GameCard:
    game: str
    title: str
    standing: ratings.Standing | None
    place: int | None
    chart: Chart | None
    results: list[ratings.Result]
    partners: list[ratings.Partner]


@bp.get("/<lang_code>/player/<username>")
def profile(username: str) -> str:
    user = accounts.find_by_username(username.lower()) if len(username) <= 20 else None
    if user is None or user.id is None:
        abort(404)
    found = ratings.standings(engine(), user.id)
    cards = []
    for game in ratings.GAMES:
        standing = found.get(game)
        history = ratings.history(engine(), user.id, game) if standing else []
        cards.append(
            GameCard(
                game=game,
                title=setups()[game].title,
                standing=standing,
                place=ratings.place_of(engine(), user.id, game) if standing else None,
                chart=chart(history, standing.games) if standing else None,
                results=ratings.recent_results(engine(), user.id, game) if standing else [],
                partners=ratings.partners(engine(), user.id, game)
                if standing and game in ratings.PAIR_GAMES
                else [],
            )
        )
    cards.sort(key=lambda card: card.standing is None)
    return render_template(
        "ranking/profile.html",
        user=user,
        cards=cards,
        mine=signed_in_player() == user.player,
        rooms_url=rooms_url(),
        provisional_games=elo.PROVISIONAL_GAMES,
    )
