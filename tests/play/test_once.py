"""Words said once for the life of the process are still said in each reader's language."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from flask import g
from flask_babel import get_translations
from markupsafe import Markup

from webapp import adapters
from webapp.channels import rendering
from webapp.play import card_name
from webapp.play.hub import TableSession
from webapp.play.markup import ROWS, button_groups, move_form, row
from webapp.play.once import Remembered
from webapp.play.render import gettext_callables
from webapp.services import Lapau

# Nothing stored: the words only.
pytestmark = pytest.mark.databases("sqlite")


def test_a_memo_keeps_what_it_is_given_and_starts_again_when_full() -> None:
    memo: Remembered[str, int] = Remembered(3)
    assert memo.keep("a", 1) == 1
    memo.keep("b", 2)
    memo.keep("b", 3)  # a key kept again is not one more
    memo.keep("c", 4)
    assert memo == {"a": 1, "b": 3, "c": 4}
    assert memo.keep("d", 5) == 5
    assert memo == {"d": 5}


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


def test_a_hands_rows_are_made_once_yet_each_in_its_language_style_and_refusals(
    app: Lapau,
) -> None:
    """A hand's rows are remembered for the process: a row must come back only where
    everything it is made from is the same, its language and card style included.
    (Koa's cards have Minang names in every language: Koi-Koi's text cards do not.)"""
    groups = [("jan", ["jan-crane", "jan-plain-1"]), ("feb", ["feb-plain-1"])]
    refused = {"throw feb-plain-1": "card-not-in-hand"}
    cases = [
        (language, lite, blocked)
        for language in ("en", "nl", "id")
        for lite in (False, True)
        for blocked in (False, True)
    ]

    def rows(language: str, lite: bool, blocked: bool) -> str:
        with app.test_request_context(f"/{language}/"):
            g.lang_code = language
            g.lite_cards = lite
            refusals = refused if blocked else None
            return str(button_groups("koikoi", groups, "throw", "hg", "md", str.upper, refusals))

    made = {}
    for case in cases:  # each made afresh
        ROWS.clear()
        made[case] = rows(*case)
    # Pictures are the same in every language; text cards and refusals are words: one
    # row of pictures without refusals, one with a refusal per language, and text cards
    # per language with and without one.
    assert len(set(made.values())) == 1 + 3 + 3 * 2
    ROWS.clear()
    for case in cases + cases[::-1]:  # and each remembered, in any order
        assert rows(*case) == made[case]


def test_a_sentence_looked_up_once_is_filled_in_and_escaped_each_time(app: Lapau) -> None:
    """The socket's renders look each sentence up once per language: a sentence with
    placeholders is still filled in anew, its values escaped, every time."""
    with app.test_request_context("/nl/"):
        g.lang_code = "nl"
        said = gettext_callables(get_translations())["_"]
        context = app.jinja_env.from_string("").new_context()
        sentence = "%(name)s threw %(card)s."
        first = said(context, sentence, name="Ani", card="Hiu")
        second = said(context, sentence, name="<b>Budi</b>", card="Tali")
        # Filled-in sentences are remembered by their values: the same again, and the
        # same text as Markup (not escaped) or as a number, each as it should be.
        again = said(context, sentence, name="<b>Budi</b>", card="Tali")
        marked = said(context, sentence, name=Markup("<b>Budi</b>"), card="Tali")
        counted = said(context, "Round %(round)s", round=3)
        counted_again = said(context, "Round %(round)s", round=3)
        text_three = said(context, "Round %(round)s", round="3")
    assert "Ani" in first and "Hiu" in first and first != sentence  # in Dutch
    assert "&lt;b&gt;Budi&lt;/b&gt;" in second and "Tali" in second and "Ani" not in second
    assert str(second).replace("&lt;b&gt;Budi&lt;/b&gt;", "Ani").replace("Tali", "Hiu") == first
    assert again == second and "<b>Budi</b>" in marked and "&lt;" not in marked
    assert "3" in counted and counted == counted_again == text_three


def test_a_moves_words_and_address_follow_each_renders_language(app: Lapau) -> None:
    """A move's renders (outside requests) say their words and find their forms' address
    in their own language, remembered for the process: each language and table keeps its
    own, in any order, a render inside another's included."""
    table = cast(TableSession, SimpleNamespace(id="t3st01"))

    def said_and_address() -> tuple[str, str, str]:
        fresh = str(adapters.card("koikoi", "jan-crane").name)
        return card_name("jan-crane", "koikoi"), fresh, str(move_form(table))

    for language in ("en", "nl", "id", "en", "nl"):
        with rendering(app, language):
            name, fresh, form = said_and_address()
            with rendering(app, "id"):
                inner = said_and_address()
            after = said_and_address()
        assert name == fresh and f'action="/{language}/table/t3st01/act"' in form
        assert inner[0] == inner[1] and 'action="/id/table/t3st01/act"' in inner[2]
        assert after == (name, fresh, form)
