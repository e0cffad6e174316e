"""The leaderboard and profile pages: order, content, the chart, languages and weight."""

from __future__ import annotations

import gzip
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from tests.ranking.conftest import human_seats
from tests.test_budgets import FIRST_LOAD_BUDGET, HTML_BUDGET, subresources
from webapp.auth.models import User
from webapp.game.protocol import Outcome, Reason
from webapp.locale import LANGUAGES
from webapp.ranking import ratings
from webapp.services import Lapau

SVG = "{http://www.w3.org/2000/svg}"
KOA_TEAMS = ((0, 2), (1, 3))


class MadeUp(Reason):
    """The reason of a made-up table's end (the ratings do not read it)."""

    TEST = "test"


def rate(app: Lapau, game: str, people: list[User], winners: tuple[int, ...], n: int) -> None:
    """Rate one made-up table of ``game`` for ``people`` (seat order) won by ``winners``."""
    teams = KOA_TEAMS if game == "koa" else tuple((seat,) for seat in range(len(people)))
    outcome = Outcome(winners, (0,) * len(people), MadeUp.TEST)
    engine = app.services.database
    assert ratings.rate_table(engine, f"t{game}{n}", game, human_seats(people), outcome, teams)


def sign_in(client: FlaskClient, username: str) -> None:
    response = client.post(
        "/en/sign-in", data={"username": username, "password": "tea at the lapau"}
    )
    assert response.status_code == 303


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ratings.GAMES)
def test_an_empty_leaderboard_says_nobody_is_ranked_yet(
    client: FlaskClient, lang: str, game: str
) -> None:
    response = client.get(f"/{lang}/ranking/{game}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert 'class="empty"' in html and "<table" not in html
    nav = html.partition('<nav class="game-tabs"')[2].partition("</nav>")[0]
    tabs = re.findall(r'<a href="/\w\w/ranking/(\w+)"( aria-current="page")?', nav)
    assert [name for name, _ in tabs] == list(ratings.GAMES)
    assert [name for name, current in tabs if current] == [game]


def test_the_ranking_index_opens_koa(client: FlaskClient) -> None:
    response = client.get("/nl/ranking/")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/nl/ranking/koa")


def test_an_unknown_game_or_player_is_not_found(
    client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    users("rina")
    assert client.get("/en/ranking/chess").status_code == 404
    assert client.get("/en/player/nobody").status_code == 404
    assert client.get("/en/player/" + "x" * 40).status_code == 404
    assert client.get("/en/player/RINA").status_code == 200


def test_the_leaderboard_lists_the_best_first(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    rina, budi, sari = users("rina", "budi", "sari")
    for n in range(3):
        rate(app, "koikoi", [rina, budi], (0,), n)
    rate(app, "koikoi", [sari, budi], (), 9)
    html = client.get("/en/ranking/koikoi").get_data(as_text=True)
    names = re.findall(r'<a href="/en/player/(\w+)">', html)
    assert names == ["rina", "sari", "budi"]
    assert "Newcomer" in html and "Provisional" in html
    # Other games keep their own boards.
    assert 'class="empty"' in client.get("/en/ranking/koa").get_data(as_text=True)


def test_the_signed_in_player_sees_their_row(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    rina, budi = users("rina", "budi")
    rate(app, "koikoi", [rina, budi], (1,), 1)
    sign_in(client, "budi")
    html = client.get("/en/ranking/koikoi").get_data(as_text=True)
    assert re.search(r'<tr class="me"><td class="place">1</td><td><a href="/en/player/budi"', html)


def test_a_profile_shows_ratings_tier_games_results_and_a_chart(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    rina, budi, sari, tono = users("rina", "budi", "sari", "tono")
    for n in range(12):
        rate(app, "koa", [rina, budi, sari, tono], (0, 2) if n % 3 else (1, 3), n)
    rate(app, "kowah", [rina, budi, sari], (), 1)
    response = client.get("/en/player/rina")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<h1>rina</h1>" in html
    koa = ratings.standings(app.services.database, rina.id or 0)["koa"]
    assert koa.games == 12 and not koa.provisional
    assert f">{koa.shown}<" in html and str(koa.tier) in html
    assert "8 won · 0 drawn · 4 lost" in html
    assert re.search(r'with <a href="/en/player/sari">sari</a>', html)
    assert re.search(
        r'against <a href="/en/player/budi">budi</a>, <a href="/en/player/tono">', html
    )
    assert html.count('class="res res-') == 5 + 1
    assert "Not rated yet in:" in html and ">Koi-Koi</a>" in html
    svgs = re.findall(r"<svg viewBox=.*?</svg>", html, re.S)
    assert len(svgs) == 2  # Koa and Kowah; Koi-Koi is not played
    chart = ET.fromstring(svgs[0].replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
    assert chart.get("role") == "img"
    title, desc = chart.find(f"{SVG}title"), chart.find(f"{SVG}desc")
    assert title is not None and title.text == "Koa rating, match by match"
    assert desc is not None and desc.text and f"to {koa.shown} over the last 12" in desc.text
    assert chart.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    polyline = chart.find(f"{SVG}polyline")
    assert polyline is not None and len(polyline.get("points", "").split()) == 13
    assert 'style="' not in html


def test_a_player_without_matches_reads_well(
    client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    users("rina", "budi")
    html = client.get("/en/player/budi").get_data(as_text=True)
    assert "budi has not played a rated match yet." in html and "<svg viewBox" not in html
    sign_in(client, "budi")
    html = client.get("/en/player/budi").get_data(as_text=True)
    assert "No rated matches yet." in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_speak_every_language(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]], lang: str
) -> None:
    rina, budi = users("rina", "budi")
    rate(app, "koikoi", [rina, budi], (0,), 1)
    words = {
        "id": ("Peringkat", "Menang"),
        "en": ("Ranking", "Won"),
        "nl": ("Ranglijst", "Gewonnen"),
    }
    board = client.get(f"/{lang}/ranking/koikoi").get_data(as_text=True)
    profile = client.get(f"/{lang}/player/rina").get_data(as_text=True)
    assert words[lang][0] in board
    assert words[lang][1] in profile


def first_load(client: FlaskClient, path: str) -> tuple[int, int]:
    """Compressed bytes of the page, and of the page with what it loads."""
    response = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    body = response.data
    total = len(body)
    for url in subresources(gzip.decompress(body).decode()):
        asset = client.get(url, headers={"Accept-Encoding": "gzip"})
        total += len(asset.data)
        asset.close()
    return len(body), total


@pytest.mark.databases("sqlite")  # page weight, not what is stored
def test_full_pages_stay_within_the_budgets(
    app: Lapau, client: FlaskClient, users: Callable[..., list[User]]
) -> None:
    """The heaviest pages: 50 players on a board, a profile with every game played often."""
    with Session(app.services.database, expire_on_commit=False) as db:
        # Made directly: hashing 54 passwords would be most of the test's time.
        people = [User(username=f"player_{n:02d}") for n in range(54)]
        db.add_all(people)
        db.commit()
    rng = random.Random(1)
    for n in range(90):
        table = [people[0], *rng.sample(people[1:], 3)]
        rate(app, "koa", table, KOA_TEAMS[n % 2], n)
        rate(app, "kowah", table, (rng.randrange(4),), n)
        rate(app, "koikoi", table[:2], (n % 2,), n)
    others = people[1:]
    for n, person in enumerate(others):
        table = [person, others[(n + 1) % 53], others[(n + 2) % 53], people[0]]
        rate(app, "koa", table, (0, 2), 1000 + n)
    for lang in LANGUAGES:
        for path in (f"/{lang}/ranking/koa", f"/{lang}/player/player_00"):
            html, total = first_load(client, path)
            assert html <= HTML_BUDGET, f"{path}: {html} bytes compressed"
            assert total <= FIRST_LOAD_BUDGET, f"{path}: first load {total} bytes"
