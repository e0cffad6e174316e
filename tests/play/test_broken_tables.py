"""A stored table whose log no longer replays stops nothing but itself.

After a rules change an old log may hold an action the engine now refuses.  Such a table
is marked broken in the database, logged once, and shown to its players as ended with an
apology; every other table resumes and the site serves.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from flask_babel import force_locale
from flask_babel import gettext as _
from markupsafe import escape
from sqlmodel import Session

from tests.conftest import close_app
from tests.counterfactual import bot_log
from tests.play.conftest import ManualClock, Practice
from webapp import create_app, resume_tables
from webapp.config import TestConfig
from webapp.game import registry
from webapp.play.hub import Hub, TableSession
from webapp.play.models import TableRecord
from webapp.play.store import Seat, TableBroken
from webapp.services import Lapau

#: Bots and turn timers that never fire within a test (the restored app's own timers).
STILL = {"WTF_CSRF_ENABLED": False, "BOT_DELAY": 600, "TURN_SECONDS": 600, "ROUND_PAUSE": 600}


def refused_action(session: TableSession) -> str:
    """An action text the engine refuses at the table's next step: a card the acting
    seat does not hold, as a log from other rules could have it."""
    seat = session.game.to_act(session.state)
    hidden = sorted(session.game.hidden_cards(session.state, seat))
    verb = str(session.game.legal_actions(session.state)[0]).split()[0]
    return f"{verb} {hidden[0]}"


def break_log(hub: Hub, session: TableSession) -> None:
    """Store an action the engine refuses after the table's log, behind its back."""
    hub.store.append(session.id, session.version, refused_action(session), None)


def alter(hub: Hub, table_id: str, **columns: object) -> None:
    """Change a stored table's columns behind the hub's back."""
    with Session(hub.store.engine) as db:
        record = db.get(TableRecord, table_id)
        assert record is not None
        for column, value in columns.items():
            setattr(record, column, value)
        db.add(record)
        db.commit()


class Restarts(list[Lapau]):
    """Apps started after ``first`` on its instance folder and database."""

    def __init__(self, first: Lapau) -> None:
        super().__init__()
        self.first = first


@pytest.fixture
def restarted(app: Lapau) -> Iterator[Restarts]:
    """Apps started afterwards on the same instance, as a restarted server's worker (it
    resumes every unfinished table once ready); their clocks are stopped after."""
    started = Restarts(app)
    yield started
    for again in started:
        close_app(again)


def restart(started: Restarts) -> Lapau:
    first = started.first
    database = {"DATABASE_URL": first.config["DATABASE_URL"]}
    again = create_app(TestConfig(first.instance_path, database, TESTING=False, **STILL))
    started.append(again)
    resume_tables(again)
    return again


def test_a_start_resumes_the_good_table_and_marks_the_broken_one(
    app: Lapau, hub: Hub, clock: ManualClock, practice: Practice, restarted: Restarts
) -> None:
    good, bad = practice("koikoi", rounds=3), practice("koikoi", seed=8, rounds=3)
    clock.run_until(lambda: good.game.to_act(good.state) == 0)
    clock.run_until(lambda: bad.game.to_act(bad.state) == 0)
    break_log(hub, bad)

    again = restart(restarted)

    live = again.services.hub.sessions
    assert good.id in live and bad.id not in live
    assert live[good.id].state == good.state
    client = again.test_client()
    assert client.get(f"/en/table/{good.id}").status_code == 200
    assert client.get("/en/").status_code == 200
    assert client.get(f"/en/table/{bad.id}").status_code == 200
    with again.app_context():
        assert again.services.hub.store.unfinished() == [good.id]


