"""Production's transport settings: HSTS on every response, ``Secure`` on every cookie.

A cookie without ``Secure`` is sent over plain http too, where anyone on the café's
Wi-Fi reads it; HSTS keeps the browser from ever trying plain http again.  The journey
below sets every cookie the site has: language, display settings, session, remember-me.
"""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from tests.conftest import LiveServer, production_app
from webapp.auth.models import User
from webapp.db import engine
from webapp.services import Lapau

BASE = "https://lapau.example"
PASSWORD = "a long enough password"


@pytest.fixture
def production(tmp_path: Path) -> Lapau:
    return production_app(tmp_path)


def set_cookies(client: FlaskClient, base: str = BASE) -> dict[str, str]:
    """Walk through everything that sets a cookie; each cookie's Set-Cookie header."""
    responses = [
        client.get("/en/", base_url=base),
        client.post(
            "/en/settings",
            data={"contrast": "80", "next": "/en/", "language": "nl"},
            base_url=base,
        ),
        client.post(
            "/en/sign-up",
            data={"username": "rina", "password": PASSWORD, "confirm": PASSWORD},
            base_url=base,
        ),
        client.post("/en/sign-out", base_url=base),
        client.post(
            "/en/sign-in",
            data={"username": "rina", "password": PASSWORD, "remember": "y"},
            base_url=base,
        ),
    ]
    found: dict[str, str] = {}
    for response in responses:
        assert response.status_code < 400
        for header in response.headers.getlist("Set-Cookie"):
            found[header.partition("=")[0]] = header
    return found


def test_every_cookie_is_secure_in_production(production: Lapau) -> None:
    cookies = set_cookies(production.test_client())
    assert set(cookies) == {"lang", "display", "session", "remember_token"}
    for name, header in cookies.items():
        attributes = {part.strip().partition("=")[0] for part in header.split(";")}
        assert "Secure" in attributes, name
        assert "HttpOnly" in attributes, name
        assert "SameSite" in attributes, name


def test_production_hashes_passwords_with_scrypt_at_full_cost(production: Lapau) -> None:
    client = production.test_client()
    data = {"username": "rina", "password": PASSWORD}
    assert client.post("/en/sign-up", data=data, base_url=BASE).status_code == 303
    with production.app_context(), Session(engine()) as db:
        stored = db.exec(select(User)).one().password_hash
    # N=2^15, r=8, p=1: a tenth of a second of CPU and 32 MiB for each guess.
    assert stored is not None and stored.startswith("scrypt:32768:8:1$")
    client.post("/en/sign-out", base_url=BASE)
    assert client.post("/en/sign-in", data=data, base_url=BASE).status_code == 303


def test_cookies_work_over_plain_http_in_development(client: FlaskClient) -> None:
    cookies = set_cookies(client, "http://localhost")
    assert {"lang", "display", "session"} <= set(cookies)
    assert not any("Secure" in header for header in cookies.values())


def test_production_sends_strict_transport_security(production: Lapau) -> None:
    client = production.test_client()
    for path in ("/en/", "/en/no-such-page", "/"):
        header = client.get(path, base_url=BASE).headers.get("Strict-Transport-Security", "")
        max_age = int(header.partition("max-age=")[2].partition(";")[0] or 0)
        assert max_age >= 365 * 24 * 3600, path
        assert "includeSubDomains" in header, path


def test_development_sends_no_strict_transport_security(client: FlaskClient) -> None:
    assert "Strict-Transport-Security" not in client.get("/en/").headers


PRODUCTION = {
    "LAPAU_ENV": "production",
    "SECRET_KEY": "a-production-secret-of-enough-length",
    # The tests reach the server by its loopback address; a browser by the domain.
    "LAPAU_HOSTS": "lapau.example,127.0.0.1",
    "LAPAU_PROXIES": "1",
}


@pytest.mark.live
def test_the_real_server_in_production_behind_a_router(tmp_path: Path) -> None:
    with LiveServer(tmp_path / "instance", PRODUCTION) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            # What the platform's router forwards: the domain, and that it was https.
            routed = {"Host": "lapau.example", "X-Forwarded-Proto": "https"}
            connection.request("GET", "/en/", headers={**routed, "X-Forwarded-For": "1.2.3.4"})
            response = connection.getresponse()
            page = response.read().decode()
            assert response.status == 200
            assert response.headers["Strict-Transport-Security"].startswith("max-age=63072000")
            assert "Secure" in response.headers["Set-Cookie"]
            assert '<link rel="alternate" hreflang="nl" href="https://lapau.example/nl/">' in page
            connection.request("GET", "/en/", headers={**routed, "Host": "evil.example"})
            refused = connection.getresponse()
            refused.read()
            assert refused.status == 400
        finally:
            connection.close()


@pytest.mark.live
def test_the_real_server_will_not_start_in_production_without_its_hosts(tmp_path: Path) -> None:
    settings = {name: value for name, value in PRODUCTION.items() if name != "LAPAU_HOSTS"}
    server = LiveServer(tmp_path / "instance", settings)
    server.env.pop("LAPAU_HOSTS", None)
    with pytest.raises(RuntimeError, match="LAPAU_HOSTS is not set"):
        server.start()
    server.stop()
