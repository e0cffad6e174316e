"""Reading and writing tables and their action logs (SQLModel sessions, short and few)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Engine, insert, update
from sqlmodel import Session, col, select

from webapp.play.models import ActionRecord, TableRecord, utcnow


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a person (guest or account id) or a bot of a level."""

    kind: str
    player: str | None = None
    level: str | None = None
    name: str = ""

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    seed: int
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    owner: str
    finished: bool
    log: tuple[str, ...]


class Store:
    """The tables of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        table_id: str,
        game: str,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[Seat],
        owner: str,
    ) -> None:
        record = TableRecord(
            id=table_id,
            game=game,
            seed=seed,
            options=json.dumps(options, sort_keys=True),
            seats=json.dumps([asdict(seat) for seat in seats]),
            owner=owner,
        )
        with Session(self.engine) as session:
            session.add(record)
            session.commit()

    def append(self, table_id: str, seq: int, text: str, seat: int | None) -> None:
        """Store one action; the (table, seq) key refuses a second write of the same step.

        One short transaction in SQLAlchemy Core: it runs on every move of every table.
        """
        now = utcnow()
        with self.engine.begin() as connection:
            connection.execute(
                insert(ActionRecord).values(
                    table_id=table_id, seq=seq, text=text, seat=seat, at=now
                )
            )
            connection.execute(
                update(TableRecord).where(col(TableRecord.id) == table_id).values(updated_at=now)
            )

    def finish(self, table_id: str) -> None:
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            if record is not None and not record.finished:
                record.finished = True
                session.add(record)
                session.commit()

    def load(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            if record is None:
                return None
            rows = session.exec(
                select(ActionRecord.text)
                .where(ActionRecord.table_id == table_id)
                .order_by(col(ActionRecord.seq))
            ).all()
            return StoredTable(
                id=record.id,
                game=record.game,
                seed=record.seed,
                options=json.loads(record.options),
                seats=tuple(Seat(**seat) for seat in json.loads(record.seats)),
                owner=record.owner,
                finished=record.finished,
                log=tuple(rows),
            )

    def unfinished(self) -> list[str]:
        with Session(self.engine) as session:
            statement = select(TableRecord.id).where(col(TableRecord.finished).is_(False))
            return list(session.exec(statement).all())

    def transfer(self, old: str, new: str) -> list[str]:
        """Give every table of player ``old`` (a guest who signed in) to player ``new``.

        Returns the ids of the tables that changed, so live sessions can follow.
        """
        changed = []
        with Session(self.engine) as session:
            for record in session.exec(select(TableRecord)).all():
                seats = json.loads(record.seats)
                moved = False
                for seat in seats:
                    if seat.get("player") == old:
                        seat["player"] = new
                        moved = True
                if moved or record.owner == old:
                    record.seats = json.dumps(seats)
                    record.owner = new if record.owner == old else record.owner
                    session.add(record)
                    changed.append(record.id)
            session.commit()
        return changed

    def tables_of(self, owner: str, limit: int = 20) -> list[TableRecord]:
        with Session(self.engine) as session:
            statement = (
                select(TableRecord)
                .where(TableRecord.owner == owner)
                .order_by(col(TableRecord.updated_at).desc())
                .limit(limit)
            )
            return list(session.exec(statement).all())
