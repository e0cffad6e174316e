"""The rules of a room without Flask: codes, seats, options, who may do what."""

from __future__ import annotations

from datetime import timedelta

import pytest

from webapp.rooms import logic
from webapp.rooms.logic import ABANDONED, FINISHED, PLAYING, Game, Place, Room, RoomRefusal

KOA = Game("koa", "mode", ("quick", "full"), 4, ("Sutan", "Malin", "Bagindo"), "quick")
KOWAH = Game("kowah", "players", (2, 3, 4), {2: 2, 3: 3, 4: 4}, ("Baba Liem", "Nyonya Tan"), 3)


def koa_room() -> Room:
    return logic.open_room(KOA, "u-1", "rina", code="ABC234")


def test_codes_use_six_symbols_without_look_alikes() -> None:
    assert not set("0O1IL") & set(logic.ALPHABET)
    codes = {logic.new_code() for _ in range(2000)}
    assert len(codes) == 2000
    assert all(len(code) == 6 and set(code) <= set(logic.ALPHABET) for code in codes)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("abc234", "ABC234"),
        (" ABC 234 ", "ABC234"),
        ("abc-234", "ABC234"),
        ("ABC23", None),
        ("ABC2345", None),
        ("ABC230", None),
        ("ABCL34", None),
        ("ÀBC234", None),
        ("", None),
    ],
)
def test_a_typed_code_is_read_kindly_or_refused(typed: str, code: str | None) -> None:
    assert logic.clean_code(typed) == code


def test_a_new_room_seats_its_host_first_and_leaves_the_rest_empty() -> None:
    room = koa_room()
    assert room.seats[0] == Place("human", player="u-1", name="rina")
    assert room.seats[1:] == [None, None, None]
    assert room.option == "quick" and room.status == logic.WAITING


def test_kowah_opens_for_three_and_koikoi_for_two() -> None:
    assert len(logic.open_room(KOWAH, "u-1", "a").seats) == 3


def test_waiting_rooms_expire_when_idle_and_closed_rooms_at_once() -> None:
    room = koa_room()
    assert room.is_open()
    assert not room.is_open(room.updated_at + logic.IDLE + timedelta(seconds=1))
    room.status = PLAYING
    assert room.is_open(room.updated_at + timedelta(days=2))
    for status in (FINISHED, ABANDONED):
        room.status = status
        assert not room.is_open()


def test_joining_takes_the_first_empty_seat_then_a_bots() -> None:
    room = koa_room()
    logic.act(room, KOA, "u-1", "bot 1")
    assert logic.join(room, "g-a", "Ana") == 2
    assert logic.join(room, "g-a", "Ana") == 2  # already seated: stays
    assert logic.join(room, "g-b", "Budi") == 3
    assert logic.join(room, "g-c", "Cici") == 1  # the bot makes way
    with pytest.raises(RoomRefusal, match="room-full"):
        logic.join(room, "g-d", "Dodi")


def test_names_are_trimmed_to_printable_single_spaced_twenty_characters() -> None:
    assert logic.clean_name("  Ana \n\t  Maria\x00 ") == "Ana Maria"
    assert len(logic.clean_name("x" * 50)) == 20


def test_a_player_moves_to_an_empty_seat_or_swaps_with_a_bot_never_a_person() -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOA, "g-a", "sit 2")
    assert room.seat_of("g-a") == 2 and room.seats[1] is None
    logic.act(room, KOA, "u-1", "bot 3")
    logic.act(room, KOA, "g-a", "sit 3")
    assert room.seat_of("g-a") == 3 and room.seats[2] is not None and room.seats[2].is_bot
    with pytest.raises(RoomRefusal, match="seat-taken"):
        logic.act(room, KOA, "g-a", "sit 0")
    for bad in ("sit 4", "sit -1", "sit x", "sit"):
        with pytest.raises(RoomRefusal, match="bad-seat"):
            logic.act(room, KOA, "g-a", bad)


