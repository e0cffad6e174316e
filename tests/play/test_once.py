"""Words said once for the life of the process are still said in each reader's language."""

from __future__ import annotations

import pytest
from flask import g

from webapp import adapters
from webapp.play import card_name
from webapp.play.markup import row
from webapp.services import Lapau

# Nothing stored: the words only.
pytestmark = pytest.mark.databases("sqlite")


def words(app: Lapau, language: str) -> tuple[str, str, str]:
    """A card's name, a text card and the same name looked up afresh, in ``language``."""
    with app.test_request_context(f"/{language}/"):
        g.lang_code = language
        g.lite_cards = True
        fresh = str(adapters.card("koikoi", "jan-crane").name)
        return card_name("jan-crane", "koikoi"), str(row("koikoi", ["jan-crane"], "sm")), fresh


def test_each_language_says_its_own_card_names_and_text_cards(app: Lapau) -> None:
    said = {language: words(app, language) for language in ("en", "nl", "id", "en", "nl")}
    names = {name for name, _text, _fresh in said.values()}
    assert len(names) == 3  # one name per language, whichever was said first
    for name, text, fresh in said.values():
        assert name == fresh
        assert f'aria-label="{fresh}"' in text
