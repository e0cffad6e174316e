"""Local accounts: sign up, sign in, sign out, change password, delete, guests' tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from tests.auth.conftest import PASSWORD, sign_in, sign_up
from tests.conftest import production_app
from webapp.auth.models import OAuthIdentity, User
from webapp.db import engine
from webapp.services import Lapau


def users(app: Lapau) -> list[str]:
    with app.app_context(), Session(engine()) as db:
        return [user.username for user in db.exec(select(User)).all()]


def test_sign_up_signs_in_and_stores_a_scrypt_hash(app: Lapau, client: FlaskClient) -> None:
    response = client.post(
        "/en/sign-up", data={"username": "Rina_07", "password": PASSWORD, "next": "/en/about"}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/en/about"
    assert users(app) == ["rina_07"]
    with app.app_context(), Session(engine()) as db:
        stored = db.exec(select(User)).one()
        assert stored.password_hash is not None
        assert stored.password_hash.startswith("scrypt:")
        assert PASSWORD not in stored.password_hash
    page = client.get("/en/account")
    assert page.status_code == 200
    assert "Signed in as rina_07." in page.text


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("ab", PASSWORD, "3 to 20 characters"),
        ("a" * 21, PASSWORD, "3 to 20 characters"),
        ("rina putri", PASSWORD, "3 to 20 characters"),
        ("rina!", PASSWORD, "3 to 20 characters"),
        ("", PASSWORD, "Fill this in."),
        ("rina", "short", "at least 8 characters"),
        ("rinaputri", "RinaPutri", "cannot be your username"),
        ("rina", "password123", "first that attackers try"),
        ("rina", "Wachtwoord", "first that attackers try"),
        ("rina", "x" * 129, "at most 128 characters"),
    ],
)
def test_sign_up_explains_what_is_wrong(
    app: Lapau, client: FlaskClient, username: str, password: str, message: str
) -> None:
    response = client.post("/en/sign-up", data={"username": username, "password": password})
    assert response.status_code == 400
    assert message in response.text
    assert 'aria-invalid="true"' in response.text
    assert users(app) == []


def test_passwords_need_no_digits_or_symbols(app: Lapau, client: FlaskClient) -> None:
    assert sign_up(client, "budi", "kopi susu di lapau") == 303


def test_usernames_are_unique_whatever_their_case(app: Lapau, client: FlaskClient) -> None:
    assert sign_up(client, "rina") == 303
    client.post("/en/sign-out")
    response = client.post("/en/sign-up", data={"username": "RINA", "password": PASSWORD})
    assert response.status_code == 400
    assert "That username is taken" in response.text
    assert users(app) == ["rina"]


def test_sign_in_with_any_case_and_sign_out(client: FlaskClient) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    assert client.get("/en/account").status_code == 302
    response = client.post(
        "/en/sign-in", data={"username": "Rina", "password": PASSWORD, "next": "/en/play/"}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/en/play/"
    assert client.get("/en/account").status_code == 200
    response = client.post("/en/sign-out")
    assert response.status_code == 303
    assert client.get("/en/account").headers["Location"].startswith("/en/sign-in")


@pytest.mark.parametrize(
    ("username", "password"), [("rina", "wrong password"), ("nobody", PASSWORD)]
)
def test_a_wrong_password_or_username_is_refused_alike(
    client: FlaskClient, username: str, password: str
) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    response = client.post("/nl/sign-in", data={"username": username, "password": password})
    assert response.status_code == 400
    assert "Die gebruikersnaam en dat wachtwoord horen niet bij elkaar." in response.text
    assert client.get("/en/account").status_code == 302


def test_next_cannot_leave_the_site(client: FlaskClient) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    response = client.post(
        "/en/sign-in",
        data={"username": "rina", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.headers["Location"] == "/en/"


def test_the_header_offers_sign_in_then_the_account(client: FlaskClient) -> None:
    page = client.get("/en/about").text
    assert 'href="/en/sign-in?next=/en/about"' in page
    sign_up(client)
    page = client.get("/en/about").text
    assert 'href="/en/account"' in page
    assert "/en/sign-in?" not in page


def stale(client: FlaskClient) -> None:
    """The session is no longer fresh, as after coming back through the remember cookie."""
    with client.session_transaction() as session:
        session["_fresh"] = False


def test_changing_the_password_needs_a_fresh_sign_in(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    stale(client)
    page = client.get("/en/account")
    assert "sign in again first" in page.text
    assert 'action="/en/account/password"' not in page.text
    response = client.post(
        "/en/account/password", data={"current": PASSWORD, "password": "a brand new one"}
    )
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/en/sign-in-again?next=")

    again = client.get(response.headers["Location"])
    assert "Sign in again" in again.text
    wrong = client.post("/en/sign-in-again", data={"password": "not it at all"})
    assert wrong.status_code == 400
    confirmed = client.post("/en/sign-in-again", data={"password": PASSWORD, "next": "/en/account"})
    assert confirmed.headers["Location"] == "/en/account"
    assert 'action="/en/account/password"' in client.get("/en/account").text

    refused = client.post(
        "/en/account/password", data={"current": "a wrong guess", "password": "a brand new one"}
    )
    assert refused.status_code == 400
    assert "That password is not right." in refused.text
    weak = client.post("/en/account/password", data={"current": PASSWORD, "password": "12345678"})
    assert weak.status_code == 400
    changed = client.post(
        "/en/account/password", data={"current": PASSWORD, "password": "a brand new one"}
    )
    assert changed.status_code == 303
    assert "Your password is changed." in client.get("/en/account").text

    client.post("/en/sign-out")
    assert sign_in(client, password=PASSWORD) == 400
    assert sign_in(client, password="a brand new one") == 303


def test_a_remembered_device_is_not_fresh(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    client.post("/en/sign-out")
    assert sign_in(client, remember=True) == 303
    # The browser was closed: only the remember cookie is left.
    client.delete_cookie("session")
    page = client.get("/en/account")
    assert page.status_code == 200
    assert "sign in again first" in page.text
    response = client.post("/en/account/delete", data={"confirm": "rina"})
    assert response.headers["Location"].startswith("/en/sign-in-again")
    assert users(app) == ["rina"]


def test_a_new_password_signs_out_other_devices(app: Lapau) -> None:
    phone, laptop = app.test_client(), app.test_client()
    sign_up(phone)
    assert sign_in(laptop) == 303
    phone.post("/en/account/password", data={"current": PASSWORD, "password": "a brand new one"})
    assert phone.get("/en/account").status_code == 200
    assert laptop.get("/en/account").status_code == 302


def test_deleting_the_account_removes_it_and_its_links(app: Lapau, client: FlaskClient) -> None:
    sign_up(client)
    with app.app_context(), Session(engine()) as db:
        user = db.exec(select(User)).one()
        assert user.id is not None
        db.add(OAuthIdentity(provider="google", subject="g-123", user_id=user.id))
        db.commit()
    wrong = client.post("/en/account/delete", data={"confirm": "someone"})
    assert wrong.status_code == 400
    assert "That is not your username." in wrong.text
    response = client.post("/en/account/delete", data={"confirm": "Rina"})
    assert response.status_code == 303
    assert users(app) == []
    with app.app_context(), Session(engine()) as db:
        assert db.exec(select(OAuthIdentity)).all() == []
    assert client.get("/en/account").status_code == 302
    assert sign_in(client) == 400
    # The username is free again.
    assert sign_up(client) == 303


def test_cookies_are_secure_in_production(tmp_path: Path) -> None:
    production = production_app(tmp_path)
    client = production.test_client()
    sign_up(client)
    client.post("/en/sign-out")
    response = client.post(
        "/en/sign-in", data={"username": "rina", "password": PASSWORD, "remember": "y"}
    )
    remember = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("remember"))
    assert "Secure" in remember and "HttpOnly" in remember and "SameSite=Lax" in remember
