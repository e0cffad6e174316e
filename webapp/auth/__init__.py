"""Accounts: local sign-up and sign-in, Google and Apple through OpenID Connect.

A signed-in person plays as ``u-<id>`` (see webapp/play/players.py); a guest who signs
in keeps their tables (the hub moves them; ``create_app`` lets the rooms follow).
"""

from __future__ import annotations

from flask import Flask
from flask_babel import lazy_gettext as _l
from flask_login import LoginManager

from webapp.auth import accounts, models, routes, security

__all__ = ["init_app", "models"]


def load_user(user_id: str) -> models.User | None:
    """The user behind a session's id (``<id>.<token>.<sign-in key>``), while that
    sign-in lives and the account's token still matches (see models.py)."""
    parts = user_id.split(".")
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    return accounts.signed_in_user(int(parts[0]), parts[1], parts[2])


def init_app(app: Flask) -> None:
    production = bool(app.config.get("SESSION_COOKIE_SECURE"))
    app.config.setdefault("REMEMBER_COOKIE_SECURE", production)
    app.config.setdefault("REMEMBER_COOKIE_HTTPONLY", True)
    app.config.setdefault("REMEMBER_COOKIE_SAMESITE", "Lax")
    # "Keep me signed in" lasts as long as a permanent session, not Flask-Login's year.
    app.config.setdefault("REMEMBER_COOKIE_DURATION", app.permanent_session_lifetime)

    manager = LoginManager(app)
    manager.session_protection = "basic"
    manager.login_view = "auth.sign_in"
    manager.refresh_view = "auth.reauthenticate"
    manager.login_message = _l("Sign in to see this page.")
    manager.needs_refresh_message = _l("To change your account, sign in again first.")
    manager.login_message_category = manager.needs_refresh_message_category = "info"
    # Flashed messages are kept in the session cookie as plain text.
    manager.localize_callback = str
    manager.user_loader(load_user)

    app.register_blueprint(routes.bp)
    security.init_app(app)