@pytest.mark.parametrize(
    "action",
    ["option full", "level hard", "clock 60", "bot 1", "fill", "unbot 1", "kick 0", "start"],
)
def test_only_the_host_changes_the_room(action: str) -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    before = (list(room.seats), room.option, room.level, room.clock, room.host, room.status)
    with pytest.raises(RoomRefusal, match="not-host"):
        logic.act(room, KOA, "g-a", action)
    assert (list(room.seats), room.option, room.level, room.clock, room.host, room.status) == (
        before
    )


def test_someone_not_seated_changes_nothing() -> None:
    room = koa_room()
    for action in ("ready", "sit 1", "start", "leave"):
        with pytest.raises(RoomRefusal, match="not-seated"):
            logic.act(room, KOA, "g-stranger", action)


def test_unknown_actions_are_refused() -> None:
    room = koa_room()
    for action in ("", "dance", "START", "kick"):
        with pytest.raises(RoomRefusal):
            logic.act(room, KOA, "u-1", action)


def test_the_host_starts_only_when_every_seat_is_filled_and_every_player_ready() -> None:
    room = koa_room()
    with pytest.raises(RoomRefusal, match="not-ready"):
        logic.act(room, KOA, "u-1", "start")
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOA, "u-1", "fill")
    assert all(place is not None for place in room.seats)
    with pytest.raises(RoomRefusal, match="not-ready"):
        logic.act(room, KOA, "u-1", "start")
    logic.act(room, KOA, "g-a", "ready")
    assert logic.act(room, KOA, "u-1", "start") == "start"
    logic.started(room, "table1")
    with pytest.raises(RoomRefusal, match="room-started"):
        logic.act(room, KOA, "g-a", "unready")
    with pytest.raises(RoomRefusal, match="room-started"):
        logic.join(room, "g-b", "Budi")


def test_changing_the_option_asks_everyone_to_be_ready_again() -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOA, "g-a", "ready")
    logic.act(room, KOA, "u-1", "option full")
    assert room.option == "full"
    assert room.seats[1] is not None and not room.seats[1].ready
    with pytest.raises(RoomRefusal, match="bad-option"):
        logic.act(room, KOA, "u-1", "option long")


def test_the_host_chooses_a_30_or_60_second_clock_or_none_and_everyone_says_ready_again() -> None:
    room = koa_room()
    assert room.clock == 30  # the rules' turn until the host says otherwise
    logic.join(room, "g-a", "Ana")
    for chosen in (60, 0, 30):
        logic.act(room, KOA, "g-a", "ready")
        logic.act(room, KOA, "u-1", f"clock {chosen}")
        assert room.clock == chosen
        assert room.seats[1] is not None and not room.seats[1].ready
    for bad in ("clock 45", "clock off", "clock", "clock -30"):
        with pytest.raises(RoomRefusal, match="bad-option"):
            logic.act(room, KOA, "u-1", bad)
        assert room.clock == 30


def test_fewer_kowah_seats_keep_the_people_and_refuse_when_they_do_not_fit() -> None:
    room = logic.open_room(KOWAH, "u-1", "rina")
    logic.act(room, KOWAH, "u-1", "option 4")
    assert len(room.seats) == 4
    logic.act(room, KOWAH, "u-1", "bot 1")
    logic.join(room, "g-a", "Ana")  # seat 2
    logic.act(room, KOWAH, "u-1", "option 2")
    assert [p.player if p else None for p in room.seats] == ["u-1", "g-a"]
    logic.act(room, KOWAH, "u-1", "option 3")
    logic.join(room, "g-b", "Budi")
    with pytest.raises(RoomRefusal, match="too-many-players"):
        logic.act(room, KOWAH, "u-1", "option 2")


def test_bot_level_applies_to_every_bot_and_bots_get_distinct_names() -> None:
    room = koa_room()
    logic.act(room, KOA, "u-1", "fill")
    logic.act(room, KOA, "u-1", "level hard")
    bots = [p for p in room.seats if p is not None and p.is_bot]
    assert {p.level for p in bots} == {"hard"}
    assert len({p.name for p in bots}) == 3
    logic.act(room, KOA, "u-1", "unbot 2")
    assert room.seats[2] is None
    with pytest.raises(RoomRefusal, match="bad-seat"):
        logic.act(room, KOA, "u-1", "unbot 2")
    with pytest.raises(RoomRefusal, match="seat-taken"):
        logic.act(room, KOA, "u-1", "bot 1")


