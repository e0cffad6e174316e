"""No leaks: every message a seat receives mentions only cards that seat may see, and
nothing it receives depends on cards it cannot see.

Whole games are played by bots with a listener on every seat and one spectator.  For
each message the table's state at that moment is rebuilt from the log, and the message
is scanned for every card that the engine says the seat may not see: by card id and by
the art symbol that draws it (``href="#coins-5"`` draws Koa's ``babi-pusek``).

Then the same log is played on two tables, one dealt as the seed says and one over a twin
deal that swaps two card types the observer cannot see (tests/counterfactual.py): the
messages the observer receives (fragments with hand counts, whose turn, the turn timer and
the events, and the version each arrives at) must be the same on both tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from tests.counterfactual import bot_log, observers, twin_game, twins
from tests.play.conftest import ManualClock, Recorder
from tests.tiers import quick_then_slow
from webapp import adapters
from webapp.channels import Subscriber
from webapp.game import registry
from webapp.game.registry import AnyGame
from webapp.game.replay import replay
from webapp.play.hub import Hub
from webapp.play.store import Seat

# What each seat is sent: the stored log is replayed the same on either database.
pytestmark = pytest.mark.databases("sqlite")

#: One game of each in make check; the other deals (and Kowah's other player counts) in
#: make test: every game takes seconds of rendering.
CASES = quick_then_slow(
    [
        ("koa", {"mode": "quick"}, 1),
        ("kowah", {"players": 3}, 5),
        ("koikoi", {"rounds": 3}, 7),
    ],
    [
        ("koa", {"mode": "quick"}, 2),
        ("koa", {"mode": "quick"}, 3),
        ("kowah", {"players": 2}, 4),
        ("kowah", {"players": 4}, 6),
        ("koikoi", {"rounds": 3}, 8),
    ],
)


def mentions(html: str, game: str, card_id: str) -> bool:
    art = adapters.card(game, card_id).art
    pattern = rf"(?<![\w-])({re.escape(card_id)}|{re.escape(art)})(?![\w-])"
    return re.search(pattern, html) is not None


@pytest.mark.parametrize(("game", "options", "seed"), CASES)
def test_no_message_shows_a_card_its_seat_may_not_see(
    clock: ManualClock, practice: object, game: str, options: dict[str, object], seed: int
) -> None:
    session = practice(game, seed=seed, human=False, **options)  # type: ignore[operator]
    seats: list[int | None] = [*range(len(session.seats)), None]
    recorders = {}
    for seat in seats:
        recorder = Recorder(session)
        session.join(Subscriber(recorder, seat, "en"))
        recorders[seat] = recorder
    clock.run_until(lambda: session.finished)
    assert session.finished
    states: dict[int, object] = {}
    for seat, recorder in recorders.items():
        assert len(recorder.messages) > 10
        for version, html in recorder.messages:
            if version not in states:
                states[version] = replay(
                    session.game, session.seed, session.options, session.log[:version]
                )
            hidden = session.game.hidden_cards(states[version], seat)
            leaked = sorted(card for card in hidden if mentions(html, game, card))
            assert not leaked, f"seat {seat} at version {version} was sent {leaked}"


TWIN_CASES = (
    ("koa", {"mode": "quick"}, 1),
    ("kowah", {"players": 3}, 5),
    ("koikoi", {"rounds": 3}, 7),
)


def received(
    hub: Hub,
    clock: ManualClock,
    game: AnyGame,
    options: dict[str, Any],
    seed: int,
    log: Sequence[str],
    observer: int | None,
) -> list[tuple[int, str]]:
    """What ``observer`` is sent while people at every seat play ``log`` on a new table,
    each taking a few seconds, so the turn timers show."""
    seats = [
        Seat("human", player=f"g-{n}") for n in range(game.seats(game.new_game(seed, options)))
    ]
    session = hub.create(game.name, options, seats, owner="g-0", seed=seed)
    recorder = Recorder(session)
    session.join(Subscriber(recorder, observer, "en"))
    for text in log:
        clock.time += 7
        seat = game.to_act(session.state)
        assert seat is not None
        session.submit(seat, text, session.version)
    return [(version, html.replace(session.id, "TABLE")) for version, html in recorder.messages]


@pytest.mark.parametrize(("name", "options", "seed"), TWIN_CASES)
def test_what_an_observer_receives_does_not_depend_on_cards_it_cannot_see(
    hub: Hub,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    options: dict[str, Any],
    seed: int,
) -> None:
    game = registry.get(name)
    log = bot_log(game, seed, options)
    for observer in observers(game, game.new_game(seed, options)):
        _original, found = twins(game, seed, options, log, observer, count=1)
        twin = found[0]
        played = log[: twin.span - 1]
        ours = received(hub, clock, game, options, seed, played, observer)
        dealt = twin_game(game, twin.swap)
        monkeypatch.setitem(registry.games(), name, dealt)
        theirs = received(hub, clock, dealt, options, seed, played, observer)
        monkeypatch.setitem(registry.games(), name, game)
        assert len(ours) > len(played) // 2
        for mine, other in zip(ours, theirs, strict=True):
            assert mine == other, f"{observer=} tells {twin.swap} apart at version {mine[0]}"
