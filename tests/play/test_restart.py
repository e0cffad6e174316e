"""A restart loses nothing: SIGTERM closes sockets with 1012, the next start resumes tables."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import STILL_BOTS, LiveServer
from tests.play.client import Guest, break_log, stored_moves

pytestmark = pytest.mark.live


def test_sigterm_closes_sockets_with_1012_and_a_restart_resumes_the_table(
    tmp_path: Path, database_url: str
) -> None:
    # Seed 11 deals a first round that the guest starts (the socket tests use it too).
    env = {"LAPAU_BOT_DELAY": "600", "LAPAU_TABLE_SEED": "11"}
    server = LiveServer(tmp_path / "instance", env, database_url)
    server.start()
    try:
        guest = Guest(server)
        table_id = guest.open_table("koikoi", rounds="3")
        table = guest.connect(table_id)
        move = next(m for m in table.moves if m.startswith("play "))
        table.move(move)
        table.receive_until('id="status"')
        began = time.monotonic()
        assert server.process is not None
        server.process.terminate()
        table.ws.settimeout(10)
        opcode, frame = table.ws.recv_data_frame(True)
        while opcode != 8:  # skip anything sent before the close frame
            opcode, frame = table.ws.recv_data_frame(True)
        assert int.from_bytes(frame.data[:2], "big") == 1012
        table.ws.shutdown()  # the server closed it; release our end of the socket
        server.process.wait(timeout=30)
        assert time.monotonic() - began < 4, "the worker should not wait out its graceful timeout"

        server.start()
        again = guest.connect(table_id)
        assert again.version == len(stored_moves(server, table_id)) == 1
        assert stored_moves(server, table_id) == [move]
        again.close()
    finally:
        server.stop()


def test_a_restart_with_a_table_that_no_longer_replays_serves_every_other_table(
    tmp_path: Path, database_url: str
) -> None:
    env = {**STILL_BOTS, "LAPAU_TABLE_SEED": "11"}
    server = LiveServer(tmp_path / "instance", env, database_url)
    server.start()
    try:
        guest = Guest(server)
        good, bad = guest.open_table("koikoi", rounds="3"), guest.open_table("koikoi", rounds="3")
        table = guest.connect(good)
        table.move(next(m for m in table.moves if m.startswith("play ")))
        table.receive_until('id="status"')
        table.close()
        server.stop()
        break_log(server, bad)  # as if the rules had changed under it

        server.start()
        resumed = guest.connect(good)
        resumed.close()
        assert resumed.version == len(stored_moves(server, good)) == 1
        assert "could not be replayed" in guest.page(f"/en/table/{bad}")
        assert "could not go on after an update" in guest.page("/en/play/")
        assert guest.handshake_status(bad, server.url) == 101
        ended = guest.connect(bad)
        assert 'hx-swap-oob="outerHTML:.table"' in ended.received[0]
        assert "could not be replayed" in ended.received[0]
        opcode, frame = ended.ws.recv_data_frame(True)
        ended.ws.shutdown()  # the server closed it; release our end of the socket
        assert opcode == 8 and int.from_bytes(frame.data[:2], "big") == 1000
        log = server.log.read_text()
        assert log.count(f"table {bad} no longer replays") == 1
        assert "Traceback" not in log
    finally:
        server.stop()
