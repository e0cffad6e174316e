"""Lapau, the web application: ``create_app`` builds it, as Flask's tutorial does."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: environment settings first, then ``config`` over them (tests)."""
    instance_path = os.environ.get("LAPAU_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        instance_relative_config=True,
        static_folder=None,
    )
    # Owner only: the secret key and the SQLite database live here.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)

    from webapp import config as settings

    app.config.from_mapping(settings.from_environment(app.instance_path))
    if config:
        app.config.from_mapping(config)

    from webapp import (
        adapters,
        assets,
        auth,
        cli,
        db,
        display,
        edge,
        errors,
        headers,
        health,
        locale,
        logs,
        offline,
        pages,
        play,
        ranking,
        request_log,
        rooms,
        routing,
        rules,
        schema,
        social,
        sockets,
    )

    routing.init_app(app)
    logs.init_app(app)
    request_log.init_app(app)
    health.init_app(app)
    locale.init_app(app)
    assets.init_app(app)
    headers.init_app(app)
    edge.init_app(app)
    db.init_app(app)
    schema.init_app(app)
    cli.init_app(app)
    errors.init_app(app)
    display.init_app(app)
    adapters.init_app(app)
    sockets.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(rules.bp)
    offline.init_app(app)
    play.init_app(app)
    rooms.init_app(app)
    social.init_app(app)
    auth.init_app(app)
    ranking.init_app(app)
    return app


def resume_tables(app: Flask) -> int:
    """Resume every unfinished table from its stored log; the web server calls it once
    its worker is ready (gunicorn.conf.py).

    Not part of ``create_app``: every ``flask`` command builds the app too, and a release
    step that resumed tables would start their bots and clocks beside the running site,
    moving the same tables from two processes.
    """
    from webapp import db, schema

    with app.app_context():
        if not schema.is_current(db.engine()):
            return 0
        resumed: int = app.extensions["lapau.hub"].restore()
        return resumed
