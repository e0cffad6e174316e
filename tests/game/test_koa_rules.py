"""Koa rules, one case table per paragraph of docs/rules.md §1 (every decided point included)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from webapp.game.koa import GAME, KoaState, deal_from, koa_cards
from webapp.game.koa.actions import Cabut, Makan, NextRound, Throw, Timeout, parse_action
from webapp.game.koa.cards import DECK, GROUPS, TYPES, group
from webapp.game.koa.rules import legal_throws, new_game
from webapp.game.koa.state import Ban
from webapp.game.protocol import IllegalAction
from webapp.game.replay import replay

# An 11-card hand of singles: never ceki, no hiu.
FILLER = [
    "bengkok-hitam",
    "jarum-udang",
    "suduang-hitam",
    "babi-gadang",
    "betung-manih",
    "sisir-gadang",
    "pacah-manih",
    "tali-merah",
    "bengkok-halus",
    "jarum-halus",
    "suduang-putih",
]
MATOS = ["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3
CEKI = MATOS + ["betung-enam"] * 2  # waits on betung-enam
ALMOST = MATOS + ["betung-enam", "sisir-halus"]  # one betung-enam away from ceki
JUNK = "suduang-pinggang"


def table(
    *hands: Sequence[str],
    arena: Sequence[str] = (JUNK,) * 30,
    starter: int = 0,
    mode: str = "quick",
    marks: Sequence[int] = (0, 0, 0, 0),
) -> KoaState:
    """A round dealt from explicit hands (missing seats get FILLER)."""
    full = [list(hand) for hand in hands] + [FILLER] * (4 - len(hands))
    return deal_from(full, arena, starter, mode=mode, marks=marks)


def play(state: KoaState, *texts: str) -> KoaState:
    for text in texts:
        state = GAME.play(state, text)
    return state


def refused(state: KoaState, text: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        GAME.play(state, text)
    return caught.value.reason


def throws(state: KoaState) -> set[str]:
    return set(legal_throws(state))


# --- Deck -------------------------------------------------------------------------


def test_deck_has_180_cards_of_30_types_six_copies_each() -> None:
    assert len(DECK) == 180
    assert len(TYPES) == 30
    assert set(Counter(DECK).values()) == {6}


@pytest.mark.parametrize(
    ("group_name", "size"),
    [("hiu", 6)] + [(name, 3) for name in GROUPS if name != "hiu"],
)
def test_groups_are_the_id_before_the_first_dash(group_name: str, size: int) -> None:
    assert sum(1 for card in TYPES if group(card) == group_name) == size


def test_there_are_nine_groups() -> None:
    assert GROUPS == (
        "hiu",
        "bengkok",
        "jarum",
        "suduang",
        "babi",
        "betung",
        "sisir",
        "pacah",
        "tali",
    )


# --- Seats and turn order ---------------------------------------------------------


def test_mandan_sit_across() -> None:
    assert GAME.teams(4) == ((0, 2), (1, 3))


def test_play_passes_to_the_next_seat() -> None:
    state = play(table(starter=2), "cabut", f"throw {JUNK}")
    assert state.turn == 3 and state.phase == "take"
    state = play(state, "cabut", f"throw {JUNK}")
    assert state.turn == 0


def test_makan_takes_from_the_player_on_the_left_only() -> None:
    state = play(table(starter=0), "cabut", f"throw {JUNK}")
    assert state.turn == 1 and Makan() in GAME.legal_actions(state)
    # Seat 2 never gets seat 0's throw: seat 1's take closes it.
    state = play(state, "cabut", "throw tali-merah")
    assert state.latest_throw is not None and state.latest_throw.seat == 1
    state = play(state, "makan")
    assert state.hands[2].count("tali-merah") == 2


# --- Deal -------------------------------------------------------------------------


def test_deal_gives_eleven_each_and_the_rest_to_the_arena() -> None:
    state = new_game(11, {})
    assert [len(hand) for hand in state.hands] == [11, 11, 11, 11]
    assert len(state.arena) == 136
    assert Counter(card for hand in state.hands for card in hand) + Counter(state.arena) == Counter(
        DECK
    )


def test_first_starter_is_random_from_the_seed() -> None:
    starters = {new_game(seed, {}).starter for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert new_game(5, {}).starter == new_game(5, {}).starter


def test_same_seed_deals_the_same_cards() -> None:
    assert new_game(3, {}) == new_game(3, {})
    assert new_game(3, {}).hands != new_game(4, {}).hands


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(IllegalAction):
        new_game(1, {"mode": "endless"})


# --- A turn -----------------------------------------------------------------------


def test_starter_first_turn_can_only_cabut() -> None:
    state = table(starter=1)
    assert GAME.legal_actions(state) == (Cabut(),)
    assert refused(state, "makan") == "nothing-to-makan"


def test_cabut_draws_the_arena_top() -> None:
    state = play(table(arena=["tali-halus", JUNK, JUNK]), "cabut")
    assert state.arena == (JUNK, JUNK)
    assert state.hands[0].count("tali-halus") == 1 and len(state.hands[0]) == 12
    assert state.phase == "throw" and state.drawn == "tali-halus"


def test_makan_takes_the_latest_throw_into_the_hand() -> None:
    state = play(table(), "cabut", "throw tali-merah", "makan")
    assert state.hands[1].count("tali-merah") == 2
    assert state.throws[-1].eaten_by == 1
    assert state.phase == "throw"


def test_makan_is_only_for_the_most_recent_throw_this_turn() -> None:
    state = play(table(), "cabut", "throw tali-merah", "cabut")
    assert refused(state, "makan") == "wrong-phase"
    state = play(state, f"throw {JUNK}")
    assert state.latest_throw is not None and state.latest_throw.card == JUNK


def test_card_taken_by_makan_cannot_be_thrown_that_turn() -> None:
    state = play(table(), "cabut", "throw tali-merah", "makan")
    assert "tali-merah" not in throws(state)
    assert refused(state, "throw tali-merah") == "throw-eaten-card"
    # The next turn it may go.
    state = play(state, "throw jarum-udang", *["cabut", f"throw {JUNK}"] * 3, "cabut")
    assert "tali-merah" in throws(state)


def test_one_take_then_one_throw() -> None:
    state = table()
    assert refused(state, f"throw {JUNK}") == "wrong-phase"
    state = play(state, "cabut")
    assert refused(state, "cabut") == "wrong-phase"
    assert refused(state, "throw hiu-babak") == "card-not-in-hand"


def test_throws_nobody_ate_stay_in_the_pile() -> None:
    state = play(table(), "cabut", "throw tali-merah", "cabut", "throw tali-merah")
    pile = [(r.seat, r.card) for r in state.throws if r.eaten_by is None]
    assert pile == [(0, "tali-merah"), (1, "tali-merah")]


@pytest.mark.parametrize(
    ("setup", "expected_hand_change", "thrown"),
    [
        # Not taken yet: cabut, then the drawn card goes back out when legal.
        ([], "cabut", "tali-halus"),
        # After makan: the first legal card in canonical order.
        (["cabut", "throw tali-merah", "makan"], "makan", "bengkok-hitam"),
    ],
)
def test_timeout_completes_the_turn_by_a_fixed_rule(
    setup: list[str], expected_hand_change: str, thrown: str
) -> None:
    state = play(table(arena=["tali-halus"] + [JUNK] * 10), *setup)
    seat = state.turn
    after = GAME.apply(state, GAME.timeout_action(state))
    assert str(GAME.timeout_action(state)) == "timeout"
    assert after.throws[-1].seat == seat and after.throws[-1].card == thrown
    assert after.turn == (seat + 1) % 4 and after.phase == "take"


def test_timeout_throws_first_legal_card_when_the_drawn_one_is_not_legal() -> None:
    six_hiu = ["hiu-babak"] * 2 + ["hiu-kucing"] * 2 + ["hiu-pinci"] * 2 + FILLER[:5]
    state = play(table(six_hiu, arena=["tali-halus"] * 5), "timeout")
    assert state.throws[-1].card == "hiu-babak"


def test_timeout_can_win_on_the_drawn_card() -> None:
    state = play(table(CEKI, arena=["betung-enam"]), "timeout")
    assert state.phase == "match-over" and state.result is not None
    assert state.result.winner == 0


def test_timeout_deals_the_next_round_when_one_is_over() -> None:
    state = play(table(arena=[JUNK]), "cabut", f"throw {JUNK}", "timeout")
    assert state.round_no == 2 and state.phase == "take"


# --- Sets and ceki ----------------------------------------------------------------

KOA_TABLE = [
    # (hand, koa cards)
    (CEKI, {"betung-enam"}),  # 3 mato
    (
        ["jarum-wajik"] * 3
        + ["pacah-lapan", "pacah-manih", "pacah-halus"]
        + ["tali-bulat"] * 3
        # 2 mato + 1 kaki
        + ["betung-enam"] * 2,
        {"betung-enam"},
    ),
    (
        ["jarum-wajik"] * 3
        + ["pacah-lapan", "pacah-lapan", "pacah-halus"]  # kaki with a repeat
        + ["tali-bulat", "tali-merah", "tali-halus"]
        + ["betung-enam"] * 2,
        {"betung-enam"},
    ),  # 1 mato + 2 kaki
    (
        ["jarum-wajik", "jarum-udang", "jarum-halus"]
        + ["pacah-lapan", "pacah-manih", "pacah-halus"]
        + ["tali-bulat", "tali-merah", "tali-halus"]
        + ["betung-enam"] * 2,
        set(),
    ),  # three kaki alone
    (["hiu-babak", "hiu-kucing", "hiu-pinci"] + MATOS[3:] + ["sisir-halus"] * 2, {"sisir-halus"}),
    (MATOS + ["hiu-babak"] * 2, set()),  # hiu never a koa pair
    (MATOS + ["betung-enam", "betung-manih"], set()),  # no pair
    (
        ["jarum-wajik"] * 3
        + ["pacah-lapan"] * 3
        + ["betung-enam"] * 2
        + ["betung-manih"] * 2
        + ["betung-halus"],
        {"betung-enam", "betung-manih"},
    ),  # several waits
    (["jarum-wajik"] * 5 + MATOS[3:], {"jarum-wajik"}),  # pair out of five copies
    (MATOS + ["betung-enam"] * 2 + ["sisir-halus"], set()),  # 12 cards: not an 11-card hand
]


@pytest.mark.parametrize(("hand", "expected"), KOA_TABLE)
def test_koa_cards_table(hand: list[str], expected: set[str]) -> None:
    assert koa_cards(hand) == frozenset(expected)
    assert koa_cards(reversed(hand)) == frozenset(expected)


def test_dealt_hand_can_be_ceki() -> None:
    state = table(FILLER, CEKI)
    assert state.koa[1] == {"betung-enam"} and not state.koa[0]
    assert any(event.kind == "ceki" and event.seat == 1 for event in state.events)


def test_ceki_is_checked_after_each_throw_on_the_cards_kept() -> None:
    state = play(table(ALMOST, arena=["betung-enam", JUNK, JUNK]), "cabut")
    assert not state.koa[0]  # twelve cards in hand: not judged yet
    state = play(state, "throw sisir-halus")
    assert state.koa[0] == {"betung-enam"}
    assert [e.kind for e in state.events] == ["throw", "ceki"]


def test_player_stops_being_ceki_when_a_throw_breaks_the_hand() -> None:
    state = play(table(CEKI), "cabut", "throw jarum-wajik")
    assert not state.koa[0]
    assert "not-ceki" in [e.kind for e in state.events]


def test_ceki_players_see_every_arena_draw() -> None:
    state = play(table(FILLER, CEKI, arena=["tali-halus", JUNK]), "cabut")
    assert state.draws[-1].watchers == (1,)
    assert [d.card for d in GAME.view(state, 1).arena_draws] == ["tali-halus"]
    assert GAME.view(state, 2).arena_draws == ()
    assert [d.card for d in GAME.view(state, 0).arena_draws] == ["tali-halus"]
    assert GAME.view(state, None).arena_draws == ()  # a spectator sees no draw


# --- Koa --------------------------------------------------------------------------


def test_cabut_of_your_koa_card_wins_at_once() -> None:
    state = play(table(CEKI, arena=["betung-enam", JUNK]), "cabut")
    assert state.phase == "match-over"
    assert state.result is not None and state.result.winner == 0
    assert len(state.hands[0]) == 12  # before the drawer throws
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2)


def test_any_players_cabut_of_a_koa_card_wins_for_the_ceki_player() -> None:
    state = play(table(FILLER, FILLER, CEKI, arena=["betung-enam"]), "cabut")
    assert state.result is not None and state.result.winner == 2 and state.result.drawer == 0
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2)


def test_makan_never_wins() -> None:
    thrower = ["betung-enam"] + FILLER[1:]
    state = play(table(thrower, CEKI, starter=0), "cabut", "throw betung-enam", "makan")
    assert state.phase == "throw" and state.result is None


@pytest.mark.parametrize(
    ("ceki_seats", "drawer", "winner"),
    [
        ((0, 1, 2), 0, 0),  # the drawer is one of them
        ((1, 2), 0, 1),  # first after the drawer
        ((2, 1), 0, 1),
        ((1, 2), 3, 1),  # after seat 3 come 0, 1, 2
        ((0, 2), 1, 2),
        ((0, 3), 1, 3),
        ((0, 1), 2, 0),
    ],
)
def test_several_claims_on_one_draw(ceki_seats: tuple[int, ...], drawer: int, winner: int) -> None:
    hands = [CEKI if seat in ceki_seats else FILLER for seat in range(4)]
    state = play(table(*hands, arena=["betung-enam"], starter=drawer), "cabut")
    assert state.result is not None and state.result.winner == winner


def test_winning_team_is_the_winner_and_the_mandan() -> None:
    state = play(table(FILLER, FILLER, FILLER, CEKI, arena=["betung-enam"]), "cabut")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1, 3) and outcome.reason == "koa"


# --- Hiu --------------------------------------------------------------------------


def test_three_hiu_of_any_types_are_a_kaki() -> None:
    hand = ["hiu-babak", "hiu-bunga", "hiu-kasuik"] + MATOS[:6] + ["sisir-halus"] * 2
    assert koa_cards(hand) == {"sisir-halus"}


@pytest.mark.parametrize(
    ("held", "reason"), [(0, "makan-hiu-needs-pair"), (1, "makan-hiu-needs-pair"), (2, None)]
)
def test_makan_of_hiu_needs_a_pair(held: int, reason: str | None) -> None:
    thrower = ["hiu-panjang"] + FILLER[1:]
    eater = ["hiu-panjang"] * held + FILLER[held:]
    state = play(table(thrower, eater), "cabut", "throw hiu-panjang")
    if reason is None:
        assert play(state, "makan").hands[1].count("hiu-panjang") == 3
    else:
        assert refused(state, "makan") == reason
        assert GAME.legal_actions(state) == (Cabut(),)


@pytest.mark.parametrize(
    ("hiu", "drawn", "forced"),
    [
        (6, JUNK, True),  # a deal that gave six
        (7, JUNK, True),
        (5, JUNK, False),
        (5, "hiu-bunga", True),  # the sixth arrives by cabut
        (4, "hiu-bunga", False),
    ],
)
def test_six_or_more_hiu_force_a_hiu_throw(hiu: int, drawn: str, forced: bool) -> None:
    kinds = ["hiu-babak", "hiu-kucing", "hiu-pinci", "hiu-panjang", "hiu-kasuik", "hiu-babak"]
    hand = (kinds * 2)[:hiu] + FILLER[: 11 - hiu]
    state = play(table(hand, arena=[drawn] * 3), "cabut")
    legal = throws(state)
    assert all(card.startswith("hiu-") for card in legal) == forced
    if forced:
        assert refused(state, "throw bengkok-hitam") == "must-throw-hiu"


def test_six_hiu_reached_by_makan_force_a_hiu_throw() -> None:
    thrower = ["hiu-babak"] + FILLER[1:]
    eater = ["hiu-babak"] * 2 + ["hiu-kucing"] * 3 + FILLER[5:]
    state = play(table(thrower, eater), "cabut", "throw hiu-babak", "makan")
    assert throws(state) == {"hiu-kucing"}  # the eaten type may not go back out


# --- Takabek ----------------------------------------------------------------------

SISIR_THROWER = ["sisir-halus"] * 2 + FILLER[2:]


def eaten_sisir(*hands: Sequence[str]) -> KoaState:
    """Seat 3 throws sisir-halus and seat 0 eats it (then throws a filler)."""
    base = [FILLER, FILLER, FILLER, SISIR_THROWER]
    for seat, hand in enumerate(hands):
        base[seat] = list(hand)
    return play(table(*base, starter=3), "cabut", "throw sisir-halus", "makan")


def test_makan_bans_the_thrower_from_that_type() -> None:
    state = eaten_sisir()
    assert state.bans == (Ban(3, 0, "sisir-halus"),)
    state = play(state, "throw bengkok-hitam", *["cabut", f"throw {JUNK}"] * 2, "cabut")
    assert state.turn == 3
    assert "sisir-halus" not in throws(state)
    assert refused(state, "throw sisir-halus") == "takabek"


def test_ban_ends_when_the_eater_throws_that_type() -> None:
    eater = ["sisir-halus"] + FILLER[1:]
    state = eaten_sisir(eater)
    state = play(state, "throw jarum-udang", *["cabut", f"throw {JUNK}"] * 3, "cabut")
    assert state.turn == 0 and state.bans
    state = play(state, "throw sisir-halus")
    assert state.bans == ()
    assert "ban-lifted" in [e.kind for e in state.events]


def test_ban_ends_when_the_eater_becomes_ceki() -> None:
    eater = ["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["sisir-halus"] * 2
    state = eaten_sisir(eater + ["betung-enam"] * 2 + ["tali-merah"])
    assert state.bans
    state = play(state, "throw tali-merah")
    assert state.koa[0] and state.bans == ()


def test_ban_ends_when_the_banned_player_becomes_ceki() -> None:
    state = eaten_sisir()
    state = play(state, "throw bengkok-hitam", *["cabut", f"throw {JUNK}"] * 2)
    almost = tuple(sorted(MATOS + ["betung-enam", "tali-merah"]))
    state = replace(state, hands=(*state.hands[:3], almost), arena=("betung-enam", JUNK))
    state = play(state, "cabut", "throw tali-merah")
    assert state.koa[3] and state.bans == ()


def test_no_ban_when_the_eater_is_already_ceki() -> None:
    state = eaten_sisir(CEKI)
    assert state.bans == ()


def test_no_ban_when_the_thrower_is_already_ceki() -> None:
    state = table(FILLER, FILLER, FILLER, CEKI, starter=3, arena=["sisir-halus", JUNK])
    state = play(state, "cabut", "throw sisir-halus")
    assert state.koa[3]
    assert play(state, "makan").bans == ()


def test_banned_card_may_go_when_the_kept_hand_is_ceki() -> None:
    state = replace(
        play(table(), "cabut"),
        hands=(tuple(sorted(CEKI + ["sisir-halus"])), *[tuple(FILLER)] * 3),
        bans=(Ban(0, 1, "sisir-halus"), Ban(0, 1, "jarum-wajik")),
    )
    assert "sisir-halus" in throws(state)
    assert "jarum-wajik" not in throws(state)


def test_a_player_can_hold_several_bans() -> None:
    state = replace(
        play(table(), "cabut"),
        bans=(Ban(0, 1, "tali-merah"), Ban(0, 3, "jarum-udang"), Ban(2, 1, "babi-gadang")),
    )
    legal = throws(state)
    assert "tali-merah" not in legal and "jarum-udang" not in legal and "babi-gadang" in legal


def test_bans_do_not_apply_when_every_card_is_banned() -> None:
    hand = ["tali-merah"] * 4 + ["jarum-udang"] * 4 + ["babi-pusek"] * 3
    state = play(table(hand, arena=["babi-pusek"] * 3), "cabut")
    every = {"tali-merah", "jarum-udang", "babi-pusek"}
    state = replace(state, bans=tuple(Ban(0, 1, card) for card in sorted(every)))
    assert throws(state) == every


def test_hiu_rule_beats_bans() -> None:
    six_hiu = ["hiu-babak"] * 3 + ["hiu-kucing"] * 3 + FILLER[:5]
    state = play(table(six_hiu), "cabut")
    state = replace(state, bans=(Ban(0, 1, "hiu-babak"), Ban(0, 1, "hiu-kucing")))
    assert throws(state) == {"hiu-babak", "hiu-kucing"}


def test_decided_when_every_held_type_is_banned_only_ceki_keeping_cards_may_go() -> None:
    hand = CEKI + ["sisir-halus"]
    state = replace(
        play(table(), "cabut"),
        hands=(tuple(sorted(hand)), *[tuple(FILLER)] * 3),
        bans=tuple(Ban(0, 1, card) for card in sorted(set(hand))),
    )
    assert throws(state) == {"sisir-halus"}  # the kept CEKI hand is still ceki
    assert refused(state, "throw jarum-wajik") == "takabek"
    assert play(state, "throw sisir-halus").koa[0] == {"betung-enam"}


def test_decided_six_hiu_give_way_when_the_only_hiu_is_the_type_just_eaten() -> None:
    thrower = ["hiu-babak"] + FILLER[1:]
    eater = ["hiu-babak"] * 5 + FILLER[5:]
    state = play(table(thrower, eater), "cabut", "throw hiu-babak", "makan")
    assert state.hands[1].count("hiu-babak") == 6
    assert throws(state) == set(FILLER[5:])  # the eaten type stays unthrowable
    assert refused(state, "throw hiu-babak") == "throw-eaten-card"
    assert play(state, f"throw {FILLER[5]}").hands[1].count("hiu-babak") == 6
    assert play(state, "timeout").throws[-1].card == legal_throws(state)[0]  # not a hiu


def test_bans_end_with_the_round() -> None:
    state = eaten_sisir()
    state = replace(state, arena=state.arena[:0])
    state = play(state, "throw bengkok-hitam")
    assert state.phase == "round-over"
    assert play(state, "next").bans == ()


# --- Rounds and matches -----------------------------------------------------------


def test_quick_match_ends_at_the_first_koa() -> None:
    state = play(table(CEKI, arena=["betung-enam"]), "cabut")
    assert state.phase == "match-over"
    assert GAME.to_act(state) is None and GAME.legal_actions(state) == ()
    assert refused(state, "next") == "match-over"


def test_full_match_marks_batu_then_gantung_then_putuih() -> None:
    state = play(table(CEKI, arena=["betung-enam"], mode="full"), "cabut")
    assert state.phase == "round-over" and state.marks == (1, 0, 0, 0)
    assert GAME.outcome(state) is None
    state = play(state, "next")
    assert state.round_no == 2 and state.starter == 0 and state.marks == (1, 0, 0, 0)
    assert [len(hand) for hand in state.hands] == [11] * 4 and len(state.arena) == 136


def test_first_to_putuih_wins_the_full_match_for_the_team() -> None:
    state = table(FILLER, CEKI, arena=["betung-enam"], mode="full", marks=(2, 2, 1, 0))
    state = play(state, "cabut")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1, 3) and outcome.reason == "putuih"
    assert outcome.points == (2, 3, 1, 0)  # marks belong to the player


def test_gantung_player_holding_hiu_must_throw_hiu() -> None:
    hand = ["hiu-kasuik"] + FILLER[1:]
    state = play(table(hand, mode="full", marks=(2, 0, 0, 0)), "cabut")
    assert throws(state) == {"hiu-kasuik"}
    quick = play(table(hand, mode="quick", marks=(2, 0, 0, 0)), "cabut")
    assert len(throws(quick)) > 1


def test_gantung_player_without_hiu_throws_freely() -> None:
    state = play(table(FILLER, mode="full", marks=(2, 0, 0, 0)), "cabut")
    assert len(throws(state)) > 1


def test_gantung_player_may_not_makan_a_hiu() -> None:
    thrower = ["hiu-panjang"] + FILLER[1:]
    eater = ["hiu-panjang"] * 2 + FILLER[2:]
    state = play(table(thrower, eater, mode="full", marks=(0, 2, 0, 0)), "cabut")
    state = play(state, "throw hiu-panjang")
    assert refused(state, "makan") == "makan-hiu-gantung"


def test_arena_habis_is_a_draw_when_the_last_draw_brings_no_koa() -> None:
    state = play(table(FILLER, CEKI, arena=[JUNK], mode="full", starter=2), "cabut")
    assert state.phase == "throw"  # the turn still ends with a throw
    state = play(state, f"throw {JUNK}")
    assert state.phase == "round-over"
    assert state.result is not None and state.result.winner is None
    assert state.marks == (0, 0, 0, 0)
    assert "arena-habis" in [e.kind for e in state.events]


def test_after_a_draw_the_next_player_starts_and_quick_plays_another_round() -> None:
    state = play(table(arena=[JUNK], starter=2), "cabut", f"throw {JUNK}")
    assert state.phase == "round-over" and GAME.outcome(state) is None
    assert GAME.legal_actions(state) == (NextRound(),)
    state = play(state, "next")
    assert state.starter == 3 and state.turn == 3 and state.round_no == 2


def test_after_a_koa_the_winner_starts_the_next_round() -> None:
    state = play(table(FILLER, FILLER, CEKI, arena=["betung-enam"], mode="full"), "cabut")
    assert play(state, "next").starter == 2


def test_next_round_only_after_a_round_ends() -> None:
    assert refused(table(), "next") == "wrong-phase"
    over = play(table(arena=[JUNK]), "cabut", f"throw {JUNK}")
    assert refused(over, "cabut") == "round-over"


# --- Actions, log and replay ------------------------------------------------------


@pytest.mark.parametrize("action", [Cabut(), Makan(), Throw("hiu-babak"), NextRound(), Timeout()])
def test_action_text_round_trips(action: object) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "bad-action"),
        ("throw", "bad-action"),
        ("eat", "bad-action"),
        ("cabut now", "bad-action"),
        ("throw ace", "unknown-card"),
    ],
)
def test_malformed_action_text_is_refused(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_action(text)
    assert caught.value.reason == reason


def test_seed_and_log_replay_to_the_same_state() -> None:
    state = new_game(21, {"mode": "full"})
    log = []
    for _ in range(200):
        action = GAME.legal_actions(state)[-1]
        log.append(str(action))
        state = GAME.apply(state, action)
    assert replay(GAME, 21, {"mode": "full"}, log) == state
