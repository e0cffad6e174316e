"""Koi-Koi bots: one function of a seat's view per level (placeholder: random only)."""

from __future__ import annotations

import random

from webapp.game.koikoi.state import Action
from webapp.game.koikoi.view import View


def random_bot(view: View, rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return rng.choice(view.legal)


BOTS = {"random": random_bot, "easy": random_bot, "medium": random_bot, "hard": random_bot}
