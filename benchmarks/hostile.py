"""Hostile clients against one gevent worker, while bystanders play (issue #15).

python benchmarks/hostile.py [--seconds 20] [--bystanders 2] [--attacks a,b,...] [--nice 10]
                             [--think 0.6] [--bot-delay 0.3] [--quick]

Starts the site as the Procfile does (the release step's migrations, then gunicorn with
the gevent worker, one worker, ``--worker-connections 2000``) on a throwaway instance
folder and SQLite database, with ``LAPAU_PROXIES=1`` so that every client may say which
address it comes from (``X-Forwarded-For``): the bystanders and each attacker are
different people, as on the real site.

Bystanders are guests at Koi-Koi practice tables against easy bots, playing a legal move
about every ``--think`` seconds over the table's WebSocket, as a page does.  A move's
latency runs from sending it to the first fragment of the table at a newer version; a move
refused with a notice, unanswered for 30 s, or a socket dropped counts as *refused*; so
does a page of the table (fetched every second, as a reload would) that fails or takes
over 10 s.  For each attack, SECONDS without it, then SECONDS with it (its setup done
first: sockets opened, rooms made), and one line: the bystanders' move latency p50/p95
in both, the ratio of the p95s, refusals, the worker's CPU seconds in each phase, the
tracebacks the server logged, and what the attacker got.

Each attacker is a process of its own, from addresses of its own, run at ``--nice``
(10): on the real site it sits on another machine, and its sending costs the server only
what the server does with it; here it shares the server's cores, and the CPU it used is
printed beside what it got, so that a miss caused by the shared machine can be told from
one caused by the server (compare the worker's CPU in both phases).

The target (issue #15): bystander p95 at most 2x its baseline, nothing refused.  Loopback
only, bounded in time; ``--quick`` runs every attack small for a second or so (for the
test that keeps this script working, not for figures).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402 - after the monkey patch, as gevent requires
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import string  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import requests  # noqa: E402
import websocket  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._timing import percentile  # noqa: E402
from benchmarks.load import (  # noqa: E402
    TOKEN,
    Figures,
    Person,
    Player,
    Server,
    practice_table,
    usage,
)

#: Ratio of the bystanders' p95 move latency under attack to its baseline (issue #15).
TARGET = 2.0

Outcome = Counter[str]


@dataclass
class Scale:
    """How big each attack is."""

    seconds: float
    spectators: int = 300
    watchers: int = 150
    slow_bodies: int = 50
    big_body: int = 6 * 2**20
    #: Seconds for what an attack left behind to settle before the next one.
    settle: float = 2.0


FULL = Scale(seconds=20)
QUICK = Scale(seconds=1.0, spectators=30, watchers=15, slow_bodies=10, settle=0.2)

#: Each process numbers its addresses from its own start: attackers never share one.
ADDRESSES = itertools.count(os.getpid() % 64 * 1000 + 1)


@dataclass
class Target:
    """The server as an attacker knows it: an address and a port."""

    port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def address() -> str:
    """A fresh client address: every attacker (and each of a crowd) is someone else."""
    n = next(ADDRESSES)
    return f"10.{66 + n // 65536 % 128}.{n // 256 % 256}.{n % 256}"


class Bystanders:
    """Guests playing Koi-Koi against bots, timed per phase, and reading their table page."""

    def __init__(self, server: Server, count: int, think: float) -> None:
        self.server = server
        self.people = [Person(server, index) for index in range(count)]
        self.think = think
        self.figures = Figures()
        self.players: list[Player] = []
        self.pages: list[float] = []
        self.pages_failed = 0
        self.tables: dict[int, str] = {}

    def phase(self) -> tuple[Figures, list[float], int]:
        """End the phase being measured and start the next: what the ended one saw."""
        done = (self.figures, self.pages, self.pages_failed)
        self.figures, self.pages, self.pages_failed = Figures(), [], 0
        for player in self.players:
            player.figures = self.figures
        return done

    def play(self, index: int, until: float) -> None:
        person = self.people[index]
        while time.monotonic() < until:
            try:
                self.tables[index] = practice_table(person, "koikoi")
            except Exception as error:  # noqa: BLE001 - counted, and tried again
                self.figures.errors.append(f"opening a table: {error!r}")
                gevent.sleep(1)
                continue
            player = Player(person, self.tables[index], self.think, self.figures)
            self.players.append(player)
            while time.monotonic() < until and not player.over:
                try:
                    ws = person.connect(player.table_id)
                except Exception as error:  # noqa: BLE001 - a refused socket is a refusal
                    player.figures.errors.append(f"connecting: {error!r}")
                    gevent.sleep(0.5)
                    continue
                try:
                    player.session(ws, until)
                except Exception:  # noqa: BLE001 - a dropped socket: counted, reconnected
                    player.figures.reconnects += 1
                finally:
                    ws.close()
            self.players.remove(player)

    def read_pages(self, index: int, until: float) -> None:
        """The table's page once a second, as a reload or a link followed would fetch it."""
        person = self.people[index]
        while time.monotonic() < until:
            gevent.sleep(1)
            table = self.tables.get(index)
            if table is None:
                continue
            started = time.perf_counter()
            try:
                with person.opener.open(f"{self.server.base}/en/table/{table}", timeout=10) as r:
                    r.read()
                self.pages.append((time.perf_counter() - started) * 1000)
            except Exception:  # noqa: BLE001 - any failure is a refusal
                self.pages_failed += 1

    def start(self, until: float) -> list[gevent.Greenlet]:
        return [
            gevent.spawn(job, index, until)
            for index in range(len(self.people))
            for job in (self.play, self.read_pages)
        ]


