"""Account storage and the moment of signing in: the database side of the routes."""

from __future__ import annotations

import re
import secrets

from flask import current_app, session
from flask_login import login_user, logout_user
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from webapp.auth import rules
from webapp.auth.models import OAuthIdentity, User, new_token
from webapp.db import engine


def find_user(user_id: int) -> User | None:
    with Session(engine()) as db:
        return db.get(User, user_id)


def find_by_username(username: str) -> User | None:
    with Session(engine()) as db:
        return db.exec(select(User).where(User.username == username)).first()


def create_user(username: str, password: str | None) -> User | None:
    """A new account, or None when the username is taken."""
    user = User(
        username=username,
        password_hash=rules.hash_password(password) if password is not None else None,
    )
    with Session(engine()) as db:
        db.add(user)
        try:
            db.commit()
        except IntegrityError:
            return None
        db.refresh(user)
        return user


def set_password(user: User, password: str) -> User:
    """Change the password; a new token signs out every other session of this account."""
    with Session(engine()) as db:
        stored = db.get(User, user.id)
        assert stored is not None
        stored.password_hash = rules.hash_password(password)
        stored.token = new_token()
        db.add(stored)
        db.commit()
        db.refresh(stored)
        return stored


def delete_user(user: User) -> None:
    """Remove the account and every provider linked to it."""
    with Session(engine()) as db:
        db.exec(delete(OAuthIdentity).where(col(OAuthIdentity.user_id) == user.id))
        db.exec(delete(User).where(col(User.id) == user.id))
        db.commit()
    # Its tables stay for the other players at them, but no longer name the account.
    current_app.extensions["lapau.hub"].transfer(user.player, "g-" + secrets.token_urlsafe(12))


def identity_user(provider: str, subject: str) -> User | None:
    with Session(engine()) as db:
        statement = (
            select(User)
            .join(OAuthIdentity, col(OAuthIdentity.user_id) == col(User.id))
            .where(OAuthIdentity.provider == provider, OAuthIdentity.subject == subject)
        )
        return db.exec(statement).first()


def identities_of(user: User) -> list[str]:
    with Session(engine()) as db:
        statement = select(OAuthIdentity.provider).where(OAuthIdentity.user_id == user.id)
        return sorted(db.exec(statement).all())


def link_identity(user: User, provider: str, subject: str) -> None:
    assert user.id is not None
    with Session(engine()) as db:
        db.add(OAuthIdentity(provider=provider, subject=subject, user_id=user.id))
        db.commit()


def username_from_claims(claims: dict[str, object], provider: str) -> str:
    """A free username from what the provider tells about the person."""
    for key in ("preferred_username", "email", "given_name", "name"):
        value = claims.get(key)
        if isinstance(value, str) and value:
            base = re.sub(r"[^a-z0-9_-]", "", value.split("@")[0].lower())[:14]
            if len(base) >= 3:
                break
    else:
        base = provider
    candidate = base
    while find_by_username(candidate) is not None:
        candidate = f"{base}-{secrets.randbelow(100000)}"
    return candidate


def user_from_identity(provider: str, subject: str, claims: dict[str, object]) -> User:
    """The account linked to this provider's subject, made on the first sign-in."""
    found = identity_user(provider, subject)
    if found is not None:
        return found
    for _attempt in range(5):
        user = create_user(username_from_claims(claims, provider), None)
        if user is not None:
            link_identity(user, provider, subject)
            return user
    raise RuntimeError("no free username")


def sign_in(user: User, remember: bool = False) -> None:
    """Sign ``user`` in on this browser; a guest's tables become the account's."""
    guest = session.get("player")
    # A fresh CSRF secret for the signed-in session.
    session.pop("csrf_token", None)
    login_user(user, remember=remember, fresh=True)
    session.permanent = True
    if isinstance(guest, str) and guest.startswith("g-"):
        current_app.extensions["lapau.hub"].transfer(guest, user.player)
    session.pop("player", None)


def sign_out() -> None:
    logout_user()
    session.pop("player", None)
    session.pop("csrf_token", None)
