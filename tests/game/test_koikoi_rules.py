"""Koi-Koi rules, paragraph by paragraph of docs/rules.md §3: deal, play, koi-koi, rounds, match."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from webapp.game.actions import Timeout
from webapp.game.deck import shuffled
from webapp.game.koikoi import GAME
from webapp.game.koikoi.actions import KoiKoi, Next, Play, Stop, Take, parse_action
from webapp.game.koikoi.cards import DECK, MONTH, MONTHS, sort_cards
from webapp.game.koikoi.rules import (
    apply,
    legal_actions,
    new_game,
    outcome,
    special_hand,
    starter_draw,
    to_act,
)
from webapp.game.koikoi.state import KoikoiState
from webapp.game.protocol import IllegalAction

LIGHTS_TWO = ("jan-crane", "mar-curtain")
PLAINS_NINE = (
    "jan-plain-1",
    "jan-plain-2",
    "feb-plain-1",
    "feb-plain-2",
    "mar-plain-1",
    "mar-plain-2",
    "apr-plain-1",
    "apr-plain-2",
    "may-plain-1",
)


def table(
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    field: tuple[str, ...],
    stock_top: tuple[str, ...] = (),
    captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    turn: int = 0,
    koikoi: int | None = None,
    number: int = 1,
    rounds: int = 12,
) -> KoikoiState:
    """A round in progress with these cards placed; every other card goes under the stock."""
    placed = [*hands[0], *hands[1], *field, *stock_top, *captured[0], *captured[1]]
    assert len(placed) == len(set(placed))
    rest = tuple(card for card in DECK if card not in placed)
    return replace(
        new_game(1, {"rounds": rounds}),
        number=number,
        starter=turn,
        hands=(tuple(hands[0]), tuple(hands[1])),
        field=sort_cards(field),
        stock=(*stock_top, *rest),
        captured=captured,
        phase="play",
        turn=turn,
        pending=None,
        turn_start=len(captured[turn]),
        koikoi=koikoi,
        redeals=(),
        events=(),
        event_count=0,
    )


def play(state: KoikoiState, *texts: str) -> KoikoiState:
    for text in texts:
        state = apply(state, parse_action(text))
    return state


# --- Deck -------------------------------------------------------------------------------


def test_deck_has_twelve_months_of_four() -> None:
    assert len(DECK) == 48 == len(set(DECK))
    assert Counter(MONTH[card] for card in DECK) == dict.fromkeys(MONTHS, 4)
    assert GAME.deck == DECK


# --- Play: the deal ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_deal_gives_eight_each_eight_on_field_twenty_four_in_stock(seed: int) -> None:
    state = new_game(seed, {})
    assert state.rounds == 12
    assert [len(state.hands[0]), len(state.hands[1]), len(state.field), len(state.stock)] == [
        8,
        8,
        8,
        24,
    ]
    assert sorted(GAME.cards(state)) == sorted(DECK)


def test_four_of_a_month_on_the_field_redeals() -> None:
    first = shuffled(DECK, 70, "deal", 1, 0)[16:24]
    assert 4 in Counter(MONTH[card] for card in first).values()
    state = new_game(70, {})
    assert state.redeals == ("four-on-field",)
    assert 4 not in Counter(MONTH[card] for card in state.field).values()
    assert state.events[1].kind == "redeal"


def test_no_dealt_field_holds_four_of_a_month() -> None:
    for seed in range(300):
        state = new_game(seed, {})
        assert 4 not in Counter(MONTH[card] for card in state.field).values()


def test_options_choose_three_six_or_twelve_rounds() -> None:
    for rounds in (3, 6, 12):
        assert new_game(1, {"rounds": rounds}).rounds == rounds
    assert new_game(1, {"rounds": "6"}).rounds == 6
    for wrong in (5, "5", None, "twelve"):
        with pytest.raises(IllegalAction) as err:
            new_game(1, {"rounds": wrong})
        assert err.value.reason == "bad-option"


# --- Play: a turn -------------------------------------------------------------------------

CAPTURES = [
    # (field, hand card, captured, left on field)
    (("jan-plain-1",), "mar-curtain", (), ("jan-plain-1", "mar-curtain")),
    (
        ("mar-plain-1", "jan-plain-1"),
        "mar-curtain",
        ("mar-curtain", "mar-plain-1"),
        ("jan-plain-1",),
    ),
    (
        ("mar-plain-1", "mar-plain-2", "mar-poetry"),
        "mar-curtain",
        ("mar-curtain", "mar-poetry", "mar-plain-1", "mar-plain-2"),
        (),
    ),
]


@pytest.mark.parametrize(
    ("field", "card", "taken", "left"), CAPTURES, ids=["no-match-stays", "one-match", "three-all"]
)
def test_hand_card_captures_by_month(
    field: tuple[str, ...], card: str, taken: tuple[str, ...], left: tuple[str, ...]
) -> None:
    state = table((("jun-plain-1", card), ("jun-plain-2",)), field, stock_top=("dec-plain-1",))
    state = play(state, f"play {card}")
    assert sorted(state.captured[0]) == sorted(taken)
    assert set(state.field) == {*left, "dec-plain-1"}
    assert state.events[0].kind == "play"
    assert state.turn == 1 and state.phase == "play"


def test_a_matching_card_must_capture() -> None:
    # There is no "leave it" action: playing a matching card always takes the match.
    state = table(
        (("mar-curtain", "jun-plain-1"), ("jun-plain-2",)), ("mar-plain-1",), ("dec-plain-1",)
    )
    after = play(state, "play mar-curtain")
    assert "mar-curtain" not in after.field and "mar-plain-1" in after.captured[0]
    assert all(isinstance(action, Play) for action in legal_actions(state))


def test_two_matches_let_the_player_choose_for_the_hand_card() -> None:
    state = table(
        (("mar-curtain", "jun-plain-1"), ("jun-plain-2",)),
        ("mar-plain-1", "mar-poetry"),
        stock_top=("dec-plain-1",),
    )
    state = play(state, "play mar-curtain")
    assert state.phase == "choose" and state.turn == 0
    assert state.pending is not None and state.pending.source == "hand"
    assert set(state.pending.options) == {"mar-plain-1", "mar-poetry"}
    assert set(legal_actions(state)) == {Take("mar-plain-1"), Take("mar-poetry")}
    assert state.stock[0] == "dec-plain-1"  # the stock waits for the choice
    state = play(state, "take mar-poetry")
    assert state.captured[0] == ("mar-curtain", "mar-poetry")
    assert "mar-plain-1" in state.field and "dec-plain-1" in state.field
    assert state.turn == 1


def test_stock_card_is_played_at_once() -> None:
    state = table(
        (("jun-plain-1", "jun-plain-2"), ("feb-plain-1",)), ("aug-moon",), ("aug-plain-1",)
    )
    state = play(state, "play jun-plain-1")
    assert state.captured[0] == ("aug-plain-1", "aug-moon")
    assert "aug-plain-1" not in state.hands[0]
    assert [event.kind for event in state.events] == ["play", "field", "flip", "capture"]


def test_stock_card_with_two_matches_asks_the_mover() -> None:
    state = table(
        (("jun-plain-1", "jun-plain-2"), ("feb-plain-1",)),
        ("jan-poetry", "jan-plain-1"),
        stock_top=("jan-crane",),
    )
    state = play(state, "play jun-plain-1")
    assert state.phase == "choose" and state.pending is not None
    assert state.pending.source == "stock" and state.pending.card == "jan-crane"
    with pytest.raises(IllegalAction) as err:
        play(state, "take jun-plain-1")
    assert err.value.reason == "not-an-option"
    state = play(state, "take jan-poetry")
    assert state.captured[0] == ("jan-crane", "jan-poetry") and state.turn == 1


def test_stock_card_with_three_matches_takes_all_four() -> None:
    state = table(
        (("jun-plain-1", "jun-plain-2"), ("feb-plain-1",)),
        ("jan-poetry", "jan-plain-1", "jan-plain-2"),
        stock_top=("jan-crane",),
    )
    state = play(state, "play jun-plain-1")
    assert sorted(state.captured[0]) == sorted(
        ["jan-crane", "jan-poetry", "jan-plain-1", "jan-plain-2"]
    )


def test_stock_card_without_match_stays_on_the_field() -> None:
    state = table((("jun-plain-1", "jun-plain-2"), ("feb-plain-1",)), (), stock_top=("jan-crane",))
    state = play(state, "play jun-plain-1")
    assert set(state.field) == {"jun-plain-1", "jan-crane"} and state.captured[0] == ()


# --- Play: teshi and kuttsuki ------------------------------------------------------------

SPECIALS = [(409, 0, "teshi"), (388, 1, "teshi"), (153, 0, "kuttsuki"), (82, 1, "kuttsuki")]


@pytest.mark.parametrize(("seed", "seat", "kind"), SPECIALS)
def test_teshi_and_kuttsuki_win_six_at_once(seed: int, seat: int, kind: str) -> None:
    state = new_game(seed, {})
    assert special_hand(state.hands[seat]) == kind
    assert state.phase == "round-over"
    result = state.results[0]
    assert (result.winner, result.reason, result.points) == (seat, kind, 6)
    assert state.scores[seat] == 6 and state.scores[1 - seat] == 0
    assert to_act(state) == seat  # the winner starts the next round


def test_both_special_hands_redeal_without_points() -> None:
    order = shuffled(DECK, 18735, "deal", 1, 0)
    assert special_hand(sort_cards(order[:8])) and special_hand(sort_cards(order[8:16]))
    state = new_game(18735, {})
    assert state.redeals == ("both-special",) and state.scores == (0, 0)
    assert state.phase == "play"


def test_kuttsuki_needs_four_pairs() -> None:
    pairs = ("jan-crane", "jan-poetry", "feb-poetry", "feb-warbler", "mar-poetry", "mar-curtain")
    assert special_hand((*pairs, "apr-ribbon", "may-ribbon")) is None
    assert special_hand((*pairs, "apr-ribbon", "apr-cuckoo")) == "kuttsuki"


# --- Koi-koi -------------------------------------------------------------------------------


def three_lights_turn() -> KoikoiState:
    """Seat 0 is about to form Three Lights with the moon and still holds a card after."""
    return table(
        (("aug-moon", "feb-plain-1"), ("apr-plain-1", "jun-plain-1")),
        ("aug-plain-1", "jun-blue"),
        stock_top=("dec-plain-1", "dec-plain-2", "oct-plain-1", "oct-plain-2"),
        captured=(LIGHTS_TWO, ("apr-ribbon", "may-ribbon", "jul-ribbon", "nov-ribbon")),
    )


def test_new_yaku_asks_stop_or_koikoi() -> None:
    state = play(three_lights_turn(), "play aug-moon")
    assert state.phase == "decide" and to_act(state) == 0
    assert legal_actions(state) == (Stop(), KoiKoi())
    assert state.events[-1].kind == "yaku" and state.events[-1].codes == ("three-lights",)
    # the yaku is checked after the whole turn: the stock card was turned over first
    assert [event.kind for event in state.events] == ["play", "capture", "flip", "field", "yaku"]


def test_stop_scores_and_ends_the_round() -> None:
    state = play(three_lights_turn(), "play aug-moon", "stop")
    assert state.phase == "round-over" and state.scores == (5, 0)
    assert state.results[-1].reason == "stop" and state.results[-1].winner == 0
    assert legal_actions(state) == (Next(),)


def test_koikoi_passes_the_turn_and_the_opponent_wins_double() -> None:
    state = play(three_lights_turn(), "play aug-moon", "koikoi")
    assert state.koikoi == 0 and state.turn == 1 and state.phase == "play"
    state = play(state, "play jun-plain-1")  # captures the blue ribbon: five ribbons
    assert state.phase == "round-over"
    result = state.results[-1]
    assert (result.winner, result.reason, result.base, result.koikoi_doubled) == (
        1,
        "after-koikoi",
        1,
        True,
    )
    assert state.scores == (0, 2)


def test_only_one_koikoi_per_round_the_next_yaku_ends_it() -> None:
    # The caller improves on the next turn: the round ends with no second prompt.
    state = table(
        (("sep-sake-cup", "feb-plain-1"), ("apr-plain-1", "jul-plain-1")),
        ("sep-plain-1",),
        stock_top=("dec-plain-1", "dec-plain-2", "oct-plain-1"),
        captured=((*LIGHTS_TWO, "aug-moon"), ()),
        koikoi=0,
    )
    state = play(state, "play sep-sake-cup")
    result = state.results[-1]
    assert state.phase == "round-over" and result.reason == "after-koikoi"
    assert dict(result.yaku) == {"three-lights": 5, "flower-viewing": 5, "moon-viewing": 5}
    assert (result.base, result.seven_doubled, result.koikoi_doubled, result.points) == (
        15,
        True,
        False,
        30,
    )


def test_quantity_yaku_growing_by_one_after_koikoi_ends_the_round() -> None:
    state = table(
        (("jul-plain-1", "feb-warbler"), ("apr-cuckoo", "aug-geese")),
        ("jul-plain-2",),
        stock_top=("dec-plain-1", "dec-plain-2"),
        captured=((*PLAINS_NINE, "may-plain-2"), ()),
        koikoi=0,
    )
    state = play(state, "play jul-plain-1")
    assert state.phase == "round-over" and dict(state.results[-1].yaku) == {"plains": 3}


def test_no_koikoi_without_hand_cards_the_yaku_scores_at_once() -> None:
    state = table(
        (("aug-moon",), ("apr-plain-1",)),
        ("aug-plain-1",),
        stock_top=("dec-plain-1", "dec-plain-2"),
        captured=(LIGHTS_TWO, ()),
    )
    state = play(state, "play aug-moon")
    assert state.phase == "round-over"
    assert state.results[-1].reason == "last-card" and state.scores == (5, 0)


def test_hands_out_after_koikoi_nobody_scores() -> None:
    state = table(
        (("feb-plain-1",), ("apr-plain-1",)),
        (),
        stock_top=("dec-plain-1", "oct-plain-1"),
        captured=(("jan-crane", "mar-curtain", "aug-moon"), ()),
        koikoi=0,
    )
    state = play(state, "play feb-plain-1", "play apr-plain-1")
    result = state.results[-1]
    assert (result.winner, result.reason, result.points) == (None, "hands-out", 0)
    assert state.scores == (0, 0)


def test_hands_out_without_yaku_nobody_scores_and_the_other_starts() -> None:
    state = table(
        (("feb-plain-1",), ("apr-plain-1",)), (), stock_top=("dec-plain-1", "oct-plain-1")
    )
    state = play(state, "play feb-plain-1", "play apr-plain-1")
    assert state.results[-1].winner is None
    assert to_act(state) == 1
    state = play(state, "next")
    assert state.number == 2 and state.starter == 1 and state.turn == 1


def test_the_round_winner_starts_the_next_round() -> None:
    state = play(three_lights_turn(), "play aug-moon", "koikoi", "play jun-plain-1")
    assert to_act(state) == 1
    state = play(state, "next")
    assert (state.number, state.starter, state.phase) == (2, 1, "play")
    assert state.captured == ((), ()) and len(state.stock) == 24


@pytest.mark.parametrize("seed", range(30))
def test_first_starter_drew_the_earlier_month(seed: int) -> None:
    draws, starter = starter_draw(seed)
    first, second = draws[-1]
    assert first != second
    assert starter == (0 if MONTHS.index(first) < MONTHS.index(second) else 1)
    assert all(a == b for a, b in draws[:-1])
    assert new_game(seed, {}).starter_draw == draws


def test_same_month_draws_again() -> None:
    draws, starter = starter_draw(50)
    assert draws == (("dec", "dec"), ("jul", "jun")) and starter == 1
    assert new_game(50, {}).turn == 1


@pytest.mark.parametrize("rounds", [3, 6, 12])
def test_match_lasts_the_chosen_rounds(rounds: int) -> None:
    state = new_game(rounds, {"rounds": rounds})
    rng = random.Random(rounds)
    while to_act(state) is not None:
        state = apply(state, rng.choice(legal_actions(state)))
    result = outcome(state)
    assert result is not None and result.detail["rounds"] == rounds
    assert len(result.detail["results"]) == rounds
    assert result.points == state.scores
    assert sum(r["points"] for r in result.detail["results"]) == sum(state.scores)
    first, second = state.scores
    assert result.winners == (() if first == second else ((0,) if first > second else (1,)))


def test_equal_totals_draw() -> None:
    state = replace(new_game(1, {"rounds": 3}), phase="match-over", scores=(7, 7))
    result = outcome(state)
    assert result is not None and result.winners == () and result.draw


def test_outcome_is_none_while_playing() -> None:
    assert outcome(new_game(2, {})) is None


# --- Actions, illegal moves, timeout ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("play dec-phoenix", "card-not-in-hand"),
        ("take jan-plain-1", "no-choice-pending"),
        ("stop", "no-decision-pending"),
        ("koikoi", "no-decision-pending"),
        ("next", "round-not-over"),
    ],
)
def test_illegal_actions_raise_with_a_reason(text: str, reason: str) -> None:
    state = three_lights_turn()
    with pytest.raises(IllegalAction) as err:
        play(state, text)
    assert err.value.reason == reason


def test_play_is_refused_while_deciding() -> None:
    state = play(three_lights_turn(), "play aug-moon")
    with pytest.raises(IllegalAction) as err:
        play(state, "play feb-plain-1")
    assert err.value.reason == "not-play-phase"


def test_a_finished_match_refuses_every_action() -> None:
    state = replace(new_game(1, {"rounds": 3}), phase="match-over")
    with pytest.raises(IllegalAction) as err:
        apply(state, Next())
    assert err.value.reason == "game-over"


@pytest.mark.parametrize(
    ("text", "reason"), [("dance", "bad-action"), ("play moon", "unknown-card"), ("", "bad-action")]
)
def test_unparseable_actions_raise(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction) as err:
        parse_action(text)
    assert err.value.reason == reason


@pytest.mark.parametrize(
    "action", [Play("jan-crane"), Take("mar-plain-2"), Stop(), KoiKoi(), Next(), Timeout()]
)
def test_actions_round_trip_through_their_text(action: object) -> None:
    assert parse_action(str(action)) == action


def test_timeout_completes_the_turn_and_stops() -> None:
    state = apply(three_lights_turn(), Timeout())
    # first hand card (the moon) forms Three Lights; the timeout stops
    assert state.phase == "round-over" and state.results[-1].reason == "stop"


def test_timeout_makes_both_choices() -> None:
    state = table(
        (("mar-curtain", "jun-plain-1"), ("feb-plain-1",)),
        ("mar-plain-1", "mar-poetry", "jan-poetry", "jan-plain-1"),
        stock_top=("jan-crane",),
    )
    state = apply(state, GAME.timeout_action(state))
    assert state.turn == 1 and state.phase == "play"
    assert state.captured[0] == ("mar-curtain", "mar-poetry", "jan-crane", "jan-poetry")


def test_timeout_deals_the_next_round() -> None:
    state = play(three_lights_turn(), "play aug-moon", "stop")
    assert apply(state, Timeout()).number == 2
