"""Kowah deals and turns (docs/rules.md §2: Setup, A turn, After declaring, Scoring and end)."""

from __future__ import annotations

import pytest

from webapp.game.actions import Timeout
from webapp.game.kowah import GAME
from webapp.game.kowah.actions import Discard, Draw, KowahAction, Take
from webapp.game.kowah.bots import BOTS
from webapp.game.kowah.rules import apply, legal_actions, new_game
from webapp.game.kowah.state import KowahState, PileCard, arranged_deal
from webapp.game.protocol import IllegalAction

# Seat 0 becomes checki by drawing coins-1 and discarding red-flower (pair coins-1).
READY = "coins-5 strings-5 myriads-5 coins-7 strings-7 myriads-7 coins-1 red-flower".split()
# Loose hands that are never checki by drawing and discarding the drawn card.
LOOSE_1 = "coins-2 strings-3 myriads-4 coins-6 strings-8 myriads-9 old-thousand white-flower"
LOOSE_2 = "strings-2 myriads-3 coins-4 strings-6 myriads-8 coins-9 old-thousand white-flower"
JUNK = ["strings-9", "myriads-2", "coins-3", "strings-4", "myriads-6", "coins-8"]


def deal(stock_top: list[str], one: str = LOOSE_1, two: str = LOOSE_2) -> KowahState:
    return arranged_deal([READY, one.split(), two.split()], stock_top=stock_top, first=0)


def play(state: KowahState, *texts: str) -> KowahState:
    for text in texts:
        state = GAME.play(state, text)
    return state


def declaring(actions: tuple[KowahAction, ...]) -> list[Discard]:
    return [a for a in actions if isinstance(a, Discard) and a.declare]


def declared(stock_top: list[str], one: str = LOOSE_1) -> KowahState:
    """Seat 0 has declared coins-1; seat 1 is to take."""
    return play(deal(["coins-1", *stock_top], one), "draw", "discard red-flower declare coins-1")


# --- Setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stock"), [(2, 104), (3, 96), (4, 88)])
def test_setup_deals_eight_each_and_the_rest_is_the_stock(players: int, stock: int) -> None:
    state = new_game(5, {"players": players})
    assert [len(hand) for hand in state.hands] == [8] * players
    assert len(state.stock) == stock
    assert GAME.seats(state) == players


def test_setup_defaults_to_three_players() -> None:
    assert new_game(5, {}).players == 3
    assert GAME.default_options == {"players": 3}


@pytest.mark.parametrize("players", [1, 5, "3"])
def test_setup_refuses_other_player_counts(players: object) -> None:
    with pytest.raises(IllegalAction) as err:
        new_game(5, {"players": players})
    assert err.value.reason == "bad-players"


def test_setup_first_player_is_random_but_fixed_by_the_seed() -> None:
    firsts = {new_game(seed, {}).turn for seed in range(60)}
    assert firsts == {0, 1, 2}
    assert new_game(9, {}) == new_game(9, {})


# --- A turn ------------------------------------------------------------------------------------


def test_first_turn_of_the_deal_must_draw_from_the_stock() -> None:
    state = deal([])
    assert legal_actions(state) == (Draw(),)
    with pytest.raises(IllegalAction) as err:
        apply(state, Take())
    assert err.value.reason == "no-discard"


def test_a_turn_draws_the_stock_top_then_discards_back_to_eight() -> None:
    state = play(deal(["strings-9"]), "draw")
    assert state.phase == "discard" and "strings-9" in state.hands[0] and len(state.hands[0]) == 9
    state = play(state, "discard strings-9")
    assert len(state.hands[0]) == 8
    assert state.pile == (PileCard(0, "strings-9"),)
    assert (state.turn, state.phase) == (1, "take")


def test_the_next_player_may_take_the_latest_discard() -> None:
    state = play(deal(["strings-9"]), "draw", "discard red-flower")
    assert legal_actions(state) == (Draw(), Take())
    state = play(state, "take")
    assert "red-flower" in state.hands[1] and state.pile == ()
    assert state.phase == "discard"


