"""What each Koa seat may see (docs/rules.md §1, "What each seat may see")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from webapp.game.koa import GAME, KoaState, deal_from
from webapp.game.koa.actions import Cabut, Makan
from webapp.game.koa.cards import sort_cards
from webapp.game.koa.state import Ban

OTHERS = ["tali-halus"] * 4 + ["bengkok-hitam"] * 4 + ["sisir-halus"] * 3
MINE = ["babi-pusek"] * 4 + ["sisir-gadang"] * 3 + ["pacah-manih"] * 2 + ["suduang-hitam"] * 2
CEKI = ["jarum-wajik"] * 3 + ["pacah-lapan"] * 3 + ["tali-bulat"] * 3 + ["betung-enam"] * 2


def table(*hands: Sequence[str], arena: Sequence[str] = ("hiu-bunga",) * 20) -> KoaState:
    full = [list(hand) for hand in hands] + [OTHERS] * (4 - len(hands))
    return deal_from(full, arena, 0)


def mentions(text: str, card: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    state = table(MINE, ["jarum-udang"] * 4 + OTHERS[4:])
    mine = GAME.view(state, 0)
    assert mine.hand == sort_cards(MINE)
    assert mine.hand_counts == (11, 11, 11, 11) and mine.arena_count == 20
    assert not mentions(repr(mine), "jarum-udang")
    assert not mentions(repr(mine), "hiu-bunga")  # not the arena either


def test_a_spectator_sees_no_hand() -> None:
    spectator = GAME.view(table(MINE), None)
    assert spectator.hand == () and spectator.legal == ()
    assert not mentions(repr(spectator), "babi-pusek")


def test_only_the_seat_to_act_gets_legal_actions() -> None:
    state = table(MINE)
    assert GAME.view(state, 0).legal == (Cabut(),)
    assert GAME.view(state, 0).my_turn
    assert GAME.view(state, 1).legal == ()


def test_throws_show_the_thrower_and_can_makan_for_the_next_seat() -> None:
    state = GAME.play(GAME.play(table(MINE), "cabut"), "throw sisir-gadang")
    for seat in range(4):
        seen = GAME.view(state, seat)
        assert seen.latest_throw is not None and seen.latest_throw.seat == 0
        assert seen.latest_throw.card == "sisir-gadang"
        assert seen.can_makan == (seat == 1)
    assert Makan() in GAME.view(state, 1).legal


def test_everyone_sees_who_ate_what() -> None:
    state = GAME.play(GAME.play(GAME.play(table(MINE), "cabut"), "throw sisir-gadang"), "makan")
    for seat in (0, 2, 3, None):
        seen = GAME.view(state, seat)
        assert seen.throws[-1].eaten_by == 1 and seen.pile == ()
    assert GAME.view(state, 1).eaten == "sisir-gadang"


def test_the_pile_by_thrower_is_worked_out_once_for_every_seat() -> None:
    """Five views a move (four seats and the spectators) share the state's pile."""
    state = GAME.play(GAME.play(table(MINE), "cabut"), "throw sisir-gadang")
    state = GAME.play(GAME.play(state, "cabut"), f"throw {state.hands[1][0]}")
    views = [GAME.view(state, seat) for seat in (0, 1, 2, 3, None)]
    assert views[0].pile == tuple(state.throws)
    assert views[0].thrown == (("sisir-gadang",), (state.throws[1].card,), (), ())
    assert all(seen.pile is views[0].pile and seen.thrown is views[0].thrown for seen in views)


def test_ceki_is_public_but_koa_cards_are_not() -> None:
    state = table(MINE, CEKI)
    assert GAME.view(state, 0).ceki == (False, True, False, False)
    assert GAME.view(state, 1).koa_cards == ("betung-enam",)
    assert GAME.view(state, 0).koa_cards == ()


def test_the_drawn_card_is_hidden_from_seats_that_are_not_ceki() -> None:
    state = GAME.play(table(MINE, CEKI, arena=["suduang-putih"] * 5), "cabut")
    drawer, ceki_seat, other = (GAME.view(state, s) for s in (0, 1, 2))
    assert drawer.drawn == "suduang-putih"
    assert mentions(repr(ceki_seat), "suduang-putih")
    assert [d.card for d in ceki_seat.arena_draws] == ["suduang-putih"]
    assert not mentions(repr(other), "suduang-putih")
    assert other.events[0].kind == "cabut" and other.events[0].card is None


def test_bans_are_shown_to_the_seats_they_concern() -> None:
    state = GAME.play(table(MINE), "cabut")
    state = replace(state, bans=(Ban(0, 1, "sisir-gadang"),))
    assert GAME.view(state, 0).bans and GAME.view(state, 1).bans
    assert GAME.view(state, 2).bans == ()


def test_must_throw_hiu_is_flagged() -> None:
    six = ["hiu-babak"] * 3 + ["hiu-kucing"] * 3 + MINE[:5]
    state = GAME.play(table(six), "cabut")
    assert GAME.view(state, 0).must_throw_hiu


def test_every_hand_is_revealed_when_the_round_ends() -> None:
    state = table(MINE, CEKI, arena=["betung-enam"])
    state = GAME.play(state, "cabut")
    seen = GAME.view(state, 2)
    assert seen.phase == "match-over" and seen.result is not None
    assert seen.result.winner == 1 and seen.result.card == "betung-enam"
    assert len(seen.result.hands) == 4 and "babi-pusek" in seen.result.hands[0]
    assert seen.winners == (1, 3) and seen.to_act is None


def test_the_next_round_keeps_only_a_summary_of_the_last() -> None:
    state = deal_from([MINE, CEKI, OTHERS, OTHERS], ["betung-enam"], 0, mode="full")
    state = GAME.play(GAME.play(state, "cabut"), "next")
    seen = GAME.view(state, 0)
    assert seen.result is not None and seen.result.hands == () and seen.result.winner == 1
    assert seen.round_no == 2 and seen.marks == (0, 1, 0, 0) and seen.mode == "full"


def test_turn_number_and_phase_for_the_timer() -> None:
    state = table(MINE)
    assert (GAME.view(state, 3).turn_no, GAME.view(state, 3).phase) == (1, "take")
    state = GAME.play(state, "cabut")
    assert GAME.view(state, 3).phase == "throw" and GAME.view(state, 3).to_act == 0
    state = GAME.play(state, "throw babi-pusek")
    assert GAME.view(state, 3).turn_no == 2
