"""Guided first games (#20): each lesson's prepared deal, played through with the engine and
the lesson's real bots, makes every lesson happen; and its table, through the pages without
scripts, says each step, explains a wrong move without changing anything, and ends."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from flask_babel import force_locale
from markupsafe import escape

from tests.play.conftest import ManualClock
from webapp import adapters
from webapp.game import registry
from webapp.play.guide import SEAT, Move, guide, play_through
from webapp.play.hub import Hub, TableSession

LESSONS = [adapter.name for adapter in adapters.adapters() if adapter.lesson is not None]


def events_of(game: str, moves: list[Move], final: Any) -> list[Any]:
    """Every event of the played-through lesson, in order (each state keeps its last
    action's, Koi-Koi's a window of the latest)."""
    states = [move.state for move in moves[1:]] + [final]
    seen: list[Any] = []
    for state in states:
        for event in state.events:
            if game != "koikoi" or event not in seen[-16:]:
                seen.append(event)
    return seen


def kowah_lessons(moves: list[Move], final: Any) -> dict[str, bool]:
    events = events_of("kowah", moves, final)
    outcome = registry.get("kowah").outcome(final)
    return {
        "take": any(e.kind == "take" and e.seat == SEAT for e in events),
        "declaration": any(e.kind == "declare" and e.seat == SEAT for e in events),
        "claim": outcome is not None and outcome.winners == (SEAT,) and outcome.reason == "discard",
    }


def koa_lessons(moves: list[Move], final: Any) -> dict[str, bool]:
    events = events_of("koa", moves, final)
    koa = registry.get("koa")
    hands = [move.state.hands[SEAT] for move in moves if move.step is not None]
    return {
        "kaki": any(set(hand) >= {"jarum-wajik", "jarum-udang", "jarum-halus"} for hand in hands),
        "mato": any(hand.count("babi-pusek") == 3 for hand in hands),
        "makan": any(e.kind == "makan" and e.seat == SEAT for e in events),
        # Your throw is eaten, and the ban then keeps a card you hold in your hand.
        "takabek": any(e.kind == "ban" and e.other == SEAT for e in events)
        and any(
            move.step is not None
            and move.state.phase == "throw"
            and "pacah-lapan" in move.state.hands[SEAT]
            and "throw pacah-lapan" not in map(str, koa.legal_actions(move.state))
            for move in moves
        ),
        "ceki": any(e.kind == "ceki" and e.seat == SEAT for e in events),
        "koa": any(e.kind == "koa" and e.seat == SEAT for e in events),
    }


def koikoi_lessons(moves: list[Move], final: Any) -> dict[str, bool]:
    events = events_of("koikoi", moves, final)
    outcome = registry.get("koikoi").outcome(final)
    return {
        "two-card choice": any(
            move.step is not None and move.state.phase == "choose" for move in moves
        ),
        "yaku": any(e.kind == "yaku" and e.seat == SEAT for e in events),
        "koi-koi": any(e.kind == "koikoi" and e.seat == SEAT for e in events),
        "stop": any(e.kind == "stop" and e.seat == SEAT for e in events),
        "a whole match": outcome is not None and outcome.winners == (SEAT,),
    }


#: For each game, which of its lessons the played-through game shows.
CHECKS: dict[str, Callable[[list[Move], Any], dict[str, bool]]] = {
    "koa": koa_lessons,
    "koikoi": koikoi_lessons,
    "kowah": kowah_lessons,
}


def played(game: str) -> tuple[list[Move], Any]:
    lesson = adapters.get(game).lesson
    assert lesson is not None
    moves = list(play_through(game, lesson))
    engine = registry.get(game)
    last = moves[-1]
    return moves, engine.apply(last.state, engine.parse_action(last.text))


@pytest.mark.parametrize("game", LESSONS)
def test_every_lesson_happens_and_the_game_ends_on_the_last_step(game: str) -> None:
    moves, final = played(game)
    lesson = adapters.get(game).lesson
    assert lesson is not None
    assert [move.step for move in moves if move.step is not None] == list(
        range(len(lesson.steps))
    ), "every step is played, in order"
    assert registry.get(game).outcome(final) is not None, "the game ends"
    found = CHECKS[game](moves, final)
    assert all(found.values()), found


def said(client: FlaskClient, lang: str, text: Any) -> str:
    """A coach's words as a page in ``lang`` shows them."""
    with client.application.test_request_context(f"/{lang}/"), force_locale(lang):
        return str(escape(str(text)))