def test_a_broken_table_is_logged_once_with_its_id_and_reason(
    hub: Hub,
    clock: ManualClock,
    practice: Practice,
    restarted: Restarts,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bad = practice("kowah", players=2)
    clock.run_until(lambda: bad.game.to_act(bad.state) == 0)
    action = refused_action(bad)
    break_log(hub, bad)

    with caplog.at_level(logging.WARNING):
        restart(restarted)
        first = [record for record in caplog.records if bad.id in record.getMessage()]
        caplog.clear()
        restart(restarted)
        # A page asking for it again replays nothing and says nothing more.
        restarted[-1].test_client().get(f"/en/table/{bad.id}")
        again = [record for record in caplog.records if bad.id in record.getMessage()]

    assert len(first) == 1 and again == []
    message = first[0].getMessage()
    assert f"move {bad.version + 1} {action!r}" in message and "IllegalAction" in message
    assert first[0].exc_info is None, "one line, not a traceback"
    stored = hub.store
    with pytest.raises(TableBroken) as raised:
        stored.load(bad.id)
    assert raised.value.reason in message


def test_a_table_loaded_later_is_marked_broken_too(
    hub: Hub, clock: ManualClock, practice: Practice
) -> None:
    bad = practice("koa", mode="full")
    clock.run_until(lambda: bad.game.to_act(bad.state) == 0)
    break_log(hub, bad)
    fresh = Hub(hub.store, hub.renderer, hub.timing, clock, clock.now)
    with pytest.raises(TableBroken) as raised:
        fresh.get(bad.id)
    assert "IllegalAction" in raised.value.reason and not raised.value.finished
    assert fresh.sessions == {} and bad.id not in fresh.store.unfinished()


@pytest.mark.parametrize(
    "damage",
    [
        {"game": "chess"},
        {"options": "{not json"},
        {"options": '{"mode": "endless"}'},
        {"seats": '[{"kind": "human", "colour": "red"}]'},
    ],
)
def test_an_unknown_game_or_a_setup_that_does_not_read_breaks_only_its_table(
    hub: Hub, practice: Practice, damage: dict[str, str]
) -> None:
    bad, good = practice("koa"), practice("koa", seed=9)
    alter(hub, bad.id, **damage)
    fresh = Hub(hub.store, hub.renderer, hub.timing, hub.scheduler, hub.clock)
    assert fresh.restore() == 1
    assert set(fresh.sessions) == {good.id}
    with pytest.raises(TableBroken):
        fresh.get(bad.id)


APOLOGY = "We are sorry: after an update of Lapau, the moves of this table could not be replayed"


@pytest.mark.parametrize("lang", ["id", "en", "nl"])
def test_its_players_find_it_ended_with_an_apology_in_their_language(
    app: Lapau, client: FlaskClient, hub: Hub, clock: ManualClock, practice: Practice, lang: str
) -> None:
    bad, good = practice("koikoi", rounds=3), practice("koikoi", seed=8, rounds=3)
    clock.run_until(lambda: bad.game.to_act(bad.state) == 0)
    break_log(hub, bad)
    hub.forget(bad)  # as after a restart: the next visit loads it from the store
    with app.test_request_context(f"/{lang}/"), force_locale(lang):
        apology = str(_(APOLOGY + ", so it cannot go on."))
        ended = str(_("ended: sorry, it could not go on after an update"))
    if lang != "en":
        assert APOLOGY not in apology, "translated"

    table = client.get(f"/{lang}/table/{bad.id}")
    assert table.status_code == 200 and escape(apology) in table.text
    move = client.post(f"/{lang}/table/{bad.id}/act", data={"a": "next", "v": "3"})
    assert escape(apology) in move.text
    with client.session_transaction() as cookie:
        cookie["player"] = "g-test"
    listed = client.get(f"/{lang}/play/").text
    assert listed.count(str(escape(ended))) == 1
    assert f"/{lang}/table/{good.id}" in listed and f"/{lang}/table/{bad.id}" in listed


@pytest.mark.parametrize("game", ["koa", "kowah", "koikoi"])
def test_a_table_records_the_rules_version_it_was_dealt_under(
    hub: Hub, practice: Practice, game: str
) -> None:
    session = practice(game)
    stored = hub.store.load(session.id)
    assert stored is not None
    assert stored.rules_version == session.game.rules_version >= 1


def test_a_log_from_older_rules_that_still_replays_goes_on(
    hub: Hub, clock: ManualClock, practice: Practice
) -> None:
    old = practice("kowah", players=3)
    clock.run_until(lambda: old.game.to_act(old.state) == 0)
    alter(hub, old.id, rules_version=old.game.rules_version - 1)
    fresh = Hub(hub.store, hub.renderer, hub.timing, clock, clock.now)
    assert fresh.restore() == 1
    assert fresh.sessions[old.id].state == old.state


def test_a_kowah_log_with_the_separate_declare_step_of_older_rules_is_marked_broken(
    hub: Hub, clock: ManualClock
) -> None:
    """Rules v3 fold the declaration into the discard (issue #15): a v2 log that declared
    ("discard X" then "declare P") no longer replays, so its table ends with the apology."""
    game = registry.get("kowah")
    log = bot_log(game, 5, {"players": 3})
    first = next(n for n, text in enumerate(log) if " declare " in text)
    discard, _, pair = log[first].partition(" declare ")
    old_log = [*log[:first], discard, f"declare {pair}"]
    seats = [Seat("human", player=f"g-{n}") for n in range(3)]
    hub.store.create("kowahv2old", "kowah", 5, {"players": 3}, seats, "g-0")
    for seq, text in enumerate(old_log):
        hub.store.append("kowahv2old", seq, text, None)
    alter(hub, "kowahv2old", rules_version=2)
    fresh = Hub(hub.store, hub.renderer, hub.timing, clock, clock.now)
    assert fresh.restore() == 0
    with pytest.raises(TableBroken) as raised:
        fresh.get("kowahv2old")
    assert (
        f"'declare {pair}'" in raised.value.reason
        and "rules v2, replayed under v3" in raised.value.reason
    )
