"""The expert's deals: each game's ``sample`` gives a whole deck behind the very same view."""

from __future__ import annotations

import importlib
import random
from dataclasses import replace

import pytest

from webapp.game.registry import get


@pytest.mark.parametrize("name", ["koa", "kowah", "koikoi"])
def test_a_sampled_state_shows_the_seat_the_view_it_was_sampled_from(name: str) -> None:
    game = get(name)
    sample = importlib.import_module(f"webapp.game.{name}.sampling").sample
    gen, dealer = random.Random(4), random.Random(9)
    checked = 0
    for seed in (1, 2, 3):
        state = game.new_game(seed, game.default_options)
        while (seat := game.to_act(state)) is not None and checked < 60 * seed:
            seen = game.view(state, seat)
            if len(game.legal_actions(state)) > 1:
                for _ in range(3):
                    dealt = sample(seen, dealer)
                    assert sorted(game.cards(dealt)) == sorted(game.deck)
                    # Events say what just happened; a sampled deal starts with none.
                    assert replace(game.view(dealt, seat), events=seen.events) == seen
                    assert game.legal_actions(dealt) == game.legal_actions(state)
                checked += 1
            state = game.apply(state, game.bots["hard"](seen, gen))
    assert checked >= 60


def test_a_ceki_seat_whose_unseen_cards_are_one_type_waits_on_that_type() -> None:
    """A ceki seat's sampled hand that cannot be made ceki waits on two random live types;
    late in a round the unseen cards left may all be of one type, and then it waits on
    that one (it raised ValueError there, in a strength run, stopping the expert's table)."""
    from webapp.game.koa.cards import TYPES
    from webapp.game.koa.sampling import _ceki_hand

    known, pool = list(TYPES[:5]), [TYPES[10], TYPES[20], TYPES[20]]
    one_type_left = 0
    for seed in range(20):
        hand, waits = _ceki_hand(known, list(pool), 1, random.Random(seed))
        rest = list(pool)
        rest.remove(next(card for card in hand if card not in known))
        if len(set(rest)) == 1:
            one_type_left += 1
            assert waits == set(rest)
        else:
            assert len(waits) == 2 and waits <= set(rest)
    assert one_type_left
