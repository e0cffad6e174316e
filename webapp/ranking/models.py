"""The stored side of ratings: one row per rated table, per player per game, per
player per rated table (the history the profile's chart and recent results read), and
per pair of partners per game (a team of two, Koa's mandan: their own record and rating).

Rows point at accounts with ``ON DELETE CASCADE``: a deleted account takes its ratings
and history with it (and its id is never given out again, see auth/models.py).
The rated table's id is a primary key, so a table is rated at most once, whoever asks.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, Index
from sqlmodel import Field, SQLModel

from webapp.ranking.elo import INITIAL


def utcnow() -> datetime:
    return datetime.now(UTC)


class RatedTable(SQLModel, table=True):
    __tablename__ = "ranking_table"

    table_id: str = Field(primary_key=True, max_length=16)
    game: str = Field(max_length=16)
    rated_at: datetime = Field(default_factory=utcnow)


class Record(SQLModel):
    """A rating and the rated matches behind it (a player's, or a pair's)."""

    rating: float = INITIAL
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    updated_at: datetime = Field(default_factory=utcnow)


class Rating(Record, table=True):
    __tablename__ = "ranking_rating"
    __table_args__ = (Index("ranking_rating_board", "game", "rating"),)

    user_id: int = Field(primary_key=True, foreign_key="auth_user.id", ondelete="CASCADE")
    game: str = Field(primary_key=True, max_length=16)


class RatedResult(SQLModel, table=True):
    """One player's side of one rated table: how they did and how their rating moved."""

    __tablename__ = "ranking_result"
    __table_args__ = (Index("ranking_result_history", "user_id", "game", "rated_at"),)

    table_id: str = Field(primary_key=True, foreign_key="ranking_table.table_id", max_length=16)
    user_id: int = Field(primary_key=True, foreign_key="auth_user.id", ondelete="CASCADE")
    game: str = Field(max_length=16)
    seat: int
    team: int = Field(description="index of the seat's team in the game's teams")
    score: float = Field(description="1 won, 0.5 drawn, 0 lost")
    before: float
    after: float
    rated_at: datetime = Field(default_factory=utcnow)


class PairRating(Record, table=True):
    """Two accounts' rating as partners in one game (a team of two), one row per unordered
    pair: ``first_id`` is the smaller account id.  It moves only by matches the two played
    on one side, the pair against the other team's pair."""

    __tablename__ = "ranking_pair"
    __table_args__ = (
        CheckConstraint("first_id < second_id", name="ranking_pair_ordered"),
        Index("ranking_pair_board", "game", "rating"),
        Index("ranking_pair_second", "second_id", "game"),
    )

    game: str = Field(primary_key=True, max_length=16)
    first_id: int = Field(primary_key=True, foreign_key="auth_user.id", ondelete="CASCADE")
    second_id: int = Field(primary_key=True, foreign_key="auth_user.id", ondelete="CASCADE")