# Attackers' tools -------------------------------------------------------------------


def browser(server: Target, where: str | None = None) -> requests.Session:
    """An attacker's browser: its own cookies, from its own address, no redirects followed."""
    session = requests.Session()
    session.headers["X-Forwarded-For"] = where or address()
    session.headers["User-Agent"] = "hostile"
    session.base = server.base  # type: ignore[attr-defined]
    return session


def token(session: requests.Session, path: str) -> str:
    page = session.get(session.base + path, timeout=30)  # type: ignore[attr-defined]
    found = TOKEN.search(page.text)
    assert found, f"no form on {path}"
    return found.group(1)


def post(session: requests.Session, path: str, data: Any, **headers: str) -> str:
    response = session.post(
        session.base + path,  # type: ignore[attr-defined]
        data=data,
        headers=headers,
        allow_redirects=False,
        timeout=30,
    )
    return str(response.status_code)


def open_socket(server: Target, path: str, session: requests.Session | None = None) -> Any:
    """A WebSocket on ``path``: as ``session``'s browser (its cookies and address), or as
    a stranger from an address of its own."""
    where = session.headers["X-Forwarded-For"] if session is not None else address()
    return websocket.create_connection(
        f"ws://127.0.0.1:{server.port}{path}?lang=id",
        origin=server.base,
        cookie=cookies(session) if session is not None else "",
        header=[f"X-Forwarded-For: {where}"],
        timeout=30,
    )


def cookies(session: requests.Session) -> str:
    return "; ".join(f"{name}={value}" for name, value in session.cookies.items())


def guest_table(server: Target, game: str = "koa") -> tuple[requests.Session, str]:
    """An attacker's practice table (Quick Koa against easy bots)."""
    session = browser(server)
    data = {"csrf_token": token(session, f"/en/play/{game}"), "level": "easy", "mode": "quick"}
    response = session.post(
        f"{server.base}/en/play/{game}", data=data, allow_redirects=False, timeout=30
    )
    return session, response.headers["Location"].rsplit("/", 1)[1]


def room(server: Target) -> tuple[requests.Session, str]:
    """An attacker's waiting room, as its host."""
    session = browser(server)
    data = {"csrf_token": token(session, "/en/room/"), "game": "koa", "name": "Rina"}
    response = session.post(f"{server.base}/en/room/new", data=data, allow_redirects=False)
    return session, response.headers["Location"].rstrip("/").rsplit("/", 1)[1]


@contextmanager
def watching(crowd: list[Any]) -> Iterator[None]:
    """A crowd's sockets read (and their pings answered) until the block ends, then closed."""
    readers = [gevent.spawn(drain, ws) for ws in crowd]
    try:
        yield
    finally:
        for ws in crowd:
            ws.close()
        stop(readers)


