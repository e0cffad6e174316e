"""Who is playing: a guest identity kept in the signed session cookie.

Practice needs no account.  The first visit to a table page gives the browser a random
guest id in Flask's signed session; tables are owned by that id, so the guest can come
back to unfinished ones.  (Accounts will map a signed-in player to their own id.)
"""

from __future__ import annotations

import secrets

from flask import session


def current_player() -> str:
    """This browser's player id, created on first use."""
    player = session.get("player")
    if not isinstance(player, str) or not player.startswith("g-"):
        player = "g-" + secrets.token_urlsafe(12)
        session["player"] = player
        session.permanent = True
    return player


def known_player() -> str | None:
    """This browser's player id if it has one already (never creates one)."""
    player = session.get("player")
    return player if isinstance(player, str) else None
