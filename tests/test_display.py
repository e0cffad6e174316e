"""Display settings: kept in a cookie, applied on the server, readable at the defaults."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from webapp.display import Display, contrast_ratio

# Cookies and pages only: nothing here is stored.
pytestmark = pytest.mark.databases("sqlite")


def test_defaults_meet_wcag_aa_for_body_and_secondary_text() -> None:
    display = Display()
    assert contrast_ratio(display.ink, display.paper) >= 7
    assert contrast_ratio(display.muted, display.paper) >= 4.5


@pytest.mark.parametrize("contrast", [0, 25, 50, 75, 100])
@pytest.mark.parametrize("temperature", [0, 50, 100])
def test_every_setting_keeps_text_readable(contrast: int, temperature: int) -> None:
    display = Display(contrast=contrast, temperature=temperature)
    assert contrast_ratio(display.ink, display.paper) >= 4.5
    assert contrast_ratio(display.muted, display.paper) >= 3


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
    assert client.get_cookie("display").value == "80-10-30-0"


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
    assert client.get_cookie("display").value == "100-0-50-0"


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
