"""The stored side of live tables: a table's setup and its growing action log.

A table is its seed, options and seats plus the action log; the engine state is never
stored, it is the replay of the log.  That keeps every write an append of one short row.
The log is replayed by the rules of the day, so a table keeps the rules version it was
dealt under, and one whose log those rules refuse is marked broken (never replayed again).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Field, SQLModel

#: How much of a broken table's reason is kept (the failed step and the refusal).
BROKEN_REASON_LENGTH = 200


def utcnow() -> datetime:
    return datetime.now(UTC)


class TableRecord(SQLModel, table=True):
    __tablename__ = "play_table"

    id: str = Field(primary_key=True, max_length=16)
    game: str = Field(max_length=16)
    seed: int
    options: str = Field(default="{}", description="JSON object of the game's options")
    seats: str = Field(description="JSON list of seats: kind, player id, bot level, name")
    owner: str = Field(index=True, max_length=64)
    finished: bool = Field(default=False, index=True)
    rules_version: int = Field(default=1, description="the game's rules version at the deal")
    broken: str | None = Field(
        default=None,
        max_length=BROKEN_REASON_LENGTH,
        description="why the log no longer replays (None while it does)",
    )
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class ActionRecord(SQLModel, table=True):
    __tablename__ = "play_action"

    table_id: str = Field(primary_key=True, foreign_key="play_table.id", max_length=16)
    seq: int = Field(primary_key=True)
    text: str = Field(max_length=64)
    seat: int | None = Field(default=None, description="who sent it; None for the table")
    at: datetime = Field(default_factory=utcnow)
