"""Sign in with Google and Apple, end to end against a real OpenID Connect provider.

The provider (tests/auth/oidc_provider.py, built from Authlib's server) runs on localhost;
the site runs as in production (gunicorn) with its discovery URLs pointed there.  A
browser stand-in with its own cookies goes through /auth/<provider>/login, the provider's
authorization endpoint (which approves the test person), and the site's callback.
"""

from __future__ import annotations

import urllib.error
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.auth.oidc_provider import CLIENT_ID, CLIENT_SECRET, Person, Provider
from tests.conftest import LiveServer
from tests.play.client import Guest
from webapp import create_app
from webapp.config import TestConfig

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    found = Provider(Person(sub="sub-rina-1", name="Rina Test", email="rina.test@example.org"))
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture(scope="module")
def site(provider: Provider, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    discovery = f"{provider.issuer}/.well-known/openid-configuration"
    env = {}
    for name in ("GOOGLE", "APPLE"):
        env[f"{name}_CLIENT_ID"] = CLIENT_ID
        env[f"{name}_CLIENT_SECRET"] = CLIENT_SECRET
        env[f"OIDC_{name}_DISCOVERY_URL"] = discovery
    server = LiveServer(tmp_path_factory.mktemp("oidc") / "instance", env)
    # The site must not need Authlib's insecure-transport switch (the provider does).
    server.env.pop("AUTHLIB_INSECURE_TRANSPORT", None)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def rows(server: LiveServer, query: str) -> list[tuple[object, ...]]:
    return server.query(query)


def sign_in_with(guest: Guest, provider: str, next_path: str = "/en/account") -> tuple[str, str]:
    """Follow the whole sign-in; returns where it ended and that page."""
    query = urllib.parse.urlencode({"next": next_path})
    with guest.opener.open(f"{guest.server.url}/auth/{provider}/login?{query}") as response:
        return urllib.parse.urlsplit(response.url).path, response.read().decode()


def test_google_sign_in_makes_an_account_and_finds_it_again(
    site: LiveServer, provider: Provider
) -> None:
    before = provider.authorized
    path, page = sign_in_with(Guest(site), "google")
    assert provider.authorized == before + 1
    assert path == "/en/account"
    assert "Signed in as rinatest." in page
    assert "Linked: Google." in page
    identities = rows(site, "SELECT provider, subject, user_id FROM auth_identity")
    assert identities == [("google", "sub-rina-1", 1)]

    # Another device, the same person: the same account.
    path, page = sign_in_with(Guest(site), "google", "/nl/account")
    assert path == "/nl/account"
    assert "Ingelogd als rinatest." in page
    assert rows(site, "SELECT id, username, password_hash FROM auth_user") == [
        (1, "rinatest", None)
    ]
    assert len(rows(site, "SELECT * FROM auth_identity")) == 1


def test_apple_sign_in_is_its_own_identity(site: LiveServer) -> None:
    """Apple is asked for no name or e-mail; its token is fetched with client_secret_post."""
    path, page = sign_in_with(Guest(site), "apple")
    assert path == "/en/account"
    user_id, username = rows(
        site,
        "SELECT user_id, username FROM auth_identity JOIN auth_user ON user_id = auth_user.id"
        " WHERE provider = 'apple'",
    )[0]
    assert f"Signed in as {username}." in page
    assert user_id != 1


def test_a_guest_keeps_their_tables_when_signing_in_with_google(site: LiveServer) -> None:
    guest = Guest(site)
    table_id = guest.open_table("koikoi", rounds="3")
    sign_in_with(guest, "google")
    choose = guest.page("/en/play/")
    assert f"/en/table/{table_id}" in choose
    owners = rows(site, f"SELECT owner FROM play_table WHERE id = '{table_id}'")
    assert owners == [("u-1",)]


def test_a_forged_callback_signs_nobody_in(site: LiveServer) -> None:
    guest = Guest(site)
    guest.page("/en/sign-in")
    with guest.opener.open(f"{site.url}/auth/google/callback?code=stolen&state=forged") as response:
        assert urllib.parse.urlsplit(response.url).path == "/en/sign-in"
        assert "Signing in with Google did not work" in response.read().decode()
    with pytest.raises(urllib.error.HTTPError) as refused:
        guest.opener.open(f"{site.url}/auth/github/login")
    with refused.value:
        assert refused.value.code == 404


def test_the_sign_in_page_offers_only_configured_providers(
    tmp_path: Path,
) -> None:
    plain = create_app(TestConfig(tmp_path / "instance"))
    page = plain.test_client().get("/en/sign-in").text
    assert "Continue with" not in page
    assert plain.test_client().get("/auth/google/login").status_code == 404

    providers = {"GOOGLE_CLIENT_ID": "id", "GOOGLE_CLIENT_SECRET": "secret"}
    google = create_app(TestConfig(tmp_path / "instance", providers))
    page = google.test_client().get("/en/sign-in?next=/en/play/").text
    assert "Continue with Google" in page
    assert "Continue with Apple" not in page
    assert 'href="/auth/google/login?next=/en/play/"' in page
