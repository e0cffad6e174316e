"""Load and soak: many live tables on one gevent worker, played by real WebSocket clients.

python benchmarks/load.py [--tables 250] [--humans 4] [--game koa] [--seconds 300]
                          [--think 3] [--bot-delay 0.8] [--bot-level easy] [--kill-at SECONDS]
                          [--database sqlite|postgresql] [--workers N]

Starts the site under gunicorn + gevent (``--workers`` processes, one unless asked,
``--worker-connections 2000`` each) on a fresh instance folder and a fresh database
(the SQLite file in that folder, or with ``--database postgresql`` a throwaway
PostgreSQL server on loopback with PostgreSQL's default, durable settings, started by
tests/postgres.py), opens TABLES tables, and
plays them until SECONDS have passed.  With more than one worker the processes share
their live layer through a throwaway ``redis-server`` (Debian's) that it starts on a free
port and passes as ``REDIS_URL``; gunicorn hands each connection to whichever worker
accepts it, so a table's sockets are spread over the workers as a load balancer would
spread them over dynos:

- ``--humans 1``: each table is a practice table (the guest and bots), opened through the
  setup form, as ``--game`` (or ``mixed``: Koa, Kowah and Koi-Koi in turn);
- ``--humans 2..4``: each table is a room opened by a host, joined by code by the other
  people, the empty seats filled with bots, everyone ready, started.

The bots are ``--bot-level`` (``easy`` unless asked; ``expert`` searches in the server's
process pool).

A page the site answers busy (503 with Retry-After: a request that waited the database
pool out while every table opened at once) is tried again after the wait it asks for, as
a person would, up to four times; the output counts them.

Every person is a WebSocket client (greenlets, one address each) that plays a random
legal move after a think time of about THINK seconds (half to one and a half of it).  A
move is *acknowledged* when its client receives the table at a newer version, *refused*
when a notice comes back (also just after a newer version that was not its move: the
turn clock ran out first); a move with neither within 30 seconds is *unanswered*; a move
in flight when the server went down is counted apart, stored or not (a move still in
flight at the end is not counted).  With
``--kill-at`` the server is killed with SIGKILL at that second and started again on
the same database, every client reconnects, and at the end the stored logs are checked
against what the clients saw acknowledged.

Prints one JSON object: tables and connections held, moves per second, the clients'
latency from sending a move to receiving the table that applies it (p50/p95/p99), the
server's own time from a move arriving to every seat sent, the bots' own move delay (from
their turn starting to their move arriving: the bot delay plus their thinking), worker RSS
and CPU (the workers' own processes, summed, and each worker's; an expert's searches run
in their pools' processes, whose CPU is given apart), the worker CPU per applied move,
the driver's own CPU (this process: on a shared machine it competes with the workers),
WebSocket bytes per move, refused and unanswered moves.  Loopback only, bounded in time.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402 - after the monkey patch, as gevent requires
import contextlib  # noqa: E402
import http.cookiejar  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.error  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Protocol  # noqa: E402

import gevent  # noqa: E402
import websocket  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402

from benchmarks._timing import percentile  # noqa: E402
from tests.postgres import Cluster, free_port  # noqa: E402
from webapp.play.hub import HINT  # noqa: E402

OPTIONS = {"koa": ("mode", "quick"), "kowah": ("players", "4"), "koikoi": ("rounds", "12")}
VERSION = re.compile(r'id="version" name="v" value="(\d+)"')
TURN = re.compile(r'id="status" class="[^"]*" data-turn="(\d)"')
PROMPT = re.compile(r'<section id="prompt".*?</section>', re.S)
HAND = re.compile(r'<section id="hand".*?</section>', re.S)
BUTTON = re.compile(r'<button(?: id="([\w-]+)")?[^>]*name="a" value="([^"]+)"')
DELETED = re.compile(r'<i id="([\w-]+)" hx-swap-oob="delete">')
NOTICE = re.compile(r'<div id="notice" class="notice" role="alert">(.+?)</div>', re.S)
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
OVER = 'class="match-over"'
#: How often a person tries a page the site answers busy (503, with Retry-After).
BUSY_TRIES = 4


@dataclass
class Figures:
    """What every client saw, summed."""

    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    acknowledged: int = 0
    refused: int = 0
    unanswered: int = 0
    received_bytes: int = 0
    messages: int = 0
    reconnects: int = 0
    busy: int = 0  # pages answered busy and tried again after their Retry-After
    errors: list[str] = field(default_factory=list)
    #: (table id, version the move was sent at, action) for every acknowledged move.
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    #: The same for moves sent but not answered when their socket dropped.
    in_flight: list[tuple[str, int, str]] = field(default_factory=list)


class Server:
    """gunicorn + gevent, ``workers`` processes, on a given instance folder and port."""

    def __init__(
        self,
        instance: Path,
        port: int,
        bot_delay: float,
        database_url: str,
        extra_env: dict[str, str] | None = None,
        workers: int = 1,
    ) -> None:
        self.instance, self.port, self.workers = instance, port, workers
        self.env = {
            **os.environ,
            "LAPAU_INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "LAPAU_BOT_DELAY": str(bot_delay),
            "LAPAU_TIMINGS": str(instance / "timings.txt"),
            # Every client says who it is in X-Forwarded-For, as people behind a proxy
            # would, so the per-address limits count each person on their own.
            "LAPAU_PROXIES": "1",
            **(extra_env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # The Procfile's release step first: the schema comes from the migrations.
        flask = Path(sys.executable).with_name("flask")
        upgrade = [str(flask), "--app", "webapp", "db", "upgrade"]
        subprocess.run(upgrade, cwd=ROOT, env=self.env, check=True, stdout=subprocess.DEVNULL)
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [str(gunicorn), "--worker-class", "gevent", "--workers", str(self.workers)]
            + ["--worker-connections", "2000", "--bind", f"127.0.0.1:{self.port}"]
            + ["webapp:create_app()"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.instance / "server.log", "ab"),
        )
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{self.base}/id/", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def worker(self) -> int | None:
        found = self.worker_pids()
        return found[0] if found else None

    def worker_pids(self) -> list[int]:
        """The worker processes (gunicorn's children), once they have all started."""
        assert self.process is not None
        for _ in range(100):
            found = subprocess.run(
                ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
            ).stdout.split()
            if len(found) >= self.workers:
                break
            time.sleep(0.1)
        return sorted(int(pid) for pid in found)

    def kill(self) -> None:
        assert self.process is not None
        workers = self.worker_pids()
        self.process.send_signal(signal.SIGKILL)
        for worker in workers:
            try:
                os.kill(worker, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


class Redis:
    """A throwaway ``redis-server`` on a free port of 127.0.0.1, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Redis:
        binary = shutil.which("redis-server", path="/usr/bin:/usr/sbin:/usr/local/bin")
        if binary is None:
            raise RuntimeError("redis-server is not installed (make test-setup installs it)")
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", str(self.folder), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def __exit__(self, *_: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)


def usage(pid: int) -> tuple[float, int]:
    """CPU seconds used so far and resident memory in bytes of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


def children_cpu(pid: int) -> float:
    """CPU seconds used so far by a process's children (the expert's search pool)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    total = 0.0
    for child in found.split():
        try:
            total += usage(int(child))[0]
        except FileNotFoundError:
            pass  # exited meanwhile
    return total


class Site(Protocol):
    """Where a client connects: the site's port on loopback and its base URL."""

    @property
    def port(self) -> int: ...

    @property
    def base(self) -> str: ...


class Person:
    """One browser: a cookie jar, an address, a page's CSRF token, a table socket."""

    def __init__(self, server: Site, index: int, figures: Figures | None = None) -> None:
        self.server = server
        self.figures = figures  # with them, a page answered busy is tried again (counted)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.address = f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256 + 1}"
        self.opener.addheaders = [("X-Forwarded-For", self.address)]

    def get(self, path: str) -> tuple[str, str]:
        return self._open(path)

    def post(self, path: str, fields: dict[str, str], page: str) -> tuple[str, str]:
        token = TOKEN.search(page)
        data = {**fields, "csrf_token": token.group(1) if token else ""}
        return self._open(path, urllib.parse.urlencode(data).encode())

    def _open(self, path: str, data: bytes | None = None) -> tuple[str, str]:
        """The page, tried again as a person does when the site says it is busy: a 503
        with Retry-After (a request that waited the database pool out while hundreds of
        tables opened at once) asks to come back after a while.  What the driver posts is
        safe to send twice (joining a room, "ready", "fill" a second time change nothing)."""
        figures = self.figures
        for _ in range(BUSY_TRIES - 1 if figures else 0):
            try:
                return self._fetch(path, data)
            except urllib.error.HTTPError as error:
                wait = error.headers.get("Retry-After")
                if figures is None or error.code != 503 or wait is None:
                    raise
                figures.busy += 1
                gevent.sleep(float(wait))
        return self._fetch(path, data)  # the last try: busy or not, as it comes

    def _fetch(self, path: str, data: bytes | None) -> tuple[str, str]:
        with self.opener.open(self.server.base + path, data=data, timeout=30) as page:
            return page.url, page.read().decode()

    def connect(self, table_id: str) -> websocket.WebSocket:
        return websocket.create_connection(
            f"ws://127.0.0.1:{self.server.port}/ws/table/{table_id}?lang=en",
            origin=self.server.base,
            cookie="; ".join(f"{c.name}={c.value}" for c in self.jar),
            header=[f"X-Forwarded-For: {self.address}"],
            timeout=5,
        )


def practice_table(person: Person, game: str, level: str = "easy") -> str:
    option, value = OPTIONS[game]
    _, page = person.get(f"/en/play/{game}")
    url, _ = person.post(f"/en/play/{game}", {option: value, "level": level}, page)
    return url.rsplit("/", 1)[1]


def room_table(people: list[Person], game: str, level: str) -> str:
    """The host opens a room, the others join by its code, bots fill the rest, start."""
    host, *guests = people
    _, page = host.get("/en/room/")
    room_url, room_page = host.post("/en/room/new", {"game": game}, page)
    code = room_url.rstrip("/").rsplit("/", 1)[1]
    option, value = OPTIONS[game]
    host.post(f"/en/room/{code}/act", {"a": f"option {value}"}, room_page)
    host.post(f"/en/room/{code}/act", {"a": f"level {level}"}, room_page)
    pages = []
    for guest in guests:
        _, page = guest.get("/en/room/")
        pages.append(guest.post("/en/room/join", {"code": code}, page)[1])
    # Seats changing asks everyone to say "ready" again: fill first, then get ready.
    host.post(f"/en/room/{code}/act", {"a": "fill"}, room_page)
    for guest, page in zip(guests, pages, strict=True):
        guest.post(f"/en/room/{code}/act", {"a": "ready"}, page)
    host.post(f"/en/room/{code}/act", {"a": "ready"}, room_page)
    url, _ = host.post(f"/en/room/{code}/act", {"a": "start"}, room_page)
    if "/table/" not in url:
        raise RuntimeError(f"room {code} did not start: {url}")
    return url.rsplit("/", 1)[1]


class Player:
    """A person at a table: keeps the buttons the page shows, plays one after thinking."""

    def __init__(self, person: Person, table_id: str, think: float, figures: Figures) -> None:
        self.person, self.table_id, self.think, self.figures = person, table_id, think, figures
        self.rng = random.Random(id(self))
        self.version = -1
        self.mine = False
        self.prompt: list[str] = []
        self.hand: dict[str, str] = {}
        self.pending: tuple[int, str, float] | None = None
        #: The last move counted acknowledged, until the next is sent: a newer version
        #: may be another's (the turn clock ran out first), its refusal coming just after.
        self.last_acked: tuple[tuple[str, int, str], float] | None = None
        self.over = False

    def read(self, message: str) -> None:
        figures = self.figures
        figures.messages += 1
        figures.received_bytes += len(message.encode())
        if found := PROMPT.search(message):
            self.prompt = [value for _, value in BUTTON.findall(found.group(0))]
        if found := HAND.search(message):
            self.hand = {ident: value for ident, value in BUTTON.findall(found.group(0)) if ident}
        else:
            for ident, value in BUTTON.findall(message):
                # "Hint" asks the table for advice: no move, no new version to wait for.
                if ident and value != HINT:
                    self.hand[ident] = value
        for ident in DELETED.findall(message):
            self.hand.pop(ident, None)
        if OVER in message:
            self.over = True
        if found := TURN.search(message):
            self.mine = found.group(1) == "1"
        if found := VERSION.search(message):
            version = int(found.group(1))
            if self.pending is not None and version > self.pending[0]:
                sent_at, action, started = self.pending
                move, latency = (
                    (self.table_id, sent_at, action),
                    (time.perf_counter() - started) * 1000,
                )
                figures.latencies.append(latency)
                figures.acknowledged += 1
                figures.acked.append(move)
                self.pending, self.last_acked = None, (move, latency)
            self.version = version
        if NOTICE.search(message):
            if self.pending is not None:
                figures.refused += 1
                self.pending = None
            elif self.last_acked is not None:  # refused: the newer version was not its
                move, latency = self.last_acked
                figures.acknowledged -= 1
                figures.acked.remove(move)
                figures.latencies.remove(latency)
                figures.refused += 1
            self.last_acked = None

    def choose(self) -> str | None:
        # A prompt's buttons are the choices of the moment; otherwise a card in hand.
        choices = self.prompt or list(self.hand.values())
        return self.rng.choice(choices) if choices else None

    def play(self, until: float) -> None:
        """Play until the deadline or the match's end, reconnecting when the socket drops."""
        while time.monotonic() < until and not self.over:
            try:
                ws = self.person.connect(self.table_id)
            except Exception:  # noqa: BLE001 - the server is restarting: try again
                gevent.sleep(0.5)
                continue
            try:
                self.session(ws, until)
            except Exception:  # noqa: BLE001 - a dropped socket: reconnect like htmx does
                self.figures.reconnects += 1
                gevent.sleep(0.5)
            finally:
                ws.close()

    def session(self, ws: websocket.WebSocket, until: float) -> None:
        # A move in flight when the socket dropped was never acknowledged: whether the
        # server stored it before going down is read from the log at the end.  (The
        # snapshot cannot tell: after a restart the turn timer may have moved for us.)
        if self.pending is not None:
            self.figures.in_flight.append((self.table_id, self.pending[0], self.pending[1]))
            self.pending = None
        ready_at: float | None = None
        while time.monotonic() < until and not self.over:
            try:
                message = ws.recv()
            except websocket.WebSocketTimeoutException:
                message = ""
            if isinstance(message, bytes):
                message = message.decode()  # the site sends text; a stray binary frame reads alike
            if message:
                self.read(message)
            elif message is None or (ws.connected is False):
                raise ConnectionError("closed")
            now = time.monotonic()
            if self.pending is not None:
                if time.perf_counter() - self.pending[2] > 30:
                    self.figures.unanswered += 1
                    self.pending = None
                continue
            if not self.mine:
                ready_at = None
                continue
            if ready_at is None:
                ready_at = now + self.think * self.rng.uniform(0.5, 1.5)
            if now < ready_at:
                ws.settimeout(max(0.01, ready_at - now))
                continue
            ws.settimeout(5)
            action = self.choose()
            if action is None:
                continue
            self.pending = (self.version, action, time.perf_counter())
            self.last_acked = None
            self.figures.sent += 1
            ws.send(json.dumps({"a": action, "v": str(self.version)}))
            ready_at = None


def stored_logs(database_url: str) -> dict[str, list[str]]:
    engine = create_engine(database_url)
    query = text("select table_id, seq, text from play_action order by table_id, seq")
    logs: dict[str, list[str]] = {}
    with engine.connect() as db:
        for table_id, seq, action in db.execute(query):
            logs.setdefault(table_id, []).append(action)
            assert len(logs[table_id]) == seq + 1, f"a hole in the log of {table_id}"
    engine.dispose()
    return logs


def run(args: argparse.Namespace) -> dict[str, Any]:
    instance = Path(tempfile.mkdtemp(prefix="lapau-load-"))
    with contextlib.ExitStack() as stack:
        extra_env = {}
        if args.workers > 1:
            extra_env["REDIS_URL"] = stack.enter_context(Redis(instance)).url
        database_url = None
        if args.database == "postgresql":
            cluster = stack.enter_context(Cluster(durable=True))
            database_url = cluster.create_database("lapau")
        return load(args, instance, database_url, extra_env)


#: The whole run's CPU per move also counts every player's connecting (a thousand
#: handshakes and first renders of whole tables at its start): the steady figure counts
#: from this share of the run on, when they are all playing.
STEADY_AFTER = 0.2


def applied(timings: Path) -> int:
    """The moves applied so far (the server writes a line per move, a line at a time)."""
    try:
        with timings.open("rb") as lines:
            return sum(1 for _ in lines)
    except FileNotFoundError:
        return 0


class Workers:
    """The CPU and peak memory of every worker process of a server, across a restart."""

    def __init__(self) -> None:
        self.cpu: dict[int, float] = {}  # CPU seconds used in the run so far, by pid
        self.started: dict[int, float] = {}  # CPU seconds before the run, by pid
        self.peak_rss: dict[int, int] = {}
        self.pool_started = 0.0
        self.pool = 0.0

    def watch(self, pids: list[int]) -> None:
        for pid in pids:
            self.started[pid] = usage(pid)[0]
        self.pool_started = sum(map(children_cpu, pids))

    def sample(self, pids: list[int]) -> None:
        for pid in pids:
            try:
                cpu, rss = usage(pid)
            except FileNotFoundError:
                continue  # killed, or restarted by gunicorn
            self.cpu[pid] = cpu - self.started.setdefault(pid, cpu)
            self.peak_rss[pid] = max(self.peak_rss.get(pid, 0), rss)

    def end(self, pids: list[int]) -> None:
        self.sample(pids)
        self.pool += sum(map(children_cpu, pids)) - self.pool_started


def load(
    args: argparse.Namespace, instance: Path, database_url: str | None, extra_env: dict[str, str]
) -> dict[str, Any]:
    database_url = database_url or f"sqlite:///{instance / 'lapau.sqlite'}"
    port = 18000 + os.getpid() % 1000
    server = Server(instance, port, args.bot_delay, database_url, extra_env, args.workers)
    server.start()
    figures = Figures()
    games = ["koa", "kowah", "koikoi"] if args.game == "mixed" else [args.game]
    tables: list[tuple[str, list[Person]]] = []

    def open_table(index: int) -> None:
        game = games[index % len(games)]
        people = [Person(server, index * args.humans + k, figures) for k in range(args.humans)]
        try:
            if args.humans == 1:
                table_id = practice_table(people[0], game, args.bot_level)
            else:
                table_id = room_table(people, game, args.bot_level)
            tables.append((table_id, people))
        except Exception as error:  # noqa: BLE001 - reported, not raised
            figures.errors.append(f"opening table {index}: {error!r}")

    opening = [gevent.spawn(open_table, index) for index in range(args.tables)]
    gevent.joinall(opening)
    pids = server.worker_pids()
    workers = Workers()
    workers.watch(pids)
    driver_before = time.process_time()
    started = time.monotonic()
    until = started + args.seconds
    players = [
        Player(person, table_id, args.think, figures)
        for table_id, people in tables
        for person in people
    ]
    greenlets = [gevent.spawn(player.play, until) for player in players]
    killed = False
    timings = instance / "timings.txt"
    steady_from = started + args.seconds * STEADY_AFTER
    steady: tuple[float, int] | None = None  # worker CPU and moves applied at steady_from
    while time.monotonic() < until:
        gevent.sleep(1)
        workers.sample(pids)
        if steady is None and time.monotonic() >= steady_from:
            steady = (sum(workers.cpu.values()), applied(timings))
        if args.kill_at is not None and not killed and time.monotonic() - started > args.kill_at:
            workers.end(pids)
            server.kill()
            killed = True
            server.start()
            pids = server.worker_pids()
            workers.watch(pids)
    gevent.joinall(greenlets, timeout=60)
    elapsed = time.monotonic() - started
    workers.end(pids)
    driver_cpu = time.process_time() - driver_before
    cpu_used = sum(workers.cpu.values())
    server.stop()
    server_ms = [float(line) for line in timings.read_text().split()] if timings.exists() else []
    bots = instance / "timings.txt.bots"
    moves = len(server_ms)
    bot_ms = [float(line) for line in bots.read_text().split()] if bots.exists() else []
    logs = stored_logs(database_url)

    def stored(move: tuple[str, int, str]) -> bool:
        log = logs.get(move[0], [])
        return move[1] < len(log) and log[move[1]] == move[2]

    lost = [move for move in figures.acked if not stored(move)]
    errors = [
        line for line in (instance / "server.log").read_text().splitlines() if "Traceback" in line
    ]
    return {
        "database": args.database,
        "tables": len(tables),
        "connections": len(players),
        "seconds": round(elapsed, 1),
        "think_seconds": args.think,
        "bot_delay": args.bot_delay,
        "moves_applied": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "client_move_ms": {
            "moves": figures.acknowledged,
            "p50": round(percentile(figures.latencies, 0.50), 1),
            "p95": round(percentile(figures.latencies, 0.95), 1),
            "p99": round(percentile(figures.latencies, 0.99), 1),
        },
        "server_fanout_ms": {
            "p50": round(percentile(server_ms, 0.50), 2),
            "p95": round(percentile(server_ms, 0.95), 2),
            "p99": round(percentile(server_ms, 0.99), 2),
        },
        "bot_level": args.bot_level,
        "bot_move_delay_ms": {
            "moves": len(bot_ms),
            "p50": round(percentile(bot_ms, 0.50), 1),
            "p95": round(percentile(bot_ms, 0.95), 1),
            "p99": round(percentile(bot_ms, 0.99), 1),
        },
        "workers": args.workers,
        # Summed over the workers (a killed worker's until its end); the peak is the
        # largest of them, and each worker's is listed.
        "worker_peak_rss_mb": round(max(workers.peak_rss.values(), default=0) / 2**20, 1),
        "worker_cpu_percent": round(100 * cpu_used / elapsed, 1),
        "worker_cpu_ms_per_move": round(1000 * cpu_used / max(1, moves), 2),
        "worker_cpu_ms_per_move_steady": (
            None
            if steady is None or killed
            else round(1000 * (cpu_used - steady[0]) / max(1, moves - steady[1]), 2)
        ),
        "each_worker": [
            {
                "cpu_percent": round(100 * workers.cpu.get(pid, 0.0) / elapsed, 1),
                "peak_rss_mb": round(rss / 2**20, 1),
            }
            for pid, rss in sorted(workers.peak_rss.items())
        ],
        "driver_cpu_percent": round(100 * driver_cpu / elapsed, 1),
        "search_pool_cpu_percent": round(100 * workers.pool / elapsed, 1),
        "ws_bytes_per_move_per_connection": round(
            figures.received_bytes / max(1, moves) / max(1, len(players) / len(tables))
        )
        if tables
        else 0,
        "moves_sent": figures.sent,
        "acknowledged": figures.acknowledged,
        "refused": figures.refused,
        "unanswered": figures.unanswered,
        "acknowledged_but_not_stored": len(lost),
        "in_flight_when_dropped": len(figures.in_flight),
        "in_flight_stored": sum(map(stored, figures.in_flight)),
        "not_stored_examples": [
            [table, seq, action, logs.get(table, [])[max(0, seq - 2) : seq + 3]]
            for table, seq, action in lost[:5]
        ],
        "reconnects": figures.reconnects,
        "busy_pages_tried_again": figures.busy,
        "killed_and_restarted": killed,
        "client_errors": figures.errors[:5],
        "server_tracebacks": len(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--humans", type=int, default=4, choices=(1, 2, 3, 4))
    parser.add_argument("--game", default="koa", choices=("koa", "kowah", "koikoi", "mixed"))
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument(
        "--bot-level", default="easy", choices=("random", "easy", "medium", "hard", "expert")
    )
    parser.add_argument("--kill-at", type=float, default=None)
    parser.add_argument("--database", default="sqlite", choices=("sqlite", "postgresql"))
    parser.add_argument("--workers", type=int, default=1)
    print(json.dumps(run(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()
