"""Error pages in the reader's language: a wrong address is a page, not a crash."""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException, SecurityError


def not_found(_error: HTTPException) -> tuple[str, int]:
    return render_template("errors/404.html"), 404


def server_error(_error: Exception) -> tuple[str, int]:
    return render_template("errors/500.html"), 500


def unknown_host(_error: SecurityError) -> tuple[str, int]:
    """A Host the site is not configured for (see webapp/config.py): no page is routed
    and no URL can be built, so the page stands alone and links nowhere."""
    return render_template("errors/host.html"), 400


def init_app(app: Flask) -> None:
    app.register_error_handler(SecurityError, unknown_host)
    app.register_error_handler(404, not_found)
    app.register_error_handler(500, server_error)
