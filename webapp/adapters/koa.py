"""Koa's web half: its setup, its cards (money cards with Minang names), words and pages.

A Koa card is drawn with the money card that shares its picture (docs/rules.md §1), while its
name stays Minang in every language.  Marks keep their Minang names too.
"""

from __future__ import annotations

from typing import Any, Final

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from webapp.adapters import Adapter, HintReason, Page, rules_page
from webapp.adapters.lesson import Lesson, Step
from webapp.adapters.setup import Setup
from webapp.cards import MONEY_ART, Card, money_index, money_name, money_suit
from webapp.game.deck import arranged
from webapp.game.koa.cards import DECK, GROUPS, TYPES

#: docs/rules.md §1: each Koa type and the money card whose picture it shares.
ART: Final[dict[str, str]] = {
    "hiu-babak": "old-thousand",
    "hiu-kucing": "white-flower",
    "hiu-pinci": "red-flower",
    "hiu-bunga": "myriads-1",
    "hiu-panjang": "strings-1",
    "hiu-kasuik": "coins-1",
    "bengkok-hitam": "coins-2",
    "bengkok-gadang": "strings-2",
    "bengkok-halus": "myriads-2",
    "jarum-wajik": "coins-3",
    "jarum-udang": "strings-3",
    "jarum-halus": "myriads-3",
    "suduang-hitam": "coins-4",
    "suduang-pinggang": "strings-4",
    "suduang-putih": "myriads-4",
    "babi-pusek": "coins-5",
    "babi-gadang": "strings-5",
    "babi-halus": "myriads-5",
    "betung-enam": "coins-6",
    "betung-manih": "strings-6",
    "betung-halus": "myriads-6",
    "sisir-bendera": "coins-7",
    "sisir-gadang": "strings-7",
    "sisir-halus": "myriads-7",
    "pacah-lapan": "coins-8",
    "pacah-manih": "strings-8",
    "pacah-halus": "myriads-8",
    "tali-bulat": "coins-9",
    "tali-merah": "strings-9",
    "tali-halus": "myriads-9",
}


def minang_name(card_id: str) -> str:
    """A Koa card's display name: its Minang words, capitalised.

    >>> minang_name("suduang-pinggang")
    'Suduang Pinggang'
    """
    return " ".join(word.capitalize() for word in card_id.split("-"))


def group_name(group: str) -> str:
    """A Koa group's display name (Minang, as the card names).

    >>> group_name("suduang")
    'Suduang'
    """
    return group.capitalize()


def mark_name(marks: int) -> str:
    """Koa's marks keep their Minang names in every language."""
    return ("", "batu", "gantung", "putuih")[min(marks, 3)]


