"""CSRF tokens on every form, and whose password a form is about (per-account limits).

Flask-WTF's CSRFProtect refuses any POST without the session's token.  Its token carries a
timestamp, so it changes every second; a page's ETag is therefore computed with the
token's value left out (see webapp/headers.py) but with the session's CSRF secret in, so a
revalidated page (304) always holds a token that still matches the browser's session.
Tokens do not expire on their own (``WTF_CSRF_TIME_LIMIT = None``): they live as long as
the session's secret, which is renewed at every sign-in and sign-out.

Rate limits are declared on the views they limit (webapp/rate_limits.py), per client
address and, on the password forms, also per account (:func:`account_key`).  The client's
address is the one the edge finds (webapp/edge.py: ``LAPAU_PROXIES`` says how many
reverse proxies in front are trusted).
"""

from __future__ import annotations

import hashlib

from flask import Flask, g, render_template, request, session
from flask_login import current_user
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf

from webapp.auth.rules import normalise_username
from webapp.errors import way_back

csrf = CSRFProtect()


def account_key() -> str:
    """Whose password a form is about: the signed-in account, or the username it names
    (the key of the per-account rate limits, see webapp/rate_limits.py)."""
    if current_user.is_authenticated:
        return f"account:{current_user.id}"
    return "username:" + normalise_username(request.form.get("username", ""))[:20]


def form_token() -> str:
    """The CSRF token for this page's forms (``csrf_token()`` in templates)."""
    if "csrf_token" not in g:
        secret = session.get("csrf_token")
        # Only a secret the browser already holds may vouch for a cached page.
        g.etag_salt = hashlib.sha256(secret.encode()).digest() if isinstance(secret, str) else b""
    return str(generate_csrf())


def refused(_error: CSRFError) -> tuple[str, int]:
    return render_template("errors/csrf.html", back=way_back()), 400


def init_app(app: Flask) -> None:
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    csrf.init_app(app)
    # Flask-WTF offers its own csrf_token() as a global (replaced in webapp/templating.py)
    # and by a context processor, replaced here.
    app.context_processor(lambda: {"csrf_token": form_token})
    app.register_error_handler(CSRFError, refused)
