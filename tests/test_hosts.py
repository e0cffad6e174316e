"""The site answers only under the host names it is configured with.

A forged ``Host`` header must not reach a page: every absolute link (share links,
alternates, sign-in callbacks) would carry it, and a DNS-rebinding page could open a
table's socket with a matching Origin.  Production names its hosts in ``LAPAU_HOSTS``
(the first one is the address every absolute link uses); development trusts only the
loopback names the tests and ``make run`` use.
"""

from __future__ import annotations

import http.client
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.auth.oidc_provider import CLIENT_ID, CLIENT_SECRET, Person, Provider
from tests.conftest import STILL_BOTS, LiveServer, production_app
from tests.play.client import Guest
from webapp import create_app
from webapp.config import ConfigurationError, TestConfig

FOREIGN = "http://evil.example"


def test_development_trusts_the_loopback_names(client: FlaskClient) -> None:
    for base in ("http://localhost", "http://127.0.0.1:8000", "http://localhost:5000"):
        assert client.get("/en/", base_url=base).status_code == 200


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/en/", "This address does not lead to Lapau"),
        ("/nl/rules", "Dit adres leidt niet naar Lapau"),
        ("/id/room/ABCDEF", "Alamat ini tidak menuju ke Lapau"),
        ("/no/such/page", "Alamat ini tidak menuju ke Lapau"),
    ],
)
def test_an_unknown_host_gets_a_localized_400(client: FlaskClient, path: str, text: str) -> None:
    response = client.get(path, base_url=FOREIGN)
    assert response.status_code == 400
    assert text in response.text
    assert "evil.example" not in response.text


def test_the_unknown_host_page_styles_itself_and_leads_to_the_site(tmp_path: Path) -> None:
    """Its stylesheet would be asked for under the same unknown name and refused too."""
    app = production_app(tmp_path, LAPAU_HOSTS="lapau.example,www.lapau.example")
    response = app.test_client().get("/nl/rules", base_url="https://evil.example")
    assert response.status_code == 400
    assert 'rel="stylesheet"' not in response.text
    assert re.search(r"<style>[^<]*\.button\{", response.text)
    assert "'sha256-" in response.headers["Content-Security-Policy"]
    link = '<a class="button" href="https://lapau.example/nl/">Naar lapau.example</a>'
    assert link in response.text


def test_without_configured_hosts_the_unknown_host_page_links_nowhere(
    client: FlaskClient,
) -> None:
    response = client.get("/en/", base_url=FOREIGN)
    assert response.status_code == 400
    assert "<a " not in response.text


def test_an_unknown_host_cannot_post_either(client: FlaskClient) -> None:
    response = client.post("/en/room/new", data={"game": "koa"}, base_url=FOREIGN)
    assert response.status_code == 400


def test_production_refuses_to_start_without_its_hosts(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigurationError, match="LAPAU_HOSTS"):
        production_app(tmp_path, LAPAU_HOSTS="")


def test_production_refuses_to_start_without_a_secret_key(
    tmp_path: Path,
) -> None:
    environ = {"LAPAU_ENV": "production", "LAPAU_HOSTS": "lapau.example"}
    with pytest.raises(ConfigurationError, match="SECRET_KEY"):
        create_app(TestConfig(tmp_path / "instance", environ))


def test_absolute_links_use_the_configured_address(
    tmp_path: Path,
) -> None:
    app = production_app(tmp_path, LAPAU_HOSTS="Lapau.example, www.lapau.example")
    client = app.test_client()
    # Reached under its second name, the site still links to its first.
    base = "https://www.lapau.example"
    home = client.get("/en/", base_url=base)
    assert home.status_code == 200
    alternates = re.findall(r'<link rel="alternate" hreflang="[^"]+" href="([^"]+)"', home.text)
    assert alternates == [
        "https://lapau.example/id/",
        "https://lapau.example/en/",
        "https://lapau.example/nl/",
        "https://lapau.example/",
    ]
    created = client.post("/en/room/new", data={"game": "koa", "name": "Rina"}, base_url=base)
    assert created.status_code == 303
    room = client.get(created.headers["Location"], base_url=base)
    assert room.status_code == 200
    code = created.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    assert f"https://lapau.example/en/room/{code}" in room.text
    assert "www.lapau.example" not in room.text
    assert client.get("/en/", base_url="https://lapau.example.evil.example").status_code == 400


def test_the_sign_in_callback_uses_the_configured_address(
    tmp_path: Path,
) -> None:
    provider = Provider(Person(sub="sub-1", name="Rina", email="rina@example.org"))
    provider.start()
    try:
        app = production_app(
            tmp_path,
            LAPAU_HOSTS="lapau.example,www.lapau.example",
            GOOGLE_CLIENT_ID=CLIENT_ID,
            GOOGLE_CLIENT_SECRET=CLIENT_SECRET,
            OIDC_GOOGLE_DISCOVERY_URL=f"{provider.issuer}/.well-known/openid-configuration",
        )
        response = app.test_client().get("/auth/google/login", base_url="https://www.lapau.example")
    finally:
        provider.stop()
    assert response.status_code == 302
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(response.headers["Location"]).query)
    assert query["redirect_uri"] == ["https://lapau.example/auth/google/callback"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("hosts") / "instance", STILL_BOTS) as live:
        yield live


def raw_get(server: LiveServer, path: str, host: str, **headers: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host, **headers})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.live
def test_the_real_server_refuses_an_unknown_host(server: LiveServer) -> None:
    status, page = raw_get(server, "/en/", host="evil.example")
    assert status == 400
    assert "This address does not lead to Lapau" in page
    assert raw_get(server, "/en/", host=f"localhost:{server.port}")[0] == 200


@pytest.mark.live
def test_a_socket_handshake_under_an_unknown_host_is_refused(server: LiveServer) -> None:
    guest = Guest(server)
    table_id = guest.open_table("koikoi", rounds="3")
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        "Cookie": guest.cookie_header(),
    }
    path = f"/ws/table/{table_id}?lang=en"
    # A rebinding page: its Origin matches the Host it forged.
    forged = f"evil.example:{server.port}"
    assert raw_get(server, path, host=forged, Origin=f"http://{forged}", **upgrade)[0] == 400
    # A trusted Host with another trusted name's Origin is still not the same origin.
    local = f"127.0.0.1:{server.port}"
    other = f"http://localhost:{server.port}"
    assert raw_get(server, path, host=local, Origin=other, **upgrade)[0] == 403
    assert raw_get(server, path, host=local, Origin=f"http://{local}", **upgrade)[0] == 101
