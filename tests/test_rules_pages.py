"""The rules pages and the deck galleries: complete, linked, translated and within budget.

Budgets: every path here takes only its language in the URL, so tests/test_budgets.py finds
and measures each of them by itself; the first test below keeps it that way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser

import pytest
from flask.testing import FlaskClient
from flask_babel import force_locale
from markupsafe import escape

from webapp import create_app
from webapp.adapters import setups
from webapp.config import TestConfig
from webapp.game.koikoi.house import KEYS, STANDARD
from webapp.services import Lapau

LANGS = ["id", "en", "nl"]
RULES = ["/rules/koa", "/rules/kowah", "/rules/koikoi"]
GALLERIES = ["/cards/money", "/cards/hanafuda"]
PAGES = ["/rules", *RULES, *GALLERIES]
LITE = "50-50-50-1"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lapau]:
    yield create_app(TestConfig(tmp_path_factory.mktemp("rules") / "instance"))


@pytest.fixture
def client(app: Lapau) -> FlaskClient:
    return app.test_client()


def get(client: FlaskClient, path: str, lite: bool = False) -> str:
    client.set_cookie("display", LITE if lite else "50-50-50-0")
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


class Outline(HTMLParser):
    """Ids, in-path links and headings of a path, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.anchors: list[str] = []
        self.headings: list[tuple[str, str]] = []  # (tag, id)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.append(str(attributes["id"]))
        if tag == "a" and (attributes.get("href") or "").startswith("#"):
            self.anchors.append(str(attributes["href"])[1:])
        if tag in {"h1", "h2", "h3"}:
            self.headings.append((tag, attributes.get("id") or ""))


def outline(html: str) -> Outline:
    parser = Outline()
    parser.feed(html)
    return parser


