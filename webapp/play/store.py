"""Reading and writing tables and their action logs (SQLModel sessions, short and few).

A move is stored before the table adopts it, so a write that fails must fail cleanly:
:meth:`Store.append` tries a busy or locked database a few more times (SQLite's own
busy timeout waits first; on PostgreSQL a deadlock or a lock not granted), and otherwise
raises :class:`StoreError`, which the table
turns into a refusal that changes nothing.

A table whose log the rules of the day refuse (after a rules change) is marked broken
with the reason (:meth:`Store.mark_broken`, which logs it that one time); loading it
again raises :class:`TableBroken` at once, without replaying.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Engine, bindparam, func, insert, update
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

from webapp.game import registry
from webapp.play.models import BROKEN_REASON_LENGTH, ActionRecord, TableRecord, utcnow

log = logging.getLogger(__name__)

#: Pauses before the second and third try of a write that found the database busy.
BUSY_RETRIES = (0.05, 0.2)


class StoreError(Exception):
    """A move could not be stored (database busy, locked, full or gone): nothing changed."""


class StepTaken(StoreError):
    """The log holds that step already: another process moved the table meanwhile (two
    owners for a moment, webapp/play/lease.py), so this one's state is behind."""


class TableBroken(Exception):
    """A stored table that can no longer be played: its log does not replay.

    ``finished`` tells whether the match had ended before (then its ratings stand).
    """

    def __init__(self, table_id: str, game: str, reason: str, finished: bool) -> None:
        super().__init__(f"table {table_id} is broken: {reason}")
        self.table_id = table_id
        self.game = game
        self.reason = reason
        self.finished = finished


#: PostgreSQL error codes (SQLSTATE, or its class) of a write that may succeed if tried
#: again: the transaction was rolled back (serialization failure, deadlock) or a lock was
#: not available.  A lost connection is not among them: its commit may have happened.
RETRY_SQLSTATES = ("40", "55P03")


def is_busy(error: BaseException) -> bool:
    """Whether a failed write may succeed if tried again shortly (a lock, not a fault).

    >>> from sqlalchemy.exc import IntegrityError, OperationalError
    >>> is_busy(OperationalError("INSERT", {}, Exception("database is locked")))
    True
    >>> is_busy(OperationalError("INSERT", {}, Exception("database or disk is full")))
    False
    >>> from psycopg import errors
    >>> is_busy(OperationalError("INSERT", {}, errors.DeadlockDetected("deadlock detected")))
    True
    >>> is_busy(IntegrityError("INSERT", {}, errors.UniqueViolation("duplicate key value")))
    False
    """
    reason = getattr(error, "orig", None) or error
    sqlstate = getattr(reason, "sqlstate", None)
    if sqlstate is not None:
        return str(sqlstate).startswith(RETRY_SQLSTATES)
    text = str(reason).lower()
    return "locked" in text or "busy" in text


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
    rules_version: int


ADD_ACTION = insert(ActionRecord).values(
    table_id=bindparam("table"),
    seq=bindparam("seq"),
    text=bindparam("text"),
    seat=bindparam("seat"),
    at=bindparam("now"),
)
TOUCH_TABLE = (
    update(TableRecord)
    .where(col(TableRecord.id) == bindparam("table"))
    .values(updated_at=bindparam("now"))
)
#: Both as one statement, which is atomic by itself (PostgreSQL runs a data-modifying
#: WITH whether the rest reads it or not): one round trip instead of four with the
#: transaction's BEGIN and COMMIT.  SQLite has no DML in WITH, and no round trips.
ADD_AND_TOUCH = TOUCH_TABLE.add_cte(ADD_ACTION.cte("added"))


def is_practice(record: TableRecord) -> bool:
    """Whether a stored table is a practice table: one person, every other seat a bot."""
    try:
        seats = json.loads(record.seats)
    except ValueError:
        return False
    return isinstance(seats, list) and sum(seat.get("kind") == "human" for seat in seats) == 1


