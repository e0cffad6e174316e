"""What each Koi-Koi seat may see (docs/rules.md §3) and what views carry."""

from __future__ import annotations

import re
from dataclasses import replace

from webapp.game.koikoi import GAME
from webapp.game.koikoi.actions import KoiKoi, Next, Play, Stop, Take
from webapp.game.koikoi.cards import DECK, sort_cards
from webapp.game.koikoi.rules import apply, new_game
from webapp.game.koikoi.state import KoikoiState
from webapp.game.koikoi.view import view


def mentions(text: str, cards: frozenset[str] | set[str] | tuple[str, ...]) -> set[str]:
    return {card for card in cards if re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text)}


def deciding_state() -> KoikoiState:
    """Seat 0 just formed Three Lights and is asked to stop or call koi-koi."""
    hands = (("aug-moon", "feb-plain-1", "nov-swallow"), ("apr-plain-1", "jun-plain-1", "oct-deer"))
    field = ("aug-plain-1", "jun-blue")
    captured = (("jan-crane", "mar-curtain", "sep-sake-cup"), ("jul-boar", "jun-butterflies"))
    placed = {*hands[0], *hands[1], *field, *captured[0], *captured[1], "dec-plain-1"}
    stock = ("dec-plain-1", *(card for card in DECK if card not in placed))
    state = replace(
        new_game(3, {}),
        hands=hands,
        field=sort_cards(field),
        stock=stock,
        captured=captured,
        phase="play",
        turn=0,
        starter=0,
        turn_start=3,
        koikoi=None,
        events=(),
        event_count=0,
    )
    return apply(state, Play("aug-moon"))


def test_a_seat_sees_its_hand_not_the_other_hand_nor_the_stock() -> None:
    state = new_game(11, {})
    for seat in (0, 1):
        seen = view(state, seat)
        assert seen.hand == state.hands[seat]
        assert seen.hand_counts == (8, 8) and seen.stock_count == 24
        assert seen.field == state.field
        text = repr(seen)
        assert not mentions(text, state.hands[1 - seat])
        assert not mentions(text, state.stock)
        assert mentions(text, GAME.hidden_cards(state, seat)) == set()


def test_a_spectator_sees_no_hand() -> None:
    state = new_game(12, {})
    seen = view(state, None)
    assert seen.hand == () and seen.legal == ()
    assert not mentions(repr(seen), state.hands[0] + state.hands[1] + state.stock)


def test_the_seat_to_act_gets_its_legal_actions_only() -> None:
    state = new_game(13, {})
    mover = GAME.to_act(state)
    assert mover is not None
    assert view(state, mover).legal == GAME.legal_actions(state)
    assert view(state, 1 - mover).legal == ()


def test_the_stop_koikoi_prompt_shows_the_score_at_stake() -> None:
    seen = view(deciding_state(), 1)
    assert seen.phase == "decide" and seen.prompt is not None
    assert seen.prompt.seat == 0
    assert seen.prompt.score.points == 30  # three lights, flower and moon viewing: 15, doubled
    assert {line.slug for line in seen.yaku[0]} == {
        "three-lights",
        "flower-viewing",
        "moon-viewing",
    }
    assert view(deciding_state(), 0).legal == (Stop(), KoiKoi())


def test_captured_piles_are_grouped_by_kind() -> None:
    seen = view(deciding_state(), 0)
    pile = seen.captured[0]
    assert pile.lights == ("jan-crane", "mar-curtain", "aug-moon")
    assert pile.animals == ("sep-sake-cup",)
    assert pile.plains == ("aug-plain-1",) and pile.plain_count == 2


def test_near_yaku_show_what_is_close() -> None:
    seen = view(deciding_state(), 0)
    assert [(p.slug, p.have, p.need) for p in seen.near[1]] == [("boar-deer-butterflies", 2, 3)]


def test_koikoi_call_is_public() -> None:
    state = apply(deciding_state(), KoiKoi())
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen.koikoi == 0 and seen.events[-1].kind == "koikoi"


def test_pending_choice_is_shown_with_its_options() -> None:
    state = new_game(5, {})
    state = replace(
        state,
        hands=(("mar-curtain", "jun-plain-1"), ("feb-plain-1",)),
        field=("mar-poetry", "mar-plain-1"),
        phase="play",
        turn=0,
    )
    state = apply(state, Play("mar-curtain"))
    seen = view(state, 1)
    assert seen.pending is not None and seen.pending.source == "hand"
    assert seen.pending.options == ("mar-poetry", "mar-plain-1")
    assert view(state, 0).legal == (Take("mar-poetry"), Take("mar-plain-1"))


def test_round_end_reveals_both_hands_and_the_result() -> None:
    state = apply(deciding_state(), Stop())
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen.revealed == state.hands
        assert seen.result is not None and seen.result.points == 30
        assert seen.result.seven_doubled and not seen.result.koikoi_doubled
        assert seen.next_starter == 0 and seen.scores == (30, 0)
        assert not mentions(repr(seen), state.stock)
        assert mentions(repr(seen), state.hands[1]) == set(state.hands[1])


def test_a_new_round_forgets_the_last_rounds_cards() -> None:
    state = apply(apply(deciding_state(), Stop()), Next())
    for seat in (0, 1):
        seen = view(state, seat)
        assert seen.revealed is None and seen.result is None
        assert [event.kind for event in seen.events][0] == "deal"
        assert not mentions(repr(seen), GAME.hidden_cards(state, seat))
        assert len(seen.history) == 1


def test_the_starter_draw_is_shown_as_months() -> None:
    state = new_game(50, {})
    assert view(state, 0).starter_draw == (("dec", "dec"), ("jul", "jun"))
