"""The reader's preference cookies (language, display settings), set one way.

They last a year, are never read by scripts, travel only on same-site navigations, and
in production only over https (``Secure`` follows the session cookie's setting).
"""

from __future__ import annotations

from flask import current_app
from werkzeug.wrappers import Response

YEAR = 365 * 24 * 3600


def remember_preference(response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=YEAR,
        samesite="Lax",
        httponly=True,
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
    )
