"""Accounts: a person's username and password hash, and the sign-in providers linked to it.

A username is stored lower-case (it may only hold ``a-z 0-9 _ -``), so uniqueness is
case-insensitive.  An account made through Google or Apple may have no password.

Each sign-in of a browser is a :class:`SignIn` row with a random key.  The id Flask-Login
keeps in the session and the remember cookie is ``<user id>.<token>.<sign-in key>``
(see webapp/auth/accounts.py): signing out deletes the row, so a copy of the cookie taken
before opens nothing; "sign out everywhere" and a new password delete every row of the
account and change its ``token``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    return secrets.token_urlsafe(12)


class User(SQLModel, table=True):
    __tablename__ = "auth_user"
    # An id is never given out twice (SQLite reuses the highest one after a delete without
    # this): it names the player at tables, in rooms and on open sockets.
    __table_args__ = {"sqlite_autoincrement": True}

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(unique=True, index=True, max_length=20)
    password_hash: str | None = Field(default=None, max_length=255)
    token: str = Field(default_factory=new_token, max_length=32)
    created_at: datetime = Field(default_factory=utcnow)

    # Flask-Login's user protocol.
    @property
    def is_active(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False

    @property
    def is_authenticated(self) -> bool:
        return True

    def get_id(self) -> str:
        return f"{self.id}.{self.token}"

    @property
    def player(self) -> str:
        """The id this account plays under at the tables."""
        return f"u-{self.id}"


class OAuthIdentity(SQLModel, table=True):
    """One provider's account (``provider`` + its stable ``subject``) linked to a user."""

    __tablename__ = "auth_identity"
    __table_args__ = (UniqueConstraint("provider", "subject"),)

    id: int | None = Field(default=None, primary_key=True)
    provider: str = Field(max_length=16)
    subject: str = Field(max_length=255)
    user_id: int = Field(foreign_key="auth_user.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)


class SignIn(SQLModel, table=True):
    """One browser's sign-in, alive until it signs out (or the account signs out everywhere)."""

    __tablename__ = "auth_signin"

    key: str = Field(default_factory=new_token, primary_key=True, max_length=32)
    user_id: int = Field(foreign_key="auth_user.id", index=True, ondelete="CASCADE")
    created_at: datetime = Field(default_factory=utcnow)
