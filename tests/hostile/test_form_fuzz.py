"""Every HTTP form, fuzzed: a 4xx or the form again with its error, never a 500, and no
change unless the post was valid.

Hypothesis posts random fields (known names with any value, repeated names, unknown
names, odd encodings, raw bytes) to the practice setup, the table's move form, the
display settings, sign-up, sign-in, sign-in-again, change password, delete account and
sign-out.  Each post is judged against an oracle of what a valid post is: only a valid
one may change anything.  CSRF and rate limits are off here (tests/auth covers them), so
the fuzz reaches the forms' own checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from flask.testing import FlaskClient
from hypothesis import assume, given, reject
from hypothesis import strategies as st
from sqlalchemy import func
from sqlmodel import Session, select
from werkzeug.datastructures import MultiDict
from werkzeug.routing.converters import IntegerConverter

from tests.conftest import close_app
from tests.hostile.conftest import EXAMPLES, fuzz, make_app, open_table, to_seat
from tests.hostile.strategies import form_data, texts
from tests.hostile.test_seats import DEFINITIONS
from tests.play.conftest import ManualClock
from tests.play.test_leaks import mentions
from webapp.adapters import setups
from webapp.auth import accounts, rules
from webapp.auth.models import User
from webapp.display import COOKIE
from webapp.play.hub import Hub, TableSession
from webapp.play.models import TableRecord
from webapp.play.store import Seat
from webapp.services import Lapau

PASSWORD = "tea at the lapau"
LANGS = st.sampled_from(["id", "en", "nl"])

SETUPS = setups()


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, module_database_url: str) -> Iterator[Lapau]:
    instance: Path = tmp_path_factory.mktemp("forms") / "instance"
    found = make_app(instance, module_database_url, WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)
    ManualClock().hold(found.services.hub)
    yield found
    close_app(found)


@pytest.fixture(scope="module")
def member(app: Lapau) -> FlaskClient:
    """A signed-in account ("rina"), freshly signed in."""
    client = app.test_client()
    client.post("/en/sign-up", data={"username": "rina", "password": PASSWORD})
    assert client.get("/en/account").status_code == 200
    return client


def count(app: Lapau, model: Any) -> int:
    with Session(app.services.database) as db:
        return int(db.exec(select(func.count()).select_from(model)).one())


def user(app: Lapau, name: str) -> User | None:
    with Session(app.services.database) as db:
        return db.exec(select(User).where(User.username == name)).first()


def bodies(fields: list[str]) -> st.SearchStrategy[Any]:
    """A form post's body: field pairs (urlencoded by the client), or raw bytes."""
    return st.one_of(form_data(fields), st.binary(max_size=300).map(lambda b: b"a=%FF&" + b))


def post(client: FlaskClient, url: str, body: Any) -> Any:
    data = body if isinstance(body, bytes) else urlencode(body).encode()
    response = client.post(url, data=data, content_type="application/x-www-form-urlencoded")
    if len(data) > client.application.config["MAX_CONTENT_LENGTH"]:
        # Refused (413) as soon as anything reads the form (the CSRF check, off here, on
        # every post); a view that reads none never reads the body (test_big_bodies.py).
        assert response.status_code < 500
        reject()
    return response


def as_form(body: Any) -> MultiDict[str, str]:
    """The form as the server reads it (raw bytes decoded with replacement, as werkzeug does)."""
    from werkzeug.test import EnvironBuilder

    data = body if isinstance(body, bytes) else urlencode(body).encode()
    builder = EnvironBuilder(
        method="POST", data=data, content_type="application/x-www-form-urlencoded"
    )
    return builder.get_request().form


def refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.status_code


@fuzz()
@given(
    game=st.sampled_from([*SETUPS, "chess", "koa.", ""]),
    lang=LANGS,
    body=bodies(["mode", "players", "rounds", "level"]),
)
def test_the_practice_setup_form(app: Lapau, game: str, lang: str, body: Any) -> None:
    client = app.test_client()
    before = count(app, TableRecord)
    response = post(client, f"/{lang}/play/{game}", body)
    valid = game in SETUPS and SETUPS[game].parse(as_form(body)) is not None
    if valid:
        assert response.status_code == 303 and count(app, TableRecord) == before + 1
    else:
        refused(response)
        assert count(app, TableRecord) == before


