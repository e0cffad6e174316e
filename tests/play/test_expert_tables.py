"""Expert bots at live tables: they search in worker processes, and the loop keeps ticking."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.play.conftest import ManualClock
from tests.play.pool_jobs import broken_search, occupy, site_modules
from webapp.game.registry import get
from webapp.game.replay import replay
from webapp.play import thinker as thinking
from webapp.play.hub import Hub
from webapp.play.store import Seat
from webapp.play.thinker import Thinker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def quick_thinker(hub: Hub) -> Iterator[Thinker]:
    """One worker with a short clock: the table test is about the plumbing, not strength."""
    original = hub.thinker
    hub.thinker = Thinker(workers=1, seconds=0.02, grace=60)
    yield hub.thinker
    hub.thinker.close(wait=True)
    hub.thinker = original


def test_a_table_of_experts_plays_to_the_end_through_the_hub(
    hub: Hub, clock: ManualClock, quick_thinker: Thinker
) -> None:
    seats = [Seat("bot", level="expert", name=f"Expert {n}") for n in range(2)]
    session = hub.create("koikoi", {"rounds": 3}, seats, owner="g-test", seed=11)
    clock.run_until(lambda: session.finished)
    assert session.finished
    assert quick_thinker.pool is not None  # the searches ran in the pool
    stored = hub.store.load(session.id)
    assert stored is not None and stored.finished
    assert replay(session.game, stored.seed, stored.options, stored.log) == session.state


#: Under gevent (as the gunicorn worker runs): a greenlet ticks every 10 ms while four
#: expert searches run; it prints the longest pause between its ticks.
GEVENT_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import json, random, time
import gevent
from webapp.game.registry import get
from webapp.play.thinker import Thinker

game = get("koikoi")
state = game.new_game(5, {"rounds": 3})
seat = game.to_act(state)
view = game.view(state, seat)
thinker = Thinker(workers=1, seconds=0.3, grace=60)
thinker.decide("koikoi", view, "warm")  # the pool starts outside the measurement
gaps = []

def tick():
    last = time.perf_counter()
    while True:
        gevent.sleep(0.01)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now

ticker = gevent.spawn(tick)
start = time.perf_counter()
jobs = [gevent.spawn(thinker.decide, "koikoi", view, str(n)) for n in range(4)]
gevent.joinall(jobs)
took = time.perf_counter() - start
ticker.kill()
thinker.close()
legal = [str(action) for action in view.legal]
print(json.dumps({"took": took, "gap": max(gaps), "ticks": len(gaps),
                  "legal": all(str(job.value) in legal for job in jobs)}))
"""


def test_the_loop_keeps_ticking_while_experts_think() -> None:
    done = subprocess.run(
        [sys.executable, "-c", GEVENT_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["legal"]
    # One worker, four searches asked at once: the budget shrinks as they queue (300, 150,
    # 100 and 75 ms).  On the loop, the first alone would have stopped the ticks for 300 ms.
    assert found["took"] > 0.5
    assert found["gap"] < 0.25, found


def test_a_search_later_than_its_deadline_gives_way_to_hard(tmp_path: Path) -> None:
    game = get("koikoi")
    state = game.new_game(5, {"rounds": 3})
    seat = game.to_act(state)
    view = game.view(state, seat)
    thinker = Thinker(workers=1, seconds=0.05, grace=0.2)
    try:
        thinker.decide("koikoi", view, "warm")  # the pool starts outside the measurement
        assert thinker.pool is not None
        free = tmp_path / "free"
        busy = thinker.pool.submit(occupy, str(free), 5)  # the one worker is taken for 5 s
        start = time.perf_counter()
        action = thinker.decide("koikoi", view, "late")
        took = time.perf_counter() - start
        free.touch()  # the answer is in: the rest of the worker's 5 s would be idle waiting
        assert action == game.bots["hard"](view, random.Random("late"))
        assert took < 2.5, took  # 0.25 s and the hard move, far from the worker's 5 s
        assert thinker.waiting == 0
        busy.result()
        # The pool is not broken by a late answer: the next search runs there again.
        assert str(thinker.decide("koikoi", view, "again")) in {str(a) for a in view.legal}
    finally:
        thinker.close(wait=True)


def test_a_worker_loads_the_engines_and_not_the_site() -> None:
    """A worker that imported the site took 1.7 s to start and held 96 MB; the engines
    alone take a quarter of a second and 18 MB."""
    game = get("koikoi")
    state = game.new_game(5, {"rounds": 3})
    view = game.view(state, game.to_act(state))
    thinker = Thinker(workers=1, seconds=0.05, grace=60)
    try:
        assert str(thinker.decide("koikoi", view, "light")) in {str(a) for a in view.legal}
        assert thinker.pool is not None
        assert thinker.pool.submit(site_modules).result(timeout=30) == []
    finally:
        thinker.close(wait=True)


def test_a_search_that_raises_gives_way_to_hard(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A search that raised used to raise in the table's bot move, and the table waited for
    a bot that never moved (a Koa sampling bug did it in a strength run)."""
    game = get("koikoi")
    state = game.new_game(5, {"rounds": 3})
    view = game.view(state, game.to_act(state))
    monkeypatch.setattr(thinking, "think", broken_search)
    thinker = Thinker(workers=1, seconds=0.05, grace=60)
    try:
        assert thinker.decide("koikoi", view, "broken") == game.bots["hard"](
            view, random.Random("broken")
        )
        assert "expert search on koikoi raised" in caplog.text
        assert "Sample larger than population" in caplog.text  # the worker's traceback
        assert thinker.pool is not None  # the pool itself is fine: kept
        assert thinker.waiting == 0
    finally:
        thinker.close(wait=True)


@pytest.mark.parametrize(
    ("lang", "label", "words"),
    [("id", "Ahli", "kartunya sendiri"), ("en", "Expert", "its own cards"),
     ("nl", "Expert", "eigen kaarten")],
)  # fmt: skip
def test_the_setup_form_offers_expert_with_what_it_does(
    client: FlaskClient, lang: str, label: str, words: str
) -> None:
    page = client.get(f"/{lang}/play/koa").get_data(as_text=True)
    assert f'value="expert"> {label}</label>' in page
    assert words in page
