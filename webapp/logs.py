"""Structured logs: one JSON object per line on standard error, for a PaaS log drain.

Every logger of the app (``webapp`` and the modules' ``webapp.*``, Flask's
``app.logger`` included) writes through one handler.  A plain record becomes
``{"ts", "level", "logger", "msg"}`` (plus ``"error"`` with the traceback); an event
written with :func:`event` becomes ``{"ts", "level", "event", ...its fields}``, e.g. one
line per request (webapp/request_log.py) or per socket session.

Fields are facts, never secrets: no passwords, cookies, session ids, query strings or
room codes.  JSON escapes every control character, so no value can forge a line.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.logging import default_handler

#: The package's logger: Flask's ``app.logger`` and every ``logging.getLogger(__name__)``.
ROOT = "webapp"
events = logging.getLogger(f"{ROOT}.events")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        line: dict[str, Any] = {
            "ts": stamp.replace("+00:00", "Z"),
            "level": record.levelname.lower(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line["event"] = record.getMessage()
            line.update(fields)
        else:
            line["logger"] = record.name
            line["msg"] = record.getMessage()
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str, separators=(",", ":"))


class StandardError(logging.Handler):
    """Writes to whatever ``sys.stderr`` is at the time (gunicorn's, or a test's)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - logging's own way: a failed write is reported, never raised
            self.handleError(record)


def event(name: str, /, **fields: object) -> None:
    """One line for the event ``name`` (``"request"``, ``"socket"``…) with its fields."""
    events.info(name, extra={"fields": fields})


def init_app(app: Flask) -> None:
    """Install the handler once per process (tests build many apps)."""
    logger = logging.getLogger(ROOT)
    logger.removeHandler(default_handler)
    if not any(isinstance(handler, StandardError) for handler in logger.handlers):
        handler = StandardError()
        handler.setFormatter(JsonLines())
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
