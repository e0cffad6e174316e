"""The rules of a room, with no Flask in sight: codes, seats, options, who may do what.

A room is a game, its options, a host and a row of seats; each seat is empty, a person
(with a ready flag) or a bot.  Every change goes through :func:`act` or :func:`join`,
which check that the player may make it and raise :class:`RoomRefusal` (a code the page
translates) without changing anything when not.  Only the host changes the options,
adds or removes bots, removes a player and starts; a player only moves, readies or
leaves themself.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from webapp.play import clock as turn_clock

#: No look-alikes: no 0/O, no 1/I/L.  31 symbols, six of them: about 887 million codes.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

WAITING, PLAYING, FINISHED, ABANDONED = "waiting", "playing", "finished", "abandoned"
#: A waiting room nobody has touched for this long is abandoned: its code expires.
IDLE = timedelta(hours=3)
LEVELS = ("easy", "medium", "hard", "expert")
NAME_LENGTH = 20


class RoomRefusal(Exception):
    """An action that changes nothing, with a code the page translates."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_code() -> str:
    """A fresh room code.

    >>> code = new_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: str) -> str | None:
    """A typed or linked code in its canonical form, or None if it cannot be one.

    Spaces and dashes are ignored and case does not matter; a symbol the alphabet
    leaves out (0, O, 1, I, L) can only be a typing mistake.

    >>> clean_code(" abc-def ")
    'ABCDEF'
    >>> clean_code("ABCDE0") is None
    True
    """
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or not set(code) <= set(ALPHABET):
        return None
    return code


@dataclass(frozen=True)
class Place:
    """Who sits in one seat of a room: a person or a bot."""

    kind: str
    player: str | None = None
    name: str = ""
    level: str | None = None
    ready: bool = False

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "name": self.name,
            "level": self.level,
            "ready": self.ready,
        }


#: A room's rules before a host picks house rules: the game's standard rules.
STANDARD_RULES = "standard"


@dataclass(frozen=True)
class Game:
    """What a room needs to know of a game: its one option and the seats it gives."""

    name: str
    option: str
    choices: tuple[Any, ...]
    seats: Mapping[Any, int] | int
    bot_names: tuple[str, ...]
    #: The choice a new room opens with.
    opening: Any
    #: The names of the game's house-rule presets, the standard first (none: no choice).
    presets: tuple[str, ...] = ()

    def seat_count(self, value: Any) -> int:
        return self.seats if isinstance(self.seats, int) else self.seats[value]

    def choice(self, text: str) -> Any:
        """The option value whose text form is ``text``, or a refusal."""
        for value in self.choices:
            if str(value) == text:
                return value
        raise RoomRefusal("bad-option")


@dataclass
class Room:
    code: str
    game: str
    option: Any
    host: str
    seats: list[Place | None]
    level: str = "medium"
    #: The turn clock of the tables it opens, in the rules' seconds (0: none).
    clock: int = turn_clock.STANDARD
    status: str = WAITING
    table_id: str | None = None
    kicked: list[str] = field(default_factory=list)
    #: The host closed the door: nobody new may sit down (who sits stays).
    locked: bool = False
    #: The house-rule preset the tables it opens play (the standard rules by default).
    rules: str = STANDARD_RULES
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)

    def seat_of(self, player: str | None) -> int | None:
        for index, place in enumerate(self.seats):
            if place is not None and place.kind == "human" and place.player == player:
                return index
        return None

    def humans(self) -> list[str]:
        return [p.player for p in self.seats if p is not None and p.player and not p.is_bot]

    def is_open(self, now: datetime | None = None) -> bool:
        """Whether the code still leads here: a finished or abandoned room's has expired."""
        if self.status == WAITING:
            updated = self.updated_at
            if updated.tzinfo is None:
                updated = updated.replace(tzinfo=UTC)
            return (now or utcnow()) - updated < IDLE
        return self.status == PLAYING

    def is_full(self) -> bool:
        return all(place is not None and not place.is_bot for place in self.seats)

    def can_start(self) -> bool:
        """Every seat taken, and every person but the host ready."""
        return all(
            place is not None and (place.is_bot or place.ready or place.player == self.host)
            for place in self.seats
        )