class Seated:
    """A guest whose turn it is at a table, with a browser that holds their identity."""

    def __init__(self, app: Lapau) -> None:
        hub: Hub = app.services.hub
        self.session: TableSession = open_table(hub, "kowah", seed=21, player="g-forms")
        to_seat(hub.scheduler, self.session)  # type: ignore[arg-type]
        self.client = app.test_client()
        with self.client.session_transaction() as cookie:
            cookie["player"] = "g-forms"
        self.moves = [str(a) for a in self.session.game.legal_actions(self.session.state)]

    def would_apply(self, form: MultiDict[str, str]) -> bool:
        version = form.get("v", "")
        if version not in ("", str(self.session.version)):
            return False
        try:
            action = self.session.game.parse_action(form.get("a", ""))
            self.session.game.apply(self.session.state, action)
        except Exception:  # noqa: BLE001 - any refusal means it would not apply
            return False
        return True


@pytest.fixture(scope="module")
def seated(app: Lapau) -> Seated:
    return Seated(app)


@fuzz()
@given(data=st.data(), lang=LANGS)
def test_the_table_move_form(app: Lapau, seated: Seated, data: Any, lang: str) -> None:
    session = seated.session
    fields = st.sampled_from(seated.moves) | st.just(str(session.version))
    body = data.draw(
        st.one_of(
            bodies(["a", "v", "csrf_token"]),
            st.lists(st.tuples(st.sampled_from(["a", "v"]), fields), max_size=4),
        )
    )
    assume(not seated.would_apply(as_form(body)))
    before = (session.state, list(session.log))
    response = post(seated.client, f"/{lang}/table/{session.id}/act", body)
    assert response.status_code == 303
    assert "notice=" in response.location
    assert (session.state, list(session.log)) == before
    page = seated.client.get(response.location)
    assert page.status_code == 200
    assert 'role="alert"></div>' not in page.get_data(as_text=True)
    stranger = app.test_client()
    assert post(stranger, f"/{lang}/table/{session.id}/act", body).status_code == 403
    assert post(stranger, f"/{lang}/table/nosuchtable/act", body).status_code == 404
    assert (session.state, list(session.log)) == before


ELSEWHERE = ["//evil.example", "/\\evil", "https://evil.example/", "javascript:alert(1)", "/en/"]


@fuzz()
@given(
    lang=LANGS,
    body=bodies(["contrast", "grain", "temperature", "lite_cards", "lite_cards_shown", "next"])
    | st.lists(st.tuples(st.just("next"), st.sampled_from(ELSEWHERE)), min_size=1, max_size=2),
    language=st.sampled_from(["", "id", "en", "nl", "xx", "../"]),
)
def test_the_display_settings_form(app: Lapau, lang: str, body: Any, language: str) -> None:
    client = app.test_client()
    if language and not isinstance(body, bytes):
        body = [*body, ("language", language)]
    response = post(client, f"/{lang}/settings", body)
    assert response.status_code == 303
    target = response.location
    assert target.startswith("/") and not target.startswith("//") and "\\" not in target
    cookies = dict(
        header.split(";")[0].split("=", 1) for header in response.headers.getlist("Set-Cookie")
    )
    contrast, grain, temperature, lite, reactions = cookies[COOKIE].split("-")
    assert all(0 <= int(part) <= 100 for part in (contrast, grain, temperature))
    assert lite in {"0", "1"} and reactions in {"0", "1"}


