"""Rooms in this process: who is watching each room, and every change made under a lock
(the room's, on every process: webapp/locks.py).

Each change loads the room from the database, applies :mod:`webapp.rooms.logic`, writes
it back and publishes its code on the room's channel (``room:<code>``,
webapp/channels.py), whose handler in every process reads it again and re-renders it for
that process's open sockets, each in its own
language and from its own player's side (the host sees the host's buttons).  A room that
starts opens a live table in the hub and sends every socket on to it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from flask import Flask, render_template
from sqlalchemy import Engine

from webapp.adapters import setups
from webapp.adapters.setup import LEVELS
from webapp.channels import Channels, Subscriber, rendering
from webapp.events import Event
from webapp.facts import Facts, LocalFacts
from webapp.game import registry
from webapp.locks import Locks
from webapp.play import clock as turn_clock
from webapp.play.hub import Hub, TableSession
from webapp.play.render import split_fragments
from webapp.play.store import Seat
from webapp.play.words import CLOCK_NAMES
from webapp.rooms import logic, models
from webapp.rooms.logic import Room, RoomRefusal

#: Where a subscriber's ``own`` keeps the room as last sent it (an unchanged room is not
#: sent again) and the notice it was shown (cleared by the next room it is sent).
ROOM, NOTICE = "room", "room-notice"


def game_of(name: str) -> logic.Game:
    setup = setups()[name]
    return logic.Game(
        name=name,
        option=setup.option,
        choices=tuple(value for value, _ in setup.choices),
        seats=setup.seats,
        bot_names=setup.bot_names,
        opening=setup.room_default,
        presets=tuple(preset.name for preset in setup.presets),
    )


class Rooms:
    """Every room's channel handler in this process, and the one door to changing a room."""

    def __init__(
        self,
        app: Flask,
        engine: Engine,
        hub: Hub,
        channels: Channels,
        facts: Facts | None = None,
        locks: Locks | None = None,
    ) -> None:
        self.app = app
        self.engine = engine
        self.hub = hub
        self.channels = channels
        #: Who watches each room from each process (webapp/facts.py).
        self.facts: Facts = facts or LocalFacts()
        channels.on_gap.append(self.resync)
        channels.listen("room", self.published)
        #: Each room's lock (and each finished table's rematch's), on every process.
        self.locks: Locks = locks or Locks()
        #: Every change to a room's people or state (see webapp/rooms/__init__.py).
        self.on_change = Event[[Room, str]]("room changed")
        #: A finished table's room code (None: not a room's table).
        self.table_rooms: dict[str, str | None] = {}

    def room_lock(self, code: str) -> AbstractContextManager[None]:
        return self.locks.hold(f"room:{code}")

    # Reading ---------------------------------------------------------------

    def get(self, code: str) -> Room | None:
        return models.load(self.engine, code)

    def online(self, code: str) -> set[str]:
        """Who has the room open, on any process."""
        return {
            person
            for here in self.facts.gather(here_key(code))
            if isinstance(here, list)
            for person in here
        }

    def state_here(self, code: str) -> None:
        """State who watches the room from this process, for every process."""
        here = {s.person for s in self.channels.subscribers(topic(code)) if s.person}
        if here:
            self.facts.put(here_key(code), sorted(here))
        else:
            self.facts.drop(here_key(code))

    def resync(self) -> None:
        """Messages from other processes may have been lost (the broker's ``on_gap``):
        every room watched here is sent again as stored."""
        for channel in self.channels.topics_of("room"):
            self.published(channel, channel.partition(":")[2])

    # Changing --------------------------------------------------------------

    def fresh_code(self) -> str:
        for _ in range(20):
            code = logic.new_code()
            if not models.exists(self.engine, code):
                return code
        raise RuntimeError("no free room code")  # 887 million codes: never in practice

    def create(self, game: str, host: str, name: str) -> Room:
        room = logic.open_room(game_of(game), host, logic.clean_name(name), self.fresh_code())
        models.save(self.engine, room)
        self.changed(room, "create")
        return room

    def join(
        self, code: str, player: str, name: str, seat: int | None = None, ready: bool = False
    ) -> Room:
        with self.room_lock(code):
            room = self.open_room(code)
            before = room.seat_of(player)
            logic.join(room, player, name, seat, ready)
            if before is None:
                models.save(self.engine, room)
                self.broadcast(room)
                self.changed(room, "join")
            return room

    def rename(self, code: str, player: str, name: str) -> Room:
        with self.room_lock(code):
            room = self.open_room(code)
            logic.rename(room, player, name)
            models.save(self.engine, room)
            self.broadcast(room)
            self.changed(room, "rename")
            return room

    def act(self, code: str, player: str, text: str) -> Room:
        """One action by ``player``; raises :class:`RoomRefusal` and changes nothing."""
        with self.room_lock(code):
            room = self.open_room(code)
            verb = logic.act(room, game_of(room.game), player, text)
            if verb == "start":
                table = self.open_table(room)
                logic.started(room, table.id)
            models.save(self.engine, room)
            self.broadcast(room)
            self.changed(room, verb)
            return room

    def room_of_table(self, table_id: str) -> str | None:
        """The code of the room that opened this table (None for a practice table)."""
        if table_id not in self.table_rooms:
            room = models.by_table(self.engine, table_id)
            self.table_rooms[table_id] = room.code if room else None
        return self.table_rooms[table_id]

    def again(self, table_id: str, player: str) -> Room:
        """The rematch of a room's finished table: the first player to ask opens it (as
        its host, everyone in their old seat), the others find it."""
        with self.locks.hold(f"rematch:{table_id}"):
            old = models.by_table(self.engine, table_id)
            if old is None:
                raise RoomRefusal("no-room")
            mine = old.seat_of(player)
            code = self.locks.noted(f"rematch:{table_id}")
            room = self.get(code) if code else None
            if room is not None and room.is_open() and room.status == logic.WAITING:
                if mine is None:
                    raise RoomRefusal("not-seated")
                place = old.seats[mine]
                return self.join(room.code, player, place.name if place else "")
            room = logic.rematch(old, player, self.fresh_code())
            models.save(self.engine, room)
            self.locks.note(f"rematch:{table_id}", room.code)
        self.changed(room, "create")
        return room

    def open_room(self, code: str) -> Room:
        room = self.get(code)
        if room is None or not room.is_open():
            raise RoomRefusal("no-room")
        return room

    def open_table(self, room: Room) -> TableSession:
        seats = [
            Seat("bot", level=place.level, name=place.name)
            if place.is_bot
            else Seat("human", player=place.player, name=place.name)
            for place in room.seats
            if place is not None
        ]
        setup = setups()[room.game]
        seed = self.app.config.get("TABLE_SEED")
        preset = setup.preset_named(room.rules)
        options = {
            setup.option: room.option,
            turn_clock.OPTION: room.clock,
            **(preset.options if preset else {}),
        }
        return self.hub.create(room.game, options, seats, room.host, seed)

    def transfer(self, old: str, new: str) -> None:
        """A guest signed in: their rooms follow them to their account (the hub's
        ``on_transfer``, after their tables moved)."""
        for found in models.with_player(self.engine, old):
            with self.room_lock(found.code):
                room = self.get(found.code)
                if room is None:
                    continue
                logic.transfer(room, old, new)
                models.save(self.engine, room)
                self.broadcast(room)
                self.changed(room, "transfer")

    def table_finished(self, table: TableSession) -> None:
        """A table ended: so has its room, if a room opened it (the hub's ``on_finish``)."""
        room = models.by_table(self.engine, table.id)
        if room is None:
            return
        with self.room_lock(room.code):
            logic.finished(room)
            models.save(self.engine, room)
            self.changed(room, "finish")

    def changed(self, room: Room, event: str) -> None:
        self.on_change.emit(room, event)  # a listener must not undo the room's change

    # Listeners -------------------------------------------------------------

    def watch(self, code: str, watcher: Subscriber) -> None:
        with self.room_lock(code):
            before = self.online(code)
            self.channels.join(topic(code), watcher)
            self.state_here(code)
            room = self.get(code)
            if room is None:
                return
            if self.seen_here(room, before):
                # A seated player arriving changes their seat's "here" mark for everyone.
                self.broadcast(room)
            else:
                self.broadcast(room, [watcher])

    def unwatch(self, code: str, watcher: Subscriber) -> None:
        with self.room_lock(code):
            before = self.online(code)
            self.channels.leave(topic(code), watcher)
            self.state_here(code)
            room = self.get(code)
            if room is not None and room.status == logic.WAITING and self.seen_here(room, before):
                self.broadcast(room)

    def seen_here(self, room: Room, before: set[str]) -> bool:
        """Whether the seats' "here" marks changed since ``before``: only who of the seated
        is online shows, so a visitor's socket, or a second tab, redraws nobody's room."""
        seated = {place.player for place in room.seats if place is not None and place.player}
        return before & seated != self.online(room.code) & seated

    def notify(self, code: str, watcher: Subscriber, refusal: str) -> None:
        with self.room_lock(code):
            html = self.render(None, watcher, {}, notice=refusal)
            watcher.own[NOTICE] = html
            self.channels.deliver(topic(code), watcher, html)

    def broadcast(self, room: Room, watchers: list[Subscriber] | None = None) -> None:
        """Send the room to its watchers, through its channel (every process's: the
        message is its code, each process reads the room itself), or to ``watchers`` only
        (sockets of this process)."""
        if watchers is None:
            self.channels.publish(topic(room.code), room.code)
        else:
            self.send(room, watchers)

    def published(self, _topic: str, code: object) -> None:
        """A room changed: this process's sockets on it get it as stored now (where it
        changed, its lock is held, so this process's sockets get its changes in order;
        another process reads the newest at each message)."""
        room = self.get(code) if isinstance(code, str) else None
        if room is not None:
            self.send(room, self.channels.subscribers(topic(room.code)))

    def send(self, room: Room, watchers: list[Subscriber]) -> None:
        """Send the room to each of ``watchers`` whose view of it changed, rendered once
        per distinct view: a crowd of visitors costs one render."""
        online = self.online(room.code)
        rendered: dict[tuple[Any, ...], str] = {}
        for watcher in watchers:
            key = view_key(room, watcher)
            if key not in rendered:
                rendered[key] = self.render(room, watcher, {"online": online, "socket": True})
            html = rendered[key]
            noticed = watcher.own.pop(NOTICE, None) is not None
            if html == watcher.own.get(ROOM) and not noticed:
                continue
            watcher.own[ROOM] = html
            if noticed:
                html += '\n<div id="room-notice" class="notice" role="alert"></div>'
            self.channels.deliver(topic(room.code), watcher, html)

    def render(
        self, room: Room | None, watcher: Subscriber, extra: dict[str, Any], notice: str = ""
    ) -> str:
        """The socket message for one watcher: the room (and where to go once it has
        started), or a notice only."""
        with rendering(self.app, watcher.language):
            if room is None:
                html = render_template("rooms/_notice.html", code=notice)
                return split_fragments(html)["room-notice"]
            html = render_template("rooms/_room.html", **context(room, watcher.person, **extra))
            parts = split_fragments(html)
            return "\n".join(parts.values())


