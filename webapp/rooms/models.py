"""The stored side of rooms: one row per room, its seats as JSON.

A room is small and changes a few times a minute at most, so it is read and written
whole; the live listeners are the only thing kept in memory (see live.py), and a
restarted server finds every room as it was.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import Engine
from sqlmodel import Field, Session, SQLModel, col, select

from webapp.rooms.logic import Place, Room, utcnow


class RoomRecord(SQLModel, table=True):
    __tablename__ = "rooms_room"

    code: str = Field(primary_key=True, max_length=8)
    game: str = Field(max_length=16)
    option: str = Field(max_length=16, description="JSON of the game's one option")
    level: str = Field(default="medium", max_length=8)
    clock: int = Field(default=30, description="turn clock in the rules' seconds; 0: none")
    host: str = Field(index=True, max_length=64)
    seats: str = Field(description="JSON list: null or kind, player, name, level, ready")
    status: str = Field(default="waiting", index=True, max_length=10)
    table_id: str | None = Field(default=None, index=True, max_length=16)
    kicked: str = Field(default="[]", description="JSON list of removed player ids")
    locked: bool = Field(default=False)
    rules: str = Field(default="standard", max_length=16, description="house-rule preset")
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


def to_room(record: RoomRecord) -> Room:
    return Room(
        code=record.code,
        game=record.game,
        option=json.loads(record.option),
        host=record.host,
        seats=[None if s is None else Place(**s) for s in json.loads(record.seats)],
        level=record.level,
        clock=record.clock,
        status=record.status,
        table_id=record.table_id,
        kicked=list(json.loads(record.kicked)),
        locked=record.locked,
        rules=record.rules,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def load(engine: Engine, code: str) -> Room | None:
    with Session(engine) as session:
        record = session.get(RoomRecord, code)
        return None if record is None else to_room(record)


def save(engine: Engine, room: Room) -> None:
    """Write the whole room (insert or update)."""
    with Session(engine) as session:
        record = session.get(RoomRecord, room.code) or RoomRecord(
            code=room.code, game=room.game, option="null", host=room.host, seats="[]"
        )
        record.game = room.game
        record.option = json.dumps(room.option)
        record.level = room.level
        record.clock = room.clock
        record.host = room.host
        record.seats = json.dumps([None if p is None else p.as_dict() for p in room.seats])
        record.status = room.status
        record.table_id = room.table_id
        record.kicked = json.dumps(room.kicked)
        record.locked = room.locked
        record.rules = room.rules
        record.created_at = room.created_at
        record.updated_at = room.updated_at
        session.add(record)
        session.commit()


def exists(engine: Engine, code: str) -> bool:
    with Session(engine) as session:
        return session.get(RoomRecord, code) is not None


def with_player(engine: Engine, player: str) -> list[Room]:
    """The open rooms where ``player`` sits, hosts or was removed."""
    with Session(engine) as session:
        statement = select(RoomRecord).where(
            col(RoomRecord.status).in_(("waiting", "playing")),
            col(RoomRecord.seats).contains(json.dumps(player))
            | col(RoomRecord.kicked).contains(json.dumps(player))
            | (RoomRecord.host == player),
        )
        return [to_room(record) for record in session.exec(statement).all()]


def by_table(engine: Engine, table_id: str) -> Room | None:
    with Session(engine) as session:
        record = session.exec(select(RoomRecord).where(RoomRecord.table_id == table_id)).first()
        return None if record is None else to_room(record)