def drain(ws: Any) -> None:
    """Read a socket until it closes (a spectator, a watcher)."""
    try:
        while ws.recv():
            pass
    except Exception:  # noqa: BLE001 - closed: by the server or by the attack's end
        pass


def stop(greenlets: list[gevent.Greenlet]) -> None:
    """Kill them, waiting a little for those that are closing a socket."""
    gevent.killall(greenlets, block=False)
    gevent.joinall(greenlets, timeout=5)


def named(error: BaseException) -> str:
    return type(error).__name__


@contextmanager
def running(*jobs: Callable[[Outcome], None]) -> Iterator[Outcome]:
    """Each job again and again (each in its own greenlet) until the block ends; what
    they got, counted (an exception by its name)."""
    outcome: Outcome = Counter()

    def loop(job: Callable[[Outcome], None]) -> None:
        while True:
            try:
                job(outcome)
            except gevent.GreenletExit:
                raise
            except Exception as error:  # noqa: BLE001 - counted: part of what it got
                outcome[named(error)] += 1
                gevent.sleep(0.05)
            gevent.sleep(0)

    greenlets = [gevent.spawn(loop, job) for job in jobs]
    try:
        yield outcome
    finally:
        stop(greenlets)


def flood_socket(
    connect: Callable[[], Any], message: Callable[[], str]
) -> Callable[[Outcome], None]:
    """One socket sending ``message`` as fast as it can; reopened when the server closes it."""

    def job(outcome: Outcome) -> None:
        ws = connect()
        gevent.spawn(drain, ws)
        try:
            while True:
                ws.send(message())
                outcome["sent"] += 1
                gevent.sleep(0)
        except Exception:  # noqa: BLE001 - the server closed it (the budget): reopen
            outcome["closed"] += 1
        finally:
            ws.shutdown()

    return job


# The attacks ----------------------------------------------------------------------