def topic(code: str) -> str:
    """The room's channel (webapp/channels.py)."""
    return f"room:{code}"


def here_key(code: str) -> str:
    """The fact each process states of who watches the room from it."""
    return f"here:{code}"


def view_key(room: Room, watcher: Subscriber) -> tuple[Any, ...]:
    """What the room's page depends on besides the room itself (see rooms/_room.html):
    watchers with equal keys are sent the same render."""
    player = watcher.person
    return (
        watcher.language,
        room.seat_of(player),
        player is not None and player == room.host,
        player is not None and player in room.kicked,
    )


def context(room: Room, player: str | None, **extra: Any) -> dict[str, Any]:
    setup = setups()[room.game]
    me = room.seat_of(player)
    count = len(room.seats)
    # The seats as drawn around the table, from this player's side: theirs at the bottom,
    # then in turn order to the right, across and on to the left (see ``spots`` in
    # rooms/_room.html): the player on your left plays just before you (docs/rules.md, Koa).
    start = me if me is not None else 0
    around = [(start + k) % count for k in range(count)]
    return {
        "room": room,
        "setup": setup,
        "me": me,
        "player": player,
        "host": player is not None and player == room.host,
        "around": around,
        "online": extra.get("online", set()),
        "levels": logic.LEVELS,
        "teams": any(len(team) > 1 for team in registry.get(room.game).teams(count)),
        "with_token": extra.get("with_token", False),
        "socket": extra.get("socket", False),
        "setup_levels": LEVELS,
        "clocks": CLOCK_NAMES,
        "preset": setup.preset_named(room.rules),
    }
