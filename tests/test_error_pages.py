"""Every error page is a page of the site: its layout, the reader's language, a way back,
and within the page budget.

One request per status and language, each the real way to get it: a form the site cannot
read (400), a spectator tapping "Play again" (403), a wrong address (404), a page asked
the wrong way (405), a body past the limit (413), too many tries (429), a crash (500).
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

import pytest
from flask import g
from flask.testing import FlaskClient
from flask_babel import gettext
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.test import TestResponse

from tests.hostile.conftest import make_app
from tests.test_budgets import HTML_BUDGET
from webapp.services import Lapau

TABLE = "/{lang}/table/abc123"  # where the spectator's "Play again" form was


def crash() -> str:
    raise RuntimeError("a bug")


def busy() -> str:
    # What SQLAlchemy raises when every pooled connection stayed busy for the pool's wait.
    raise PoolTimeout("QueuePool limit of size 5 overflow 5 reached, connection timed out")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Lapau:
    instance = tmp_path_factory.mktemp("errors") / "instance"
    instance.mkdir(mode=0o700)
    # Pages only: nothing stored here could differ between the databases.
    app = make_app(instance, f"sqlite:///{instance / 'lapau.sqlite'}", WTF_CSRF_ENABLED=False)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is answered, as in production
    app.add_url_rule("/<lang_code>/crash", view_func=crash)
    app.add_url_rule("/<lang_code>/busy", view_func=busy)
    return app


def too_many(client: FlaskClient, lang: str) -> TestResponse:
    for number in range(10):
        client.post(f"/{lang}/sign-in", data={"username": f"p{number}", "password": "x" * 8})
    return client.post(f"/{lang}/sign-in", data={"username": "p", "password": "x" * 8})


REQUESTS: dict[int, tuple[str, Callable[[FlaskClient, str], TestResponse]]] = {
    400: ("That request could not be read", lambda c, lang: c.post(f"/{lang}/room/new")),
    403: ("You cannot do that here", lambda c, lang: c.post(f"/{lang}/room/again/abc123")),
    404: ("This page is not on the table", lambda c, lang: c.get(f"/{lang}/no-such-page")),
    405: ("This page does not work that way", lambda c, lang: c.get(f"/{lang}/sign-out")),
    413: (
        "That was too much to send",
        lambda c, lang: c.post(f"/{lang}/sign-in", data={"username": "x" * 20000}),
    ),
    429: ("Too many tries", too_many),
    500: ("Something went wrong on our side", lambda c, lang: c.get(f"/{lang}/crash")),
}


def heading_in(app: Lapau, lang: str, english: str) -> str:
    with app.test_request_context(f"/{lang}/"):
        g.lang_code = lang
        return str(gettext(english))


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
@pytest.mark.parametrize("status", sorted(REQUESTS))
def test_every_error_is_a_styled_localized_page_with_a_way_back(
    site: Lapau, status: int, lang: str
) -> None:
    english, send = REQUESTS[status]
    client = site.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.9.{status % 256}.{len(lang)}"
    client.environ_base["HTTP_REFERER"] = "http://localhost" + TABLE.format(lang=lang)
    response = send(client, lang)
    assert response.status_code == status
    html = response.text
    assert f'<html lang="{lang}">' in html
    assert 'rel="stylesheet"' in html and '<header class="top">' in html
    heading = re.search(r"<h1>(.*?)</h1>", html)
    assert heading is not None
    assert heading.group(1) == heading_in(site, lang, english)
    if lang != "en":
        assert heading.group(1) != english
    assert f'href="/{lang}/"' in html  # home
    assert f'<a class="button" href="{TABLE.format(lang=lang)}">' in html  # back
    assert len(gzip.compress(response.get_data())) <= HTML_BUDGET


def test_without_a_page_to_go_back_to_home_is_the_way_back(site: Lapau) -> None:
    html = site.test_client().get("/nl/no-such-page").text
    assert '<a class="button" href="/nl/">Terug naar de startpagina</a>' in html


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_a_database_too_busy_to_answer_asks_the_reader_to_try_again(site: Lapau, lang: str) -> None:
    """A burst past the connection pool (seen at 250 tables opening at once in
    benchmarks/load.py on PostgreSQL) is a 503 with a time to retry, not a crash."""
    response = site.test_client().get(f"/{lang}/busy")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert heading_in(site, lang, "Something went wrong on our side") in response.text


def test_a_405_still_says_which_methods_work(site: Lapau) -> None:
    response = site.test_client().get("/en/sign-out")
    assert set(response.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}


@pytest.mark.parametrize(
    "referrer", ["https://elsewhere.example/en/rules", "http://[x/en/rules", "//elsewhere/x"]
)
def test_a_page_of_another_site_is_no_way_back(site: Lapau, referrer: str) -> None:
    client = site.test_client()
    client.environ_base["HTTP_REFERER"] = referrer
    response = client.get("/en/no-such-page")
    assert response.status_code == 404
    assert "elsewhere" not in response.text
    assert "Go back" not in response.text