@fuzz()
@given(lang=LANGS, body=bodies(["username", "password", "next"]))
def test_the_sign_up_form(app: Lapau, lang: str, body: Any) -> None:
    client = app.test_client()
    form = as_form(body)
    name = rules.normalise_username(form.get("username", ""))
    valid = (
        not rules.username_problem(name)
        and not rules.password_problem(form.get("password", ""), name)
        and user(app, name) is None
    )
    before = count(app, User)
    response = post(client, f"/{lang}/sign-up", body)
    if valid:
        assert response.status_code == 303 and count(app, User) == before + 1
        assert response.location.startswith("/") and not response.location.startswith("//")
    else:
        assert response.status_code == 400
        assert 'name="username"' in response.get_data(as_text=True)  # the form again
        assert count(app, User) == before


@fuzz()
@given(lang=LANGS, body=bodies(["username", "password", "remember", "next"]))
def test_the_sign_in_form(app: Lapau, member: FlaskClient, lang: str, body: Any) -> None:
    form = as_form(body)
    assume(form.get("password") != PASSWORD)
    client = app.test_client()
    response = post(client, f"/{lang}/sign-in", body)
    assert response.status_code == 400
    assert client.get("/en/account").status_code == 302  # still signed out


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("sign-in-again", ["password", "next"]),
        ("account/password", ["current", "password"]),
        ("account/delete", ["confirm"]),
    ],
)
def test_the_account_forms(app: Lapau, member: FlaskClient, path: str, fields: list[str]) -> None:
    hashed = user(app, "rina").password_hash  # type: ignore[union-attr]

    @fuzz()
    @given(lang=LANGS, body=bodies(fields))
    def fuzz_form(lang: str, body: Any) -> None:
        form = as_form(body)
        assume(PASSWORD not in form.getlist("password") + form.getlist("current"))
        assume(rules.normalise_username(form.get("confirm", "")) != "rina")
        response = post(member, f"/{lang}/{path}", body)
        assert response.status_code == 400
        found = user(app, "rina")
        assert found is not None and found.password_hash == hashed

    fuzz_form()


@fuzz()
@given(lang=LANGS, body=bodies(["next", "csrf_token"]))
def test_the_sign_out_form(app: Lapau, lang: str, body: Any) -> None:
    response = post(app.test_client(), f"/{lang}/sign-out", body)
    assert response.status_code == 303


# What the fuzz found, kept as plain cases ------------------------------------------------


def test_a_five_thousand_digit_version_is_stale_not_an_error(app: Lapau, seated: Seated) -> None:
    session = seated.session
    move = seated.moves[0]
    response = seated.client.post(f"/en/table/{session.id}/act", data={"a": move, "v": "9" * 5000})
    assert response.status_code == 303 and response.location.endswith("notice=stale")


@pytest.mark.parametrize("step", ["9" * 5000, "²", "-1", "3"])
def test_any_replay_step_shows_a_step_of_the_finished_game(app: Lapau, step: str) -> None:
    hub: Hub = app.services.hub
    bots = [Seat("bot", level="easy", name=name) for name in ("A", "B")]
    session = hub.create("koikoi", {"rounds": 3}, bots, owner="g-x", seed=3)
    hub.scheduler.run_until(lambda: session.finished)  # type: ignore[attr-defined]
    response = app.test_client().get(f"/en/table/{session.id}/replay", query_string={"step": step})
    assert response.status_code == 200


def test_a_new_password_posted_without_the_current_one_is_refused(
    app: Lapau, member: FlaskClient
) -> None:
    hashed = user(app, "rina").password_hash  # type: ignore[union-attr]
    response = member.post("/en/account/password", data={"password": "a new passphrase"})
    assert response.status_code == 400
    assert user(app, "rina").password_hash == hashed  # type: ignore[union-attr]


# Every form the site has, including ones added after these tests -------------------------


def post_rules(app: Lapau) -> list[Any]:
    return sorted(
        (rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())),
        key=lambda rule: rule.rule,
    )


def signed_in(app: Lapau, name: str) -> FlaskClient:
    """A client signed in (freshly) as account ``name``, without hashing a password."""
    found = user(app, name)
    assert found is not None
    client = app.test_client()
    with app.app_context():
        session_id = accounts.new_session_id(found)
    with client.session_transaction() as cookie:
        cookie["_user_id"] = session_id
        cookie["_fresh"] = True
    return client


