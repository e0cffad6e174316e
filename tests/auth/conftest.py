"""Fixtures for the account tests: helpers to sign up and sign in through the forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.databases import migrated_instance
from webapp import create_app
from webapp.config import TestConfig
from webapp.services import Lapau

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
PASSWORD = "tea at the lapau"


def token_of(html: str) -> str:
    found = TOKEN.search(html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def sign_up(client: FlaskClient, username: str = "rina", password: str = PASSWORD) -> int:
    response = client.post("/en/sign-up", data={"username": username, "password": password})
    return response.status_code


def sign_in(
    client: FlaskClient, username: str = "rina", password: str = PASSWORD, remember: bool = False
) -> int:
    data = {"username": username, "password": password}
    if remember:
        data["remember"] = "y"
    return client.post("/en/sign-in", data=data).status_code


@pytest.fixture
def csrf_app(tmp_path: Path) -> Lapau:
    """The app as it runs: CSRF tokens required."""
    return create_app(TestConfig(migrated_instance(tmp_path / "instance")))
