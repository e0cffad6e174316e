"""The "More time" request (#17): the table starts the acting person's countdown again from
its whole clock, once per turn; it is no move, so the log and the store never see it."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.play.conftest import ManualClock, Practice, Recorder
from tests.play.test_clock import open_practice
from tests.play.test_hub import advance_to_seat, first_legal
from webapp.channels import Subscriber
from webapp.messages import MoreTime, Move, Unexpected, parse
from webapp.play.hub import ASK, MORE_TIME, Refusal
from webapp.play.routes import hub


def live_delays(clock: ManualClock) -> list[float]:
    return [timer.delay for timer in clock.pending if not timer.cancelled]


@pytest.mark.parametrize("chosen", [30, 60])
def test_more_time_starts_the_countdown_again_once_per_turn(
    clock: ManualClock, practice: Practice, chosen: int
) -> None:
    session = practice("koa", mode="quick", clock=chosen)
    mine, watching = Recorder(session), Recorder(session)
    session.join(Subscriber(mine, 0, "en"))
    session.join(Subscriber(watching, None, "en"))
    advance_to_seat(clock, session, 0)
    assert 'id="more-time"' in mine.messages[-1][1]
    assert 'id="more-time"' not in watching.messages[-1][1]  # a spectator has no turn
    log, stored = list(session.log), list(session.hub.store.load(session.id).log)  # type: ignore[union-attr]
    clock.time += chosen - 4
    assert session.seconds_left() == 4
    session.more_time(0)
    assert session.seconds_left() == chosen
    assert live_delays(clock) == [chosen]
    # Everyone's countdown starts again (it is public); the button is gone for this turn.
    assert f"left-{chosen}" in watching.messages[-1][1]
    assert f"left-{chosen}" in mine.messages[-1][1]
    assert 'id="more-time"' not in mine.messages[-1][1]
    with pytest.raises(Refusal) as refused:
        session.more_time(0)
    assert refused.value.code == "more-time-used"
    assert session.seconds_left() == chosen and live_delays(clock) == [chosen]
    # Not a move: the log, the store and the version are as they were.
    assert session.log == log
    assert list(session.hub.store.load(session.id).log) == stored  # type: ignore[union-attr]
    clock.time += chosen
    clock.fire()
    assert session.log[-1] == "timeout"  # the longer turn still ends
    advance_to_seat(clock, session, 0)
    session.more_time(0)  # the next turn may ask again
    assert session.seconds_left() == chosen


def test_more_time_is_refused_out_of_turn_and_without_a_clock(
    clock: ManualClock, practice: Practice
) -> None:
    session = practice("koikoi", rounds=3)
    advance_to_seat(clock, session, 0)
    session.submit(0, first_legal(session), session.version)
    assert session.game.to_act(session.state) == 1
    with pytest.raises(Refusal) as refused:
        session.more_time(0)
    assert refused.value.code == "not-your-turn"
    assert not session.extended

    untimed = practice("koikoi", rounds=3, clock=0)
    mine = Recorder(untimed)
    untimed.join(Subscriber(mine, 0, "en"))
    advance_to_seat(clock, untimed, 0)
    assert 'id="more-time"' not in mine.messages[-1][1]
    with pytest.raises(Refusal) as refused:
        untimed.more_time(0)
    assert refused.value.code == "no-clock"
    assert untimed.deadline is None and untimed.timer is None


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "You have had more time this turn already."),
        ("id", "Kamu sudah mendapat tambahan waktu giliran ini."),
        ("nl", "Je hebt deze beurt al extra tijd gehad."),
    ],
)
def test_a_second_request_is_refused_politely_in_the_readers_language(
    client: FlaskClient, lang: str, said: str
) -> None:
    table_id, _ = open_practice(client)
    page = client.get(f"/{lang}/table/{table_id}").get_data(as_text=True)
    assert 'id="more-time"' in page
    for _ in range(2):
        response = client.post(f"/{lang}/table/{table_id}/act", data={ASK: MORE_TIME})
    with client.application.app_context():
        session = hub().get(table_id)
    assert session is not None and session.extended and session.version == 0
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert said in page
    assert 'id="more-time"' not in page


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize(
    "form",
    [
        {"a": MORE_TIME},  # the old form: an action, which no game has
        {ASK: "less-time"},  # a request the table does not know
        {ASK: MORE_TIME, "a": "cabut"},  # a request is never also a move
    ],
)
def test_more_time_comes_only_in_its_own_field(client: FlaskClient, form: dict[str, str]) -> None:
    table_id, page = open_practice(client)
    assert 'name="ask" value="more-time"' in page and 'name="a" value="more-time"' not in page
    response = client.post(f"/en/table/{table_id}/act", data=form)
    with client.application.app_context():
        session = hub().get(table_id)
    assert session is not None and not session.extended and session.version == 0
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "That is not a move in this game." in page


@pytest.mark.parametrize(
    "raw",
    [
        '{"ask": "less-time", "v": "3"}',
        '{"ask": "more-time", "a": "stop", "v": "3"}',
        '{"ask": ["more-time"]}',
    ],
)
def test_the_socket_reads_a_request_for_more_time_from_its_own_field_only(raw: str) -> None:
    assert parse('{"ask": "more-time", "v": "3", "HEADERS": {}}') == MoreTime()
    assert parse('{"a": "more-time", "v": "3"}') == Move("more-time", 3)  # no game's
    assert parse(raw) == Unexpected()
