"""Which language a page speaks, and how the reader moves between languages."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from webapp.locale import LANGUAGES

# Cookies and pages only: nothing here is stored.
pytestmark = pytest.mark.databases("sqlite")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("nl-NL,nl;q=0.9,en;q=0.5", "nl"),
        ("en-GB,en;q=0.9", "en"),
        ("id-ID,id;q=0.9", "id"),
        ("fr-FR,fr;q=0.9", "id"),
        ("", "id"),
        (";;;q=abc,,*-*", "id"),
        ("x" * 5000, "id"),
        ("en;q=0.1,nl;q=0.8", "nl"),
    ],
)
def test_root_redirects_by_accept_language(client: FlaskClient, header: str, expected: str) -> None:
    response = client.get("/", headers={"Accept-Language": header})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/{expected}/"


def test_root_prefers_the_remembered_choice(client: FlaskClient) -> None:
    client.set_cookie("lang", "nl")
    response = client.get("/", headers={"Accept-Language": "en"})
    assert response.headers["Location"] == "/nl/"


def test_a_forged_language_cookie_is_ignored(client: FlaskClient) -> None:
    client.set_cookie("lang", "<script>")
    response = client.get("/", headers={"Accept-Language": "en"})
    assert response.headers["Location"] == "/en/"


def test_reading_a_page_remembers_its_language(client: FlaskClient) -> None:
    client.get("/en/about")
    assert client.get("/").headers["Location"] == "/en/"


def test_a_background_fetch_does_not_change_the_remembered_language(client: FlaskClient) -> None:
    client.get("/nl/about", headers={"Sec-Fetch-Mode": "navigate"})
    client.get("/en/about", headers={"Sec-Fetch-Mode": "cors"})  # a service worker keeping it
    assert client.get("/").headers["Location"] == "/nl/"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_pages_declare_their_language_and_alternates(client: FlaskClient, lang: str) -> None:
    html = client.get(f"/{lang}/about").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    for code in LANGUAGES:
        assert f'hreflang="{code}" href="http://localhost/{code}/about"' in html
    assert 'hreflang="x-default" href="http://localhost/"' in html


def test_language_switch_keeps_the_page(client: FlaskClient) -> None:
    html = client.get("/en/about").get_data(as_text=True)
    switch = re.search(r'<nav class="langs".*?</nav>', html, re.S)
    assert switch is not None
    assert 'href="/nl/about"' in switch.group(0)
    assert 'href="/id/about"' in switch.group(0)


@pytest.mark.parametrize(
    ("url", "accept", "phrase"),
    [
        ("/fr/", "nl", "Deze pagina ligt niet op tafel"),
        ("/xx/about", "en", "This page is not on the table"),
        ("/en/no-such-page", "nl", "This page is not on the table"),
        ("/nl/no-such-page", "en", "Deze pagina ligt niet op tafel"),
        ("/id/tidak-ada", "en", "Halaman ini tidak ada di meja"),
        ("/nothing/here/at/all", "", "Halaman ini tidak ada di meja"),
    ],
)
def test_unknown_pages_get_the_localized_404(
    client: FlaskClient, url: str, accept: str, phrase: str
) -> None:
    response = client.get(url, headers={"Accept-Language": accept})
    assert response.status_code == 404
    assert phrase in response.get_data(as_text=True)


def test_pages_are_translated(client: FlaskClient) -> None:
    assert "Tiga permainan" in client.get("/id/").get_data(as_text=True)
    assert "Three games" in client.get("/en/").get_data(as_text=True)
    assert "Drie spellen" in client.get("/nl/").get_data(as_text=True)
