"""Sessions end when they are ended: signing out, signing out everywhere and changing the
password make every copied cookie worthless, and a session lasts as long as asked."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http.cookies import SimpleCookie

from flask.testing import FlaskClient

from tests.auth.conftest import PASSWORD, sign_in, sign_up
from webapp.services import Lapau


def cookies_of(client: FlaskClient) -> dict[str, str]:
    """Every cookie the browser holds, as a thief copying them would take them."""
    return {cookie.key: cookie.value for cookie in (client._cookies or {}).values()}


def browser_with(app: Lapau, cookies: dict[str, str]) -> FlaskClient:
    other = app.test_client()
    for name, value in cookies.items():
        other.set_cookie(name, value)
    return other


def session_cookie(set_cookies: list[str]) -> SimpleCookie:
    parsed: SimpleCookie = SimpleCookie()
    for header in set_cookies:
        parsed.load(header)
    return parsed


def test_a_cookie_copied_before_sign_out_opens_nothing(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    copied = cookies_of(client)
    assert browser_with(app, copied).get("/en/account").status_code == 200
    client.post("/en/sign-out")
    assert browser_with(app, copied).get("/en/account").status_code == 302


def test_a_remembered_cookie_copied_before_sign_out_opens_nothing(
    app: Lapau, client: FlaskClient
) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    sign_in(client, remember=True)
    copied = cookies_of(client)
    assert "remember_token" in copied
    client.post("/en/sign-out")
    only_remembered = {"remember_token": copied["remember_token"]}
    assert browser_with(app, only_remembered).get("/en/account").status_code == 302
    assert browser_with(app, copied).get("/en/account").status_code == 302


def test_signing_out_one_browser_keeps_the_others(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    phone = app.test_client()
    assert sign_in(phone) == 303
    client.post("/en/sign-out")
    assert phone.get("/en/account").status_code == 200


def test_sign_out_everywhere_ends_every_session(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    phone = app.test_client()
    sign_in(phone, remember=True)
    copied = cookies_of(phone)
    page = client.get("/en/account")
    assert "Sign out everywhere" in page.text
    response = client.post("/en/account/sign-out-everywhere")
    assert response.status_code == 303
    assert phone.get("/en/account").status_code == 302
    assert browser_with(app, copied).get("/en/account").status_code == 302
    assert client.get("/en/account").status_code == 302
    assert sign_in(phone) == 303  # the password still works


def test_a_password_change_ends_the_other_sessions_only(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    phone = app.test_client()
    sign_in(phone)
    response = client.post(
        "/en/account/password", data={"current": PASSWORD, "password": "kopi susu di lapau"}
    )
    assert response.status_code == 303
    assert phone.get("/en/account").status_code == 302
    assert client.get("/en/account").status_code == 200


def test_without_keep_me_signed_in_the_session_ends_with_the_browser(
    client: FlaskClient,
) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    response = client.post("/en/sign-in", data={"username": "rina", "password": PASSWORD})
    cookies = session_cookie(response.headers.getlist("Set-Cookie"))
    assert cookies["session"]["expires"] == ""
    assert cookies["session"]["max-age"] == ""
    assert "remember_token" not in cookies


def test_keep_me_signed_in_lasts_the_permanent_lifetime(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    response = client.post(
        "/en/sign-in", data={"username": "rina", "password": PASSWORD, "remember": "y"}
    )
    cookies = session_cookie(response.headers.getlist("Set-Cookie"))
    lifetime = app.permanent_session_lifetime.total_seconds()
    for name in ("session", "remember_token"):
        expires = parsedate_to_datetime(cookies[name]["expires"])
        assert 0 < (expires - datetime.now(UTC)).total_seconds() <= lifetime + 60


def test_sign_out_everywhere_is_in_every_language(client: FlaskClient) -> None:
    sign_up(client)
    for lang, words in (("id", "Keluar dari semua perangkat"), ("nl", "Overal uitloggen")):
        assert words in client.get(f"/{lang}/account").text


def test_signing_in_again_keeps_keep_me_signed_in(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    sign_in(client, remember=True)
    with client.session_transaction() as cookie:
        cookie.pop("_fresh")  # an old session: changing the account asks again
    response = client.post("/en/sign-in-again", data={"password": PASSWORD})
    assert response.status_code == 303
    cookies = session_cookie(response.headers.getlist("Set-Cookie"))
    assert cookies["session"]["expires"] != ""
    assert "remember_token" in cookies
    only_remembered = {"remember_token": cookies["remember_token"].value}
    assert browser_with(app, only_remembered).get("/en/account").status_code == 200
