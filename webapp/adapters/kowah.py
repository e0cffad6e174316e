"""Kowah's web half: its setup, its cards (the money cards), words and rules page."""

from __future__ import annotations

from typing import Final

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from webapp.adapters import Adapter, HintReason, rules_page
from webapp.adapters.lesson import Lesson, Step
from webapp.adapters.setup import Setup
from webapp.cards import MONEY_ART, Card, money_index, money_name, money_suit
from webapp.game.deck import arranged
from webapp.game.kowah.cards import DECK


def _card(card_id: str) -> Card:
    suit = money_suit(card_id)
    return Card(
        "kowah", card_id, "money", card_id, suit, "", money_index(card_id), money_name(card_id),
        suit,
    )  # fmt: skip


#: Kowah's 30 types are the money cards' pictures, in the deck's order.
CATALOGUE: Final[dict[str, Card]] = {card_id: _card(card_id) for card_id in MONEY_ART}

#: The guided deal: your 8 cards, each bot's, then the top of the stock.  You draw the White
#: Flower, the player before you discards the third 5, and after you declare on the Red
#: Flower pair, Baba Liem discards the last Red Flower (tests/play/test_lessons.py).
LESSON_DEAL = arranged(
    DECK,
    ["coins-5", "strings-5", "coins-7", "strings-7", "myriads-7", "red-flower", "red-flower",
     "old-thousand"],
    ["red-flower", "strings-5", "coins-7", "strings-3", "myriads-5", "strings-9", "myriads-4",
     "white-flower"],
    ["myriads-5", "strings-4", "coins-9", "coins-6", "old-thousand", "strings-4", "coins-8",
     "myriads-1"],
    ["white-flower", "myriads-3", "coins-1", "strings-1", "coins-2", "myriads-2", "coins-2",
     "strings-8", "strings-6", "myriads-3", "strings-4", "myriads-1"],
)  # fmt: skip

LESSON = Lesson(
    seed=65,  # you play first
    options={"players": 3, "deal": (LESSON_DEAL,)},
    level="easy",
    intro=_l(
        "A short guided deal against two bots. You will draw, discard, take a discard, "
        "declare checki and win by claiming your winning card. The coach above your hand "
        "says what to do and why; there is no clock."
    ),
    steps=(
        Step(
            "draw",
            _l(
                "Your turn comes first. The first turn of a deal always draws from the "
                "stock: tap Draw."
            ),
            _l("The first turn of a deal can only draw from the stock: tap Draw."),
        ),
        Step(
            "discard white-flower",
            _l(
                "You drew the White Flower. Look at your hand: Coins 5 and Strings 5, three "
                "7s, and a pair of Red Flowers. The White Flower fits none of them: discard "
                "it to get back to eight cards."
            ),
            _l(
                "Keep your 5s, your 7s and the Red Flower pair: they are the checki you are "
                "building. Discard the White Flower you just drew (the Old Thousand can wait)."
            ),
            after=_l(
                "The others play now: each draws or takes, then discards. Watch the latest "
                "discard: it may be yours to take."
            ),
        ),
        Step(
            "take",
            _l(
                "The player before you has just discarded Myriads 5: with your Coins 5 and "
                "Strings 5 it makes a triple. Tap Take to pick it up instead of drawing."
            ),
            _l(
                "Take the Myriads 5 that was just discarded: it is the third 5 you need. A "
                "card from the stock would only be a gamble."
            ),
        ),
        Step(
            "discard old-thousand declare red-flower",
            _l(
                "Three 5s, three 7s and a pair of Red Flowers: without the Old Thousand your "
                "eight cards are checki. Tap the button that discards the Old Thousand and "
                "declares, laying the Red Flower pair face up."
            ),
            _l(
                "Discard the Old Thousand and declare in the same tap (the Declare button): "
                "the eight cards you keep are then checki, and the third Red Flower wins."
            ),
            after=_l(
                "You declared: your hand is locked and your turns play themselves. The third "
                "Red Flower is your winning card: it wins for you whoever draws or discards it."
            ),
        ),
    ),
    end=_l(
        "You won! Another player discarded your winning card and you claimed it: a claim "
        "from a discard counts double (×2). That is Kowah: take, discard, declare, claim. "
        "Try a real table next."
    ),
    watch=_l("The others are playing: watch their discards."),
)

HINT_REASONS: Final[dict[str, HintReason]] = {
    "declare": lambda advice, card: _(
        "your hand is checki: wait on %(card)s, %(count)s still to come",
        card=card,
        count=str(advice.count),
    ),
    "keeps-danger": lambda _advice, card: _(
        "keeps %(card)s, the card a declared player waits on", card=card
    ),
    "checki-distance": lambda advice, _card: ngettext(
        "leaves your hand %(num)d card from checki",
        "leaves your hand %(num)d cards from checki",
        advice.count,
    ),
    "take-closer": lambda _advice, _card: _("the discard brings your hand closer to checki"),
    "draw-better": lambda _advice, _card: _(
        "the discard would not bring you closer; the stock may"
    ),
}


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
        levels_known={
            "easy": _l(
                "Knows only its own cards: keeps the cards closest to checki and takes a discard"
                " that brings it closer. It may discard the card a declared player waits for."
            ),
            "medium": _l(
                "Also sees every shape its hand could become, so it keeps flexible hands, and"
                " watches the exposed pairs: it never discards a declared player’s winning card"
                " unless it must."
            ),
            "hard": _l(
                "Also counts the copies of each card nobody has seen: it weighs how soon the cards"
                " it lacks can come, takes a discard only when that beats a draw, and exposes the"
                " pair likelier to come."
            ),
        },
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
    lesson=LESSON,
    hint_reasons=HINT_REASONS,
    hint_moves={"draw": _l("Draw from the stock"), "take": _l("Take the discard")},
)
