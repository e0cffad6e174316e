"""No leaks: every message a seat receives mentions only cards that seat may see.

Whole games are played by bots with a listener on every seat and one spectator.  For
each message the table's state at that moment is rebuilt from the log, and the message
is scanned for every card that the engine says the seat may not see: by card id and by
the art symbol that draws it (``href="#coins-5"`` draws Koa's ``babi-pusek``).
"""

from __future__ import annotations

import re

import pytest

from tests.play.conftest import ManualClock, Recorder
from webapp import cards
from webapp.game.replay import replay
from webapp.play.hub import Listener

CASES = (
    [("koa", {"mode": "quick"}, seed) for seed in (1, 2, 3)]
    + [("kowah", {"players": p}, seed) for p, seed in ((2, 4), (3, 5), (4, 6))]
    + [("koikoi", {"rounds": 3}, seed) for seed in (7, 8)]
)


def mentions(html: str, game: str, card_id: str) -> bool:
    art = cards.card(game, card_id).art
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
        session.join(Listener(recorder, seat, "en"))
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
