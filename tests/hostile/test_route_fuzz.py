"""Every route of the site with every method, fuzzed: never a 500, nothing logged as an error.

Hypothesis picks a rule of the app's url_map (those added after this test too) and a
method it allows or one it does not; fills its path arguments with plausible values (the
guest's table, a real room's code, an account's id, a language) or hostile ones (huge
numbers, NUL, right-to-left marks, emoji, empty, very long); adds a random query string,
headers a browser or a script might send, and a form body (field pairs or raw bytes);
and sends it as nobody, as a guest seated at a table, or as a signed-in account.  The
app runs twice: with CSRF checked and its rate limits on, as in production, and without
either, so that the fuzz reaches the views' own checks.

An unhandled exception propagates out of the test client (the apps are in testing mode),
and a handled one that was logged shows in the captured log: both fail the test.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.routing import Rule
from werkzeug.routing.converters import IntegerConverter

from tests.conftest import close_app
from tests.hostile.conftest import EXAMPLES, fuzz, make_app
from tests.hostile.strategies import NEAR_NUMBERS, form_data, texts
from tests.hostile.test_form_fuzz import Seated, signed_in
from tests.play.conftest import ManualClock
from webapp.auth import accounts
from webapp.services import Lapau

#: Path arguments nothing plausible would carry.
HOSTILE_PATH_VALUES = [
    "",
    "\x00",
    "a\x00b",
    "\u202e",
    "😀",
    "é",
    "..",
    "%",
    "%00",
    " ",
    "x" * 5000,
    "0" * 300,
    "-1",
    str(10**30),
    str(2**63),
    "１２３",  # full-width digits
    "nl/../en",
]
EXTRA_METHODS = ["PUT", "DELETE", "PATCH", "TRACE", "PROPFIND"]
#: Header values (latin-1, no line breaks): what a browser, a proxy or a script may send.
header_values = st.one_of(
    texts.map(lambda text: text.encode("latin-1", "replace").decode("latin-1")),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=60),
).map(lambda value: re.sub(r"[\r\n\x00-\x1f]", "", value))
HEADERS = st.dictionaries(
    st.sampled_from(
        [
            "Accept-Language",
            "Accept-Encoding",
            "If-None-Match",
            "If-Modified-Since",
            "HX-Request",
            "HX-Target",
            "Origin",
            "Referer",
            "X-Forwarded-For",
            "X-Forwarded-Proto",
            "Content-Type",
            "Range",
        ]
    ),
    st.one_of(
        header_values,
        st.sampled_from(["br", "gzip, br", "*", "true", "nl-NL,nl;q=0.9", 'W/"x"', "bytes=0-"]),
    ),
    max_size=4,
)


def make(instance: Path, database_url: str, checked: bool) -> Lapau:
    app = make_app(instance, database_url, WTF_CSRF_ENABLED=checked, RATELIMIT_ENABLED=checked)
    ManualClock().hold(app.services.hub)
    return app


@pytest.fixture(scope="module", params=["csrf-and-limits", "unchecked"])
def app(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    module_database_url: str,
) -> Iterator[Lapau]:
    instance = tmp_path_factory.mktemp("routes") / "instance"
    # The two apps share the module's database, one after the other (each empties
    # nothing: the second finds the first one's rows, as a running site would).
    found = make(instance, module_database_url, request.param == "csrf-and-limits")
    yield found
    close_app(found)


class Cast:
    """The people the fuzz sends requests as, and the things they own."""

    def __init__(self, app: Lapau) -> None:
        self.app = app
        self.seated = Seated(app)
        with app.app_context():
            found = accounts.find_by_username("ruta")
            account = found or accounts.create_user("ruta", "a long enough password")
        assert account is not None and account.id is not None
        self.account_id: int = account.id
        rooms = app.services.rooms
        self.room = rooms.create("koa", "g-forms", "Rina").code

    def client(self, who: str) -> FlaskClient:
        if who == "account":
            return signed_in(self.app, "ruta")
        if who == "guest":
            return self.seated.client
        return self.app.test_client()

    def known(self) -> dict[str, list[Any]]:
        """Plausible values for each path argument, by its name."""
        return {
            "lang_code": ["en", "id", "nl"],
            "table_id": [self.seated.session.id, "nosuchtable0"],
            "game": ["koa", "kowah", "koikoi", "chess"],
            "code": [self.room, self.room.lower(), "ZZZZZZ"],
            "other": [self.account_id, self.account_id + 1, 0],
            "action": ["accept", "refuse", "remove", "ask", "cancel"],
            "username": ["ruta", "nobody"],
            "provider": ["google", "nope"],
            "invite_id": ["x" * 12],
            "hashed_name": ["css/site.css", "js/nothing.js"],
        }


@pytest.fixture(scope="module")
def cast(app: Lapau) -> Cast:
    return Cast(app)


def path_for(rule: Rule, data: Any, known: dict[str, list[Any]]) -> str:
    """``rule``'s path, each argument a plausible value, a hostile one or any text."""
    path = rule.rule
    for name, converter in rule._converters.items():
        plausible = st.sampled_from(known.get(name, ["x"]))
        hostile = st.sampled_from(HOSTILE_PATH_VALUES) | texts | st.sampled_from(NEAR_NUMBERS)
        if isinstance(converter, IntegerConverter):
            hostile = hostile | st.integers(min_value=0, max_value=10**40).map(str)
        value = data.draw(plausible | hostile, label=name)
        path = re.sub(rf"<(?:\w+:)?{name}>", quote(str(value), safe="/"), path)
    return path


def rules(app: Lapau) -> list[Rule]:
    return sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)


def body_of(data: Any) -> bytes:
    fields = ["a", "v", "code", "seat", "name", "username", "password", "current"]
    pairs = st.one_of(
        form_data([*fields, "next", "csrf_token", "game", "level", "mode", "confirm"]),
        st.lists(st.tuples(st.sampled_from(fields), st.sampled_from(NEAR_NUMBERS)), max_size=4),
    )
    drawn = data.draw(pairs.map(lambda p: urlencode(p).encode()) | st.binary(max_size=300))
    return bytes(drawn)


@fuzz(EXAMPLES * 2)
@given(data=st.data(), who=st.sampled_from(["nobody", "guest", "account"]))
def test_any_request_to_any_route_answers_without_a_server_error(
    app: Lapau, cast: Cast, caplog: pytest.LogCaptureFixture, data: Any, who: str
) -> None:
    rule = data.draw(st.sampled_from(rules(app)), label="rule")
    method = data.draw(st.sampled_from(sorted(rule.methods or ()) + EXTRA_METHODS))
    path = path_for(rule, data, cast.known())
    query = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(["seat", "step", "next", "notice", "list", "room", "lang"]),
                texts | st.sampled_from(NEAR_NUMBERS),
            ),
            max_size=3,
        )
    )
    headers = data.draw(HEADERS)
    body = body_of(data) if method not in ("GET", "HEAD", "OPTIONS") else b""
    kind = headers.pop("Content-Type", "application/x-www-form-urlencoded")
    client = cast.client(who)
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        response = client.open(
            # Whole, so a path drawn to start with "//" stays a path (the test client would
            # read "//0:..." as a host name; a server gets it as a path).
            f"http://localhost{path}",
            method=method,
            query_string=query,
            headers=headers,
            data=body,
            content_type=kind,
        )
        response.close()
    assert response.status_code < 500, (method, path, query, headers, body)
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert not errors, [record.getMessage() for record in errors]