def test_a_removed_player_cannot_come_back_and_the_host_cannot_remove_themself() -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    with pytest.raises(RoomRefusal, match="bad-seat"):
        logic.act(room, KOA, "u-1", "kick 0")
    logic.act(room, KOA, "u-1", "kick 1")
    assert room.seat_of("g-a") is None
    with pytest.raises(RoomRefusal, match="kicked"):
        logic.join(room, "g-a", "Ana")


def test_a_leaving_host_hands_over_and_the_last_to_leave_closes_the_room() -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOA, "u-1", "leave")
    assert room.host == "g-a" and room.status == logic.WAITING
    logic.join(room, "u-1", "rina")  # leaving is not being removed: they may come back
    logic.act(room, KOA, "u-1", "leave")
    logic.act(room, KOA, "g-a", "leave")
    assert room.status == ABANDONED and not room.is_open()


def test_a_rematch_keeps_clock_and_seats_asks_everyone_again_and_needs_a_finished_match() -> None:
    room = koa_room()
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOA, "u-1", "fill")
    logic.act(room, KOA, "g-a", "ready")
    logic.started(room, "t1")
    with pytest.raises(RoomRefusal, match="room-started"):
        logic.rematch(room, "g-a")
    logic.finished(room)
    with pytest.raises(RoomRefusal, match="not-seated"):
        logic.rematch(room, "g-stranger")
    room.clock = 0  # as the host chose before the match
    again = logic.rematch(room, "g-a", code="XYZ234")
    assert again.clock == 0
    assert again.host == "g-a" and again.status == logic.WAITING and again.code == "XYZ234"
    assert [p.name if p else None for p in again.seats] == [
        p.name if p else None for p in room.seats
    ]
    assert not any(p.ready for p in again.seats if p)


KOIKOI = Game("koikoi", "rounds", (3, 6, 12), 2, ("Hana",), 3, ("standard", "tamed-sake"))


def test_the_host_picks_house_rules_everyone_readies_again_and_a_rematch_keeps_them() -> None:
    room = logic.open_room(KOIKOI, "u-1", "rina", code="KOI234")
    assert room.rules == "standard"
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOIKOI, "g-a", "ready")
    with pytest.raises(RoomRefusal, match="not-host"):
        logic.act(room, KOIKOI, "g-a", "rules tamed-sake")
    logic.act(room, KOIKOI, "u-1", "rules tamed-sake")
    assert room.rules == "tamed-sake"
    assert room.seats[1] is not None and not room.seats[1].ready
    for bad in ("rules", "rules wild", "rules STANDARD"):
        with pytest.raises(RoomRefusal, match="bad-option"):
            logic.act(room, KOIKOI, "u-1", bad)
    with pytest.raises(RoomRefusal, match="bad-option"):
        logic.act(koa_room(), KOA, "u-1", "rules standard")  # Koa has no house rules
    logic.started(room, "table1")
    room.status = FINISHED
    assert logic.rematch(room, "g-a").rules == "tamed-sake"


def test_choosing_what_is_already_chosen_leaves_everyone_ready() -> None:
    # The host's tap on the pressed segment (3 rounds, the room's default) may reach the
    # room after the guest's "ready": nothing the guest agreed to changed, so it starts.
    room = logic.open_room(KOIKOI, "u-1", "rina", code="KOI234")
    logic.join(room, "g-a", "Ana")
    logic.act(room, KOIKOI, "g-a", "ready")
    for same in ("option 3", f"clock {room.clock}", "rules standard"):
        logic.act(room, KOIKOI, "u-1", same)
        assert room.seats[1] is not None and room.seats[1].ready, same
    assert logic.act(room, KOIKOI, "u-1", "start") == "start"
    # A real change still asks the guest again.
    logic.act(room, KOIKOI, "u-1", "option 6")
    assert room.seats[1] is not None and not room.seats[1].ready
