"""Every game's per-seat view offers what the shared renderer and templates read
(webapp/play/views.py), at every step of a game, for every seat and a spectator."""

from __future__ import annotations

import random

import pytest

from webapp.game import registry
from webapp.game.protocol import Game
from webapp.play.views import View

STEPS = 60


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_view_is_a_view_the_site_can_draw(name: str) -> None:
    game: Game[object, object, object] = registry.get(name)
    rng = random.Random(7)
    state = game.new_game(7, game.default_options)
    seats = game.seats(state)
    for _ in range(STEPS):
        acting = game.to_act(state)
        for seat in [*range(seats), None]:
            view = game.view(state, seat)
            assert isinstance(view, View), (name, seat)
            assert view.seat == seat
            assert all(isinstance(card, str) for card in view.hand)
            assert isinstance(view.phase, str) and view.phase
            if seat is None:
                assert view.hand == () and not view.legal
            elif seat == acting:
                assert {str(a) for a in view.legal} == {str(a) for a in game.legal_actions(state)}
            else:
                assert not view.legal
        if acting is None:
            break
        state = game.apply(state, rng.choice(game.legal_actions(state)))
