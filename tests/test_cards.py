"""The card macro: every card of docs/rules.md renders with its art and a name in the language.

The card ids, the Koa → Kowah art table and the expected words are written out here from
docs/rules.md and GLOSSARY.md on purpose, rather than imported from webapp.cards, so a catalogue
that drops, renames or mistranslates a card fails here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from webapp import create_app
from webapp.config import TestConfig
from webapp.services import Lapau

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "webapp" / "static" / "cards"

# docs/rules.md §1: Koa id → Kowah id of the same physical card.
KOA_TO_KOWAH = {
    "hiu-babak": "old-thousand", "hiu-kucing": "white-flower", "hiu-pinci": "red-flower",
    "hiu-kasuik": "coins-1", "hiu-panjang": "strings-1", "hiu-bunga": "myriads-1",
    "bengkok-hitam": "coins-2", "bengkok-gadang": "strings-2", "bengkok-halus": "myriads-2",
    "jarum-wajik": "coins-3", "jarum-udang": "strings-3", "jarum-halus": "myriads-3",
    "suduang-hitam": "coins-4", "suduang-pinggang": "strings-4", "suduang-putih": "myriads-4",
    "babi-pusek": "coins-5", "babi-gadang": "strings-5", "babi-halus": "myriads-5",
    "betung-enam": "coins-6", "betung-manih": "strings-6", "betung-halus": "myriads-6",
    "sisir-bendera": "coins-7", "sisir-gadang": "strings-7", "sisir-halus": "myriads-7",
    "pacah-lapan": "coins-8", "pacah-manih": "strings-8", "pacah-halus": "myriads-8",
    "tali-bulat": "coins-9", "tali-merah": "strings-9", "tali-halus": "myriads-9",
}  # fmt: skip
KOA_IDS = list(KOA_TO_KOWAH)
KOWAH_IDS = [
    *(f"{suit}-{rank}" for suit in ("coins", "strings", "myriads") for rank in range(1, 10)),
    "old-thousand",
    "red-flower",
    "white-flower",
]
# docs/rules.md §3, month by month, with each card's kind.
HANAFUDA = {
    "jan-crane": "light", "jan-poetry": "ribbon", "jan-plain-1": "plain", "jan-plain-2": "plain",
    "feb-warbler": "animal", "feb-poetry": "ribbon", "feb-plain-1": "plain", "feb-plain-2": "plain",
    "mar-curtain": "light", "mar-poetry": "ribbon", "mar-plain-1": "plain", "mar-plain-2": "plain",
    "apr-cuckoo": "animal", "apr-ribbon": "ribbon", "apr-plain-1": "plain", "apr-plain-2": "plain",
    "may-bridge": "animal", "may-ribbon": "ribbon", "may-plain-1": "plain", "may-plain-2": "plain",
    "jun-butterflies": "animal", "jun-blue": "ribbon", "jun-plain-1": "plain",
    "jun-plain-2": "plain",
    "jul-boar": "animal", "jul-ribbon": "ribbon", "jul-plain-1": "plain", "jul-plain-2": "plain",
    "aug-moon": "light", "aug-geese": "animal", "aug-plain-1": "plain", "aug-plain-2": "plain",
    "sep-sake-cup": "animal", "sep-blue": "ribbon", "sep-plain-1": "plain", "sep-plain-2": "plain",
    "oct-deer": "animal", "oct-blue": "ribbon", "oct-plain-1": "plain", "oct-plain-2": "plain",
    "nov-rain-man": "light", "nov-swallow": "animal", "nov-ribbon": "ribbon",
    "nov-lightning": "plain",
    "dec-phoenix": "light", "dec-plain-1": "plain", "dec-plain-2": "plain", "dec-plain-3": "plain",
}  # fmt: skip

# GLOSSARY.md
SUITS = {
    "en": {"coins": "Coins", "strings": "Strings", "myriads": "Myriads"},
    "id": {"coins": "Koin", "strings": "Untai", "myriads": "Laksa"},
    "nl": {"coins": "Munten", "strings": "Snoeren", "myriads": "Myriaden"},
}
HONOURS = {
    lang: dict(zip(("old-thousand", "red-flower", "white-flower"), names.split(","), strict=True))
    for lang, names in {
        "en": "Old Thousand,Red Flower,White Flower",
        "id": "Seribu Tua,Bunga Merah,Bunga Putih",
        "nl": "Oude Duizend,Rode Bloem,Witte Bloem",
    }.items()
}
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "id": "Januari Februari Maret April Mei Juni Juli Agustus September Oktober November Desember",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}
KINDS = {
    "en": {"light": "light", "animal": "animal", "ribbon": "ribbon", "plain": "plain"},
    "id": {"light": "cahaya", "animal": "hewan", "ribbon": "pita", "plain": "biasa"},
    "nl": {"light": "licht", "animal": "dier", "ribbon": "lint", "plain": "gewone kaart"},
}
MONTH_CODES = "jan feb mar apr may jun jul aug sep oct nov dec".split()
LANGS = ["id", "en", "nl"]

CARD_SVG = re.compile(
    r'<svg class="card card-md card-(?P<sprite>\w+)" role="img" aria-label="(?P<name>[^"]+)"'
    r' viewBox="(?P<box>[^"]+)"><use href="/static/cards/(?P=sprite)\.[0-9a-f]{10}\.svg#'
    r'(?P<art>[\w-]+)"/></svg>'
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lapau]:
    """One app for the whole module: rendering a macro does not change it, and there are
    hundreds of renders."""
    yield create_app(TestConfig(tmp_path_factory.mktemp("cards") / "instance"))


def render(app: Lapau, lang: str, source: str, cookie: str | None = None) -> str:
    headers = {"Cookie": f"display={cookie}"} if cookie else {}
    with app.test_request_context(f"/{lang}/", headers=headers):
        app.preprocess_request()
        template = app.jinja_env.from_string('{% from "_card.html" import card %}' + source)
        return template.render()


def render_card(app: Lapau, lang: str, game: str, card_id: str) -> re.Match[str]:
    html = render(app, lang, f'{{{{ card("{game}", "{card_id}") }}}}')
    match = CARD_SVG.fullmatch(html)
    assert match, html
    return match


def expected_name(lang: str, game: str, card_id: str) -> str:
    if game == "koa":
        return " ".join(word.capitalize() for word in card_id.split("-"))
    if game == "kowah":
        if card_id in HONOURS[lang]:
            return HONOURS[lang][card_id]
        suit, _, rank = card_id.partition("-")
        return f"{SUITS[lang][suit]} {rank}"
    raise AssertionError(game)


def test_the_id_lists_are_the_decks_of_rules_md() -> None:
    assert len(set(KOA_IDS)) == 30 and len(set(KOWAH_IDS)) == 30 and len(HANAFUDA) == 48
    assert sorted(KOA_TO_KOWAH.values()) == sorted(KOWAH_IDS)
    assert sum(kind == "light" for kind in HANAFUDA.values()) == 5


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("card_id", KOA_IDS)
def test_every_koa_card_renders_its_kowah_art_and_its_minang_name(
    app: Lapau, lang: str, card_id: str
) -> None:
    match = render_card(app, lang, "koa", card_id)
    assert match["sprite"] == "money"
    assert match["box"] == "0 0 40 104"
    assert match["art"] == KOA_TO_KOWAH[card_id]
    assert match["name"] == expected_name(lang, "koa", card_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("card_id", KOWAH_IDS)
def test_every_kowah_card_renders_with_a_translated_name(
    app: Lapau, lang: str, card_id: str
) -> None:
    match = render_card(app, lang, "kowah", card_id)
    assert (match["sprite"], match["art"]) == ("money", card_id)
    assert match["name"] == expected_name(lang, "kowah", card_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("card_id", list(HANAFUDA))
def test_every_hanafuda_card_is_named_by_month_picture_and_kind(
    app: Lapau, lang: str, card_id: str
) -> None:
    match = render_card(app, lang, "koikoi", card_id)
    assert (match["sprite"], match["art"], match["box"]) == ("hanafuda", card_id, "0 0 40 60")
    month, picture, kind = match["name"].split(" · ")
    assert month == MONTHS[lang].split()[MONTH_CODES.index(card_id[:3])]
    assert kind == KINDS[lang][HANAFUDA[card_id]]
    assert picture and picture not in (month, kind)


@pytest.mark.parametrize(
    ("lang", "game", "card_id", "name"),
    [
        ("en", "koa", "babi-pusek", "Babi Pusek"),
        ("id", "koa", "hiu-babak", "Hiu Babak"),
        ("nl", "koa", "bengkok-hitam", "Bengkok Hitam"),
        ("en", "kowah", "coins-5", "Coins 5"),
        ("id", "kowah", "coins-5", "Koin 5"),
        ("nl", "kowah", "coins-5", "Munten 5"),
        ("en", "koikoi", "aug-moon", "August · Moon · light"),
        ("id", "koikoi", "aug-moon", "Agustus · Bulan · cahaya"),
        ("nl", "koikoi", "aug-moon", "augustus · Maan · licht"),
        ("en", "koikoi", "jan-plain-1", "January · Pine · plain"),
        ("nl", "koikoi", "sep-sake-cup", "september · Sakekom · dier"),
    ],
)
def test_the_names_of_the_issue(app: Lapau, lang: str, game: str, card_id: str, name: str) -> None:
    assert render_card(app, lang, game, card_id)["name"] == name


@pytest.mark.parametrize("game", ["koa", "kowah"])
def test_distinct_money_cards_have_distinct_names(app: Lapau, game: str) -> None:
    ids = KOA_IDS if game == "koa" else KOWAH_IDS
    for lang in LANGS:
        names = {render_card(app, lang, game, card_id)["name"] for card_id in ids}
        assert len(names) == 30, lang


@pytest.mark.parametrize(("game", "sprite"), [("koa", "money"), ("koikoi", "hanafuda")])
def test_the_back_of_each_deck(app: Lapau, game: str, sprite: str) -> None:
    match = render_card(app, "nl", game, "back")
    assert (match["sprite"], match["art"], match["name"]) == (sprite, "back", "Gedekte kaart")


def test_every_art_id_is_a_symbol_of_its_sprite() -> None:
    for sprite, ids in (("money", KOWAH_IDS), ("hanafuda", list(HANAFUDA))):
        root = ET.parse(CARDS / f"{sprite}.svg").getroot()
        symbols = {s.get("id") for s in root.iter("{http://www.w3.org/2000/svg}symbol")}
        assert {*ids, "back"} <= symbols, sprite


@pytest.mark.parametrize("size", ["sm", "md", "lg"])
def test_the_macro_takes_a_size_class(app: Lapau, size: str) -> None:
    html = render(app, "en", f'{{{{ card("kowah", "coins-5", "{size}") }}}}')
    assert f'class="card card-{size} card-money"' in html


def test_lite_cards_are_text_and_reference_no_sprite(app: Lapau) -> None:
    source = '{{ card("koikoi", "aug-moon") }}{{ card("kowah", "red-flower") }}'
    source += '{{ card("koa", "back") }}'
    html = render(app, "id", source, cookie="50-50-50-1")
    assert "<svg" not in html and "<use" not in html and ".svg" not in html
    assert 'aria-label="Agustus · Bulan · cahaya"' in html
    assert 'aria-label="Bunga Merah"' in html
    assert 'aria-label="Kartu tertutup"' in html
    assert ">8</b><span>Bulan</span><i>cahaya</i>" in html
    assert html.count('role="img"') == 3


def test_the_lite_setting_can_be_overridden_per_call(app: Lapau) -> None:
    assert "lite" in render(app, "en", '{{ card("kowah", "coins-1", lite=true) }}')
    assert "<use" in render(app, "en", '{{ card("kowah", "coins-1", lite=false) }}', "50-50-50-1")