class Store:
    """The tables of one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: PostgreSQL's moves go as one statement, committed by itself, given to the
        #: driver as SQL made once (see _append_one).
        self.one_statement = engine.dialect.name == "postgresql"
        self.add_and_touch = str(ADD_AND_TOUCH.compile(dialect=engine.dialect))

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
            rules_version=registry.get(game).rules_version,
        )
        with Session(self.engine) as session:
            session.add(record)
            session.commit()

    def append(self, table_id: str, seq: int, text: str, seat: int | None) -> None:
        """Store one action; the (table, seq) key refuses a second write of the same step.

        Raises :class:`StoreError` when the action could not be stored; the transaction is
        then rolled back, so the log holds the action entirely or not at all.
        """
        for pause in (*BUSY_RETRIES, None):
            try:
                self._append(table_id, seq, text, seat)
                return
            except (SQLAlchemyError, OSError) as error:
                # Among them IntegrityError: that step is stored already (two writers on one
                # table); and on PostgreSQL a pool that stayed empty for its whole timeout.
                reason = getattr(error, "orig", None) or error
                if isinstance(error, IntegrityError):
                    log.warning("move %s of table %s is stored already", seq, table_id)
                    raise StepTaken(str(reason)) from error
                # A connection the server dropped (a restart, a failover) fails once;
                # the pool has renewed its connections, so the write is tried again.
                dropped = getattr(error, "connection_invalidated", False)
                if pause is None or not (is_busy(error) or dropped):
                    log.warning("could not store move %s of table %s: %s", seq, table_id, reason)
                    raise StoreError(str(reason)) from error
                time.sleep(pause)

    def _append(self, table_id: str, seq: int, text: str, seat: int | None) -> None:
        # SQLAlchemy Core: it runs on every move of every table, so its statements are
        # built once (building them cost four times the write).
        action = {"table": table_id, "seq": seq, "text": text, "seat": seat, "now": utcnow()}
        if self.one_statement:
            self._append_one(action)
            return
        with self.engine.begin() as connection:
            connection.execute(ADD_ACTION, action)
            connection.execute(TOUCH_TABLE, action)

    def _append_one(self, action: dict[str, Any]) -> None:
        """The move as one statement, straight to the driver on a pooled connection.

        SQLAlchemy's Connection around one prepared statement cost as much CPU as the
        driver's whole write, on every move of every table.  The statement commits by
        itself (autocommit for its duration; the pool's other users expect transactions).
        Its errors come wrapped as SQLAlchemy's would (IntegrityError for a step taken);
        a connection the server dropped is thrown away with every other the pool holds
        from before, as SQLAlchemy does, and the error says so (``connection_invalidated``).
        """
        dialect = self.engine.dialect
        connection = self.engine.raw_connection()  # the pool's checkout, its tests included
        driver = connection.driver_connection
        assert driver is not None  # a connection checked out of the pool is open
        try:
            driver.autocommit = True
            driver.execute(self.add_and_touch, action, prepare=True)
            driver.autocommit = False  # back to transactions, for the pool's other users
        except dialect.loaded_dbapi.Error as error:
            dropped = dialect.is_disconnect(error, driver, None)
            connection.invalidate(error)  # left in autocommit: not for the pool's other users
            if dropped:
                self.engine.dispose(close=False)
            raise DBAPIError.instance(
                self.add_and_touch,
                action,
                error,
                dialect.loaded_dbapi.Error,
                connection_invalidated=dropped,
                dialect=dialect,
            ) from error
        except BaseException:
            # Cut off mid-statement (a killed greenlet): in a state nobody knows, so it is
            # closed, as SQLAlchemy closes one.
            connection.invalidate()
            raise
        finally:
            connection.close()

    def finish(self, table_id: str) -> bool:
        """Mark a table finished; False if the database refused.

        The flag only saves replaying a finished table's log: a table whose flag could
        not be written is replayed at the next start and found finished then.
        """
        try:
            with Session(self.engine) as session:
                record = session.get(TableRecord, table_id)
                if record is not None and not record.finished:
                    record.finished = True
                    session.add(record)
                    session.commit()
        except (SQLAlchemyError, OSError) as error:
            log.warning("could not mark table %s finished: %s", table_id, error)
            return False
        return True

    def mark_broken(self, table_id: str, reason: str) -> None:
        """Record that a table's log no longer replays, and say so in the log this once:
        a table marked broken is never replayed again."""
        reason = reason[:BROKEN_REASON_LENGTH]
        log.warning("table %s no longer replays, marked broken: %s", table_id, reason)
        try:
            with Session(self.engine) as session:
                record = session.get(TableRecord, table_id)
                if record is not None:
                    record.broken = reason
                    session.add(record)
                    session.commit()
        except (SQLAlchemyError, OSError) as error:
            log.warning("could not mark table %s broken: %s", table_id, error)

    def load(self, table_id: str) -> StoredTable | None:
        """The stored table, None if there is none; raises :class:`TableBroken` for one
        marked broken or whose setup no longer reads (marking it)."""
        with Session(self.engine) as session:
            record = session.get(TableRecord, table_id)
            if record is None:
                return None
            if record.broken is not None:
                raise TableBroken(record.id, record.game, record.broken, record.finished)
            rows = session.exec(
                select(ActionRecord.text)
                .where(ActionRecord.table_id == table_id)
                .order_by(col(ActionRecord.seq))
            ).all()
        try:
            options = json.loads(record.options)
            seats = tuple(Seat(**seat) for seat in json.loads(record.seats))
        except (ValueError, TypeError) as error:
            reason = f"unreadable setup: {error}"
            self.mark_broken(record.id, reason)
            raise TableBroken(record.id, record.game, reason, record.finished) from error
        return StoredTable(
            id=record.id,
            game=record.game,
            seed=record.seed,
            options=options,
            seats=seats,
            owner=record.owner,
            finished=record.finished,
            log=tuple(rows),
            rules_version=record.rules_version,
        )

    def unfinished(self) -> list[str]:
        """The tables to resume after a restart: not finished, not broken."""
        with Session(self.engine) as session:
            statement = select(TableRecord.id).where(
                col(TableRecord.finished).is_(False), col(TableRecord.broken).is_(None)
            )
            return list(session.exec(statement).all())

    def transfer(self, old: str, new: str) -> list[str]:
        """Give every table of player ``old`` (a guest who signed in) to player ``new``.

        Returns the ids of the tables that changed, so live sessions can follow.
        """
        changed = []
        with Session(self.engine) as session:
            for record in session.exec(select(TableRecord)).all():
                try:
                    seats = json.loads(record.seats)
                except ValueError:
                    seats = []  # a broken table's: its owner still moves
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

    def unfinished_practice(self, owner: str) -> list[str]:
        """``owner``'s unfinished practice tables (one person, the rest bots), the
        longest untouched first."""
        with Session(self.engine) as session:
            statement = (
                select(TableRecord)
                .where(
                    TableRecord.owner == owner,
                    col(TableRecord.finished).is_(False),
                    col(TableRecord.broken).is_(None),
                )
                .order_by(col(TableRecord.updated_at))
            )
            return [r.id for r in session.exec(statement).all() if is_practice(r)]

    def tables_of(self, owner: str, limit: int = 20) -> list[TableRecord]:
        with Session(self.engine) as session:
            statement = (
                select(TableRecord)
                .where(TableRecord.owner == owner)
                .order_by(col(TableRecord.updated_at).desc())
                .limit(limit)
            )
            return list(session.exec(statement).all())

    def move_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """How many actions each table's log holds (one grouped query; 0 for none)."""
        if not table_ids:
            return {}
        with Session(self.engine) as session:
            statement = (
                select(ActionRecord.table_id, func.count())
                .where(col(ActionRecord.table_id).in_(table_ids))
                .group_by(col(ActionRecord.table_id))
            )
            counted = dict(session.exec(statement).all())
        return {table_id: int(counted.get(table_id, 0)) for table_id in table_ids}