def open_room(game: Game, host: str, name: str, code: str | None = None) -> Room:
    """A new waiting room with its host in the first seat."""
    option = game.opening
    count = game.seat_count(option)
    seats: list[Place | None] = [Place("human", player=host, name=name)]
    seats += [None] * (count - 1)
    return Room(code=code or new_code(), game=game.name, option=option, host=host, seats=seats)


def join(room: Room, player: str, name: str, seat: int | None = None, ready: bool = False) -> int:
    """Seat ``player`` (in ``seat`` or the first free one), ``ready`` or not (a friend who
    accepted an invite said yes already); returns their seat.

    Someone already seated stays where they are.  A bot's seat counts as free for a
    person: the bot makes way.
    """
    mine = room.seat_of(player)
    if mine is not None:
        return mine
    if room.status != WAITING:
        raise RoomRefusal("room-started")
    if player in room.kicked:
        raise RoomRefusal("kicked")
    if room.locked:
        raise RoomRefusal("room-locked")
    free = [i for i, place in enumerate(room.seats) if place is None or place.is_bot]
    if not free:
        raise RoomRefusal("room-full")
    if seat is not None and seat not in free:
        raise RoomRefusal("seat-taken")
    chosen = free[0] if seat is None else seat
    # An empty seat is taken before a bot's, so the host's bots stay where they can.
    empty = [i for i in free if room.seats[i] is None]
    if seat is None and empty:
        chosen = empty[0]
    _unready_all(room)  # the others agreed to another table
    room.seats[chosen] = Place("human", player=player, name=clean_name(name), ready=ready)
    room.updated_at = utcnow()
    return chosen


def clean_name(name: str) -> str:
    """A display name: printable, single-spaced, at most 20 characters."""
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    return text[:NAME_LENGTH]


def rename(room: Room, player: str, name: str) -> None:
    """A seated person changes the name the room shows for them."""
    mine = room.seat_of(player)
    if mine is None:
        raise RoomRefusal("not-seated")
    current = room.seats[mine]
    assert current is not None
    room.seats[mine] = replace(current, name=clean_name(name))
    room.updated_at = utcnow()


def _unready_all(room: Room) -> None:
    # What everyone agreed to has changed: each person says "ready" again.
    room.seats = [
        replace(place, ready=False) if place is not None and place.ready else place
        for place in room.seats
    ]


def _seat_number(text: str, room: Room) -> int:
    # Only a short run of ASCII digits: str.isdigit() also passes '²', which int() refuses.
    if not (text.isascii() and text.isdigit() and len(text) <= 2) or int(text) >= len(room.seats):
        raise RoomRefusal("bad-seat")
    return int(text)


def _bot(game: Game, room: Room, seat: int) -> Place:
    taken = {place.name for place in room.seats if place is not None and place.is_bot}
    names = [n for n in game.bot_names if n not in taken] or list(game.bot_names)
    return Place("bot", name=names[seat % len(names)], level=room.level)


HOST_ONLY = {
    "option",
    "rules",
    "level",
    "clock",
    "bot",
    "fill",
    "unbot",
    "kick",
    "start",
    "lock",
    "unlock",
}
ACTIONS = HOST_ONLY | {"sit", "ready", "unready", "leave"}


