"""Koi-Koi house rules, case by case, as the setup form words them (webapp/adapters/koikoi.py).

One row per case: every option, and every combination of options that changes what a yaku
is worth.  Then the koi-koi calls played through the engine, options refused with a reason,
and each preset played by bots for hundreds of rounds with the playout checks.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from tests.game.playout import play
from tests.game.test_koikoi_playouts import check
from tests.tiers import scaled
from webapp.game.koikoi import GAME, yaku
from webapp.game.koikoi.actions import KoiKoi, Play, Stop
from webapp.game.koikoi.house import PRESETS, STANDARD, HouseRules, house_rules, preset_of
from webapp.game.koikoi.oracle import round_points
from webapp.game.koikoi.sampling import sample
from webapp.game.koikoi.sim import base_points, mask_of, score
from webapp.game.koikoi.state import KoikoiState
from webapp.game.protocol import IllegalAction
from webapp.game.simulate import simulate

NINE_PLAINS = [f"{m}-plain-{i}" for m in ("jan", "feb", "mar", "apr") for i in (1, 2)] + [
    "nov-lightning"
]
FLOWER = ["mar-curtain", "sep-sake-cup"]
MOON = ["aug-moon", "sep-sake-cup"]
BOTH = ["mar-curtain", "aug-moon", "sep-sake-cup"]
POEMS = ["jan-poetry", "feb-poetry", "mar-poetry"]
RAIN = ["nov-rain-man"]

#: (options, captured cards, the yaku they form): the setup form's words, row by row.
YAKU_CASES: list[tuple[dict[str, Any], list[str], dict[str, int]]] = [
    # "The sake cup also counts as a plain": 9 plains and the cup make Plains, or not.
    ({}, [*NINE_PLAINS, "sep-sake-cup"], {"plains": 1}),
    ({"sake_plain": True}, [*NINE_PLAINS, "sep-sake-cup"], {"plains": 1}),
    ({"sake_plain": False}, [*NINE_PLAINS, "sep-sake-cup"], {}),
    ({"sake_plain": False}, [*NINE_PLAINS, "sep-plain-1", "sep-sake-cup"], {"plains": 1}),
    # it stays an animal for Animals either way
    (
        {"sake_plain": False},
        ["feb-warbler", "apr-cuckoo", "may-bridge", "aug-geese", "sep-sake-cup"],
        {"animals": 1},
    ),
    # "Flower and moon viewing: on"
    ({"viewing": "on"}, FLOWER, {"flower-viewing": 5}),
    ({"viewing": "on"}, MOON, {"moon-viewing": 5}),
    ({"viewing": "on"}, BOTH, {"flower-viewing": 5, "moon-viewing": 5}),
    # "...off"
    ({"viewing": "off"}, FLOWER, {}),
    ({"viewing": "off"}, BOTH, {}),
    ({"viewing": "off"}, [*BOTH, "jan-crane"], {"three-lights": 5}),
    # "...only with another yaku": the two viewings are not another yaku for each other
    ({"viewing": "with-yaku"}, FLOWER, {}),
    ({"viewing": "with-yaku"}, BOTH, {}),
    ({"viewing": "with-yaku"}, [*FLOWER, *POEMS], {"flower-viewing": 5, "red-poems": 5}),
    (
        {"viewing": "with-yaku"},
        [*BOTH, "jan-crane"],
        {"three-lights": 5, "flower-viewing": 5, "moon-viewing": 5},
    ),
    # "Rain spoils the viewings": the rain man in your own pile
    ({"rain_spoils": True}, [*FLOWER, *RAIN], {}),
    ({"rain_spoils": True}, [*BOTH, *RAIN, "jan-crane"], {"rainy-four-lights": 7}),
    ({"rain_spoils": False}, [*FLOWER, *RAIN], {"flower-viewing": 5}),
    ({"rain_spoils": True}, FLOWER, {"flower-viewing": 5}),
    # combinations that change a viewing's worth
    ({"rain_spoils": True, "viewing": "with-yaku"}, [*FLOWER, *POEMS, *RAIN], {"red-poems": 5}),
    ({"rain_spoils": True, "viewing": "off"}, [*FLOWER, *POEMS], {"red-poems": 5}),
    # Plains made only by the cup is the other yaku the viewing needs, or is not
    (
        {"viewing": "with-yaku", "sake_plain": True},
        [*NINE_PLAINS, *FLOWER],
        {"flower-viewing": 5, "plains": 1},
    ),
    ({"viewing": "with-yaku", "sake_plain": False}, [*NINE_PLAINS, *FLOWER], {}),
]


@pytest.mark.parametrize(("options", "cards", "expected"), YAKU_CASES)
def test_each_option_scores_the_yaku_as_the_form_says(
    options: dict[str, Any], cards: list[str], expected: dict[str, int]
) -> None:
    house = house_rules(options)
    assert yaku(cards, house) == expected
    # the bots' fast model agrees with the rules
    assert base_points(mask_of(cards), house) == sum(expected.values())


MANY = {"koikoi_calls": "many"}

#: (options, base points, the opponent called koi-koi, the winner's own calls, points).
SCORE_CASES: list[tuple[dict[str, Any], int, bool, int, int]] = [
    # "×2 from 7 points"
    ({}, 6, False, 0, 6),
    ({}, 7, False, 0, 14),
    ({"double_seven": False}, 7, False, 0, 7),
    ({"double_seven": False}, 10, True, 0, 20),
    # "Koi-koi: once per round": the winner's own call changes nothing
    ({"koikoi_calls": "once"}, 5, False, 1, 5),
    ({"koikoi_calls": "once"}, 5, True, 0, 10),
    # "...any number of times, each call adding 1 to the caller's multiplier"
    (MANY, 5, False, 0, 5),
    (MANY, 5, False, 1, 10),
    (MANY, 5, False, 3, 20),
    (MANY, 5, True, 2, 30),
    (MANY, 8, True, 1, 64),
    ({**MANY, "double_seven": False}, 8, True, 1, 32),
]


@pytest.mark.parametrize(("options", "base", "called", "own", "points"), SCORE_CASES)
def test_each_option_scores_the_round_as_the_form_says(
    options: dict[str, Any], base: int, called: bool, own: int, points: int
) -> None:
    house = house_rules(options)
    assert round_points({"plains": base}, called, house, own).points == points
    assert score(base, called, house, own) == points


def _staged(options: dict[str, Any]) -> KoikoiState:
    """Seat 0 to play; it forms Flower Viewing now and Moon Viewing two turns later, and
    seat 1 forms Blue Ribbons in between.  The stock turns over cards that match nothing."""
    state = GAME.new_game(1, {"rounds": 3, **options})
    return replace(
        state,
        turn=0,
        starter=0,
        phase="play",
        hands=(("mar-curtain", "aug-moon", "nov-lightning"), ("oct-blue", "nov-swallow")),
        field=("mar-plain-1", "oct-plain-1", "aug-plain-1"),
        stock=("apr-plain-1", "may-plain-1", "jul-plain-1", "jul-plain-2"),
        captured=(("sep-sake-cup",), ("jun-blue", "sep-blue")),
        koikoi=None,
        calls=(0, 0),
        turn_start=1,
    )


def _play(state: KoikoiState, *actions: Any) -> KoikoiState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def test_one_koikoi_a_round_ends_it_at_the_next_yaku() -> None:
    state = _play(_staged({}), Play("mar-curtain"))
    assert state.phase == "decide" and state.turn == 0
    state = _play(state, KoiKoi(), Play("oct-blue"))
    result = state.results[-1]
    assert (result.winner, result.reason, result.points) == (1, "after-koikoi", 10)


def test_many_calls_ask_again_and_multiply_the_callers_score() -> None:
    state = _play(_staged(MANY), Play("mar-curtain"), KoiKoi(), Play("oct-blue"))
    assert state.phase == "decide" and state.turn == 1
    assert GAME.view(state, 1).prompt.score.points == 10  # type: ignore[union-attr]
    state = _play(state, KoiKoi(), Play("aug-moon"))
    assert state.phase == "decide" and state.calls == (1, 1)
    state = _play(state, Stop())
    result = state.results[-1]
    # 10 (flower and moon) ×2 at 7+, ×2 after seat 1's call, ×2 for its own one call
    assert (result.winner, result.reason, result.points, result.multiplier) == (0, "stop", 80, 2)
    assert result.as_dict()["multiplier"] == 2


def test_the_opponent_may_stop_after_a_koikoi_with_many_calls() -> None:
    state = _play(_staged(MANY), Play("mar-curtain"), KoiKoi(), Play("oct-blue"), Stop())
    result = state.results[-1]
    assert (result.winner, result.points, result.multiplier) == (1, 10, 1)
    assert "multiplier" not in result.as_dict()


@pytest.mark.parametrize(
    "options",
    [
        {"viewing": "sometimes"},
        {"koikoi_calls": 3},
        {"sake_plain": "maybe"},
        {"rain_spoils": None},
        {"double_seven": 2},
    ],
)
def test_an_option_not_offered_is_refused_with_a_reason(options: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.new_game(1, {"rounds": 3, **options})
    assert refused.value.reason == "bad-option"


def test_the_standard_rules_are_the_default_and_text_switches_read() -> None:
    assert GAME.new_game(1, {"rounds": 12}).house == STANDARD
    assert house_rules({"sake_plain": "off", "double_seven": "on"}) == HouseRules(sake_plain=False)
    assert preset_of(house_rules(PRESETS["bold-koikoi"].as_options())) == "bold-koikoi"
    assert len(set(PRESETS.values())) == len(PRESETS)


#: The preset playouts' seeds: every pair of levels below, at full size; in the quick tier
#: every third seed, which still seats each level on both sides.
PRESET_SEEDS = range(1, 19, scaled(1, 3))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_preset_plays_hundreds_of_rounds_with_every_check(preset: str) -> None:
    options = {**PRESETS[preset].as_options(), "rounds": 12}
    rounds = 0
    multipliers: set[int] = set()
    levels = ("random", "easy", "medium", "hard")
    for seed in PRESET_SEEDS:
        pair = (levels[seed % 4], levels[(seed // 4) % 4])
        playout = play(GAME, seed, pair, options=options, budget=800)
        rng = random.Random(seed)
        for state in playout.states:
            assert state.house == PRESETS[preset]
            check(state, rng)
        final = playout.final
        assert GAME.outcome(final) is not None
        assert sum(r.points for r in final.results if r.winner == 0) == final.scores[0]
        rounds += len(final.results)
        multipliers.update(result.multiplier for result in final.results)
    assert rounds >= scaled(200, 66)  # of 12 a game: nearly every game is played out
    # only many calls make a caller's multiplier, and the bots do call more than once
    assert (max(multipliers) > 2) == (PRESETS[preset].koikoi_calls == "many")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_simulator_runs_each_preset(preset: str) -> None:
    options = {**PRESETS[preset].as_options(), "rounds": 3}
    report = simulate("koikoi", 4, 1, ["hard", "medium"], options)
    assert report["unfinished"] == 0 and report["games"] == 8
    assert report["options"]["viewing"] == PRESETS[preset].viewing


@pytest.mark.parametrize("preset", ["tamed-sake", "bold-koikoi"])
def test_the_experts_deals_keep_the_tables_rules_and_calls(preset: str) -> None:
    gen, dealer = random.Random(4), random.Random(9)
    options = {**PRESETS[preset].as_options(), "rounds": 3}
    calls_seen = checked = 0
    for seed in (1, 2, 3, 4):
        state = GAME.new_game(seed, options)
        while (seat := GAME.to_act(state)) is not None:
            seen = GAME.view(state, seat)
            if len(GAME.legal_actions(state)) > 1:
                dealt = sample(seen, dealer)
                # the same rules and calls behind the same view, and so the same stake
                assert replace(GAME.view(dealt, seat), events=seen.events) == seen
                assert dealt.house == state.house and dealt.calls == state.calls
                calls_seen += sum(state.calls) > 0
                checked += 1
            state = GAME.apply(state, GAME.bots["hard"](seen, gen))
    assert checked >= 100 and calls_seen > 0
