"""Display settings: kept in a cookie, applied on the server, readable at the defaults."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from webapp.display import Display, contrast_ratio
from webapp.services import services

# Cookies and pages only: nothing here is stored.
pytestmark = pytest.mark.databases("sqlite")


def test_defaults_meet_wcag_aa_for_body_and_secondary_text() -> None:
    display = Display()
    assert contrast_ratio(display.ink, display.paper) >= 7
    assert contrast_ratio(display.muted, display.paper) >= 4.5


@pytest.mark.parametrize("temperature", [0, 25, 50, 75, 100])
def test_every_setting_keeps_text_readable(temperature: int) -> None:
    """Secondary text is small (.8 to .9 rem): WCAG AA asks 4.5:1 of it at every
    setting, the softest contrast included (#17: it gave 4.42:1 there)."""
    for contrast in range(101):
        display = Display(contrast=contrast, temperature=temperature)
        assert contrast_ratio(display.ink, display.paper) >= 4.5
        assert contrast_ratio(display.muted, display.paper) >= 4.5, contrast


def test_pages_carry_the_settings_as_css_variables(client: FlaskClient) -> None:
    html = client.get("/en/").get_data(as_text=True)
    assert Display().css_variables() in html
    client.set_cookie("display", "100-0-0-0")
    html = client.get("/en/").get_data(as_text=True)
    assert Display(contrast=100, grain=0, temperature=0).css_variables() in html


def test_saving_settings_sets_the_cookie_and_returns_to_the_page(client: FlaskClient) -> None:
    response = client.post(
        "/en/settings",
        data={"contrast": "80", "grain": "10", "temperature": "30", "next": "/en/about"},
    )
    assert response.status_code == 303
    assert response.headers["Location"] == "/en/about"
    assert (cookie := client.get_cookie("display")) and cookie.value == "80-10-30-0-1"


def test_choosing_a_language_in_settings_keeps_the_page(client: FlaskClient) -> None:
    response = client.post("/en/settings", data={"language": "nl", "next": "/en/about"})
    assert response.headers["Location"] == "/nl/about"


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x"]
)
def test_settings_never_redirect_off_site(client: FlaskClient, target: str) -> None:
    response = client.post("/en/settings", data={"contrast": "10", "next": target})
    assert response.headers["Location"] == "/en/"


def test_nonsense_values_are_clamped(client: FlaskClient) -> None:
    client.post("/en/settings", data={"contrast": "900", "grain": "-3", "temperature": "hot"})
    assert (cookie := client.get_cookie("display")) and cookie.value == "100-0-50-0-1"


def test_the_settings_page_works_without_the_header_panel(client: FlaskClient) -> None:
    html = client.get("/nl/settings?next=/nl/about").get_data(as_text=True)
    assert 'value="/nl/about"' in html
    assert html.count('id="set-contrast"') == 1


def test_the_inline_style_is_allowed_by_hash_and_no_script_is_inline(
    client: FlaskClient,
) -> None:
    response = client.get("/id/")
    policy = response.headers["Content-Security-Policy"]
    assert "'sha256-" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "<script>" not in response.get_data(as_text=True)


SAVE_DATA = {"Save-Data": "on"}


def test_save_data_gives_lite_cards_and_no_grain(client: FlaskClient) -> None:
    plain = client.get("/en/cards/hanafuda")
    light = client.get("/en/cards/hanafuda", headers=SAVE_DATA)
    assert "/static/cards/" in plain.get_data(as_text=True)
    html = light.get_data(as_text=True)
    assert "/static/cards/" not in html and 'class="card card-lg lite' in html
    assert "--grain:0.000" in html and "body::before{content:none}" in html
    assert "body::before" not in plain.get_data(as_text=True)
    assert plain.headers["ETag"] != light.headers["ETag"]


@pytest.mark.parametrize("path", ["/id/", "/nl/rules/koa", "/en/settings", "/en/no-such-page"])
def test_pages_drawn_with_the_settings_vary_on_save_data(client: FlaskClient, path: str) -> None:
    for headers in ({}, SAVE_DATA):
        vary = client.get(path, headers=headers).headers["Vary"]
        assert "Save-Data" in vary, path


def test_responses_not_drawn_with_the_settings_do_not_vary_on_save_data(
    client: FlaskClient,
) -> None:
    stylesheet = services(client.application).assets.url("css/site.css")
    for path in ("/", stylesheet, "/healthz", "/en/manifest.webmanifest"):
        assert "Save-Data" not in client.get(path, headers=SAVE_DATA).headers.get("Vary", "")


@pytest.mark.parametrize("value", ["off", "", "1", "yes"])
def test_only_save_data_on_asks_for_lighter_pages(client: FlaskClient, value: str) -> None:
    html = client.get("/en/cards/money", headers={"Save-Data": value}).get_data(as_text=True)
    assert "/static/cards/" in html and "body::before" not in html


def test_settings_the_reader_saved_win_over_save_data(client: FlaskClient) -> None:
    form = client.get("/en/settings", headers=SAVE_DATA).get_data(as_text=True)
    box = re.search(r'<input id="set-lite-cards"[^>]*>', form)
    assert box and "checked" in box[0]  # the form shows what is in effect
    assert re.search(r'id="set-grain"[^>]*value="0"', form)
    client.post("/en/settings", data={"grain": "40", "lite_cards_shown": "1"})  # art, please
    html = client.get("/en/cards/money", headers=SAVE_DATA).get_data(as_text=True)
    assert "/static/cards/" in html and "--grain:0.088" in html
    assert "body::before" not in html


def test_reactions_are_shown_until_the_reader_hides_them(client: FlaskClient) -> None:
    box = re.compile(r'<input id="set-reactions"[^>]*>')
    found = box.search(client.get("/en/settings").get_data(as_text=True))
    assert found and "checked" in found[0]
    # Lite cards were not offered by this form: ticked or not, they stay as they were.
    client.post("/en/settings", data={"reactions_shown": "1", "lite_cards": "1"})
    assert (cookie := client.get_cookie("display")) and cookie.value == "50-50-50-0-0"
    found = box.search(client.get("/en/settings").get_data(as_text=True))
    assert found and "checked" not in found[0]
    client.post("/en/settings", data={"reactions_shown": "1", "reactions": "1"})
    assert (cookie := client.get_cookie("display")) and cookie.value == "50-50-50-0-1"


def test_a_cookie_from_before_reactions_keeps_them_shown(client: FlaskClient) -> None:
    client.set_cookie("display", "80-10-30-1")
    client.post("/en/settings", data={"contrast": "70"})
    assert (cookie := client.get_cookie("display")) and cookie.value == "70-10-30-1-1"
