"""One structured log line per request, read from a real server's log.

Each line is a JSON object: method, path (never its query string), status, duration,
bytes sent, the client's address (through ``LAPAU_PROXIES`` trusted proxies) and its
user agent.  Nothing that opens a door is written: no password, cookie, session, query
string or room code.  Successful static files and health checks are left out.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest
from tests.rooms.client import Friend

pytestmark = pytest.mark.live

PASSWORD = "a secret nobody may log 4711"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    instance = tmp_path_factory.mktemp("request-log") / "instance"
    with LiveServer(instance, {**STILL_BOTS, "LAPAU_PROXIES": "1"}) as live:
        yield live


def request_lines(server: LiveServer) -> list[dict[str, Any]]:
    lines = []
    for line in server.log.read_text().splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("event") == "request":
                lines.append(record)
    return lines


def lines_after(server: LiveServer, count: int, wanted: int) -> list[dict[str, Any]]:
    """The request lines after the first ``count``, once ``wanted`` of them are written."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        found = request_lines(server)[count:]
        if len(found) >= wanted:
            return found
        time.sleep(0.05)
    raise AssertionError(f"expected {wanted} request lines, got {request_lines(server)[count:]}")


def test_a_page_request_is_one_line_with_its_facts(server: LiveServer) -> None:
    before = len(request_lines(server))
    opener = urllib.request.build_opener()
    opener.addheaders = [("X-Forwarded-For", "203.0.113.7"), ("User-Agent", "Phone/1.0")]
    with opener.open(f"{server.url}/en/rules?token=abc123") as response:
        body = response.read()
    (line,) = lines_after(server, before, 1)
    assert line["method"] == "GET"
    assert line["path"] == "/en/rules"
    assert line["status"] == 200
    assert line["bytes"] == len(body)
    assert line["client"] == "203.0.113.7"
    assert line["agent"] == "Phone/1.0"
    assert isinstance(line["ms"], float) and 0 <= line["ms"] < 5000
    assert line["level"] == "info"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["ts"])


def test_errors_and_refused_handshakes_are_logged(server: LiveServer) -> None:
    before = len(request_lines(server))
    guest = Guest(server)
    with pytest.raises(urllib.error.HTTPError):
        guest.page("/en/no-such-page")
    assert guest.handshake_status("nosuchtable", "https://evil.example") == 403
    statuses = [(line["path"], line["status"]) for line in lines_after(server, before, 2)]
    assert statuses == [("/en/no-such-page", 404), ("/ws/table/nosuchtable", 403)]


def test_static_files_and_health_checks_are_left_out_when_fine(server: LiveServer) -> None:
    guest = Guest(server)
    stylesheet = re.search(r'href="(/static/css/site\.[^"]+)"', guest.page("/en/"))
    assert stylesheet
    before = len(request_lines(server))
    guest.page(stylesheet.group(1))
    guest.page("/healthz")
    with pytest.raises(urllib.error.HTTPError):
        guest.page("/static/css/site.0000000000.css")
    (line,) = lines_after(server, before, 1)
    assert (line["path"], line["status"]) == ("/static/css/site.0000000000.css", 404)


def test_no_secret_reaches_the_log(server: LiveServer) -> None:
    rina = Friend(server)
    rina.post("/en/sign-up", username="rinalog", password=PASSWORD)
    code = rina.create_room(name="Rina")
    rina.page(f"/en/room/{code}")
    budi = Friend(server)
    budi.join_room(code, name="Budi")
    assert budi.handshake(f"/ws/room/{code}?lang=en", "https://evil.example") == 403
    paths = [line["path"] for line in lines_after(server, 0, 1)]
    assert "/en/room/*" in paths and "/ws/room/*" in paths
    log = Path(server.log).read_text()
    # The session cookies; the language and display cookies are no secret.
    cookies = [
        c.value for guest in (rina, budi) for c in guest.jar if c.name == "session" and c.value
    ]
    assert len(cookies) == 2
    for secret in [PASSWORD, code, *cookies]:
        assert secret not in log, secret