def wait_for_person(session: TableSession, clock: ManualClock) -> None:
    clock.run_until(lambda: session.finished or session.game.to_act(session.state) == SEAT)


def a_wrong_move(session: TableSession, right: str) -> str:
    view = session.view(SEAT)
    legal = [str(action) for action in view.legal if str(action) != right]
    verb = adapters.get(session.game.name).hand_verb
    return legal[0] if legal else f"{verb} {view.hand[0]}"


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("game", LESSONS)
def test_the_coach_names_only_cards_you_may_see(client: FlaskClient, game: str) -> None:
    """Each step's words name a card (by its English name) only where seat 0 may see it:
    the coach knows the prepared deal, the person must not learn it from the coach."""
    engine = registry.get(game)
    moves, final = played(game)
    lesson = adapters.get(game).lesson
    assert lesson is not None
    with client.application.test_request_context("/en/"), force_locale("en"):
        names = {card: str(adapters.card(game, card).name) for card in set(engine.deck)}
        for move, after in zip(moves, [*[m.state for m in moves[1:]], final], strict=True):
            if move.step is None:
                continue
            step = lesson.steps[move.step]
            for words, state in (
                (step.say, move.state),
                (step.wrong, move.state),
                (step.after, after),
            ):
                hidden = engine.hidden_cards(state, SEAT)
                text = str(words or "")
                named = {
                    card
                    for card, name in names.items()
                    if re.search(rf"\b{re.escape(name)}\b", text)
                }
                assert not named & hidden, (move.step, sorted(named & hidden))


def test_every_game_has_a_lesson_and_checks() -> None:
    assert sorted(LESSONS) == sorted(CHECKS) == sorted(adapters.names())


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("game", LESSONS)
@pytest.mark.parametrize("lang", ["en", "id", "nl"])
def test_a_guided_table_without_scripts_coaches_each_step_to_the_end(
    hub: Hub, clock: ManualClock, client: FlaskClient, game: str, lang: str
) -> None:
    intro = client.get(f"/{lang}/learn/{game}")
    assert intro.status_code == 200
    response = client.post(f"/{lang}/learn/{game}")
    assert response.status_code == 303
    table_id = response.location.rsplit("/", 1)[1]
    session = hub.get(table_id)
    assert session is not None and session.coach is not None
    assert session.options["clock"] == 0
    coached = guide(game)
    assert coached is not None
    for step in coached.lesson.steps:
        wait_for_person(session, clock)
        page = client.get(f"/{lang}/table/{table_id}").text
        say, wrong = said(client, lang, step.say), said(client, lang, step.wrong)
        assert say in page
        before = session.version
        refused = client.post(
            f"/{lang}/table/{table_id}/act", data={"a": a_wrong_move(session, step.move)}
        )
        assert "notice=lesson" in refused.location
        assert session.version == before, "a wrong move changes nothing"
        assert wrong in client.get(refused.location).text
        client.post(f"/{lang}/table/{table_id}/act", data={"a": step.move})
        assert session.version > before
    wait_for_person(session, clock)
    assert session.finished
    assert said(client, lang, coached.lesson.end) in client.get(f"/{lang}/table/{table_id}").text


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("lang", ["en", "id", "nl"])
def test_the_rules_pages_and_the_practice_page_link_to_each_lesson(
    client: FlaskClient, lang: str
) -> None:
    practice = client.get(f"/{lang}/play/").text
    for game in LESSONS:
        assert f'href="/{lang}/learn/{game}"' in practice
        assert f'href="/{lang}/learn/{game}"' in client.get(f"/{lang}/rules/{game}").text


@pytest.mark.databases("sqlite")
def test_a_game_without_a_lesson_has_no_learning_page(client: FlaskClient) -> None:
    assert client.get("/en/learn/chess").status_code == 404
