"""kill -9 the process that owns the tables: the other one takes them over (issue 18).

Two real servers over one PostgreSQL and one Redis.  A guest opens practice tables on the
first (which owns them: its bots move there) and plays them through sockets on the second
(its moves forwarded to the owner).  Then the first is killed without a word: within a few
seconds the second holds the tables' leases, restores them from their logs and carries
on.  Every move the player was not refused is stored, once, at the version it was made
at, and every log still replays.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

import pytest
import redis

from tests.conftest import LiveServer
from tests.dynos import two_dynos
from tests.play.client import VERSION, Guest, Player, stored_moves
from tests.postgres import Cluster
from tests.redis import RedisServer

pytestmark = [pytest.mark.live, pytest.mark.slow]

RESUME_SECONDS = 10


def said(server: LiveServer) -> list[str]:
    """The server's warnings and errors, for a failure's message."""
    lines = server.log.read_text().splitlines()
    return [line for line in lines if '"level":"warning"' in line or '"level":"error"' in line]


def lease_holder(client: redis.Redis, table_id: str) -> str | None:
    holder = client.get(f"lease:table:{table_id}")
    return holder.decode() if isinstance(holder, bytes) else None


def test_a_killed_owners_tables_resume_on_the_other_server(
    tmp_path: Path, postgres: Cluster, redis_server: RedisServer
) -> None:
    env = {
        "LAPAU_BOT_DELAY": "0.05",
        "LAPAU_ROUND_PAUSE": "0.1",
        "LAPAU_TURN_SECONDS": "600",
        "LAPAU_SOCKET_RATE": "100",
    }
    client = redis.Redis.from_url(redis_server.url)
    with two_dynos(tmp_path, postgres, redis_server, "kill_owner", env) as (owner, other):
        guest = Guest(owner)
        tables = [guest.open_table("koikoi", rounds="12") for _ in range(3)]
        holders = {lease_holder(client, table_id) for table_id in tables}
        assert len(holders) == 1 and None not in holders
        guest.server = other  # its sockets on the other server, its tables' owner away
        players = [Player(other, guest.connect(table_id)) for table_id in tables]
        with contextlib.ExitStack() as closing:  # closed whatever fails (no socket leaks)
            for player in players:
                closing.callback(player.table.close)
            until = time.monotonic() + 3
            while time.monotonic() < until:
                for player in players:
                    player.step()
            before = {table_id: len(stored_moves(other, table_id)) for table_id in tables}
            assert all(count > 2 for count in before.values()), (
                before,
                [player.seen() for player in players],
                said(owner),
                said(other),
            )

            worker_pid = int(str(holders.pop()).split(":")[1])
            assert owner.process is not None
            owner.process.kill()  # the arbiter first, or it would start a new worker
            os.kill(worker_pid, signal.SIGKILL)
            killed = time.monotonic()
            resumed: dict[str, float] = {}
            while len(resumed) < len(tables) and time.monotonic() - killed < RESUME_SECONDS + 5:
                for player in players:
                    player.step()
                for table_id in set(tables) - set(resumed):
                    if len(stored_moves(other, table_id)) > before[table_id]:
                        resumed[table_id] = time.monotonic() - killed
            print(f"resumed after kill -9 in {sorted(round(s, 2) for s in resumed.values())} s")
            assert len(resumed) == len(tables) and max(resumed.values()) < RESUME_SECONDS

            until = time.monotonic() + 2
            while time.monotonic() < until:
                for player in players:
                    player.step()
        for table_id, player in zip(tables, players, strict=True):
            log = stored_moves(other, table_id)
            for version, action in player.acknowledged:
                assert log[version] == action, (table_id, version)
            assert lease_holder(client, table_id) not in (None, f"{worker_pid}")
            [(broken,)] = other.query(
                "SELECT broken FROM play_table WHERE id = :table", table=table_id
            )
            assert broken is None  # the log replays: nothing doubled
            # Its page, served by the new owner, shows the stored table (bots may move on).
            shown = VERSION.search(guest.page(f"/en/table/{table_id}"))
            assert shown and len(log) <= int(shown[1]) <= len(stored_moves(other, table_id))
        text = other.log.read_text()
        assert "Traceback" not in text, text[text.find("Traceback") - 500 :][:3000]
