"""A deployment rehearsal: the Procfile's own commands, production settings, PostgreSQL.

What a PaaS does, step by step: it runs the release step, starts the web command, sends
people through its router (https, its domain, the client's address), and at a restart
sends SIGTERM, wipes the disk and does it all again.  Two people sign up, play a rated
Koi-Koi match to its end and start another; after the restart they sign in again, the
unfinished table is where it was and goes on, and the rating is there.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websocket
from sqlalchemy import create_engine, text

from tests.conftest import ROOT, free_port
from tests.play.client import close_socket, csrf_token
from tests.postgres import Cluster
from webapp.game import registry
from webapp.game.replay import replay

pytestmark = [pytest.mark.live, pytest.mark.slow]  # two deploys and two matches: 40 s

DOMAIN = "lapau.example"
PASSWORD = "kopi di lapau, kartu di meja"
#: Seconds between two moves at the table (each person moves at most every other one).
PACE = 0.3
#: Within a PaaS's 30 s kill deadline, with room to spare.
STOP_DEADLINE = 20


def procfile() -> dict[str, str]:
    """The Procfile's process types and their commands."""
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


class Platform:
    """The Procfile's commands run as a PaaS runs them, on a disk that each start wipes."""

    def __init__(self, cluster: Cluster, work: Path) -> None:
        self.work = work
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.commands = procfile()
        database = cluster.url("rehearsal").replace("postgresql+psycopg://", "postgres://")
        self.env = {
            **os.environ,
            # The venv's programs first, as a buildpack puts the app's on the PATH.
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "PORT": str(self.port),
            # A PaaS hands out postgres:// URLs.
            "DATABASE_URL": database,
            "LAPAU_ENV": "production",
            "SECRET_KEY": secrets.token_hex(32),
            "LAPAU_HOSTS": f"{DOMAIN},127.0.0.1",
            "LAPAU_PROXIES": "1",
            "LAPAU_BOT_DELAY": "0",
            "LAPAU_ROUND_PAUSE": "0",
            "LAPAU_TURN_SECONDS": "600",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("LAPAU_INSTANCE_PATH", None)
        self.web: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def deploy(self) -> None:
        """A fresh disk, the release step, then the web process, up and healthy."""
        self.starts += 1
        disk = self.work / f"dyno-{self.starts}"
        disk.mkdir()
        env = {**self.env, "LAPAU_INSTANCE_PATH": str(disk / "instance")}
        release = subprocess.run(
            ["bash", "-c", self.commands["release"]],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=120,
        )
        assert release.returncode == 0, release.stderr.decode()
        with (self.work / f"web-{self.starts}.log").open("wb") as log:
            self.web = subprocess.Popen(
                ["bash", "-c", self.commands["web"]],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.web.poll() is None, self.log()
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"the web process did not come up:\n{self.log()}")

    def stop(self) -> float:
        """SIGTERM, as a restart sends it; how long the process took to exit."""
        assert self.web is not None
        started = time.monotonic()
        self.web.send_signal(signal.SIGTERM)
        self.web.wait(timeout=30)
        return time.monotonic() - started

    def kill(self) -> None:
        if self.web is not None and self.web.poll() is None:
            self.web.kill()
            self.web.wait()

    def log(self) -> str:
        return (self.work / f"web-{self.starts}.log").read_text(errors="replace")


class TrustingJar(http.cookiejar.DefaultCookiePolicy):
    """Sends the Secure cookies back: the router in front spoke https to the browser."""

    def return_ok_secure(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return True


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """Hands every redirect back to :meth:`Person.request`, which follows it through the
    loopback address instead of the domain its Location names."""

    def redirect_request(self, *_args: Any) -> None:
        return None


class Person:
    """One browser behind the platform's router: https, the site's domain, its address."""

    def __init__(self, platform: Platform, address: str) -> None:
        self.platform = platform
        self.jar = http.cookiejar.CookieJar(TrustingJar())
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirects()
        )
        self.routed = {"Host": DOMAIN, "X-Forwarded-Proto": "https", "X-Forwarded-For": address}

    def request(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, final path and body of a page (a form is posted with its page's token)."""
        data, headers = None, dict(self.routed)
        if form is not None:
            page = form.pop("page", path)
            token = csrf_token(self.request(page)[2])
            data = urllib.parse.urlencode({"csrf_token": token, **form}).encode()
            # A browser names the page a form was on; over https the CSRF check wants it.
            headers["Referer"] = f"https://{DOMAIN}{page}"
        url = f"{self.platform.url}{path}"
        while True:
            request = urllib.request.Request(url, data=data, headers=headers)
            try:
                with self.opener.open(request) as response:
                    return (
                        response.status,
                        urllib.parse.urlsplit(url).path,
                        response.read().decode(),
                    )
            except urllib.error.HTTPError as error:
                if error.code not in (301, 302, 303, 307, 308):
                    return error.code, urllib.parse.urlsplit(url).path, error.read().decode()
                # Links name the site's domain; the rehearsal reaches it through loopback.
                location = urllib.parse.urlsplit(error.headers["Location"])
                assert location.netloc in ("", DOMAIN), location
                url = f"{self.platform.url}{location.path}"
                data = None if error.code == 303 else data

    def sign_up(self, name: str) -> None:
        form = {"username": name, "password": PASSWORD, "confirm": PASSWORD}
        status, path, _ = self.request("/en/sign-up", form)
        assert status == 200 and path != "/en/sign-up", path

    def sign_in(self, name: str) -> None:
        form = {"username": name, "password": PASSWORD}
        status, path, _ = self.request("/en/sign-in", form)
        assert status == 200 and path != "/en/sign-in", path

    def socket(self, path: str) -> Listening:
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.platform.port}{path}",
            host=DOMAIN,
            origin=f"https://{DOMAIN}",
            cookie=cookies,
            header=[
                "X-Forwarded-Proto: https",
                f"X-Forwarded-For: {self.routed['X-Forwarded-For']}",
            ],
            timeout=10,
        )
        return Listening(ws)


class Listening:
    """An open socket whose messages are read as they come (nobody's buffer fills)."""

    def __init__(self, ws: websocket.WebSocket) -> None:
        self.ws = ws
        self.messages: list[str] = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        try:
            while True:
                self.messages.append(str(self.ws.recv()))
        except Exception:  # noqa: BLE001 - the socket closed, the reading ends
            return

    def send(self, payload: dict[str, Any]) -> None:
        self.ws.send(json.dumps({**payload, "HEADERS": {"HX-Request": "true"}}))

    def wait_for(self, needle: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.messages:
                if needle in message:
                    return message
            time.sleep(0.02)
        # What did arrive (a refusal's notice, say) tells why.
        raise AssertionError(f"never received {needle!r}; the last: {self.messages[-3:]}")

    def close(self) -> None:
        close_socket(self.ws)


class Database:
    """What the platform's PostgreSQL holds, read behind the site's back."""

    def __init__(self, cluster: Cluster) -> None:
        self.engine = create_engine(cluster.url("rehearsal"))

    def rows(self, statement: str, **params: object) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(text(statement), params).all())

    def log(self, table_id: str) -> list[str]:
        rows = self.rows(
            "SELECT text FROM play_action WHERE table_id = :t ORDER BY seq", t=table_id
        )
        return [row[0] for row in rows]

    def close(self) -> None:
        # Left to the collector, the driver warns in whichever test runs next.
        self.engine.dispose()

    def newest_table(self) -> str:
        return str(self.rows("SELECT id FROM play_table ORDER BY created_at DESC LIMIT 1")[0][0])


def open_match(host: Person, guest: Person) -> list[Listening]:
    """A Koi-Koi room of two accounts over three rounds, started; the two room sockets."""
    status, path, _ = host.request("/en/room/new", {"page": "/en/room/", "game": "koikoi"})
    assert status == 200, path
    code = path.rstrip("/").rsplit("/", 1)[1]
    status, _, _ = guest.request("/en/room/join", {"page": "/en/room/", "code": code})
    assert status == 200
    rooms = [host.socket(f"/ws/room/{code}?lang=en"), guest.socket(f"/ws/room/{code}?lang=en")]
    rooms[0].send({"a": "option 3"})
    rooms[1].wait_for("Rounds: 3")
    rooms[1].send({"a": "ready"})
    rooms[0].wait_for("Everyone is ready.")
    rooms[0].send({"a": "start"})
    rooms[0].wait_for("room-go")
    return rooms


def play(db: Database, table_id: str, sockets: dict[int, Listening], moves: int | None) -> None:
    """Play legal moves as each seat's person (a seeded choice among the rules' legal
    actions), each acknowledged by the stored log, until ``moves`` or the match's end."""
    koikoi = registry.get("koikoi")
    [(seed, options)] = db.rows("SELECT seed, options FROM play_table WHERE id = :t", t=table_id)
    rng = random.Random(seed)
    played = 0
    deadline = time.monotonic() + 180
    while moves is None or played < moves:
        assert time.monotonic() < deadline, "the match did not end"
        log = db.log(table_id)
        state = replay(koikoi, seed, json.loads(options), tuple(log))
        if koikoi.outcome(state) is not None:
            assert moves is None, "the match ended early"
            return
        seat = koikoi.to_act(state)
        if seat is None:  # the table deals the next round itself
            time.sleep(0.02)
            continue
        action = rng.choice(koikoi.legal_actions(state))
        sockets[seat].send({"a": str(action), "v": str(len(log))})
        while len(db.log(table_id)) == len(log):
            assert time.monotonic() < deadline, f"move {action} was never stored"
            time.sleep(0.01)
        played += 1
        # A person's pace: well inside a socket's message budget (webapp/flood.py).
        time.sleep(PACE)


@pytest.fixture
def platform(postgres: Cluster, tmp_path: Path) -> Iterator[Platform]:
    postgres.create_database("rehearsal")
    made = Platform(postgres, tmp_path)
    try:
        yield made
    finally:
        made.kill()


@pytest.fixture
def db(platform: Platform, postgres: Cluster) -> Iterator[Database]:
    found = Database(postgres)
    try:
        yield found
    finally:
        found.close()


def test_a_release_a_restart_and_everything_is_still_there(
    platform: Platform, db: Database
) -> None:
    platform.deploy()
    rina, budi = Person(platform, "203.0.113.7"), Person(platform, "198.51.100.23")
    rina.sign_up("rina")
    budi.sign_up("budi")
    seats = {name: seat for seat, name in enumerate(("rina", "budi"))}

    # A rated match, played to its end.
    rooms = open_match(rina, budi)
    rated = db.newest_table()
    tables = [rina.socket(f"/ws/table/{rated}?lang=en"), budi.socket(f"/ws/table/{rated}?lang=en")]
    play(db, rated, {seats["rina"]: tables[0], seats["budi"]: tables[1]}, None)
    deadline = time.monotonic() + 10
    while not db.rows("SELECT 1 FROM ranking_table WHERE table_id = :t", t=rated):
        assert time.monotonic() < deadline, "the match was never rated"
        time.sleep(0.05)
    for socket in (*rooms, *tables):
        socket.close()

    # A second match, left in the middle.
    rooms = open_match(rina, budi)
    unfinished = db.newest_table()
    assert unfinished != rated
    tables = [
        rina.socket(f"/ws/table/{unfinished}?lang=en"),
        budi.socket(f"/ws/table/{unfinished}?lang=en"),
    ]
    play(db, unfinished, {seats["rina"]: tables[0], seats["budi"]: tables[1]}, 7)
    before = db.log(unfinished)

    # The restart: SIGTERM, a wiped disk, the release step again, the web process again.
    assert platform.stop() < STOP_DEADLINE
    for socket in (*rooms, *tables):
        socket.close()
    platform.deploy()

    # New browsers (the old cookies may be gone): sign in, and it is all there.
    rina, budi = Person(platform, "203.0.113.7"), Person(platform, "198.51.100.23")
    rina.sign_in("rina")
    budi.sign_in("budi")
    status, _, page = rina.request(f"/en/table/{unfinished}")
    assert status == 200
    assert f'id="version" name="v" value="{len(before)}"' in page
    assert db.log(unfinished) == before
    tables = [
        rina.socket(f"/ws/table/{unfinished}?lang=en"),
        budi.socket(f"/ws/table/{unfinished}?lang=en"),
    ]
    play(db, unfinished, {seats["rina"]: tables[0], seats["budi"]: tables[1]}, None)
    assert db.log(unfinished)[: len(before)] == before
    # The last move is stored before the match is rated (play() returns on the log).
    rated_games = "SELECT r.games FROM ranking_rating r JOIN auth_user u ON u.id = r.user_id"
    rated_games += " WHERE u.username = 'rina' AND r.game = 'koikoi'"
    deadline = time.monotonic() + 10
    while [tuple(row) for row in db.rows(rated_games)] != [(2,)] and time.monotonic() < deadline:
        time.sleep(0.05)

    status, _, board = rina.request("/en/ranking/koikoi")
    assert status == 200
    # Her own row on the board, marked as hers, with her rating.
    shown = re.search(r'<tr class="me">.*?>rina</a>.*?class="num rating">(\d+)', board)
    assert shown is not None, board
    [(after,)] = db.rows(
        "SELECT r.rating FROM ranking_rating r JOIN auth_user u ON u.id = r.user_id"
        " WHERE u.username = 'rina' AND r.game = 'koikoi'"
    )
    # The first match's rating survived the restart (two games counted; a drawn match may
    # leave the rating at 1500, so its value proves nothing).
    [(games,)] = db.rows(rated_games)
    assert games == 2
    assert int(shown.group(1)) == round(after)
    for socket in tables:
        socket.close()