def fill(rule: Any, data: Any, known: dict[str, list[Any]]) -> str:
    """A path for ``rule``: each argument a known value or any text (any number)."""
    path = str(rule.rule)
    for name, converter in rule._converters.items():
        if isinstance(converter, IntegerConverter):
            value = data.draw(st.sampled_from(known.get(name, [0])) | st.integers(0, 10**12))
        else:
            odd = texts.filter(lambda t: t != "" and "/" not in t)
            value = data.draw(st.sampled_from(known.get(name, ["x"])) | odd)
        path = re.sub(rf"<(?:\w+:)?{name}>", quote(str(value), safe=""), path)
    return path


@fuzz(EXAMPLES * 4)
@given(data=st.data(), who=st.sampled_from(["member", "guest", "nobody"]))
def test_every_post_url_answers_without_a_server_error(
    app: Lapau, member: FlaskClient, seated: Seated, data: Any, who: str
) -> None:
    rule = data.draw(st.sampled_from(post_rules(app)), label="url")
    owner = user(app, "rina")
    assert owner is not None and owner.id is not None
    known: dict[str, list[Any]] = {
        "lang_code": ["en", "id", "nl"],
        "table_id": [seated.session.id, "nosuchtable"],
        "game": [*SETUPS, "chess"],
        "other": [owner.id, owner.id + 1, 0],
        "action": ["accept", "refuse", "remove", "ask", "cancel"],
    }
    path = fill(rule, data, known)
    client = {"member": lambda: signed_in(app, "rina"), "guest": lambda: seated.client}.get(
        who, app.test_client
    )()
    body = data.draw(bodies(["a", "v", "code", "seat", "name", "username", "game", "next"]))
    before = count(app, User)
    response = post(client, path, body)
    assert response.status_code < 500, (path, body)
    assert user(app, "rina") is not None and count(app, User) in (before, before + 1)


def get_rules(app: Lapau) -> list[Any]:
    return sorted(
        (
            rule
            for rule in app.url_map.iter_rules()
            if "GET" in (rule.methods or ()) and not rule.rule.startswith(("/ws/", "/static"))
        ),
        key=lambda rule: rule.rule,
    )


@fuzz(EXAMPLES * 4)
@given(data=st.data(), who=st.sampled_from(["member", "guest", "nobody"]))
def test_every_page_answers_without_a_server_error_or_a_hidden_card(
    app: Lapau, member: FlaskClient, seated: Seated, data: Any, who: str
) -> None:
    """Any GET URL with any arguments and query: never a 500; and a URL that names the
    guest's table shows no card hidden from the one asking (the guest's seat, or none)."""
    rule = data.draw(st.sampled_from(get_rules(app)), label="url")
    session = seated.session
    known: dict[str, list[Any]] = {
        "lang_code": ["en", "id", "nl"],
        "table_id": [session.id, "nosuchtable"],
        "game": [*SETUPS, "chess"],
    }
    path = fill(rule, data, known)
    query = data.draw(
        st.lists(st.tuples(st.sampled_from(["seat", "step", "next", "notice"]), texts), max_size=3)
    )
    client = {"member": lambda: signed_in(app, "rina"), "guest": lambda: seated.client}.get(
        who, app.test_client
    )()
    before = (session.state, list(session.log))
    response = client.get(path, query_string=query)
    assert response.status_code < 500, (path, query)
    assert (session.state, list(session.log)) == before
    # A table ended (the POST fuzz may end it, as its guest) replays with every hand
    # shown, by design: the match is over.
    if session.id in path and not (session.finished and path.endswith("/replay")):
        html = DEFINITIONS.sub("", response.get_data(as_text=True))
        seat = 0 if who == "guest" else None
        hidden = session.game.hidden_cards(session.state, seat)
        assert not [card for card in hidden if mentions(html, session.game.name, card)], path
