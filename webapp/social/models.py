"""Friendships: one row per request between two accounts, with its status.

A row is a request from ``asker`` to ``asked``; ``status`` is ``pending`` until the asked
person accepts (``accepted``).  Declining or removing deletes the row, so either person may
ask again later.  The pair is stored a second time in order (``low`` < ``high``) under a
unique constraint: two people have at most one row, whichever way round it was asked.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, UniqueConstraint
from sqlmodel import Field, SQLModel

PENDING = "pending"
ACCEPTED = "accepted"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Friendship(SQLModel, table=True):
    __tablename__ = "social_friendship"
    __table_args__ = (
        UniqueConstraint("low", "high"),
        CheckConstraint("low < high", name="not_yourself"),
    )

    id: int | None = Field(default=None, primary_key=True)
    asker: int = Field(foreign_key="auth_user.id", index=True, ondelete="CASCADE")
    asked: int = Field(foreign_key="auth_user.id", index=True, ondelete="CASCADE")
    low: int
    high: int
    status: str = Field(default=PENDING, max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    accepted_at: datetime | None = None

    def other(self, me: int) -> int:
        """The other person of the pair."""
        return self.asked if self.asker == me else self.asker