def test_every_page_takes_only_its_language_so_the_budget_test_finds_it(app: Lapau) -> None:
    rules = {
        rule.rule: rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("rules.")
    }
    assert set(rules) == {f"/<lang_code>{path}" for path in PAGES}
    assert all(
        rule.arguments == {"lang_code"} and "GET" in (rule.methods or ()) for rule in rules.values()
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", PAGES)
def test_each_page_exists_in_each_language(client: FlaskClient, lang: str, path: str) -> None:
    html = get(client, f"/{lang}{path}")
    assert f'<html lang="{lang}">' in html
    assert html.count("<h1>") == 1


@pytest.mark.parametrize("path", PAGES)
def test_the_languages_differ(client: FlaskClient, path: str) -> None:
    titles = {re.search(r"<h1>(.*?)</h1>", get(client, f"/{lang}{path}"))[1] for lang in LANGS}  # type: ignore[index]
    assert len(titles) == 3, titles


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", RULES)
def test_rules_pages_have_a_summary_first_a_linked_contents_and_sections(
    client: FlaskClient, lang: str, path: str
) -> None:
    parsed = outline(get(client, f"/{lang}{path}"))
    h2 = [ident for tag, ident in parsed.headings if tag == "h2"]
    assert h2[0] == "summary-h", "the one-screen summary comes first"
    assert h2[1] == "toc-title"
    sections = [ident for ident in h2[2:]]
    assert all(sections), "every section heading has an id to link to"
    for required in ("cards", "turn", "seeing", "mistakes", "glossary"):
        assert required in sections
    assert set(parsed.anchors) >= set(sections), "the contents link every section"
    assert set(parsed.anchors) <= set(parsed.ids), "no link to a missing id"
    assert len(parsed.ids) == len(set(parsed.ids)), "ids are unique"


@pytest.mark.parametrize(
    ("path", "sections"),
    [
        ("/rules/koa", ["seats", "deal", "sets", "ceki", "koa", "hiu", "takabek", "matches"]),
        ("/rules/kowah", ["setup", "checki", "two-two-one", "declare", "winning"]),
        ("/rules/koikoi", ["deal", "teshi", "yaku", "scoring", "koikoi", "match"]),
    ],
)
def test_each_game_covers_its_special_rules(
    client: FlaskClient, path: str, sections: list[str]
) -> None:
    assert set(sections) <= set(outline(get(client, f"/en{path}")).ids)


@pytest.mark.parametrize("path", RULES)
def test_rules_pages_mark_the_decided_points(client: FlaskClient, path: str) -> None:
    assert get(client, f"/en{path}").count('class="decided"') >= 3


YAKU = [
    ("Five Lights", "10 points"),
    ("Four Lights", "8 points"),
    ("Rainy Four Lights", "7 points"),
    ("Three Lights", "5 points"),
    ("Flower Viewing", "5 points"),
    ("Moon Viewing", "5 points"),
    ("Boar, Deer and Butterflies", "5 points"),
    ("Red Poem Ribbons", "5 points"),
    ("Blue Ribbons", "5 points"),
    ("Red and Blue Ribbons", "10 points"),
    ("Animals", "1 point"),
    ("Ribbons", "1 point"),
    ("Plains", "1 point"),
]


def test_every_yaku_is_shown_with_its_points_and_cards(client: FlaskClient) -> None:
    html = get(client, "/en/rules/koikoi")
    blocks = re.findall(r'<div class="yaku">(.*?)</div>', html, re.S)
    assert len(blocks) == len(YAKU)
    for (name, points), block in zip(YAKU, blocks, strict=True):
        assert f"<span>{name} <span" in block
        assert f'<span class="points">{points}</span>' in block
        assert block.count('class="card ') >= 2
    kasu = blocks[-1]
    assert kasu.count('class="card ') == 10


def test_the_ceki_example_waits_for_its_koa_card(client: FlaskClient) -> None:
    html = get(client, "/en/rules/koa")
    wait = re.search(r'<div class="wait">(.*?)</div>', html, re.S)
    assert wait and 'aria-label="Sisir Gadang"' in wait[1]


@pytest.mark.parametrize("lang", LANGS)
def test_the_money_gallery_shows_all_thirty_types_with_both_names(
    client: FlaskClient, lang: str
) -> None:
    html = get(client, f"/{lang}/cards/money")
    arts = re.findall(r"money\.[0-9a-f]{10}\.svg#([\w-]+)", html)
    assert len(set(arts) - {"back"}) == 30
    kowah_five = {"id": "Koin 5", "en": "Coins 5", "nl": "Munten 5"}[lang]
    assert f"<b>Babi Pusek</b> <span>{kowah_five}</span>" in html
    groups = re.findall(r'<h2 id="g-(\w+)">', html)
    assert groups == [
        "hiu",
        "bengkok",
        "jarum",
        "suduang",
        "babi",
        "betung",
        "sisir",
        "pacah",
        "tali",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_hanafuda_gallery_shows_all_48_cards_by_month(client: FlaskClient, lang: str) -> None:
    html = get(client, f"/{lang}/cards/hanafuda")
    arts = re.findall(r"hanafuda\.[0-9a-f]{10}\.svg#([\w-]+)", html)
    assert len(set(arts) - {"back"}) == 48
    assert len(re.findall(r'<h2 id="m-\w+">', html)) == 12


@pytest.mark.parametrize("path", [*RULES, *GALLERIES])
def test_lite_cards_load_no_sprite(client: FlaskClient, path: str) -> None:
    plain = get(client, f"/id{path}")
    lite = get(client, f"/id{path}", lite=True)
    assert "/static/cards/" in plain
    assert "/static/cards/" not in lite and "card-money" not in lite
    labels = re.findall(r'role="img" aria-label="([^"]+)"', plain)
    assert labels == re.findall(r'role="img" aria-label="([^"]+)"', lite)


def test_each_rules_page_loads_one_sprite_at_most(client: FlaskClient) -> None:
    for path in RULES:
        sprites = set(re.findall(r"/static/cards/[^\"#]+", get(client, f"/en{path}")))
        assert len(sprites) == 1, path


def test_the_landing_page_links_each_rules_page(client: FlaskClient) -> None:
    html = get(client, "/nl/")
    for path in RULES:
        assert f'href="/nl{path}"' in html


def test_the_settings_form_offers_lite_cards_and_remembers_them(client: FlaskClient) -> None:
    html = get(client, "/en/settings")
    assert 'name="lite_cards_shown"' in html and 'name="lite_cards"' in html
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token, "the settings form carries a CSRF token"
    form = {"lite_cards_shown": "1", "next": "/en/", "csrf_token": token[1]}
    client.post("/en/settings", data={**form, "lite_cards": "1"})
    cookie = client.get_cookie("display")
    assert cookie is not None and cookie.value.split("-")[3] == "1"
    box = re.search(r'<input id="set-lite-cards"[^>]*>', client.get("/en/settings").get_data(True))
    assert box and "checked" in box[0]
    client.post("/en/settings", data=form)
    cookie = client.get_cookie("display")
    assert cookie is not None and cookie.value.split("-")[3] == "0"


def sentences(html: str) -> set[str]:
    """The text of every paragraph, list item, caption and definition of the main content."""
    main = html.split('<main id="main"', 1)[1].split("</main>", 1)[0]
    blocks = re.findall(r"<(p|li|figcaption|dd)\b[^>]*>(.*?)</\1>", main, re.S)
    texts = {re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip() for _, text in blocks}
    return {text for text in texts if len(text) > 30}


@pytest.mark.parametrize("lang", ["id", "nl"])
@pytest.mark.parametrize("path", PAGES)
def test_no_english_sentence_is_left_untranslated(
    client: FlaskClient, lang: str, path: str
) -> None:
    english = sentences(get(client, f"/en{path}"))
    assert english
    assert not english & sentences(get(client, f"/{lang}{path}"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_koikoi_page_explains_every_house_rule_and_its_default(
    app: Lapau, client: FlaskClient, lang: str
) -> None:
    """Each option of webapp/game/koikoi/house.py, worded as the setup form words it, with
    what every choice does and the standard one marked; then the presets, linked."""
    html = get(client, f"/{lang}/rules/koikoi")
    section = html.partition('<section aria-labelledby="house">')[2].partition("</section>")[0]
    setup = setups()["koikoi"]
    assert [rule.option for rule in setup.rules] == list(KEYS)
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        for rule in setup.rules:
            assert f"<h3>{escape(str(rule.label))}</h3>" in section
            found = section.partition(f"<h3>{escape(str(rule.label))}</h3>")[2]
            terms = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", found.partition("</dl>")[0])
            assert [unescape(term.partition(" <span")[0]) for term, _ in terms] == [
                str(label) for _, label in rule.choices
            ]
            assert all(len(does) > 40 for _, does in terms), terms  # a sentence, each
            assert rule.choices[0][0] == getattr(STANDARD, rule.option)
            assert 'class="standard"' in terms[0][0]
            assert not any('class="standard"' in term for term, _ in terms[1:])
        for preset in setup.presets:
            link = f'href="/{lang}/play/koikoi?preset={preset.name}">{escape(str(preset.label))}'
            assert link in section
