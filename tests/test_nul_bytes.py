"""Input the database cannot compare: SQLite takes a NUL character (or a number past an
INTEGER) and finds nothing, PostgreSQL refuses the query.  On both the answer is a
refusal in the reader's language, never a server error, and nothing is stored."""

from __future__ import annotations

import pytest
from sqlmodel import Session, func, select

from webapp.auth.models import User
from webapp.services import Lapau

FORMS = [
    ("/en/sign-in", {"username": "a\x00b", "password": "tea at the lapau"}),
    ("/en/sign-up", {"username": "a\x00b", "password": "tea at the lapau"}),
    ("/en/room/join", {"code": "AB\x00CDE"}),
]
ADDRESSES = ["/en/room/AB%00CDE", "/en/player/a%00b", "/en/table/ab%00cdefgh"]


@pytest.mark.parametrize(("path", "form"), FORMS)
def test_a_form_field_with_a_nul_is_refused(app: Lapau, path: str, form: dict[str, str]) -> None:
    assert 400 <= app.test_client().post(path, data=form).status_code < 500
    with Session(app.services.database) as db:
        assert db.exec(select(func.count()).select_from(User)).one() == 0


@pytest.mark.parametrize("path", ADDRESSES)
def test_an_address_with_a_nul_names_nothing(app: Lapau, path: str) -> None:
    assert 400 <= app.test_client().get(path).status_code < 500


@pytest.mark.databases("postgresql")
def test_what_postgresql_refuses_to_read_is_explained_in_the_readers_language(
    app: Lapau,
) -> None:
    client = app.test_client()
    english = client.post("/en/sign-in", data={"username": "a\x00b", "password": "x"})
    assert english.status_code == 400
    assert "That request could not be read" in english.get_data(as_text=True)
    dutch = client.get("/nl/player/a%00b")
    assert dutch.status_code == 400
    assert "Dat verzoek kon niet worden gelezen" in dutch.get_data(as_text=True)
