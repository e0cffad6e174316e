"""Kowah's web half: its setup, its cards (the money cards), words and rules page."""

from __future__ import annotations

from typing import Final

from flask_babel import lazy_gettext as _l

from webapp.adapters import Adapter, rules_page
from webapp.adapters.setup import Setup
from webapp.cards import MONEY_ART, Card, money_index, money_name, money_suit


def _card(card_id: str) -> Card:
    suit = money_suit(card_id)
    return Card(
        "kowah", card_id, "money", card_id, suit, "", money_index(card_id), money_name(card_id),
        suit,
    )  # fmt: skip


#: Kowah's 30 types are the money cards' pictures, in the deck's order.
CATALOGUE: Final[dict[str, Card]] = {card_id: _card(card_id) for card_id in MONEY_ART}

ADAPTER = Adapter(
    position=2,
    setup=Setup(
        game="kowah",
        title="Kowah",
        option="players",
        label=_l("Players"),
        choices=((2, "2"), (3, "3"), (4, "4")),
        default=3,
        # Rooms open at three players too, the practice default; a room can shrink or grow it.
        room_default=3,
        seats={2: 2, 3: 3, 4: 4},
        bot_names=("Baba Liem", "Nyonya Tan", "Baba Oei"),
    ),
    sprite="money",
    catalogue=CATALOGUE,
    hand_verb="discard",
    refusals={
        "hand-locked": _l("Your hand is locked after declaring: discard the card you drew."),
        "pair-not-exposable": _l("That pair cannot be your exposed pair."),
        "no-discard": _l("There is no discard to take."),
        "discard-just-taken": _l("You cannot discard the card you just took."),
    },
    words={
        "wins": {
            "self-draw": _l("Drawn from the stock by the winner: triple."),
            "draw": _l("Drawn from the stock by another player: single."),
            "discard": _l("Claimed from a discard: double."),
        },
    },
    pages=(rules_page("kowah", "Kowah"),),
)
