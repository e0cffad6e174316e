"""Every password form is limited per address and per account, and its timing tells
nothing: an unknown username costs the same scrypt check as a wrong password."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import PASSWORD, sign_in, sign_up
from tests.conftest import app_with, close_app
from webapp.config import PASSWORD_HASH
from webapp.services import Lapau

TOO_MANY = {"id": "Terlalu banyak percobaan", "en": "Too many tries", "nl": "Te veel pogingen"}


def from_address(app: Lapau, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.mark.parametrize("password", [" " * 8, " " * 20, "\u3000\t\u200b " * 4, "\u200b" * 9])
def test_a_password_of_spaces_is_refused(app: Lapau, client: FlaskClient, password: str) -> None:
    response = client.post("/nl/sign-up", data={"username": "rina", "password": password})
    assert response.status_code == 400
    assert "Een wachtwoord kan niet alleen uit spaties bestaan." in response.text


def test_a_new_password_of_spaces_is_refused(client: FlaskClient) -> None:
    sign_up(client)
    response = client.post("/en/account/password", data={"current": PASSWORD, "password": " " * 9})
    assert response.status_code == 400
    assert "A password cannot be only spaces." in response.text
    client.post("/en/sign-out")
    assert sign_in(client) == 303


def test_sign_in_to_one_account_is_limited_from_any_address(app: Lapau) -> None:
    sign_up(app.test_client())
    for number in range(10):
        attempt = from_address(app, f"10.0.0.{number}")
        assert sign_in(attempt, "RINA", "a wrong guess") == 400
    response = from_address(app, "10.0.1.1").post(
        "/id/sign-in", data={"username": "rina", "password": PASSWORD}
    )
    assert response.status_code == 429
    assert TOO_MANY["id"] in response.text
    # Another account is not held up by the guesses at this one.
    assert sign_in(from_address(app, "10.0.1.2"), "budi", "a wrong guess") == 400


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_wrong_password_changes_are_limited(client: FlaskClient, lang: str) -> None:
    sign_up(client)
    wrong = {"current": "a wrong guess", "password": "a brand new one"}
    for _ in range(5):
        assert client.post(f"/{lang}/account/password", data=wrong).status_code == 400
    response = client.post(f"/{lang}/account/password", data=wrong)
    assert response.status_code == 429
    assert TOO_MANY[lang] in response.text
    assert "Retry-After" in response.headers


def test_account_deletion_and_signing_in_again_are_limited(client: FlaskClient) -> None:
    sign_up(client)
    wrong = {"password": "a wrong guess"}
    for _ in range(5):
        assert client.post("/en/account/delete", data={"confirm": "budi"}).status_code == 400
        assert client.post("/en/sign-in-again", data=wrong).status_code == 400
    assert client.post("/en/account/delete", data={"confirm": "rina"}).status_code == 429
    assert client.post("/en/sign-in-again", data={"password": PASSWORD}).status_code == 429


def sign_in_seconds(app: Lapau, username: str, number: int) -> float:
    """How long a wrong sign-in takes, from an address of its own (no limit applies)."""
    client = from_address(app, f"10.1.{len(username)}.{number}")
    started = time.perf_counter()
    assert sign_in(client, username, "a wrong guess") == 400
    return time.perf_counter() - started


@pytest.fixture
def full_cost_app(tmp_path: Path, database_url: str) -> Iterator[Lapau]:
    """The app hashing at production's cost, whose time the check below compares (at the
    tests' cost a skipped hash would hide in a request's own time)."""
    app = app_with(tmp_path, database_url, PASSWORD_HASH=PASSWORD_HASH)
    yield app
    close_app(app)


def test_an_unknown_username_takes_as_long_as_a_wrong_password(full_cost_app: Lapau) -> None:
    app = full_cost_app
    sign_up(app.test_client())
    sign_in_seconds(app, "nobody", 9)  # the first check of an unknown name makes its dummy hash
    # Taken in turns, so a busy moment of the machine slows both names alike.
    times: dict[str, list[float]] = {"rina": [], "nobody": []}
    for number in range(5):
        for username, taken in times.items():
            taken.append(sign_in_seconds(app, username, number))
    known, unknown = statistics.median(times["rina"]), statistics.median(times["nobody"])
    # Before, an unknown name answered at once (no hash): 40 ms against 530 ms.
    assert 1 / 3 < unknown / known < 3, (known, unknown)
