"""The tables' sentences as a reader sees them, over whole games."""

from __future__ import annotations

import random
import re

import pytest

from tests.play.conftest import ManualClock, Recorder
from tests.test_catalogs import YOU_AS_THIRD_PERSON
from webapp.channels import Subscriber
from webapp.game import registry
from webapp.play.hub import TableSession
from webapp.play.render import render_fragments
from webapp.services import Lapau

# Sentences: the stored log is replayed the same on either database (tests/play/test_hub.py
# checks the stored moves on both).
pytestmark = pytest.mark.databases("sqlite")

#: Seeded games in which the reader (seat 0, played by a bot) wins a round.
GAMES = [("koa", {"mode": "full"}, 2), ("kowah", {"players": 2}, 2), ("koikoi", {"rounds": 3}, 2)]


def play_for_seat_0(clock: ManualClock, session: TableSession) -> None:
    """Seat 0 moves as a medium bot would, through the table like a person."""
    rng = random.Random(0)
    bot = session.game.bots["medium"]
    while not session.finished:
        if session.game.to_act(session.state) == 0:
            session.submit(0, str(bot(session.view(0), rng)), session.version)
        else:
            assert clock.fire()


@pytest.mark.parametrize(("game", "options", "seed"), GAMES)
def test_no_sentence_about_you_uses_a_third_person_verb(
    clock: ManualClock, practice: object, game: str, options: dict[str, object], seed: int
) -> None:
    session = practice(game, seed=seed, **options)  # type: ignore[operator]
    recorder = Recorder(session)
    session.join(Subscriber(recorder, 0, "en"))
    play_for_seat_0(clock, session)
    text = " ".join(re.sub(r"<[^>]+>", " ", html) for _, html in recorder.messages)
    assert re.search(r"\b[Yy]ou (?:win|score)", text), "the reader never won: choose another seed"
    assert not YOU_AS_THIRD_PERSON.findall(text)


def test_the_first_turn_of_a_kowah_deal_offers_the_stock_only(app: Lapau, practice: object) -> None:
    kowah = registry.get("kowah")
    options = {**kowah.default_options, "players": 3}
    seed = next(s for s in range(100) if kowah.to_act(kowah.new_game(s, options)) == 0)
    session = practice("kowah", seed=seed, players=3)  # type: ignore[operator]
    with app.test_request_context("/en/"):
        prompt = render_fragments(session, 0)["prompt"]
    assert "Draw a card from the stock." in prompt
    assert "discard" not in prompt and 'value="take"' not in prompt
