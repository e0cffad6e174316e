"""The installable, offline-readable site (webapp/offline.py): the web app manifest, the
service worker and the offline page of each language, and the head that links them.
Chromium reads pages offline in tests/e2e/test_offline.py."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.auth.conftest import PASSWORD
from webapp.assets import Assets
from webapp.locale import LANGUAGES
from webapp.offline import THEME_COLOUR
from webapp.services import services

# Nothing here is stored: the pages, the manifest and the worker read no database.
pytestmark = pytest.mark.databases("sqlite")

ROOT = Path(__file__).resolve().parent.parent
KEPT_PATHS = [
    "/rules",
    "/rules/koa",
    "/rules/kowah",
    "/rules/koikoi",
    "/cards/money",
    "/cards/hanafuda",
]


def manifest(client: FlaskClient, lang: str) -> dict[str, object]:
    response = client.get(f"/{lang}/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    body: dict[str, object] = json.loads(response.get_data())
    return body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_installs_as_its_own_app(client: FlaskClient, lang: str) -> None:
    app = manifest(client, lang)
    home = f"/{lang}/"
    assert (app["id"], app["start_url"], app["scope"]) == (home, home, home)
    assert app["lang"] == lang and app["name"] == "Lapau" and app["display"] == "standalone"
    assert app["theme_color"] == THEME_COLOUR


def test_the_manifest_speaks_the_language_of_its_address(client: FlaskClient) -> None:
    descriptions = {lang: manifest(client, lang)["description"] for lang in LANGUAGES}
    assert len(set(descriptions.values())) == 3
    assert "gratis" in str(descriptions["id"])
    shortcuts = manifest(client, "nl")["shortcuts"]
    assert shortcuts == [
        {"name": "Spelregels", "url": "/nl/rules"},
        {"name": "Oefenen tegen bots", "url": "/nl/play/"},
    ]


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_icons_are_served_at_the_sizes_the_manifest_says(client: FlaskClient) -> None:
    icons = manifest(client, "en")["icons"]
    assert isinstance(icons, list)
    purposes = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200 and response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.get_data())
            assert icon["sizes"] == f"{width}x{height}" and width >= 144  # Chrome's minimum
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}


def test_the_theme_colour_is_the_stylesheets(client: FlaskClient) -> None:
    stylesheet = (ROOT / "webapp" / "static" / "css" / "site.css").read_text()
    assert f"--red-ink: {THEME_COLOUR};" in stylesheet
    html = client.get("/en/about").get_data(as_text=True)
    assert f'<meta name="theme-color" content="{THEME_COLOUR}">' in html


@pytest.mark.parametrize(
    "path", ["/", "/rules/koa", "/cards/money", "/play/", "/room/", "/sign-in", "/offline"]
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_links_its_languages_manifest_and_worker(
    client: FlaskClient, lang: str, path: str
) -> None:
    html = client.get(f"/{lang}{path}").get_data(as_text=True)
    head = html[: html.index("</head>")]
    assert f'<link rel="manifest" href="/{lang}/manifest.webmanifest">' in head
    script = re.search(r'<script defer src="(/static/js/offline\.\w+\.js)"([^>]*)>', head)
    assert script, "the worker is registered by a deferred script, after the page has loaded"
    assert f'data-worker="/{lang}/sw.js" data-scope="/{lang}/"' in script[2]
    assert "navigator.serviceWorker" in client.get(script[1]).get_data(as_text=True)


def test_an_error_page_links_them_too(client: FlaskClient) -> None:
    html = client.get("/nl/no-such-page").get_data(as_text=True)
    assert '<link rel="manifest" href="/nl/manifest.webmanifest">' in html


def test_the_worker_keeps_its_languages_rules_pages_and_galleries(client: FlaskClient) -> None:
    response = client.get("/id/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    script = response.get_data(as_text=True)
    listed = re.search(r"const KEPT = new Set\((\[.*?\])\)", script)
    assert listed
    kept = json.loads(listed[1])
    # In the games' order, each game's rules page before its cards.
    assert sorted(kept) == sorted(f"/id{path}" for path in KEPT_PATHS)
    assert len(kept) == len(set(kept))
    assert 'const OFFLINE = "/id/offline";' in script
    fingerprint = services(client.application).assets.fingerprint
    assert f'const CACHE = "lapau-id-{fingerprint}";' in script
    assert 'const PREFIX = "lapau-id-";' in script


def test_the_worker_and_manifest_revalidate_so_an_update_is_seen(client: FlaskClient) -> None:
    for path in ("/en/sw.js", "/en/manifest.webmanifest"):
        first = client.get(path, headers={"Accept-Encoding": "br"})
        assert first.headers["Cache-Control"] == "no-cache"
        assert first.headers["Content-Encoding"] == "br"
        again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304


def test_the_policy_allows_the_worker_and_manifest_from_the_site_only(
    client: FlaskClient,
) -> None:
    for path in ("/en/rules", "/en/sw.js"):
        policy = client.get(path).headers["Content-Security-Policy"]
        assert "worker-src 'self';" in policy and "manifest-src 'self';" in policy
        assert "blob:" not in policy and "*" not in policy


def test_a_new_set_of_static_files_gets_a_new_cache(tmp_path: Path) -> None:
    style = tmp_path / "site.css"
    fingerprints = []
    for colour in ("red", "teal", "red"):
        style.write_text(f"body {{ color: {colour}; }}")
        fingerprints.append(Assets(tmp_path).fingerprint)
    assert fingerprints[0] != fingerprints[1] and fingerprints[0] == fingerprints[2]
    (tmp_path / "new.js").write_text("")
    assert Assets(tmp_path).fingerprint not in fingerprints


@pytest.mark.parametrize(
    ("lang", "heading"),
    [("id", "Kamu sedang offline"), ("en", "You are offline"), ("nl", "Je bent offline")],
)
def test_the_offline_page_says_so_and_lists_what_reads_offline(
    client: FlaskClient, lang: str, heading: str
) -> None:
    html = client.get(f"/{lang}/offline").get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html
    assert '<meta name="robots" content="noindex">' in html
    for path in KEPT_PATHS:
        assert f'<li><a href="/{lang}{path}">' in html
    assert '<a class="button" href="">' in html  # try again: the page it stands in for


def test_signing_out_clears_what_the_browser_kept_while_signed_in(client: FlaskClient) -> None:
    """Each way out of an account (sign out, everywhere, a deleted account) has the browser
    drop its HTTP cache and its storage (the worker's kept pages, drawn with the account in
    their header); signing in and plain pages clear nothing."""
    ways_out = [
        ("rina", "/en/sign-out", {}),
        ("budi", "/en/account/sign-out-everywhere", {}),
        ("sari", "/en/account/delete", {"confirm": "sari"}),
    ]
    for name, path, form in ways_out:
        signed_up = client.post("/en/sign-up", data={"username": name, "password": PASSWORD})
        assert signed_up.status_code == 303 and "Clear-Site-Data" not in signed_up.headers
        kept = client.get("/en/rules/koa")
        assert "Clear-Site-Data" not in kept.headers and "Your account" in kept.text
        response = client.post(path, data=form)
        assert response.status_code == 303, path
        assert response.headers["Clear-Site-Data"] == '"cache", "storage"', path
        assert "Your account" not in client.get("/en/rules/koa").text
