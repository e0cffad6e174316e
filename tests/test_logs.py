"""The app's log lines: one JSON object each, whatever they carry."""

from __future__ import annotations

import json
import logging

import pytest

from webapp import logs
from webapp.services import Lapau


def test_events_and_plain_records_are_one_json_line_each(
    app: Lapau, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    logs.event("socket", kind="table", seconds=12.5, path='/ws/x\n{"forged": true}')
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("webapp.play.hub").exception("bot failed on table %s", "t1")
    app.logger.warning("from Flask's own logger")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3, lines
    socket, failure, flask = (json.loads(line) for line in lines)
    assert socket["event"] == "socket" and socket["kind"] == "table"
    assert socket["seconds"] == 12.5 and socket["path"] == '/ws/x\n{"forged": true}'
    assert failure["level"] == "error" and failure["logger"] == "webapp.play.hub"
    assert failure["msg"] == "bot failed on table t1"
    assert "Traceback" in failure["error"] and "ValueError: boom" in failure["error"]
    assert flask == {
        **flask,
        "level": "warning",
        "logger": "webapp",
        "msg": "from Flask's own logger",
    }


def test_building_many_apps_installs_one_handler(app: Lapau) -> None:
    logs.init_app(app)
    logs.init_app(app)
    handlers = logging.getLogger(logs.ROOT).handlers
    assert [type(handler) for handler in handlers] == [logs.StandardError]