def test_only_the_latest_discard_can_be_taken() -> None:
    state = play(deal(JUNK), "draw", "discard strings-9", "draw", "discard myriads-2", "take")
    assert "myriads-2" in state.hands[2] and "strings-9" not in state.hands[2]
    assert state.pile == (PileCard(0, "strings-9"),)


def test_a_taken_discard_cannot_be_discarded_in_the_same_turn() -> None:
    state = play(deal(JUNK), "draw", "discard strings-9", "take")
    assert Discard("strings-9") not in legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, Discard("strings-9"))
    assert err.value.reason == "discard-just-taken"


def test_decided_no_copy_of_the_taken_type_may_be_discarded_that_turn() -> None:
    # seat 1 holds coins-2; seat 0 discards another coins-2 that seat 1 takes
    state = play(deal(["coins-2"]), "draw", "discard coins-2", "take")
    assert state.hands[1].count("coins-2") == 2
    with pytest.raises(IllegalAction) as err:
        apply(state, Discard("coins-2"))
    assert err.value.reason == "discard-just-taken"


@pytest.mark.parametrize(
    ("texts", "action", "reason"),
    [
        ((), Discard("coins-5"), "wrong-phase"),
        (("draw",), Draw(), "wrong-phase"),
        (("draw",), Take(), "wrong-phase"),
        (("draw",), Discard("coins-9"), "card-not-in-hand"),
        (("draw",), Discard("red-flower", "coins-5"), "pair-not-exposable"),
        (("draw",), Discard("coins-5", "coins-1"), "pair-not-exposable"),
        (("draw",), Discard("coins-9", "coins-1"), "card-not-in-hand"),
        ((), Discard("red-flower", "coins-1"), "wrong-phase"),
        (("draw", "discard red-flower"), Discard("coins-5", "coins-1"), "wrong-phase"),
    ],
)
def test_illegal_actions_raise_with_a_reason(
    texts: tuple[str, ...], action: object, reason: str
) -> None:
    state = play(deal(["coins-1"]), *texts)
    with pytest.raises(IllegalAction) as err:
        apply(state, action)  # type: ignore[arg-type]
    assert err.value.reason == reason


def test_a_discard_that_leaves_checki_may_declare_with_it_or_not() -> None:
    state = play(deal(["coins-1"]), "draw")
    legal = legal_actions(state)
    assert Discard("red-flower", "coins-1") in legal and Discard("red-flower") in legal
    # only the discard that leaves checki offers the declaration
    assert declaring(legal) == [Discard("red-flower", "coins-1")]
    declared = play(state, "discard red-flower declare coins-1")
    assert declared.exposed[0] == "coins-1" and declared.turn == 1
    assert [e.kind for e in declared.events[-2:]] == ["discard", "declare"]


def test_a_checki_hand_that_does_not_declare_passes_the_turn_with_its_discard() -> None:
    """No step waits on a seat after its discard: the others could tell it is checki."""
    state = play(deal(["coins-1"]), "draw", "discard red-flower")
    assert (state.turn, state.phase, state.exposed[0]) == (1, "take", None)
    assert state.events[-1].kind == "discard"


def test_a_hand_that_is_not_checki_gets_no_declare_step() -> None:
    state = play(deal(["strings-9"]), "draw", "discard strings-9")
    assert (state.turn, state.phase) == (1, "take")


def test_passing_keeps_the_hand_free_and_it_may_declare_later() -> None:
    state = play(deal(["coins-1", *JUNK]), "draw", "discard red-flower")
    assert state.exposed == (None, None, None) and state.turn == 1
    state = play(state, "draw", "discard strings-9", "draw", "discard myriads-2")
    assert Take() in legal_actions(state)  # an undeclared seat may still take discards
    state = play(state, "draw")
    assert Discard("coins-3", "coins-1") in legal_actions(state)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_decided_bots_always_declare(level: str) -> None:
    state = play(deal(["coins-1"]), "draw")
    for seed in range(20):
        action = BOTS[level](GAME.view(state, 0), __import__("random").Random(seed))
        assert action == Discard("red-flower", "coins-1")