@contextmanager
def big_form(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 1: a 6 MB form posted to the sign-in page, again and again, two at a time."""
    body = b"username=x&password=" + b"x" * scale.big_body
    session = browser(server)
    kind = "application/x-www-form-urlencoded"

    def send(outcome: Outcome) -> None:
        try:
            outcome[post(session, "/en/sign-in", body, **{"Content-Type": kind})] += 1
        except requests.ConnectionError:
            outcome["reset"] += 1  # refused before the body was sent

    with running(send, send) as outcome:
        yield outcome


@contextmanager
def passwords(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 2: one account's wrong-password changes, and sign-ins with its name."""
    member = browser(server)
    name = "mallory" + "".join(random.choices(string.ascii_lowercase, k=6))
    password = "a long enough password"
    signup = {"csrf_token": token(member, "/en/sign-up"), "username": name, "password": password}
    assert post(member, "/en/sign-up", signup) == "303"
    change_token = token(member, "/en/account")
    stranger = browser(server, member.headers["X-Forwarded-For"])  # same address
    sign_in_token = token(stranger, "/en/sign-in")

    def change(outcome: Outcome) -> None:
        form = {"csrf_token": change_token, "current": "wrong guess", "password": "x" * 20}
        outcome["change " + post(member, "/en/account/password", form)] += 1

    def sign_in(outcome: Outcome) -> None:
        form = {"csrf_token": sign_in_token, "username": name, "password": "wrong guess"}
        outcome["sign-in " + post(stranger, "/en/sign-in", form)] += 1

    with running(change, sign_in) as outcome:
        yield outcome


@contextmanager
def spread_passwords(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 2 from many addresses: sign-ins with made-up names, each from an address
    of its own (no per-address or per-name limit applies), four at a time.  Every one
    costs a password hash, off the loop but on the same two cores."""
    session = browser(server)
    form_token = token(session, "/en/sign-in")

    def guess(outcome: Outcome) -> None:
        name = "".join(random.choices(string.ascii_lowercase, k=10))
        form = {"csrf_token": form_token, "username": name, "password": "wrong guess"}
        outcome[post(session, "/en/sign-in", form, **{"X-Forwarded-For": address()})] += 1

    with running(guess, guess, guess, guess) as outcome:
        yield outcome


@contextmanager
def slow_bodies(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 3: connections that send a form's body one byte a second, from one address."""
    where = address()
    head = (
        "POST /en/sign-in HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server.port}\r\n"
        f"X-Forwarded-For: {where}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        "Content-Length: 10000\r\n\r\n"
    ).encode()

    def trickle(outcome: Outcome) -> None:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
            conn.sendall(head)
            outcome["opened"] += 1
            while True:
                gevent.sleep(1)
                conn.sendall(b"a")  # raises once the server has closed it
                outcome["bytes"] += 1

    with running(*[trickle] * scale.slow_bodies) as outcome:
        gevent.sleep(1)  # every connection open and trickling
        yield outcome


@contextmanager
def spectators(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 4: a crowd of spectator sockets on one table while its player plays it."""
    session, table_id = guest_table(server)
    crowd = [open_socket(server, f"/ws/table/{table_id}") for _ in range(scale.spectators)]
    # Its player moves about twice a second (the most the socket's budget lets through).
    player = Player(Person(server, 9000), table_id, 0.3, Figures())

    def play(outcome: Outcome) -> None:
        if player.over:
            gevent.sleep(1)  # the match has ended: the crowd watches the final table
            return
        ws = open_socket(server, f"/ws/table/{table_id}", session)
        try:
            player.session(ws, time.monotonic() + 3600)
        finally:
            ws.close()
            outcome["moves"] = player.figures.acknowledged

    with watching(crowd), running(play) as outcome:
        outcome["spectators"] = len(crowd)
        yield outcome


@contextmanager
def room_watchers(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 4: a room watched by a crowd, while more visitors keep coming and going."""
    _, code = room(server)
    crowd = [open_socket(server, f"/ws/room/{code}") for _ in range(scale.watchers)]

    def visit(outcome: Outcome) -> None:
        ws = open_socket(server, f"/ws/room/{code}")
        ws.recv()
        ws.close()
        outcome["visits"] += 1

    with watching(crowd), running(visit, visit, visit, visit) as outcome:
        outcome["watching"] = len(crowd)
        yield outcome


@contextmanager
def table_flood(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 4: a player's table socket sending moves as fast as it can."""
    session, table_id = guest_table(server)

    def connect() -> Any:
        return open_socket(server, f"/ws/table/{table_id}", session)

    job = flood_socket(connect, lambda: '{"a": "cabut", "v": "0"}')
    with running(job) as outcome:
        yield outcome


@contextmanager
def room_flood(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 4: a host's room socket adding and removing a bot as fast as it can."""
    session, code = room(server)
    flip = itertools.cycle(['{"a": "bot 2"}', '{"a": "unbot 2"}'])

    def connect() -> Any:
        return open_socket(server, f"/ws/room/{code}", session)

    with running(flood_socket(connect, lambda: next(flip))) as outcome:
        yield outcome


@contextmanager
def room_codes(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 6: made-up room codes tried at every door: the page, a rename, the socket."""
    session = browser(server)
    form_token = token(session, "/en/room/")

    def code() -> str:
        return "".join(random.choices("ABCDEFGHJKMNPQRSTUVWXYZ23456789", k=6))

    def page(outcome: Outcome) -> None:
        response = session.get(f"{server.base}/en/room/{code()}", timeout=30)
        outcome[f"page {response.status_code}"] += 1

    def rename(outcome: Outcome) -> None:
        form = {"csrf_token": form_token, "name": "Budi"}
        outcome["rename " + post(session, f"/en/room/{code()}/name", form)] += 1

    def handshake(outcome: Outcome) -> None:
        try:
            open_socket(server, f"/ws/room/{code()}", session).close()
            outcome["socket opened"] += 1
        except websocket.WebSocketBadStatusException as refused:
            outcome[f"socket {refused.status_code}"] += 1

    with running(page, rename, handshake) as outcome:
        yield outcome


@contextmanager
def practice_flood(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 9: one guest opening practice tables as fast as the site lets them."""
    session = browser(server)
    form = {"csrf_token": token(session, "/en/play/koa"), "level": "easy", "mode": "quick"}

    def open_one(outcome: Outcome) -> None:
        outcome[post(session, "/en/play/koa", form)] += 1

    with running(open_one) as outcome:
        yield outcome


@contextmanager
def nested(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 10: a player's table socket sending 2,000 nested brackets, again and again."""
    session, table_id = guest_table(server)
    path = f"/ws/table/{table_id}"
    job = flood_socket(lambda: open_socket(server, path, session), lambda: "[" * 2000)
    with running(job) as outcome:
        yield outcome


@contextmanager
def send_and_close(server: Target, scale: Scale) -> Iterator[Outcome]:
    """Finding 10: sockets that send a few moves and close at once, four at a time."""
    session, table_id = guest_table(server)

    def storm(outcome: Outcome) -> None:
        ws = open_socket(server, f"/ws/table/{table_id}", session)
        for _ in range(3):
            ws.send('{"a": "not a move", "v": "0"}')
        ws.close(timeout=0.1)  # the close frame sent, its answer not awaited
        outcome["closed"] += 1

    with running(storm, storm, storm, storm) as outcome:
        yield outcome


Attack = Callable[[Target, Scale], Any]

ATTACKS: dict[str, tuple[str, Attack]] = {
    "big-form": ("6 MB form posted to sign-in (1)", big_form),
    "passwords": ("wrong-password changes and sign-ins (2)", passwords),
    "passwords-spread": ("sign-ins from a new address each (2)", spread_passwords),
    "slow-bodies": ("slow-body connections, 1 byte/s (3)", slow_bodies),
    "spectators": ("spectators on one playing table (4)", spectators),
    "room-watchers": ("room watchers coming and going (4)", room_watchers),
    "table-flood": ("table socket message flood (4)", table_flood),
    "room-flood": ("room socket action flood (4)", room_flood),
    "room-codes": ("room-code guessing (6)", room_codes),
    "practice-flood": ("practice tables opened by one guest (9)", practice_flood),
    "nested": ("2,000-nested-bracket socket messages (10)", nested),
    "send-and-close": ("send-and-close socket storms (10)", send_and_close),
}


# Measuring ------------------------------------------------------------------------


def tracebacks(server: Server) -> int:
    return (server.instance / "server.log").read_text().count("Traceback")


@dataclass
class Phase:
    """What the bystanders saw in one phase, and what the worker spent."""

    figures: Figures
    pages: list[float]
    pages_failed: int
    cpu: float

    @property
    def refused(self) -> int:
        figures = self.figures
        return (
            figures.refused
            + figures.unanswered
            + figures.reconnects
            + len(figures.errors)
            + self.pages_failed
        )

    def p(self, share: float) -> float:
        return percentile(self.figures.latencies, share)


def measure(server: Server, bystanders: Bystanders, seconds: float) -> Phase:
    worker = server.worker()
    assert worker is not None
    bystanders.phase()
    cpu = usage(worker)[0]
    gevent.sleep(seconds)
    figures, pages, failed = bystanders.phase()
    return Phase(figures, pages, failed, usage(worker)[0] - cpu)


def line(name: str, label: str, calm: Phase, attacked: Phase, outcome: Outcome, traces: int) -> str:
    answered = len(attacked.figures.latencies)
    # No move answered at all under attack is the worst latency there is.
    ratio = attacked.p(0.95) / calm.p(0.95) if calm.p(0.95) and answered else float("inf")
    refused = calm.refused + attacked.refused
    verdict = "ok" if ratio <= TARGET and attacked.refused == 0 else "MISSED"
    spent = outcome.pop("attacker CPU ms", 0)
    got = ", ".join(f"{key} {value}" for key, value in outcome.most_common(4))
    got += f"; its own CPU {spent / 1000:.1f} s"
    cells = [
        f"{name}: {label}",
        f"{len(calm.figures.latencies)} / {answered}",
        f"{calm.p(0.5):.0f} / {calm.p(0.95):.0f}",
        f"{attacked.p(0.5):.0f} / {attacked.p(0.95):.0f}" if answered else "none answered",
        f"{ratio:.1f}",
        f"{calm.refused} / {attacked.refused}" if refused else "0",
        f"{calm.cpu:.1f} / {attacked.cpu:.1f}",
        str(traces),
        verdict,
        got,
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| attack (finding) | moves | calm p50 / p95 ms | attacked p50 / p95 ms | p95 x "
    "| refused | worker CPU s | tracebacks | target | the attacker got |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def attack_process(
    name: str, port: int, quick: bool, nice: int
) -> tuple[subprocess.Popen[str], str]:
    """An attacker in a process of its own (as a real one is on a machine of its own: its
    client work does not slow the bystanders' client), once its attack is set up.  It runs
    ``nice``: on the real site its sending costs the server nothing but the bytes, here it
    shares the same cores."""
    command = [sys.executable, __file__, "--attacker", name, "--port", str(port)]
    command += ["--nice", str(nice)] + (["--quick"] if quick else [])
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    return child, child.stdout.readline().strip()


def outcome_of(child: subprocess.Popen[str]) -> Outcome:
    """Stop the attacker; what its attack got."""
    child.send_signal(signal.SIGTERM)
    out, _ = child.communicate(timeout=60)
    lines = out.strip().splitlines()
    return Counter(json.loads(lines[-1])) if lines else Counter({"attacker failed": 1})


def attacker(name: str, port: int, scale: Scale) -> None:
    """The attacker's process: set up, say so, attack until SIGTERM, print what it got."""
    stopped = gevent.event.Event()
    gevent.signal_handler(signal.SIGTERM, stopped.set)
    with ATTACKS[name][1](Target(port), scale) as outcome:
        print("ready", flush=True)
        started = time.process_time()
        stopped.wait()
        # The attacker's own work competes for the same cores as the server's.
        outcome["attacker CPU ms"] = round((time.process_time() - started) * 1000)
    print(json.dumps(dict(outcome)), flush=True)


def warm_up(bystanders: Bystanders, seconds: float) -> None:
    """Until every bystander has had a move answered (their tables are open and playing)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(bystanders.players) < len(bystanders.people):
        gevent.sleep(0.2)
    while time.monotonic() < deadline and bystanders.figures.acknowledged < len(bystanders.people):
        gevent.sleep(0.2)


def run(args: argparse.Namespace) -> None:
    scale = QUICK if args.quick else FULL
    if args.seconds:
        scale.seconds = args.seconds
    chosen = args.attacks.split(",") if args.attacks else list(ATTACKS)
    unknown = set(chosen) - set(ATTACKS)
    if unknown:
        raise SystemExit(f"unknown attacks: {', '.join(sorted(unknown))}")
    instance = Path(tempfile.mkdtemp(prefix="lapau-hostile-"))
    env = {"LAPAU_ROUND_PAUSE": "1"}
    database = f"sqlite:///{instance / 'lapau.sqlite'}"
    server = Server(instance, free_port(), args.bot_delay, database, env)
    server.start()
    bystanders = Bystanders(server, args.bystanders, args.think)
    greenlets = bystanders.start(time.monotonic() + 24 * 3600)
    print(f"# instance {instance}; {scale.seconds:g} s per phase, {args.bystanders} bystanders")
    print(f"# attacks: {', '.join(chosen)}")
    print(HEADER, flush=True)
    try:
        warm_up(bystanders, 30)
        for name in chosen:
            label = ATTACKS[name][0]
            calm = measure(server, bystanders, scale.seconds)
            before = tracebacks(server)
            child, ready = attack_process(name, server.port, args.quick, args.nice)
            if ready != "ready":
                child.kill()
                print(f"| {name}: {label} | the attack did not start: {ready!r} |", flush=True)
                continue
            attacked = measure(server, bystanders, scale.seconds)
            outcome = outcome_of(child)
            traces = tracebacks(server) - before
            print(line(name, label, calm, attacked, outcome, traces), flush=True)
            gevent.sleep(scale.settle)
    finally:
        stop(greenlets)
        server.stop()
    print(f"# server tracebacks in all: {tracebacks(server)}; log {instance / 'server.log'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=0, help="per phase (default 20)")
    parser.add_argument("--bystanders", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.6)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--attacks", default="", help=f"some of: {','.join(ATTACKS)}")
    parser.add_argument("--quick", action="store_true", help="every attack small and short")
    parser.add_argument("--attacker", help=argparse.SUPPRESS)  # the attacker's own process
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--nice", type=int, default=10, help="the attackers' niceness (0: as the server's)"
    )
    args = parser.parse_args()
    if args.attacker:
        os.nice(args.nice)
        attacker(args.attacker, args.port, QUICK if args.quick else FULL)
    else:
        run(args)


if __name__ == "__main__":
    main()