def groups(hand: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """A Koa hand split by group, in the deck's group order, empty groups included.

    Every group keeps its place on the page (CSS hides an empty one), so a card moving
    in or out of the hand is a change to one keyed list, never to the page's shape.
    """
    by_group: dict[str, list[str]] = {group: [] for group in GROUPS}
    for card_id in hand:
        by_group[card_id.partition("-")[0]].append(card_id)
    return list(by_group.items())


def _card(card_id: str) -> Card:
    art = ART[card_id]
    return Card(
        "koa", card_id, "money", art, card_id.partition("-")[0], "", money_index(art),
        minang_name(card_id), money_suit(art),
    )  # fmt: skip


CATALOGUE: Final[dict[str, Card]] = {card_id: _card(card_id) for card_id in TYPES}


def _money_gallery() -> dict[str, Any]:
    """The money cards group by group, each with the name of the picture it shares."""
    return {
        "koa_by_group": {
            group: [c for c in CATALOGUE.values() if c.group == group] for group in GROUPS
        },
        "art_name": {art: money_name(art) for art in MONEY_ART},
    }


#: The guided round: your 11 cards, then the bots' (your right, across, your left), then the
#: top of the arena.  You cabut a kaki; your right eats your Pacah Lapan (takabek); your
#: left throws the Babi Pusek you makan for a mato; the throw of your last Pacah Lapan makes
#: you ceki, and your next cabut is the Tali Merah: koa (tests/play/test_lessons.py).
LESSON_DEAL = arranged(
    DECK,
    ["babi-pusek", "babi-pusek", "jarum-wajik", "jarum-udang", "sisir-bendera", "sisir-gadang",
     "sisir-halus", "tali-merah", "tali-merah", "pacah-lapan", "pacah-lapan"],
    ["pacah-lapan", "pacah-lapan", "babi-pusek", "jarum-halus", "bengkok-hitam", "hiu-kucing",
     "suduang-putih", "babi-halus", "hiu-bunga", "jarum-halus", "hiu-panjang"],
    ["babi-pusek", "suduang-hitam", "suduang-putih", "sisir-gadang", "babi-gadang",
     "bengkok-halus", "bengkok-hitam", "betung-enam", "babi-gadang", "betung-manih",
     "jarum-halus"],
    ["sisir-bendera", "tali-halus", "bengkok-gadang", "suduang-hitam", "pacah-halus",
     "betung-enam", "bengkok-hitam", "pacah-halus", "bengkok-halus", "pacah-manih",
     "suduang-putih"],
    ["jarum-halus", "hiu-babak", "hiu-panjang", "betung-enam", "hiu-bunga", "hiu-panjang",
     "babi-pusek", "hiu-pinci", "hiu-panjang", "bengkok-gadang", "tali-merah"],
)  # fmt: skip

LESSON = Lesson(
    seed=92,  # you start
    options={"mode": "quick", "deal": (LESSON_DEAL,)},
    level="easy",
    intro=_l(
        "A short guided round against three bots; your mandan sits across from you. You "
        "will make a kaki and a mato, makan a throw, meet takabek, become ceki and win with "
        "a koa. The coach above your hand says what to do and why; there is no clock."
    ),
    steps=(
        Step(
            "cabut",
            _l(
                "You start. Every turn you take one card, then throw one. The first turn of "
                "a round can only cabut: tap Cabut to draw the top card of the arena."
            ),
            _l("The first turn of a round can only cabut: tap Cabut to draw from the arena."),
        ),
        Step(
            "throw pacah-lapan",
            _l(
                "You drew Jarum Halus: with Jarum Wajik and Jarum Udang it makes a kaki, three "
                "cards of one group. Your three sisir are a kaki too. The Tali Merah pair will "
                "be your koa pair, so the Pacah Lapan pair is spare: throw a Pacah Lapan."
            ),
            _l(
                "Keep your two kaki (jarum and sisir), the Babi Pusek pair and the Tali Merah "
                "pair. Throw a Pacah Lapan: that pair is the one you can spare."
            ),
            after=_l(
                "The player on your right plays next and may makan your throw. Watch what "
                "they do with your Pacah Lapan."
            ),
        ),
        Step(
            "cabut",
            _l(
                "Takabek! The player on your right ate your Pacah Lapan, so you may not throw "
                "a Pacah Lapan until they throw one or one of you becomes ceki. The last throw "
                "is a hiu: you may makan a hiu only when you hold two of its type. Cabut."
            ),
            _l(
                "You cannot makan that hiu: that needs two of its type in your hand. Tap "
                "Cabut to draw from the arena."
            ),
        ),
        Step(
            "throw betung-enam",
            _l(
                "You drew Betung Enam, which fits nothing. Your last Pacah Lapan is spare too, "
                "but takabek forbids throwing it now: throw the Betung Enam."
            ),
            _l(
                "Not that one. The Pacah Lapan is under takabek (your throw was eaten), and "
                "your sets and pairs are worth keeping: throw the Betung Enam you drew."
            ),
        ),
        Step(
            "makan",
            _l(
                "The player on your left has just thrown Babi Pusek. With your two Babi Pusek "
                "it makes a mato: three identical cards. Makan it: take that throw instead "
                "of drawing."
            ),
            _l(
                "Makan the Babi Pusek: with your pair it makes a mato. A cabut would be a "
                "blind draw."
            ),
        ),
        Step(
            "throw pacah-lapan",
            _l(
                "A mato of Babi Pusek, a kaki of jarum, a kaki of sisir and the Tali Merah pair: "
                "throw the Pacah Lapan and your 11 cards are ceki. Takabek gives way when the "
                "cards you keep are ceki."
            ),
            _l(
                "Throw the Pacah Lapan: the 11 cards you keep are then ceki (a koa pair and "
                "three sets, one of them a mato), and takabek gives way for that throw."
            ),
            after=_l(
                "You are ceki, and everyone can see it: a third Tali Merah, your koa card, "
                "wins as soon as anyone draws it from the arena."
            ),
        ),
        Step(
            "cabut",
            _l("You wait on Tali Merah, your koa card. Cabut: if you draw it, that is koa."),
            _l("Cabut: only a draw from the arena brings your koa card; makan never wins."),
        ),
    ),
    end=_l(
        "Koa! You drew a Tali Merah, your koa card: you and your mandan win. You have seen "
        "a kaki, a mato, makan, takabek, ceki and koa. Try a real table next."
    ),
    watch=_l("The others are playing: watch their throws."),
)

HINT_REASONS: Final[dict[str, HintReason]] = {
    "ceki-waits": lambda advice, _card: ngettext(
        "keeps you ceki, waiting on %(num)d live koa card",
        "keeps you ceki, waiting on %(num)d live koa cards",
        advice.count,
    ),
    "ceki-distance": lambda advice, _card: ngettext(
        "leaves your hand %(num)d card from ceki",
        "leaves your hand %(num)d cards from ceki",
        advice.count,
    ),
    "makan-closer": lambda _advice, _card: _("eating the throw brings your hand closer to ceki"),
    "cabut-better": lambda _advice, _card: _("a card from the arena is worth more here"),
}


ADAPTER = Adapter(
    position=1,
    setup=Setup(
        game="koa",
        title="Koa",
        option="mode",
        label=_l("Match"),
        choices=(("quick", _l("Quick match")), ("full", _l("Full match"))),
        hint=_l(
            "Quick: the first koa wins the match. Full: each koa gives its winner a mark"
            " (batu, gantung, putuih), and the first player to reach putuih wins the"
            " match for their team."
        ),
        default="quick",
        room_default="quick",
        choices_name_themselves=True,
        seats=4,
        bot_names=("Sutan", "Malin", "Bagindo"),
        levels_known={
            "easy": _l(
                "Knows only its own cards: keeps the hand closest to ceki, and eats a throw only"
                " when it makes a mato."
            ),
            "medium": _l(
                "Also remembers every card it has seen, so it waits on koa cards that are still"
                " live, and eats any throw that brings it closer to ceki."
            ),
            "hard": _l(
                "Also counts the cards that would bring its hand closer, weighs eating a throw"
                " against drawing, avoids feeding the next opponent and plays for its mandan."
            ),
        },
    ),
    sprite="money",
    catalogue=CATALOGUE,
    hand_verb="throw",
    refusals={
        "makan-own": _l("You can only eat the latest throw of the player on your left."),
        "throw-eaten-card": _l("You cannot throw the card you just ate."),
        "takabek": _l("Takabek: you may not throw this card type now."),
        "must-throw-hiu": _l("You must throw a hiu this turn."),
    },
    template_globals={"koa_mark": mark_name, "koa_groups": groups, "group_name": group_name},
    pages=(
        rules_page("koa", "Koa"),
        Page(
            "/cards/money",
            "money",
            _l("The money cards of Koa and Kowah"),
            "rules/money.html",
            _money_gallery,
        ),
    ),
    lesson=LESSON,
    hint_reasons=HINT_REASONS,
    hint_moves={"cabut": _l("Cabut"), "makan": _l("Makan")},
)