def test_decided_the_random_bot_declares_whenever_its_discard_leaves_checki() -> None:
    state = play(deal(["coins-1"]), "draw")
    seen = GAME.view(state, 0)
    picked = [BOTS["random"](seen, __import__("random").Random(seed)) for seed in range(50)]
    assert Discard("red-flower", "coins-1") in picked  # its generator did pick that discard
    assert Discard("red-flower") not in picked


# --- Checki: choosing the exposed pair ---------------------------------------------------------


def test_the_declarer_chooses_either_suited_pair_of_a_two_two_one_hand() -> None:
    ready = "coins-5 coins-5 strings-5 strings-5 myriads-5 coins-8 coins-8 red-flower".split()
    state = arranged_deal([ready, LOOSE_1.split(), LOOSE_2.split()], stock_top=["coins-8"])
    state = play(state, "draw")
    assert declaring(legal_actions(state)) == [
        Discard("red-flower", "coins-5"),
        Discard("red-flower", "strings-5"),
    ]
    assert play(state, "discard red-flower declare strings-5").exposed[0] == "strings-5"


def test_decided_eight_of_one_rank_expose_the_type_held_twice() -> None:
    ready = "coins-2 coins-2 coins-2 strings-2 strings-2 strings-2 myriads-2 red-flower".split()
    state = arranged_deal([ready, LOOSE_1.split(), LOOSE_2.split()], stock_top=["myriads-2"])
    state = play(state, "draw")
    assert declaring(legal_actions(state)) == [Discard("red-flower", "myriads-2")]
    with pytest.raises(IllegalAction) as err:
        apply(
            state, Discard("red-flower", "coins-2")
        )  # held three times: its third copy is in the hand
    assert err.value.reason == "pair-not-exposable"
    assert play(state, "discard red-flower declare myriads-2").exposed[0] == "myriads-2"


# --- After declaring ---------------------------------------------------------------------------


def test_a_declared_hand_is_locked_and_its_turns_draw_and_discard_the_same_card() -> None:
    state = declared(JUNK)
    locked = state.hands[0]
    state = play(state, "draw", "discard strings-9", "draw", "discard myriads-2")
    # seat 0's turn was played at once: it drew coins-3 and discarded it
    assert state.hands[0] == locked
    assert state.pile[-1] == PileCard(0, "coins-3")
    assert (state.turn, state.phase) == (1, "take")


def test_a_declared_seat_never_acts_again() -> None:
    state = declared(JUNK)
    seen = set()
    while (seat := GAME.to_act(state)) is not None:
        seen.add(seat)
        state = apply(state, Timeout())
    assert 0 not in seen


def test_a_declared_seat_never_takes_a_discard() -> None:
    state = declared(JUNK)
    state = play(state, "draw", "discard strings-9", "draw", "discard myriads-2")
    kinds = [event.kind for event in state.events if event.seat == 0]
    assert kinds[-2:] == ["draw", "discard"]  # it drew although myriads-2 lay there


def test_stock_draws_are_public_from_the_first_declaration_on() -> None:
    state = play(deal(["coins-1", *JUNK]), "draw")
    assert not state.events[-1].public
    state = play(state, "discard red-flower declare coins-1", "draw")
    assert state.events[-1].public and state.public_draws
    assert state.known[1] == ("strings-9",)


