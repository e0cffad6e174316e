"""A prepared deal (the ``deal`` option, for guided games): every engine deals exactly the
given order, round by round, and refuses an order that is not its deck."""

from __future__ import annotations

import random
from typing import Any

import pytest

from webapp.game import registry
from webapp.game.protocol import IllegalAction

#: Each game's options, its hand size, and where the rest of its first deal goes.
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "koa": ({"mode": "quick"}, 11),
    "kowah": ({"players": 3}, 8),
    "koikoi": ({"rounds": 3}, 8),
}


def shuffled_deck(game: str, salt: int) -> list[str]:
    cards = list(registry.get(game).deck)
    random.Random(salt).shuffle(cards)
    return cards


def rest_of(game: str, state: Any) -> tuple[str, ...]:
    """The cards after the hands, in the order they will come up."""
    if game == "koa":
        return tuple(state.arena)
    if game == "kowah":
        return tuple(state.stock)
    return (*sorted(state.field), *state.stock)


@pytest.mark.parametrize("game", GAMES)
def test_the_first_round_is_dealt_from_the_prepared_order(game: str) -> None:
    options, size = GAMES[game]
    order = shuffled_deck(game, 1)
    state = registry.get(game).new_game(5, {**options, "deal": [order]})
    seats = len(state.hands)
    for seat, hand in enumerate(state.hands):
        assert sorted(hand) == sorted(order[seat * size : (seat + 1) * size])
    rest = order[seats * size :]
    if game == "koikoi":  # the field is shown sorted, the stock follows it
        rest = [*sorted(rest[:size]), *rest[size:]]
    assert rest_of(game, state) == tuple(rest)


def test_each_round_of_a_match_has_its_own_prepared_order() -> None:
    koikoi = registry.get("koikoi")
    first, second = shuffled_deck("koikoi", 2), shuffled_deck("koikoi", 3)
    state = koikoi.new_game(5, {"rounds": 3, "deal": [first, second]})
    assert state.stock == tuple(first[24:])
    while koikoi.outcome(state) is None and state.number == 1:
        state = koikoi.apply(state, koikoi.legal_actions(state)[0])
    assert state.number == 2 and state.stock == tuple(second[24:])


@pytest.mark.parametrize("game", GAMES)
def test_an_order_that_is_not_the_deck_is_refused(game: str) -> None:
    options, _ = GAMES[game]
    order = shuffled_deck(game, 4)
    order[0] = order[1]  # one card twice, another missing
    with pytest.raises(IllegalAction) as refused:
        registry.get(game).new_game(5, {**options, "deal": [order]})
    assert refused.value.reason == "bad-option"
