"""Koa's web half: its setup, its cards (money cards with Minang names), words and pages.

A Koa card is drawn with the money card that shares its picture (docs/rules.md §1), while its
name stays Minang in every language.  Marks keep their Minang names too.
"""

from __future__ import annotations

from typing import Any, Final

from flask_babel import lazy_gettext as _l

from webapp.adapters import Adapter, Page, rules_page
from webapp.adapters.setup import Setup
from webapp.cards import MONEY_ART, Card, money_index, money_name, money_suit
from webapp.game.koa.cards import GROUPS, TYPES

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
)