def act(room: Room, game: Game, player: str, text: str) -> str:
    """Apply one action (``"sit 2"``, ``"bot 1"``, ``"start"``...) for ``player``.

    Returns the action's verb.  ``start`` only checks that the room may start: the
    caller opens the table and then calls :func:`started`.
    """
    verb, *args = text.split()[:3] or [""]
    if verb not in ACTIONS:
        raise RoomRefusal("bad-action")
    if room.status != WAITING:
        raise RoomRefusal("room-started")
    mine = room.seat_of(player)
    if mine is None:
        raise RoomRefusal("not-seated")
    if verb in HOST_ONLY and player != room.host:
        raise RoomRefusal("not-host")
    arg = args[0] if args else ""
    # What everyone agreed to; a tap on the setting already chosen changes none of it, so
    # whoever said ready stays ready (the host's tap may reach the room after a "ready").
    agreed = (room.option, room.clock, room.rules)
    if verb == "sit":
        target = _seat_number(arg, room)
        place = room.seats[target]
        if place is not None and not place.is_bot:
            raise RoomRefusal("seat-taken")
        # Moving onto a bot's seat swaps with the bot.
        room.seats[target], room.seats[mine] = room.seats[mine], place
    elif verb in ("ready", "unready"):
        current = room.seats[mine]
        assert current is not None
        room.seats[mine] = replace(current, ready=verb == "ready")
    elif verb == "leave":
        leave(room, player)
    elif verb == "option":
        _set_option(room, game, game.choice(arg))
    elif verb == "clock":
        seconds = turn_clock.parse(arg)
        if seconds is None:
            raise RoomRefusal("bad-option")
        room.clock = seconds
    elif verb == "rules":
        if arg not in game.presets:
            raise RoomRefusal("bad-option")
        room.rules = arg
    elif verb == "level":
        if arg not in LEVELS:
            raise RoomRefusal("bad-option")
        room.level = arg
        room.seats = [
            replace(p, level=arg) if p is not None and p.is_bot else p for p in room.seats
        ]
    elif verb == "bot":
        target = _seat_number(arg, room)
        if room.seats[target] is not None:
            raise RoomRefusal("seat-taken")
        room.seats[target] = _bot(game, room, target)
    elif verb == "fill":
        for index, place in enumerate(room.seats):
            if place is None:
                room.seats[index] = _bot(game, room, index)
    elif verb == "unbot":
        target = _seat_number(arg, room)
        place = room.seats[target]
        if place is None or not place.is_bot:
            raise RoomRefusal("bad-seat")
        room.seats[target] = None
    elif verb == "kick":
        target = _seat_number(arg, room)
        place = room.seats[target]
        if place is None or place.is_bot or place.player == room.host:
            raise RoomRefusal("bad-seat")
        assert place.player is not None
        room.kicked.append(place.player)
        room.seats[target] = None
        # A guest is only a cookie, and a fresh one is a new guest: the kick locks the
        # room until the host opens it again, so the removed person cannot walk back in.
        room.locked = True
    elif verb in ("lock", "unlock"):
        room.locked = verb == "lock"
    elif verb == "start" and not room.can_start():
        raise RoomRefusal("not-ready")
    if (room.option, room.clock, room.rules) != agreed:
        _unready_all(room)
    room.updated_at = utcnow()
    return verb


def _set_option(room: Room, game: Game, value: Any) -> None:
    count = game.seat_count(value)
    if count < len(room.seats):
        # Fewer seats: people keep theirs, in order; bots and empty seats go first.
        people = [p for p in room.seats if p is not None and not p.is_bot]
        if len(people) > count:
            raise RoomRefusal("too-many-players")
        spare = count - len(people)
        kept: list[Place | None] = []
        for place in room.seats:
            if place is not None and not place.is_bot:
                kept.append(place)
            elif spare > 0:
                kept.append(place)
                spare -= 1
        room.seats = kept
    else:
        room.seats = room.seats + [None] * (count - len(room.seats))
    room.option = value


def leave(room: Room, player: str) -> None:
    """``player`` gives up their seat; a leaving host hands the room to the next person,
    and a room nobody is left in is abandoned (its code expires)."""
    mine = room.seat_of(player)
    if mine is None:
        return
    room.seats[mine] = None
    if player == room.host:
        people = room.humans()
        if people:
            room.host = people[0]
        else:
            room.status = ABANDONED
    room.updated_at = utcnow()


def started(room: Room, table_id: str) -> None:
    room.status = PLAYING
    room.table_id = table_id
    room.updated_at = utcnow()


def rematch(old: Room, player: str, code: str | None = None) -> Room:
    """A new waiting room for the same game with the same people in the same seats,
    hosted by ``player`` (who asked for it); everyone says ready again."""
    if old.seat_of(player) is None:
        raise RoomRefusal("not-seated")
    if old.status != FINISHED:
        raise RoomRefusal("room-started")
    seats = [None if place is None else replace(place, ready=False) for place in old.seats]
    return Room(
        code=code or new_code(),
        game=old.game,
        option=old.option,
        host=player,
        seats=seats,
        level=old.level,
        clock=old.clock,
        rules=old.rules,
    )


def transfer(room: Room, old: str, new: str) -> None:
    """A guest signed in: their seat, hosting and removal now belong to their account."""
    room.seats = [
        replace(place, player=new) if place is not None and place.player == old else place
        for place in room.seats
    ]
    room.host = new if room.host == old else room.host
    room.kicked = [new if player == old else player for player in room.kicked]


def finished(room: Room) -> None:
    room.status = FINISHED
    room.updated_at = utcnow()
