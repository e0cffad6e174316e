"""Who is playing: a guest identity kept in the signed session cookie.

Practice needs no account.  The first visit to a table page gives the browser a random
guest id in Flask's signed session; tables are owned by that id, so the guest can come
back to unfinished ones.  A signed-in person plays as ``u-<account id>``; when a guest
signs in, their tables move to that id (see webapp/auth/accounts.py).
"""

from __future__ import annotations

import secrets

from flask import session
from flask_login import current_user


def signed_in_player() -> str | None:
    """The account's player id when someone is signed in."""
    if current_user and current_user.is_authenticated:
        return f"u-{current_user.id}"
    return None


def current_player() -> str:
    """This browser's player id, created on first use."""
    account = signed_in_player()
    if account is not None:
        return account
    player = session.get("player")
    if not isinstance(player, str) or not player.startswith("g-"):
        player = "g-" + secrets.token_urlsafe(12)
        session["player"] = player
        session.permanent = True
    return player


def known_player() -> str | None:
    """This browser's player id if it has one already (never creates one)."""
    account = signed_in_player()
    if account is not None:
        return account
    player = session.get("player")
    return player if isinstance(player, str) else None
