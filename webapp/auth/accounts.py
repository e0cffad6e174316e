"""Account storage and the moment of signing in: the database side of the routes."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta

from flask import after_this_request, current_app, request, session
from flask_login import login_user, logout_user
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from webapp.auth import rules
from webapp.auth.live import account_sockets, signed_in_as
from webapp.auth.models import OAuthIdentity, SignIn, User, new_token
from webapp.db import engine
from webapp.offline import forget_signed_in_pages
from webapp.services import services


def lifetime() -> timedelta:
    """How long a sign-in may last at most: the session cookie's permanent lifetime."""
    found: timedelta = current_app.permanent_session_lifetime
    return found


def aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes; every moment here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def signed_in_user(user_id: int, token: str, key: str) -> User | None:
    """The account behind a session's id while its sign-in is alive and its token current."""
    with Session(engine()) as db:
        found = db.get(User, user_id)
        signin = db.get(SignIn, key)
    if found is None or found.token != token or signin is None or signin.user_id != user_id:
        return None
    if aware(signin.created_at) + lifetime() < datetime.now(UTC):
        return None  # a remember cookie carries no date of its own
    return found


def hash_method() -> str:
    """How this site hashes passwords (``PASSWORD_HASH``, webapp/config.py)."""
    method: str = current_app.config["PASSWORD_HASH"]
    return method


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (webapp/auth/rules.py)."""
    return rules.check_password(stored, password, hash_method())


def find_by_username(username: str) -> User | None:
    with Session(engine()) as db:
        return db.exec(select(User).where(User.username == username)).first()


def create_user(username: str, password: str | None) -> User | None:
    """A new account, or None when the username is taken."""
    hashed = rules.hash_password(password, hash_method()) if password is not None else None
    user = User(username=username, password_hash=hashed)
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
        stored.password_hash = rules.hash_password(password, hash_method())
        db.add(stored)
        db.commit()
    return end_every_sign_in(user)


def end_every_sign_in(user: User) -> User:
    """Every browser of the account is signed out and its sockets closed."""
    assert user.id is not None
    with Session(engine()) as db:
        db.exec(delete(SignIn).where(col(SignIn.user_id) == user.id))
        stored = db.get(User, user.id)
        assert stored is not None
        stored.token = new_token()
        db.add(stored)
        db.commit()
        db.refresh(stored)
    account_sockets().end(user.id)
    return stored


def delete_user(user: User) -> None:
    """Remove the account and every provider linked to it."""
    assert user.id is not None
    with Session(engine()) as db:
        db.exec(delete(OAuthIdentity).where(col(OAuthIdentity.user_id) == user.id))
        db.exec(delete(SignIn).where(col(SignIn.user_id) == user.id))
        db.exec(delete(User).where(col(User.id) == user.id))
        db.commit()
    account_sockets().end(user.id)
    # Its tables stay for the other players at them, but no longer name the account.
    services().hub.transfer(user.player, "g-" + secrets.token_urlsafe(12))


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


def open_sign_in(user: User) -> str:
    """A new sign-in of the account; its sign-ins too old to be used are cleared."""
    assert user.id is not None
    signin = SignIn(user_id=user.id)
    key = signin.key
    with Session(engine()) as db:
        expired = datetime.now(UTC) - lifetime()
        db.exec(
            delete(SignIn).where(col(SignIn.user_id) == user.id, col(SignIn.created_at) < expired)
        )
        db.add(signin)
        db.commit()
    return key


def new_session_id(user: User) -> str:
    """The id Flask-Login keeps for a new sign-in: ``<user id>.<token>.<sign-in key>``."""
    return f"{user.get_id()}.{open_sign_in(user)}"


def remembered() -> bool:
    """Whether this browser was kept signed in (it holds a remember cookie)."""
    name = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
    return name in request.cookies


def sign_in(user: User, remember: bool | None = None) -> None:
    """Sign ``user`` in on this browser; a guest's tables become the account's.

    Without "keep me signed in" the session cookie ends with the browser; with it, the
    session and the remember cookie last the permanent lifetime.  ``None`` keeps what
    this browser chose before (signing in again, a new password).
    """
    remember = remembered() if remember is None else remember
    guest = session.get("player")
    ending = signed_in_as()
    # A fresh CSRF secret for the signed-in session.
    session.pop("csrf_token", None)
    login_user(user, remember=remember, fresh=True)
    # The sign-in's key joins the id Flask-Login keeps in the session and copies into
    # the remember cookie, so either is worth something only while the sign-in lives.
    session["_user_id"] = new_session_id(user)
    session.permanent = remember
    if ending is not None:
        end_sign_in(*ending)  # signing in again (or as someone else) replaces the old one
    if isinstance(guest, str) and guest.startswith("g-"):
        services().hub.transfer(guest, user.player)
    session.pop("player", None)


def end_sign_in(user_id: int, key: str) -> None:
    with Session(engine()) as db:
        db.exec(delete(SignIn).where(col(SignIn.key) == key, col(SignIn.user_id) == user_id))
        db.commit()
    account_sockets().end(user_id, key)


def sign_out() -> None:
    # The browser drops every page it kept while signed in (webapp/offline.py).
    after_this_request(forget_signed_in_pages)
    ending = signed_in_as()
    if ending is not None:
        end_sign_in(*ending)
    logout_user()
    session.pop("player", None)
    session.pop("csrf_token", None)
    session.permanent = False
