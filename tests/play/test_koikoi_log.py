"""The Koi-Koi log tells the whole of the latest turn (#17 finding 11): the opponent's
card played from hand was left out when their turn had more than two events."""

from __future__ import annotations

from flask import Flask, g

from tests.play.conftest import ManualClock, Practice
from webapp.game.koikoi.view import KoikoiView
from webapp.play.render import render_layout, split_fragments


def test_the_log_names_the_card_the_opponent_played_from_hand(
    app: Flask, clock: ManualClock, practice: Practice
) -> None:
    session = practice("koikoi", rounds=3)
    seen = 0
    for _ in range(200):  # the bot's turns, each time the table waits for the person
        clock.run_until(lambda: session.game.to_act(session.state) == 0)
        view = session.view(0)
        assert isinstance(view, KoikoiView)
        kinds = [e.kind for e in view.events]
        if "play" in kinds and view.events[kinds.index("play")].seat == 1:
            with app.test_request_context("/en/"):
                g.lang_code = "en"
                log = split_fragments(render_layout(session, 0))["log"]
            last_play = max(i for i, kind in enumerate(kinds) if kind == "play")
            if view.events[last_play].seat == 1 and len(kinds) - last_play > 2:
                assert "Bot 1 (Easy) played" in log, log
                seen += 1
        if seen >= 3 or session.finished:
            break
        session.submit(0, str(session.game.legal_actions(session.state)[0]), session.version)
    assert seen >= 3
