"""The hand's cards are move buttons only when one may be played, and say why not."""

from __future__ import annotations

import re

from tests.play.conftest import ManualClock
from webapp.play.hub import TableSession
from webapp.play.render import render_layout
from webapp.services import Lapau


def hand_on_the_page(app: Lapau, session: TableSession) -> str:
    """Seat 0's hand as the table page draws it (a socket's render leaves the disabled
    state to table.js)."""
    with app.test_request_context(f"/en/table/{session.id}"):
        html = render_layout(session, 0)
    found = re.search(r'<section id="hand".*?</section>', html, re.S)
    assert found is not None
    return found.group(0)


def test_the_hand_is_disabled_but_at_your_throw_and_after_the_match(
    app: Lapau, clock: ManualClock, practice: object
) -> None:
    session = practice("koa", mode="quick")  # type: ignore[operator]
    clock.run_until(lambda: session.game.to_act(session.state) == 0)
    assert session.view(0).phase == "take"
    assert '<fieldset data-step="throw" disabled>' in hand_on_the_page(app, session)
    session.submit(0, "cabut", session.version)
    if session.view(0).phase == "throw":  # (a cabut that wins ends the round instead)
        hand = hand_on_the_page(app, session)
        assert '<fieldset data-step="throw">' in hand
        assert hand.count("<button") == len(session.view(0).hand)
    clock.run_until(lambda: session.finished)
    assert '<fieldset data-step="throw" disabled>' in hand_on_the_page(app, session)


def test_a_card_the_rules_refuse_is_marked_with_the_reason(
    app: Lapau, clock: ManualClock, practice: object
) -> None:
    session = practice("kowah", players=2)  # type: ignore[operator]
    while True:  # to a turn of seat 0 that can take the latest discard
        clock.run_until(lambda: session.game.to_act(session.state) == 0)
        if "take" in map(str, session.game.legal_actions(session.state)):
            break
        assert clock.fire()
    session.submit(0, "take", session.version)
    taken = session.view(0).taken
    hand = hand_on_the_page(app, session)
    refused = re.findall(r'<button[^>]*aria-disabled="true"[^>]*>', hand)
    assert refused  # every copy of the taken card: a discard names the card, not the copy
    for button in refused:
        assert f'value="discard {taken}"' in button
        assert 'title="You cannot discard the card you just took."' in button
        assert 'aria-description="You cannot discard the card you just took."' in button
