"""Rating finished tables through the hub: who is rated, once, and by how much."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import Session, select

from tests.play.conftest import Recorder
from tests.ranking.conftest import human_seats, play_out
from webapp import ranking
from webapp.auth import accounts
from webapp.auth.models import User
from webapp.channels import Subscriber
from webapp.game.koikoi.rules import Ending as KoikoiEnding
from webapp.game.kowah.oracle import Ending as KowahEnding
from webapp.game.protocol import Outcome
from webapp.play.hub import Hub, TableSession
from webapp.play.store import Seat, TableBroken
from webapp.ranking import ratings
from webapp.ranking.models import RatedResult, RatedTable, Rating
from webapp.services import Lapau

GAMES = [
    ("koa", {"mode": "quick"}, ["rina", "budi", "sari", "tono"]),
    ("kowah", {"players": 3}, ["rina", "budi", "sari"]),
    ("kowah", {"players": 4}, ["rina", "budi", "sari", "tono"]),
    ("koikoi", {"rounds": 3}, ["rina", "budi"]),
]


def rows(app: Lapau, model: Any) -> list[Any]:
    with Session(app.services.database) as db:
        return list(db.exec(select(model)).all())


@pytest.mark.parametrize(("game", "options", "names"), GAMES)
def test_an_all_human_table_is_rated_when_it_ends(
    app: Lapau,
    finished_table: Callable[..., TableSession],
    game: str,
    options: dict[str, Any],
    names: list[str],
) -> None:
    session = finished_table(game, names, **options)
    outcome = session.game.outcome(session.state)
    assert outcome is not None
    with app.app_context():
        after = [ranking.rating_of(seat.player or "", game) for seat in session.seats]
        standings = [ranking.standing_of(seat.player or "", game) for seat in session.seats]
    winners = set(outcome.winners)
    for seat, rating in enumerate(after):
        if not winners:
            continue
        assert (rating > ranking.INITIAL) == (seat in winners), (seat, rating, winners)
    assert all(s is not None and s.games == 1 and s.provisional for s in standings)
    assert sum(after) == pytest.approx(ranking.INITIAL * len(after))
    assert len(rows(app, RatedResult)) == len(names)
    assert [row.table_id for row in rows(app, RatedTable)] == [session.id]
    with app.app_context():
        change = ranking.table_change(session.id, session.seats[0].player or "")
        assert change == (ranking.INITIAL, after[0])
        assert ranking.table_change(session.id, "u-999") is None


def test_koa_mandan_move_together(app: Lapau, finished_table: Callable[..., TableSession]) -> None:
    session = finished_table("koa", ["rina", "budi", "sari", "tono"], mode="quick")
    with app.app_context():
        values = [ranking.rating_of(seat.player or "", "koa") for seat in session.seats]
    assert values[0] == values[2] and values[1] == values[3]
    assert values[0] - ranking.INITIAL == pytest.approx(ranking.INITIAL - values[1])


def test_a_table_is_rated_once(
    app: Lapau, hub: Hub, finished_table: Callable[..., TableSession]
) -> None:
    session = finished_table("koikoi", ["rina", "budi"], rounds=3)
    with app.app_context():
        before = [ranking.rating_of(seat.player or "", "koikoi") for seat in session.seats]
    hub.finished(session)
    for callback in hub.on_finish:
        callback(session)
    with app.app_context():
        again = [ranking.rating_of(seat.player or "", "koikoi") for seat in session.seats]
    assert again == before
    assert len(rows(app, RatedResult)) == 2
    assert {row.games for row in rows(app, Rating)} == {1}


def test_a_restarted_server_does_not_rate_a_finished_table_again(
    app: Lapau, hub: Hub, finished_table: Callable[..., TableSession]
) -> None:
    session = finished_table("koikoi", ["rina", "budi"], rounds=3)
    hub.sessions.clear()
    reloaded = hub.get(session.id)
    assert reloaded is not None and reloaded.finished
    hub.finished(reloaded)
    assert len(rows(app, RatedResult)) == 2


def test_later_tables_build_on_the_ratings(
    app: Lapau, finished_table: Callable[..., TableSession]
) -> None:
    for seed in (3, 4, 5):
        finished_table("koikoi", ["rina", "budi"], seed=seed, rounds=3)
    with app.app_context():
        rina = ranking.standing_of("u-1", "koikoi")
        budi = ranking.standing_of("u-2", "koikoi")
    assert rina is not None and budi is not None
    assert rina.games == budi.games == 3
    assert rina.wins + rina.draws + rina.losses == 3
    assert (rina.wins, rina.losses) == (budi.losses, budi.wins)
    history = [row for row in rows(app, RatedResult) if row.user_id == 1]
    assert len(history) == 3
    chain = sorted(history, key=lambda row: row.rated_at)
    for earlier, later in zip(chain, chain[1:], strict=False):
        assert later.before == pytest.approx(earlier.after)


@pytest.mark.parametrize(
    "odd_seat",
    [
        Seat("bot", level="easy", name="Hana"),
        Seat("human", player="g-guest123"),
        Seat("human", player="u-1"),  # the same account in two seats
        Seat("human", player="u-999"),  # no such account
    ],
    ids=["bot", "guest", "same-account-twice", "unknown-account"],
)
def test_not_rated_unless_every_seat_is_a_different_signed_in_person(
    app: Lapau,
    hub: Hub,
    users: Callable[..., list[User]],
    odd_seat: Seat,
) -> None:
    (rina,) = users("rina")
    seats = [Seat("human", player=rina.player), odd_seat]
    session = hub.create("koikoi", {"rounds": 3}, seats, owner=rina.player, seed=3)
    play_out(session)
    assert session.finished
    assert rows(app, RatedResult) == [] and rows(app, Rating) == []
    assert rows(app, RatedTable) == []


def test_a_bot_in_a_koa_team_keeps_the_table_unrated(
    app: Lapau, hub: Hub, users: Callable[..., list[User]]
) -> None:
    people = users("rina", "budi", "sari")
    seats = [*human_seats(people), Seat("bot", level="easy", name="Sutan")]
    session = hub.create("koa", {"mode": "quick"}, seats, owner=people[0].player, seed=3)
    play_out(session)
    assert session.finished and rows(app, Rating) == []


def test_a_drawn_kowah_deal_is_half_a_point_against_everyone(
    app: Lapau, users: Callable[..., list[User]]
) -> None:
    people = users("rina", "budi", "sari")
    outcome = Outcome(winners=(), points=(0, 0, 0), reason=KowahEnding.STOCK_OUT)
    engine = app.services.database
    teams = ((0,), (1,), (2,))
    assert ratings.rate_table(engine, "t1", "kowah", human_seats(people), outcome, teams)
    assert not ratings.rate_table(engine, "t1", "kowah", human_seats(people), outcome, teams)
    found = rows(app, Rating)
    assert {(row.rating, row.games, row.draws) for row in found} == {(1500.0, 1, 1)}
    assert {row.score for row in rows(app, RatedResult)} == {0.5}


def test_a_deleted_account_takes_its_ratings_along(
    app: Lapau, finished_table: Callable[..., TableSession]
) -> None:
    finished_table("koikoi", ["rina", "budi"], rounds=3)
    with app.app_context():
        rina = accounts.find_by_username("rina")
        assert rina is not None
        accounts.delete_user(rina)
        assert ranking.standing_of("u-1", "koikoi") is None
        budi = ranking.standing_of("u-2", "koikoi")
    assert budi is not None and budi.games == 1
    assert {row.user_id for row in rows(app, RatedResult)} == {2}


def test_rating_of_an_unrated_player_or_a_guest_is_the_start(app: Lapau) -> None:
    with app.app_context():
        assert ranking.rating_of("u-12345", "koa") == 1500.0
        assert ranking.rating_of("g-someone", "koikoi") == 1500.0
        assert ranking.standing_of("g-someone", "koikoi") is None


def test_a_table_the_server_stopped_before_rating_is_caught_up(
    app: Lapau, hub: Hub, finished_table: Callable[..., TableSession]
) -> None:
    hooks = list(hub.on_finish)
    hub.on_finish.clear()  # as if the process died between the last move and the rating
    session = finished_table("kowah", ["rina", "budi"], players=2)
    unrated = finished_table("koikoi", ["rina", "budi"], rounds=3)
    hub.on_finish.extend(hooks)
    assert rows(app, RatedTable) == []
    runner = app.test_cli_runner()
    result = runner.invoke(args=["ranking", "catch-up"])
    assert "Rated 2 table(s)." in result.output
    assert {row.table_id for row in rows(app, RatedTable)} == {session.id, unrated.id}
    assert ratings.catch_up(app.services.database) == 0


def test_a_koikoi_match_under_house_rules_is_never_rated(
    app: Lapau, hub: Hub, finished_table: Callable[..., TableSession]
) -> None:
    live = finished_table("koikoi", ["rina", "budi"], rounds=3, viewing="off")
    hooks = list(hub.on_finish)
    hub.on_finish.clear()  # this one ended while the server was stopping
    later = finished_table("koikoi", ["rina", "budi"], rounds=3, koikoi_calls="many")
    hub.on_finish.extend(hooks)
    standard = finished_table("koikoi", ["rina", "budi"], rounds=3, viewing="on")
    assert ratings.catch_up(app.services.database) == 0
    assert not live.state.house.standard and not later.state.house.standard
    # the standard rules named explicitly are still the standard rules
    assert [row.table_id for row in rows(app, RatedTable)] == [standard.id]


def test_a_finished_table_whose_log_no_longer_replays_is_never_rated(
    app: Lapau, hub: Hub, finished_table: Callable[..., TableSession]
) -> None:
    hooks = list(hub.on_finish)
    hub.on_finish.clear()  # both ended while the server was stopping
    good = finished_table("kowah", ["rina", "budi"], players=2)
    bad = finished_table("koikoi", ["rina", "budi"], rounds=3)
    hub.on_finish.extend(hooks)
    hub.store.append(bad.id, bad.version, "next", None)  # a move after the end, refused
    engine = app.services.database
    assert ratings.catch_up(engine) == 1
    assert [row.table_id for row in rows(app, RatedTable)] == [good.id]
    with pytest.raises(TableBroken) as broken:
        hub.store.load(bad.id)
    assert broken.value.finished and "game-over" in broken.value.reason
    assert ratings.catch_up(engine) == 0
    assert {row.table_id for row in rows(app, RatedResult)} == {good.id}


def test_a_clash_over_a_first_rating_row_is_tried_again(
    app: Lapau, users: Callable[..., list[User]], monkeypatch: pytest.MonkeyPatch
) -> None:
    people = users("rina", "budi")
    original = ratings._rate_once
    calls: list[str] = []

    def clash_once(*args: Any) -> bool:
        calls.append(args[1])
        if len(calls) == 1:
            raise ratings._Conflict
        return original(*args)

    monkeypatch.setattr(ratings, "_rate_once", clash_once)
    outcome = Outcome(winners=(0,), points=(6, 0), reason=KoikoiEnding.ROUNDS_PLAYED)
    engine = app.services.database
    assert ratings.rate_table(engine, "t2", "koikoi", human_seats(people), outcome, ((0,), (1,)))
    assert calls == ["t2", "t2"]
    assert {row.games for row in rows(app, Rating)} == {1}


def test_the_last_move_shows_each_player_their_new_rating(
    app: Lapau, hub: Hub, users: Callable[..., list[User]]
) -> None:
    people = [users(name)[0] for name in ("rina", "budi")]
    session = hub.create("koikoi", {"rounds": 3}, human_seats(people), owner=people[0].player)
    sockets = [Recorder(session), Recorder(session)]
    for seat, socket in enumerate(sockets):
        session.join(Subscriber(socket, seat, "en"))
    play_out(session, 3)
    with app.app_context():
        after = [round(ranking.rating_of(person.player, "koikoi")) for person in people]
    for socket, rating in zip(sockets, after, strict=True):
        last = socket.messages[-1][1]
        assert f"Your rating: 1500 → {rating}" in last, last
