"""kill -9 during a soak: nothing acknowledged is lost, nothing is applied twice.

Guests play their tables against fast bots on a real server (gunicorn + gevent) while
the test SIGKILLs the master and its worker at once, as a crash or an out-of-memory
kill would.  A move is acknowledged when its player's socket has received the table
at a later version; a version is acknowledged when any socket received it.  After a
restart on the same instance folder every unfinished table is back from its log, the
stored log holds every acknowledged move exactly where it was acknowledged (and at
most the one move per table that was in flight), and every guest reconnects and plays
on.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path

import pytest
import websocket

from tests.conftest import LiveServer
from tests.hostile.conftest import EXAMPLES
from tests.play.client import MOVES, Guest, Table

pytestmark = [pytest.mark.live, pytest.mark.slow]  # a soak with a kill -9 in its middle

TURN = re.compile(r'id="status" class="[^"]*" data-turn="(\d)"')
VERSION = re.compile(r'id="version" name="v" value="(\d+)"')
#: Seconds a player waits for its table to move before the test fails.
WAIT_SECONDS = 30
GAMES = (("koikoi", {"rounds": "12"}), ("kowah", {"players": "3"}), ("koa", {"mode": "full"}))


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def kill_9(server: LiveServer) -> None:
    """SIGKILL gunicorn's master and its workers together: no shutdown code runs."""
    assert server.process is not None
    workers = children(server.process.pid)
    assert workers, "gunicorn should have a worker"
    for pid in [*workers, server.process.pid]:
        os.kill(pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() and not zombie(pid) for pid in workers):
        assert time.monotonic() < deadline, "the worker outlived its SIGKILL"
        time.sleep(0.05)


def zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@dataclass
class Player:
    """One guest at one table, playing its own seat as fast as the table lets it."""

    guest: Guest
    table_id: str
    sent: list[tuple[int, str]] = field(default_factory=list)
    acked: list[tuple[int, str]] = field(default_factory=list)
    seen: int = 0
    error: BaseException | None = None
    #: What its thread does now, for a failure's message.
    doing: str = "starting"

    def state(self) -> tuple[int, bool, list[str]]:
        page = self.guest.page(f"/en/table/{self.table_id}")
        version = VERSION.search(page)
        turn = TURN.search(page)
        assert version and turn, "the table page has no status"
        return int(version.group(1)), turn.group(1) == "1", MOVES.findall(page)

    def play(self, moves: int, stop: threading.Event) -> None:
        """Play until ``moves`` more are acknowledged, the table ends, or the server dies."""
        self.doing = "connecting"
        table = self.guest.connect(self.table_id)
        target = len(self.acked) + moves
        try:
            while len(self.acked) < target and not stop.is_set():
                self.seen = max(self.seen, table.version)
                self.doing = f"loading the page (socket at {table.version})"
                version, mine, choices = self.state()
                if not mine or not choices:
                    self.doing = f"waiting past {version} (mine: {mine}, moves: {choices})"
                    self.wait(table, version)
                    continue
                for move in choices:
                    self.sent.append((version, move))
                    self.doing = f"playing {move} at {version}"
                    table.move(move, version)
                    if self.wait(table, version, notice=True):
                        self.acked.append((version, move))
                        break
        except (websocket.WebSocketException, HTTPException, OSError, AssertionError) as error:
            # A page or a socket cut off by the server going away (a page cut short has no
            # status), or, while the server lives, the test's own failure, named in its
            # assertion.
            if not stop.is_set():
                self.error = error
        finally:
            self.doing = f"draining (socket at {table.version})"
            self.drain(table)
            self.doing = "done"

    def wait(self, table: Table, version: int, notice: bool = False) -> bool:
        """Read the socket until the table is past ``version`` (True) or, with
        ``notice``, until a refusal (False).  A restarted server under a full test run
        (four processes on two cores) once took more than 10 s to answer."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            message = table.receive(timeout=max(0.1, deadline - time.monotonic()))
            self.seen = max(self.seen, table.version)
            if table.version > version:
                return True
            if notice and 'id="notice"' in message and 'role="alert"></div>' not in message:
                return False
        raise AssertionError(f"table {self.table_id} stayed at {version} for {WAIT_SECONDS} s")

    def drain(self, table: Table) -> None:
        """Whatever the server sent before it died counts as acknowledged."""
        try:
            while True:
                table.receive(timeout=1.0)
                self.seen = max(self.seen, table.version)
        except (websocket.WebSocketException, ConnectionError, OSError):
            pass
        table.ws.shutdown()


def stored(server: LiveServer, table_id: str) -> list[tuple[int, str, int | None]]:
    rows = server.query(
        "SELECT seq, text, seat FROM play_action WHERE table_id = :table ORDER BY seq",
        table=table_id,
    )
    return [(seq, text, seat) for seq, text, seat in rows]


def check(server: LiveServer, player: Player, in_flight: int) -> None:
    """The stored log against what the player sent, saw acknowledged and saw at all."""
    log = stored(server, player.table_id)
    assert [seq for seq, _, _ in log] == list(range(len(log))), "a gap or a double in the log"
    mine = {(seq, text) for seq, text, seat in log if seat == 0}
    assert set(player.acked) <= mine, "an acknowledged move was lost"
    assert mine <= set(player.sent), "a move nobody sent was stored"
    assert len(mine - set(player.acked)) <= in_flight, "more than the move in flight was kept"
    assert player.seen <= len(log) <= player.seen + in_flight, "a seen version was lost"


def play_all(players: list[Player], moves: int, stop: threading.Event) -> list[threading.Thread]:
    threads = [
        threading.Thread(target=player.play, args=(moves, stop), daemon=True) for player in players
    ]
    for thread in threads:
        thread.start()
    return threads


def test_kill_9_mid_soak_loses_and_doubles_nothing(tmp_path: Path, database_url: str) -> None:
    env = {
        "LAPAU_BOT_DELAY": "0.01",
        "LAPAU_ROUND_PAUSE": "0.02",
        "LAPAU_TURN_SECONDS": "600",
    }
    server = LiveServer(tmp_path / "instance", env, database_url)
    server.start()
    count = len(GAMES) * max(1, EXAMPLES // 25)
    players = []
    for index in range(count):
        guest = Guest(server)
        game, form = GAMES[index % len(GAMES)]
        players.append(Player(guest, guest.open_table(game, **form)))
    stop = threading.Event()
    try:
        threads = play_all(players, 10**6, stop)
        deadline = time.monotonic() + 30
        while sum(len(p.acked) for p in players) < 3 * count:
            assert time.monotonic() < deadline, [p.error for p in players]
            time.sleep(0.01)
        stop.set()
        kill_9(server)
        for thread in threads:
            thread.join(timeout=15)
        assert all(p.error is None for p in players), [p.error for p in players]
        for player in players:
            check(server, player, in_flight=1)
        killed = [len(stored(server, player.table_id)) for player in players]

        restarted = LiveServer(server.instance, env, database_url)
        restarted.start()
        server = restarted
        for player, length in zip(players, killed, strict=True):
            player.guest.server = restarted
            version, _, _ = player.state()
            # Back from its log, every stored move in it (the bots may have moved since).
            assert length <= version <= len(stored(restarted, player.table_id))
        before = [len(player.acked) for player in players]
        stop = threading.Event()
        threads = play_all(players, 3, stop)
        # A stall fails sooner, in a wait; this only bounds a thread that never ends.
        deadline = time.monotonic() + 180
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        # On a failure, what each player did and the server's last words.
        assert all(p.error is None for p in players), (
            [p.error for p in players],
            server.log_tail(),
        )
        assert not any(thread.is_alive() for thread in threads), (
            [
                (p.table_id, len(p.acked) - acked, p.doing)
                for p, acked, thread in zip(players, before, threads, strict=True)
                if thread.is_alive()
            ],
            server.log_tail(),
        )
        for player, acked in zip(players, before, strict=True):
            check(restarted, player, in_flight=1)
            assert len(player.acked) == acked + 3, "the guest did not play on after the restart"
    finally:
        stop.set()
        server.stop()
    assert "Traceback" not in server.log.read_text(), server.log_tail()
