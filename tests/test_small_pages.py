"""Small things a new player meets first: links, explanations, and card names that wrap."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from flask_babel import force_locale

from webapp import adapters
from webapp.services import Lapau


def test_the_landing_page_links_to_play_with_friends(client: FlaskClient) -> None:
    html = client.get("/en/").get_data(as_text=True)
    assert 'href="/en/room/"><strong>Play with friends</strong></a>' in html


def test_the_koa_setup_explains_quick_and_full(client: FlaskClient) -> None:
    html = client.get("/en/play/koa").get_data(as_text=True)
    assert "Quick: the first koa wins the match." in html
    assert "Full: each koa gives its winner a mark" in html


@pytest.mark.parametrize("lang", ["en", "id", "nl"])
def test_long_card_names_can_break_with_a_hyphen(app: Lapau, lang: str) -> None:
    # Debian's Chromium has no hyphenation patterns: without a soft hyphen a long word on
    # a narrow lite card breaks anywhere ("Kraanvog/el", "Butterfli/es"); Koi-Koi's lite
    # cards are four to a row on a phone.
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        words = {
            word
            for card in adapters.deck("koikoi")
            for word in str(card.subject).split()
            if len(word.replace("\u00ad", "")) > 9
        }
    assert not sorted(word for word in words if "\u00ad" not in word and "-" not in word)


def test_the_about_page_names_every_cookie_a_guest_is_given(client: FlaskClient) -> None:
    """A guest who reads in Dutch, changes the display and plays a table is given the
    language, display and session cookies; the privacy note names the session's too."""
    client.get("/nl/")
    client.post("/en/settings", data={"contrast": "60"})
    client.post("/en/play/koa", data={"mode": "quick", "level": "easy"})
    given = {cookie.key for cookie in (client._cookies or {}).values()}  # the jar, every cookie
    assert given == {"lang", "display", "session"}
    about = client.get("/en/about").get_data(as_text=True)
    for purpose in ("language", "display settings", "session cookie"):
        assert purpose in about
