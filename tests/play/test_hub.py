"""The live table session: the only place a table's state changes."""

from __future__ import annotations

import re

import pytest
from flask import g
from sqlalchemy.exc import OperationalError

from tests.conftest import close_app
from tests.play.conftest import ManualClock, Practice, Recorder
from webapp import create_app, resume_tables
from webapp.channels import Subscriber
from webapp.config import TestConfig
from webapp.game.replay import replay
from webapp.play.hub import Hub, Refusal, TableSession
from webapp.play.render import render_layout, split_fragments
from webapp.play.store import Seat
from webapp.services import Lapau

GAMES = [("koa", {"mode": "quick"}), ("kowah", {"players": 3}), ("koikoi", {"rounds": 3})]


def first_legal(session: object) -> str:
    game = session.game  # type: ignore[attr-defined]
    return str(game.legal_actions(session.state)[0])  # type: ignore[attr-defined]


def advance_to_seat(clock: object, session: object, seat: int) -> None:
    clock.run_until(  # type: ignore[attr-defined]
        lambda: session.game.to_act(session.state) == seat  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_move_is_stored_before_the_table_changes(
    hub: Hub, clock: object, practice: object, game: str, options: dict[str, object]
) -> None:
    session = practice(game, **options)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    version, action = session.version, first_legal(session)
    session.submit(0, action, version)
    stored = hub.store.load(session.id)
    assert stored is not None
    assert stored.log[version] == action
    assert session.version == version + 1


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_stale_out_of_turn_and_illegal_moves_change_nothing(
    clock: object, practice: object, game: str, options: dict[str, object]
) -> None:
    session = practice(game, **options)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    before, version = session.state, session.version
    with pytest.raises(Refusal) as stale:
        session.submit(0, first_legal(session), version + 5)
    assert stale.value.code == "stale"
    with pytest.raises(Refusal) as wrong_seat:
        session.submit(1, first_legal(session), version)
    assert wrong_seat.value.code == "not-your-turn"
    with pytest.raises(Refusal) as nonsense:
        session.submit(0, "fly to the moon", version)
    assert nonsense.value.code in {"bad-action", "unknown-action"}
    with pytest.raises(Refusal) as timeout:
        session.submit(0, "timeout", version)  # only the table's turn timer plays it
    assert timeout.value.code == "unknown-action"
    hidden = sorted(session.game.hidden_cards(session.state, 0))
    verb = first_legal(session).split()[0]
    with pytest.raises(Refusal):
        session.submit(0, f"{verb} {hidden[0]}", version)
    assert session.state == before and session.version == version


def test_a_double_submission_is_applied_once(clock: object, practice: object) -> None:
    session = practice("koikoi", rounds=3)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    version, action = session.version, first_legal(session)
    session.submit(0, action, version)
    with pytest.raises(Refusal) as again:
        session.submit(0, action, version)
    assert again.value.code == "stale"
    assert session.log.count(action) == 1


def test_a_failed_write_leaves_the_table_as_it_was(
    hub: Hub, clock: object, practice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = practice("kowah", players=3)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    before, version = session.state, session.version

    def broken(*_args: object) -> None:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(hub.store, "append", broken)
    with pytest.raises(OperationalError):
        session.submit(0, first_legal(session), version)
    assert session.state == before and session.version == version


def test_the_turn_timer_plays_for_an_absent_player(clock: object, practice: object) -> None:
    session = practice("koa", mode="quick")  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    turn = session.state.turn_no
    assert session.seconds_left() is not None
    clock.fire()  # type: ignore[attr-defined]
    assert session.log[-1] == "timeout"
    assert session.state.turn_no > turn


def test_a_stopped_hub_stores_a_late_move_and_runs_no_clock(
    hub: Hub, clock: ManualClock, practice: Practice
) -> None:
    session = practice("koikoi", rounds=3)
    advance_to_seat(clock, session, 0)
    hub.shutdown()
    assert not clock.fire()
    # A move that arrives while the server stops is stored; no bot answers it until
    # the next start rebuilds the table from its log.
    session.submit(0, str(session.game.legal_actions(session.state)[0]), session.version)
    stored = hub.store.load(session.id)
    assert stored is not None and list(stored.log) == session.log
    assert session.deadline is None and not clock.fire()


@pytest.mark.parametrize(
    ("game", "options", "first"), [GAMES[0] + ("cabut",), GAMES[1] + ("draw",)]
)
def test_a_turn_has_one_deadline_for_both_of_its_steps(
    clock: ManualClock, practice: object, game: str, options: dict[str, object], first: str
) -> None:
    session = practice(game, **options)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    while first not in map(str, session.game.legal_actions(session.state)):
        clock.fire()  # the starter's first turn, or a turn without the first step
        advance_to_seat(clock, session, 0)
    assert session.seconds_left() == 30
    clock.time += 11
    session.submit(0, first, session.version)
    assert session.game.to_act(session.state) == 0  # the second step of the same turn
    assert session.seconds_left() == 19
    live = [timer for timer in clock.pending if not timer.cancelled]
    assert [timer.delay for timer in live] == [19]
    clock.time += 19
    clock.fire()  # the turn's time is up: the table plays the rest of it
    assert session.game.to_act(session.state) != 0
    advance_to_seat(clock, session, 0)
    assert session.seconds_left() == 30  # the next turn has its own 30 seconds


def test_the_log_says_in_words_that_the_table_played_a_timed_out_turn(
    clock: ManualClock, practice: object
) -> None:
    session = practice("kowah", players=2)  # type: ignore[operator]
    mine, watching = Recorder(session), Recorder(session)
    session.join(Subscriber(mine, 0, "en"))
    session.join(Subscriber(watching, None, "en"))
    advance_to_seat(clock, session, 0)
    clock.fire()
    assert "Time ran out: the table played for you." in mine.messages[-1][1]
    assert "Time ran out: the table played for Guest." in watching.messages[-1][1]
    advance_to_seat(clock, session, 0)  # the next move says nothing of it
    assert "Time ran out" not in mine.messages[-1][1]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_bots_play_a_whole_game_and_the_log_replays_it(
    hub: Hub, clock: object, practice: object, game: str, options: dict[str, object]
) -> None:
    ended: list[str] = []
    hub.on_finish.append(lambda finished: ended.append(finished.id))
    session = practice(game, human=False, **options)  # type: ignore[operator]
    clock.run_until(lambda: session.finished)  # type: ignore[attr-defined]
    assert session.finished
    assert ended == [session.id]
    stored = hub.store.load(session.id)
    assert stored is not None and stored.finished
    assert replay(session.game, stored.seed, stored.options, stored.log) == session.state


def test_a_restarted_hub_rebuilds_unfinished_tables(
    hub: Hub, clock: object, practice: object
) -> None:
    session = practice("koikoi", rounds=3)  # type: ignore[operator]
    advance_to_seat(clock, session, 0)
    session.submit(0, first_legal(session), session.version)
    fresh = Hub(hub.store, hub.renderer, hub.timing, clock)  # type: ignore[arg-type]
    assert fresh.restore() >= 1
    restored = fresh.get(session.id)
    assert restored is not None
    assert restored.state == session.state and restored.log == session.log


def test_only_the_serving_worker_resumes_tables(
    app: Lapau, clock: ManualClock, practice: object
) -> None:
    session = practice("koikoi", rounds=3)  # type: ignore[operator]
    # A flask command (the release step's upgrade) builds the app on the same database:
    # its hub must not wake the table, or two processes would move it.
    database = {"DATABASE_URL": app.config["DATABASE_URL"]}
    command = create_app(TestConfig(app.instance_path, database, TESTING=False))
    other: Hub = command.services.hub
    clock.hold(other)
    try:
        assert session.id not in other.sessions
        assert resume_tables(command) >= 1
        assert session.id in other.sessions
    finally:
        close_app(command)


def test_a_listener_gets_the_whole_table_then_only_what_changed(
    clock: object, practice: object
) -> None:

    session = practice("koa", mode="quick")  # type: ignore[operator]
    recorder = Recorder(session)
    session.join(Subscriber(recorder, 0, "en"))
    first = recorder.messages[0][1]
    for fragment in ("status", "hand", "arena", "prompt", "log", "notice"):
        assert f'id="{fragment}"' in first
    advance_to_seat(clock, session, 0)
    session.submit(0, "cabut", session.version)
    later = recorder.messages[-1][1]
    assert 'id="status"' in later
    assert 'id="seat-2"' not in later  # the mandan's seat did not change


def test_a_refusal_notice_is_cleared_by_the_next_move(clock: object, practice: object) -> None:

    session = practice("koa", mode="quick")  # type: ignore[operator]
    recorder = Recorder(session)
    listener = Subscriber(recorder, 0, "en")
    session.join(listener)
    session.notify(listener, '<div id="notice" class="notice" role="alert">No.</div>')
    version = session.version
    clock.run_until(lambda: session.version > version)  # type: ignore[attr-defined]
    assert re.search(
        r'<div id="notice" class="notice" role="alert"></div>', recorder.messages[-1][1]
    )


def test_a_guest_who_signs_in_keeps_their_tables(hub: Hub, clock: object, practice: object) -> None:
    session = practice("kowah", players=3)  # type: ignore[operator]
    hub.transfer("g-test", "u-42")
    assert session.seat_of("u-42") == 0 and session.seat_of("g-test") is None
    assert session.owner == "u-42"
    assert [t.id for t in hub.store.tables_of("u-42")] == [session.id]
    stored = hub.store.load(session.id)
    assert stored is not None and stored.seats[0].player == "u-42"


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_marked_fragment_has_an_id_the_client_can_swap(
    app: Lapau, clock: object, practice: object, game: str, options: dict[str, object]
) -> None:
    session = practice(game, **options)  # type: ignore[operator]
    clock.run_until(lambda: session.version > 6)  # type: ignore[attr-defined]
    for seat in (0, None):
        with app.test_request_context("/en/"):
            g.lang_code = "en"
            html = render_layout(session, seat)
        fragments = split_fragments(html)
        assert html.count("<!--f-->") == len(fragments), "a fragment's root must start <tag id="
        keyed = re.findall(r"<!--k ([\w-]+)-->", html)
        assert all(f'id="{box}"' in html for box in keyed)
        # The folds (log, captured piles) stay out of every fragment, so a swap never
        # closes or opens them; #log sits inside its fold and its live region.
        assert "<details" in html and not any("<details" in f for f in fragments.values())
        assert re.search(
            r'<details class="fold log-fold" open>.*?aria-live="polite">\s*<!--f--><div id="log"',
            html,
            re.S,
        )


def test_a_finished_table_nobody_watches_leaves_memory_and_comes_back_from_its_log(
    hub: Hub, clock: object, practice: object
) -> None:
    session = practice("koikoi", human=False, rounds=3)  # type: ignore[operator]
    watcher = Subscriber(Recorder(session), None, "en")
    session.join(watcher)
    clock.run_until(lambda: session.finished)  # type: ignore[attr-defined]
    assert session.id in hub.sessions and hub.sessions[session.id] is session  # still watched
    session.leave(watcher)
    assert session.id not in hub.sessions
    again = hub.get(session.id)
    assert again is not None and again.finished and again.state == session.state


def test_spectators_of_one_view_share_one_render_and_the_same_bytes(
    hub: Hub, clock: object, practice: object
) -> None:
    session = practice("koa", mode="quick")  # type: ignore[operator]
    rendered: list[int] = []
    renderer = hub.renderer

    def counting(table: object, audiences: list[object]) -> list[dict[str, str]]:
        rendered.append(len(audiences))
        return renderer(table, audiences)  # type: ignore[arg-type]

    hub.renderer = counting  # type: ignore[assignment]
    crowd = [Recorder(session) for _ in range(30)]
    for recorder in crowd:
        session.join(Subscriber(recorder, None, "en"))
    dutch, seated = Recorder(session), Recorder(session)
    session.join(Subscriber(dutch, None, "nl"))
    session.join(Subscriber(seated, 0, "en"))
    rendered.clear()
    version = session.version
    clock.run_until(lambda: session.version > version)  # type: ignore[attr-defined]
    # One render per move for three audiences (spectators in English, in Dutch, seat 0).
    assert rendered == [3]
    last = {recorder.messages[-1][1] for recorder in crowd}
    assert len(last) == 1
    assert dutch.messages[-1][1] not in last and seated.messages[-1][1] not in last


def test_a_notice_to_one_spectator_is_cleared_for_it_alone(clock: object, practice: object) -> None:
    session = practice("koa", mode="quick")  # type: ignore[operator]
    told, other = Recorder(session), Recorder(session)
    listener = Subscriber(told, None, "en")
    session.join(listener)
    session.join(Subscriber(other, None, "en"))
    session.notify(listener, '<div id="notice" class="notice" role="alert">No.</div>')
    version = session.version
    clock.run_until(lambda: session.version > version)  # type: ignore[attr-defined]
    cleared = '<div id="notice" class="notice" role="alert"></div>'
    assert cleared in told.messages[-1][1]
    assert cleared not in other.messages[-1][1]
    assert told.messages[-1][1].replace(cleared, "").strip() == other.messages[-1][1].strip()


@pytest.mark.parametrize(("chosen", "seconds"), [(30, 30), (60, 60), (0, None)])
def test_a_tables_clock_option_sets_the_length_of_a_turn_or_turns_it_off(
    clock: ManualClock, practice: Practice, chosen: int, seconds: int | None
) -> None:
    session = practice("koa", mode="quick", clock=chosen)
    stored = session.hub.store.load(session.id)
    assert stored is not None and stored.options["clock"] == chosen  # kept with the table
    for _ in range(3):  # three of the person's turns, the bots playing in between
        advance_to_seat(clock, session, 0)
        assert session.seconds_left() == seconds
        live = [timer for timer in clock.pending if not timer.cancelled]
        if seconds is None:  # no clock: nothing would ever play this turn for them
            assert live == [] and not clock.fire()
            session.submit(0, first_legal(session), session.version)
            if session.game.to_act(session.state) == 0:
                session.submit(0, first_legal(session), session.version)
        else:
            assert [timer.delay for timer in live] == [seconds]
            clock.fire()
            assert session.log[-1] == "timeout"


def test_a_bot_plays_for_a_dropped_seat_after_the_grace_and_hands_it_back_on_return(
    app: Lapau, hub: Hub, clock: ManualClock
) -> None:
    """Two people and two bots at Koa; one person's socket drops.  Their turns wait the
    grace period, then a bot plays them at bot speed (shown on their seat) while the
    other person is there; the moment they reconnect, the seat and its clock are theirs."""
    seats = [Seat("human", player="g-a"), Seat("human", player="g-b")]
    seats += [Seat("bot", level="easy", name=f"Bot {n}") for n in (2, 3)]
    session = hub.create("koa", {"mode": "quick"}, seats, owner="g-a", seed=7)
    grace = hub.timing.stand_in_grace
    assert 0 < grace < hub.timing.turn_seconds
    here, away = Recorder(session), Recorder(session)
    session.join(Subscriber(here, 0, "en"))
    dropped = Subscriber(away, 1, "en")
    session.join(dropped)
    session.leave(dropped)
    left_at = clock.time
    turns = 0
    while turns < 3:  # three of the absent seat's turns pass without them
        if session.game.to_act(session.state) == 0:
            session.submit(0, first_legal(session), session.version)
            continue
        if session.game.to_act(session.state) != 1:
            clock.fire()
            continue
        live = [timer for timer in clock.pending if not timer.cancelled]
        assert len(live) == 1
        # No longer than the grace after the drop, and never the 30 s turn clock.
        assert clock.time + live[0].delay <= left_at + grace + hub.timing.bot_delay
        clock.time = max(clock.time, left_at + grace)
        before = session.version
        clock.fire()
        assert session.version > before and session.log[before] != "timeout"
        assert session.played_for is None  # a stand-in, not a timeout
        assert 1 in session.stand_ins()
        turns += 1
    assert "stand-in" in render_seat(app, session, 0, 1)

    # Back: the seat is theirs again at once, with the person's own clock.
    back = Recorder(session)
    told = len(here.messages)
    session.join(Subscriber(back, 1, "en"))
    assert session.stand_ins() == set()
    # The other person's screen drops the "away" tag at once.
    assert len(here.messages) == told + 1
    assert 'id="seat-1"' in here.messages[-1][1] and "stand-in" not in here.messages[-1][1]
    clock.run_until(lambda: session.game.to_act(session.state) == 1)
    assert session.seconds_left() == hub.timing.turn_seconds
    assert "stand-in" not in render_seat(app, session, 0, 1)


def test_nobody_else_there_means_no_stand_in_the_table_waits_as_before(
    hub: Hub, clock: ManualClock, practice: Practice
) -> None:
    """A practice table whose only person leaves is not finished by a bot: the turn
    clock plays a few turns, then the table pauses (Timing.unheard_turns)."""
    session = practice("koa", mode="quick")
    mine = Subscriber(Recorder(session), 0, "en")
    session.join(mine)
    session.leave(mine)
    clock.time += 10 * hub.timing.stand_in_grace
    advance_to_seat(clock, session, 0)
    assert session.stand_ins() == set()
    assert session.seconds_left() is not None
    clock.fire()
    assert session.log[-1] == "timeout"


def render_seat(app: Lapau, session: TableSession, viewer: int, seat: int) -> str:
    with app.test_request_context("/en/"):
        g.lang_code = "en"
        return split_fragments(render_layout(session, viewer))[f"seat-{seat}"]