@pytest.mark.parametrize(
    ("one", "texts", "reason", "points", "source"),
    [
        # seat 0 draws its own winning card on its locked turn
        (
            LOOSE_1,
            ("draw", "discard strings-9", "draw", "discard myriads-2"),
            "self-draw",
            (3, 0, 0),
            0,
        ),
        # seat 1 draws seat 0's winning card: seat 0 wins out of turn
        (LOOSE_1, ("draw",), "draw", (1, 0, 0), 1),
        # seat 1 discards seat 0's winning card
        (
            LOOSE_1.replace("coins-2", "coins-1"),
            ("draw", "discard coins-1"),
            "discard",
            (2, 0, 0),
            1,
        ),
    ],
    ids=["self-draw-x3", "another-draw-x1", "discard-x2"],
)
def test_a_winning_card_wins_automatically_with_its_multiplier(
    one: str, texts: tuple[str, ...], reason: str, points: tuple[int, ...], source: int
) -> None:
    stock = ["strings-9", "myriads-2", "coins-1"] if reason == "self-draw" else ["coins-1"]
    if reason == "discard":
        stock = ["strings-9"]
    state = play(declared(stock, one), *texts)
    result = GAME.outcome(state)
    assert result is not None and state.phase == "over" and GAME.to_act(state) is None
    assert result.winners == (0,)
    assert result.reason == reason
    assert result.points == points
    assert result.detail == {
        "card": "coins-1",
        "pair": "coins-1",
        "multiplier": points[0],
        "source": source,
    }
    # the winning card completes the winner's hand: two triples and three identical cards
    assert state.hands[0].count("coins-1") == 3 and len(state.hands[0]) == 9


def test_no_action_is_accepted_once_the_deal_is_over() -> None:
    state = play(declared([]), "draw")
    with pytest.raises(IllegalAction) as err:
        apply(state, Draw())
    assert err.value.reason == "game-over"
    assert legal_actions(state) == ()


# --- Scoring and end: the stock runs out -------------------------------------------------------


def test_the_deal_is_drawn_when_the_last_draw_brings_no_winner() -> None:
    state = arranged_deal([LOOSE_1.split(), LOOSE_2.split()])
    while state.phase != "over":
        state = apply(state, Timeout())  # draws and discards the drawn card
    result = GAME.outcome(state)
    assert result is not None and result.draw and result.reason == "stock-out"
    assert result.points == (0, 0)
    assert state.stock == ()
    # the last drawer does not discard
    assert sorted(len(hand) for hand in state.hands) == [8, 9]
    assert state.events[-1].kind == "stock-out"


# --- The turn timer ----------------------------------------------------------------------------


def test_timeout_draws_and_discards_the_drawn_card() -> None:
    state = apply(deal(["strings-9"]), GAME.timeout_action(deal(["strings-9"])))
    assert state.pile == (PileCard(0, "strings-9"),) and state.turn == 1


def test_timeout_after_a_take_discards_the_first_legal_card_in_canonical_order() -> None:
    state = play(deal(JUNK), "draw", "discard strings-9", "take")
    state = apply(state, Timeout())
    assert state.pile[-1] == PileCard(1, "coins-2") and state.turn == 2


def test_timeout_declares_with_the_first_pair_in_canonical_order() -> None:
    ready = "coins-5 coins-5 strings-5 strings-5 myriads-5 coins-8 coins-8 coins-8".split()
    state = arranged_deal([ready, LOOSE_1.split(), LOOSE_2.split()], stock_top=["strings-9"])
    state = apply(state, Timeout())  # draws strings-9, discards it and declares
    assert state.pile[-1] == PileCard(0, "strings-9") and state.exposed[0] == "coins-5"


def test_a_locked_seat_drawing_anothers_winning_card_hands_it_over_at_once() -> None:
    one = "coins-2 coins-2 coins-2 strings-3 strings-3 strings-3 coins-9 old-thousand"
    stock = ["coins-1", "coins-9", "strings-9", "myriads-2", "coins-1"]
    state = arranged_deal([READY, one.split(), LOOSE_2.split()], stock_top=stock)
    state = play(state, "draw", "discard red-flower declare coins-1")
    state = play(state, "draw", "discard old-thousand declare coins-9")
    # seat 2's discard starts the locked turns: seat 0 draws myriads-2, seat 1 draws coins-1
    state = play(state, "draw", "discard strings-9")
    result = GAME.outcome(state)
    assert result is not None and result.winners == (0,) and result.reason == "draw"
    assert result.points == (1, 0, 0) and result.detail["source"] == 1
    assert state.hands[1].count("coins-1") == 0 and len(state.hands[1]) == 8
    assert "coins-1" not in state.known[1]  # what everyone knew of its hand left with the card
