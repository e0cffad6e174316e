"""CSRF tokens and rate limits: refused without a token, 429 after too many tries."""

from __future__ import annotations

import gzip
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import PASSWORD, token_of
from tests.test_budgets import fetch
from webapp.messages import Move, parse
from webapp.services import Lapau


def test_a_post_without_the_token_is_refused(csrf_app: Lapau) -> None:
    client = csrf_app.test_client()
    page = client.get("/en/sign-up")
    response = client.post("/en/sign-up", data={"username": "rina", "password": PASSWORD})
    assert response.status_code == 400
    assert "This form has expired" in response.text
    response = client.post(
        "/en/sign-up", data={"username": "rina", "password": PASSWORD, "csrf_token": "forged"}
    )
    assert response.status_code == 400
    token = token_of(page.text)
    response = client.post(
        "/en/sign-up", data={"username": "rina", "password": PASSWORD, "csrf_token": token}
    )
    assert response.status_code == 303


def test_a_token_from_another_session_is_refused(csrf_app: Lapau) -> None:
    mine, theirs = csrf_app.test_client(), csrf_app.test_client()
    token = token_of(theirs.get("/en/sign-in").text)
    mine.get("/en/sign-in")
    response = mine.post("/en/settings", data={"contrast": "10", "csrf_token": token})
    assert response.status_code == 400


def test_signing_in_renews_the_token(csrf_app: Lapau) -> None:
    client = csrf_app.test_client()
    before = token_of(client.get("/en/sign-up").text)
    client.post(
        "/en/sign-up", data={"username": "rina", "password": PASSWORD, "csrf_token": before}
    )
    assert client.post("/en/sign-out", data={"csrf_token": before}).status_code == 400
    after = token_of(client.get("/en/account").text)
    assert client.post("/en/sign-out", data={"csrf_token": after}).status_code == 303


def test_every_form_on_the_site_carries_the_token(csrf_app: Lapau) -> None:
    client = csrf_app.test_client()
    for path in ["/en/", "/en/settings", "/en/play/koa", "/en/sign-in", "/en/sign-up"]:
        html = client.get(path).text
        assert html.count("<form") == html.count('name="csrf_token"'), path


def test_sign_in_is_limited_to_ten_tries_a_minute(app: Lapau, client: FlaskClient) -> None:
    for _ in range(10):
        response = client.post("/nl/sign-in", data={"username": "rina", "password": "wrong one"})
        assert response.status_code == 400
    response = client.post("/nl/sign-in", data={"username": "rina", "password": "wrong one"})
    assert response.status_code == 429
    assert "Te veel pogingen" in response.text
    # Looking at the page is not a try.
    assert client.get("/nl/sign-in").status_code == 200


def test_sign_up_is_limited_to_five_a_minute(client: FlaskClient) -> None:
    for number in range(5):
        client.post("/en/sign-out")
        response = client.post("/en/sign-up", data={"username": f"player{number}", "password": "x"})
        assert response.status_code == 400
    response = client.post("/id/sign-up", data={"username": "player9", "password": PASSWORD})
    assert response.status_code == 429
    assert "Terlalu banyak percobaan" in response.text


def test_opening_tables_is_limited_to_thirty_a_minute(client: FlaskClient) -> None:
    for _ in range(30):
        response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy"})
        assert response.status_code == 303
    response = client.post("/en/play/koikoi", data={"rounds": "3", "level": "easy"})
    assert response.status_code == 429
    assert "Too many tries" in response.text


# On the real server -------------------------------------------------------------


def post(url: str, form: dict[str, str], opener: Any = None) -> int:
    data = urllib.parse.urlencode(form).encode()
    try:
        with (opener or urllib.request.build_opener()).open(url, data=data) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        with error:
            return int(error.code)


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/en/settings", {"contrast": "10", "next": "/en/"}),
        ("/en/play/koa", {"mode": "quick", "level": "easy"}),
        ("/en/sign-in", {"username": "rina", "password": PASSWORD}),
    ],
)
def test_the_server_refuses_a_post_without_token(
    live_server: Any, path: str, form: dict[str, str]
) -> None:
    assert post(live_server.url + path, form) == 400


def session_cookie(headers: Any) -> str:
    cookies = [str(c).split(";")[0] for c in headers.get_all("Set-Cookie")]
    return next(c for c in cookies if c.startswith("session="))


def test_a_page_revalidates_although_its_token_changes(live_server: Any) -> None:
    """The token carries a timestamp; the ETag leaves it out but keeps the session's secret."""
    cookie = session_cookie(fetch(live_server.url + "/en/about").headers)
    second = fetch(live_server.url + "/en/about", headers={"Cookie": cookie})
    etag = second.headers["ETag"]
    time.sleep(1.1)
    third = fetch(live_server.url + "/en/about", headers={"Cookie": cookie})
    assert token_of(gzip.decompress(second.body).decode()) != token_of(
        gzip.decompress(third.body).decode()
    )
    assert third.headers["ETag"] == etag
    again = fetch(live_server.url + "/en/about", headers={"Cookie": cookie, "If-None-Match": etag})
    assert again.status == 304
    # Another browser's session: the cached page's token would not be its own.
    other_cookie = session_cookie(fetch(live_server.url + "/en/about").headers)
    stranger = fetch(
        live_server.url + "/en/about", headers={"Cookie": other_cookie, "If-None-Match": etag}
    )
    assert stranger.status == 200


def test_a_socket_message_may_carry_the_pages_token() -> None:
    """A move tapped before the socket's first render is sent from the page's own form."""
    assert parse('{"a": "stop", "v": "3", "csrf_token": "x"}') == Move("stop", 3)
