"""Pairs of partners (Koa's mandan): their own record and rating, per unordered pair of
accounts, moved by each rated match they play on one side, and shown on both profiles and
on the game's pairs board.  On SQLite and PostgreSQL (the ``app`` fixture's database)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from tests.ranking.conftest import human_seats
from tests.ranking.test_pages import sign_in
from webapp.auth import accounts
from webapp.auth.models import User
from webapp.game.koa.rules import Ending
from webapp.game.protocol import Outcome
from webapp.locale import LANGUAGES
from webapp.play.hub import TableSession
from webapp.ranking import elo, ratings
from webapp.ranking.models import PairRating
from webapp.services import Lapau

KOA_TEAMS = ((0, 2), (1, 3))


def pair_rows(app: Lapau) -> dict[tuple[int, int], PairRating]:
    with Session(app.services.database) as db:
        found = db.exec(select(PairRating)).all()
    assert {row.game for row in found} <= {"koa"}
    return {(row.first_id, row.second_id): row for row in found}


def koa(app: Lapau, people: list[User], winners: tuple[int, ...], table: str) -> None:
    """Rate one made-up Koa match of ``people`` in seat order (partners: seats 0 and 2)."""
    outcome = Outcome(winners, (0, 0, 0, 0), Ending.KOA)
    engine = app.services.database
    assert ratings.rate_table(engine, table, "koa", human_seats(people), outcome, KOA_TEAMS)


def ids_of(accounts: Iterable[int]) -> tuple[int, int]:
    """A pair's key: its two account ids, the smaller first."""
    first, second = sorted(accounts)
    return first, second


def ids(*people: User) -> tuple[int, int]:
    return ids_of(person.id or 0 for person in people)


def test_a_koa_match_rates_both_pairs(
    app: Lapau, finished_table: Callable[..., TableSession]
) -> None:
    session = finished_table("koa", ["rina", "budi", "sari", "tono"], mode="quick")
    outcome = session.game.outcome(session.state)
    assert outcome is not None and outcome.winners
    found = pair_rows(app)
    seat_ids = [int((seat.player or "")[2:]) for seat in session.seats]
    winning = ids_of(seat_ids[seat] for seat in outcome.winners)
    losing = ids_of(set(seat_ids) - set(winning))
    assert set(found) == {winning, losing}
    # Two new pairs of equal rating: K 40 times a half, each way.
    assert (found[winning].rating, found[losing].rating) == (1520.0, 1480.0)
    assert (found[winning].wins, found[winning].losses, found[winning].games) == (1, 0, 1)
    assert (found[losing].wins, found[losing].losses, found[losing].games) == (0, 1, 1)


def test_a_pair_is_the_same_whoever_sits_where_and_moves_only_by_its_matches(
    app: Lapau, users: Callable[..., list[User]]
) -> None:
    rina, budi, sari, tono = users("rina", "budi", "sari", "tono")
    koa(app, [rina, budi, sari, tono], (0, 2), "t1")
    # The same partners in each other's seats, a drawn match: one row per pair still.
    koa(app, [sari, tono, rina, budi], (), "t2")
    found = pair_rows(app)
    assert set(found) == {ids(rina, sari), ids(budi, tono)}
    played = elo.Player(1520.0, 1), elo.Player(1480.0, 1)
    (up,), (down,) = elo.changes([[played[0]], [played[1]]], ())
    assert found[ids(rina, sari)].rating == pytest.approx(1520.0 + up)
    assert found[ids(budi, tono)].rating == pytest.approx(1480.0 + down)
    assert (found[ids(rina, sari)].games, found[ids(rina, sari)].draws) == (2, 1)

    # Rina with another partner: a new pair starts afresh; the first pair does not move.
    koa(app, [rina, sari, budi, tono], (1, 3), "t3")
    again = pair_rows(app)
    assert set(again) == {ids(rina, sari), ids(budi, tono), ids(rina, budi), ids(sari, tono)}
    assert again[ids(rina, budi)].rating == 1480.0 and again[ids(sari, tono)].rating == 1520.0
    assert again[ids(rina, sari)].rating == found[ids(rina, sari)].rating
    # Each player's own rating went its own way: it is not the pair's.
    rina_alone = ratings.standings(app.services.database, rina.id or 0)["koa"]
    assert rina_alone.games == 3 and rina_alone.rating != again[ids(rina, budi)].rating


def test_games_without_teams_of_two_have_no_pairs(
    app: Lapau, finished_table: Callable[..., TableSession]
) -> None:
    finished_table("kowah", ["rina", "budi", "sari", "tono"], players=4)
    finished_table("koikoi", ["rina", "budi"], rounds=3)
    assert pair_rows(app) == {}
    assert ratings.PAIR_GAMES == ("koa",)


def test_a_deleted_account_takes_its_pairs_along(
    app: Lapau, users: Callable[..., list[User]]
) -> None:
    rina, budi, sari, tono = users("rina", "budi", "sari", "tono")
    koa(app, [rina, budi, sari, tono], (1, 3), "t1")
    with app.app_context():
        accounts.delete_user(rina)
    assert set(pair_rows(app)) == {ids(budi, tono)}


def test_both_partners_profiles_and_the_pairs_board_show_the_pair(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    rina, budi, sari, tono = users("rina", "budi", "sari", "tono")
    for n in range(3):
        koa(app, [rina, budi, sari, tono], (0, 2), f"t{n}")
    for name, partner in (("rina", "sari"), ("sari", "rina"), ("budi", "tono")):
        html = client.get(f"/en/player/{name}").get_data(as_text=True)
        found = re.search(r'<ul class="partners">(.*?)</ul>', html, re.S)
        assert found, name
        assert f'with <a href="/en/player/{partner}">{partner}</a>' in found[1]
    rina_page = client.get("/en/player/rina").get_data(as_text=True)
    pair = pair_rows(app)[ids(rina, sari)]
    assert f'<b class="pair-rating">{round(pair.rating)}' in rina_page
    assert "3 won · 0 drawn · 0 lost" in rina_page

    sign_in(client, "tono")
    board = client.get("/en/ranking/koa/pairs").get_data(as_text=True)
    names = re.findall(r'<a href="/en/player/(\w+)">', board)
    assert names == ["rina", "sari", "budi", "tono"]
    assert board.count('<tr class="me">') == 1 and "0 won · 0 drawn · 3 lost" in board
    assert 'href="/en/ranking/koa/pairs" aria-current="page"' in board
    players = client.get("/en/ranking/koa").get_data(as_text=True)
    assert 'href="/en/ranking/koa/pairs">' in players


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pairs_board_is_koas_alone_and_reads_well_empty(client: FlaskClient, lang: str) -> None:
    html = client.get(f"/{lang}/ranking/koa/pairs").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html and 'class="empty"' in html
    for game in ("koikoi", "kowah", "chess"):
        assert client.get(f"/{lang}/ranking/{game}/pairs").status_code == 404
    assert "/pairs" not in client.get(f"/{lang}/ranking/koikoi").get_data(as_text=True)
