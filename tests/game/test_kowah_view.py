"""What each Kowah seat may see (docs/rules.md §2, and its decided reveal)."""

from __future__ import annotations

import re

from webapp.game.kowah import GAME
from webapp.game.kowah.actions import Discard, Draw, Take
from webapp.game.kowah.cards import sort_cards
from webapp.game.kowah.state import KowahState, PileCard, arranged_deal
from webapp.game.kowah.view import hidden_cards, view

READY = "coins-5 strings-5 myriads-5 coins-7 strings-7 myriads-7 coins-1 red-flower".split()
LOOSE_1 = "coins-2 strings-3 myriads-4 coins-6 strings-8 myriads-9 old-thousand white-flower"
LOOSE_2 = "strings-2 myriads-3 coins-4 strings-6 myriads-8 coins-9 old-thousand white-flower"


def deal(*stock_top: str) -> KowahState:
    return arranged_deal([READY, LOOSE_1.split(), LOOSE_2.split()], stock_top=stock_top)


def play(state: KowahState, *texts: str) -> KowahState:
    for text in texts:
        state = GAME.play(state, text)
    return state


def mentions(text: str, card: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    state = deal("strings-9")
    mine = view(state, 1)
    assert mine.hand == sort_cards(LOOSE_1.split())
    assert [seat.hand for seat in mine.seats] == [None, mine.hand, None]
    assert [seat.hand_count for seat in mine.seats] == [8, 8, 8]
    assert mine.stock_count == 96
    assert not mentions(repr(mine), "coins-1")  # only in seat 0's hand and the stock


def test_the_acting_seat_gets_its_legal_actions_phase_and_drawn_card() -> None:
    state = play(deal("strings-9"), "draw")
    mine, other = view(state, 0), view(state, 1)
    assert (mine.turn, mine.phase, mine.drawn) == (0, "discard", "strings-9")
    assert mine.legal == GAME.legal_actions(state)
    assert other.legal == () and other.drawn is None and other.phase == "discard"


def test_the_pile_shows_who_discarded_what_and_the_next_seat_may_take_the_latest() -> None:
    state = play(deal("strings-9", "myriads-2"), "draw", "discard red-flower")
    nxt, other = view(state, 1), view(state, 2)
    assert nxt.pile == (PileCard(0, "red-flower"),)
    assert nxt.thrown[0] == ("red-flower",) and not any(nxt.thrown[1:])
    assert other.thrown is nxt.thrown  # worked out once for the state
    assert nxt.latest_discard == PileCard(0, "red-flower") and nxt.can_take
    assert Take() in nxt.legal
    assert other.latest_discard == PileCard(0, "red-flower") and not other.can_take


def test_a_taken_discard_is_known_to_be_in_the_takers_hand() -> None:
    state = play(deal("strings-9"), "draw", "discard red-flower", "take")
    for seat in (0, 2, None):
        assert view(state, seat).seats[1].known == ("red-flower",)
        assert "red-flower" not in hidden_cards(state, seat)


def test_stock_draws_are_hidden_before_any_declaration() -> None:
    state = play(deal("strings-9"), "draw")
    assert view(state, 0).events[-1].card == "strings-9"
    assert view(state, 1).events[-1].card is None
    assert view(state, None).events[-1].card is None
    assert "strings-9" in hidden_cards(state, 1)


def test_declared_seats_exposed_pairs_and_later_stock_draws_are_public() -> None:
    state = play(deal("coins-1", "strings-9"), "draw", "discard red-flower declare coins-1")
    other = view(state, 2)
    assert other.seats[0].exposed == "coins-1" and other.public_draws
    assert view(state, 0).locked and not other.locked
    state = play(state, "draw")
    assert view(state, 2).events[-1].card == "strings-9"
    assert view(state, 2).seats[1].known == ("strings-9",)


def test_whether_an_undeclared_seat_is_checki_stays_hidden() -> None:
    """A checki seat that does not declare ends its turn with its discard, like any other."""
    checki = play(deal("coins-1"), "draw", "discard red-flower")
    loose = play(deal("strings-9"), "draw", "discard strings-9")
    assert checki.turn == loose.turn == 1 and checki.phase == loose.phase == "take"
    for seat in (1, 2, None):
        ours, theirs = view(checki, seat), view(loose, seat)
        assert [s.hand_count for s in ours.seats] == [s.hand_count for s in theirs.seats]
        assert [(e.seq, e.kind, e.seat) for e in ours.events] == [
            (e.seq, e.kind, e.seat) for e in theirs.events
        ]
        assert (ours.turn, ours.phase, ours.legal) == (
            theirs.turn,
            theirs.phase,
            theirs.legal,
        )


def test_decided_every_hand_is_revealed_when_the_deal_ends() -> None:
    state = play(deal("coins-1", "coins-1"), "draw", "discard red-flower declare coins-1")
    state = play(state, "draw")
    seen = view(state, 2)
    assert seen.outcome is not None and seen.outcome.winners == (0,)
    assert seen.turn is None and seen.phase == "over" and seen.legal == ()
    assert [seat.hand for seat in seen.seats] == list(state.hands)
    assert seen.events[-1].kind == "win" and seen.events[-1].reason == "draw"
    assert hidden_cards(state, None) == hidden_cards(state, 2)  # only stock-only types


def test_a_spectator_sees_only_public_information() -> None:
    state = play(deal("strings-9"), "draw")
    seen = view(state, None)
    assert seen.hand == () and seen.legal == () and not seen.locked
    assert all(seat.hand is None for seat in seen.seats)
    assert not any(mentions(repr(seen), card) for card in hidden_cards(state, None))


def test_the_view_never_mentions_a_card_hidden_from_that_seat_in_a_declared_deal() -> None:
    state = play(deal("coins-1", "strings-9", "myriads-2"), "draw")
    state = play(state, "discard red-flower declare coins-1", "draw", "discard strings-9", "take")
    for seat in (0, 1, 2, None):
        text = repr(view(state, seat))
        assert not [card for card in hidden_cards(state, seat) if mentions(text, card)]


def test_view_legal_actions_are_the_engines() -> None:
    state = play(deal("coins-1"), "draw")
    assert Discard("red-flower", "coins-1") in view(state, 0).legal
    assert view(state, 0).legal == GAME.legal_actions(state)
    assert view(deal(), 0).legal == (Draw(),)
