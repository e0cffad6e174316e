"""The card catalogue of the web pages: every card's art, accessible name, group and kind.

The engines in ``webapp.game`` know cards only by id; this module is where an id becomes
something a reader sees or hears: a symbol in one of the two sprites, a name in the page's
language, a group or month and a kind.  Koa and Kowah are played with the same Chinese
money cards, so a Koa card is drawn with its Kowah twin's art (the table of RULES.md §1),
while its name stays Minang in every language.  Names are lazy strings, translated when a
template renders them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from flask import Flask
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

GAMES: Final = ("koa", "kowah", "koikoi")

#: Which sprite draws each game's cards, and the shape of that sprite's cards.
SPRITE: Final[dict[str, str]] = {"koa": "money", "kowah": "money", "koikoi": "hanafuda"}
VIEW_BOX: Final[dict[str, str]] = {"money": "0 0 40 104", "hanafuda": "0 0 40 60"}

# --- Koa and Kowah: the Chinese money cards ------------------------------------------------

SUITS: Final = ("coins", "strings", "myriads")
HONOURS: Final = ("old-thousand", "red-flower", "white-flower")
SUIT_NAMES: Final[dict[str, LazyString]] = {
    "coins": _l("Coins"),
    "strings": _l("Strings"),
    "myriads": _l("Myriads"),
}
HONOUR_NAMES: Final[dict[str, LazyString]] = {
    "old-thousand": _l("Old Thousand"),
    "red-flower": _l("Red Flower"),
    "white-flower": _l("White Flower"),
}
#: Kowah's 30 card types in the deck's order: the suits 1 to 9, then the three honours.
KOWAH_TYPES: Final[tuple[str, ...]] = (
    *(f"{suit}-{rank}" for suit in SUITS for rank in range(1, 10)),
    *HONOURS,
)

#: RULES.md §1: each Koa type and the Kowah card that shares its picture.
KOA_ART: Final[dict[str, str]] = {
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
#: Koa's 30 types in the order of RULES.md's deck table: hiu first, then the eight groups.
KOA_TYPES: Final[tuple[str, ...]] = (
    "hiu-babak",
    "hiu-kucing",
    "hiu-pinci",
    "hiu-bunga",
    "hiu-panjang",
    "hiu-kasuik",
    *(
        koa
        for rank in range(2, 10)
        for suit in SUITS
        for koa, art in KOA_ART.items()
        if art == f"{suit}-{rank}"
    ),
)
#: Koa's nine groups in order; a card's group is its id before the first ``-``.
KOA_GROUPS: Final[tuple[str, ...]] = tuple(dict.fromkeys(t.partition("-")[0] for t in KOA_TYPES))

# --- Koi-Koi: the hanafuda --------------------------------------------------------------------

MONTHS: Final = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH_NAMES: Final[dict[str, LazyString]] = {
    "jan": _l("January"),
    "feb": _l("February"),
    "mar": _l("March"),
    "apr": _l("April"),
    "may": _l("May"),
    "jun": _l("June"),
    "jul": _l("July"),
    "aug": _l("August"),
    "sep": _l("September"),
    "oct": _l("October"),
    "nov": _l("November"),
    "dec": _l("December"),
}
#: Each month's plant, which is also the picture on its plain cards.
PLANTS: Final[dict[str, LazyString]] = {
    "jan": _l("Pine"),
    "feb": _l("Plum blossom"),
    "mar": _l("Cherry blossom"),
    "apr": _l("Wisteria"),
    "may": _l("Iris"),
    "jun": _l("Peony"),
    "jul": _l("Bush clover"),
    "aug": _l("Pampas grass"),
    "sep": _l("Chrysanthemum"),
    "oct": _l("Maple"),
    "nov": _l("Willow"),
    "dec": _l("Paulownia"),
}
KINDS: Final = ("light", "animal", "ribbon", "plain")
KIND_NAMES: Final[dict[str, LazyString]] = {
    "light": _l("light"),
    "animal": _l("animal"),
    "ribbon": _l("ribbon"),
    "plain": _l("plain"),
}
#: RULES.md §3, month by month: (card id, kind, what the card shows; None for the plant).
_HANAFUDA: Final[tuple[tuple[str, str, LazyString | None], ...]] = (
    ("jan-crane", "light", _l("Crane")),
    ("jan-poetry", "ribbon", _l("Red poem ribbon")),
    ("jan-plain-1", "plain", None),
    ("jan-plain-2", "plain", None),
    ("feb-warbler", "animal", _l("Bush warbler")),
    ("feb-poetry", "ribbon", _l("Red poem ribbon")),
    ("feb-plain-1", "plain", None),
    ("feb-plain-2", "plain", None),
    ("mar-curtain", "light", _l("Curtain")),
    ("mar-poetry", "ribbon", _l("Red poem ribbon")),
    ("mar-plain-1", "plain", None),
    ("mar-plain-2", "plain", None),
    ("apr-cuckoo", "animal", _l("Cuckoo")),
    ("apr-ribbon", "ribbon", _l("Red ribbon")),
    ("apr-plain-1", "plain", None),
    ("apr-plain-2", "plain", None),
    ("may-bridge", "animal", _l("Bridge")),
    ("may-ribbon", "ribbon", _l("Red ribbon")),
    ("may-plain-1", "plain", None),
    ("may-plain-2", "plain", None),
    ("jun-butterflies", "animal", _l("Butterflies")),
    ("jun-blue", "ribbon", _l("Blue ribbon")),
    ("jun-plain-1", "plain", None),
    ("jun-plain-2", "plain", None),
    ("jul-boar", "animal", _l("Boar")),
    ("jul-ribbon", "ribbon", _l("Red ribbon")),
    ("jul-plain-1", "plain", None),
    ("jul-plain-2", "plain", None),
    ("aug-moon", "light", _l("Moon")),
    ("aug-geese", "animal", _l("Geese")),
    ("aug-plain-1", "plain", None),
    ("aug-plain-2", "plain", None),
    ("sep-sake-cup", "animal", _l("Sake cup")),
    ("sep-blue", "ribbon", _l("Blue ribbon")),
    ("sep-plain-1", "plain", None),
    ("sep-plain-2", "plain", None),
    ("oct-deer", "animal", _l("Deer")),
    ("oct-blue", "ribbon", _l("Blue ribbon")),
    ("oct-plain-1", "plain", None),
    ("oct-plain-2", "plain", None),
    ("nov-rain-man", "light", _l("Rain man")),
    ("nov-swallow", "animal", _l("Swallow")),
    ("nov-ribbon", "ribbon", _l("Red ribbon")),
    ("nov-lightning", "plain", _l("Lightning")),
    ("dec-phoenix", "light", _l("Phoenix")),
    ("dec-plain-1", "plain", None),
    ("dec-plain-2", "plain", None),
    ("dec-plain-3", "plain", None),
)

BACK: Final = "back"


@dataclass(frozen=True)
class Card:
    """One card as a page shows it."""

    game: str
    id: str
    #: The sprite file (``money`` or ``hanafuda``) and the symbol in it.
    sprite: str
    art: str
    #: Koa: the Minang group; Kowah: the suit (``honour`` for the three honours);
    #: Koi-Koi: the month.
    group: str
    #: Koi-Koi only: light, animal, ribbon or plain.
    kind: str
    #: The short mark a lite card shows in its corner (a rank, a month number).
    index: str
    #: What the card shows, before any month or kind (Koi-Koi); the name otherwise.
    subject: str | LazyString

    @property
    def name(self) -> str:
        """The accessible name, in the language of the page being rendered."""
        if self.id == BACK:
            return str(_l("Face-down card"))
        if self.game == "koikoi":
            return " · ".join(
                (str(MONTH_NAMES[self.group]), str(self.subject), str(KIND_NAMES[self.kind]))
            )
        return str(self.subject)

    @property
    def colour(self) -> str:
        """The class suffix that colours a lite card: suit, honour or hanafuda kind."""
        return self.kind if self.game == "koikoi" else self.art_suit

    @property
    def art_suit(self) -> str:
        suit = self.art.rpartition("-")[0]
        return suit if suit in SUITS else "honour"

    @property
    def view_box(self) -> str:
        return VIEW_BOX[self.sprite]


def minang_name(card_id: str) -> str:
    """A Koa card's display name: its Minang words, capitalised.

    >>> minang_name("suduang-pinggang")
    'Suduang Pinggang'
    """
    return " ".join(word.capitalize() for word in card_id.split("-"))


def _money_index(art: str) -> str:
    if art in HONOURS:
        return {"old-thousand": "1000", "red-flower": "✿", "white-flower": "❀"}[art]
    return art.rpartition("-")[2]


def _koa_card(card_id: str) -> Card:
    art = KOA_ART[card_id]
    return Card(
        "koa", card_id, "money", art, card_id.partition("-")[0], "", _money_index(art),
        minang_name(card_id),
    )  # fmt: skip


def _kowah_card(card_id: str) -> Card:
    suit, _, rank = card_id.rpartition("-")
    if card_id in HONOURS:
        group, subject = "honour", HONOUR_NAMES[card_id]
    else:
        group, subject = suit, _l("%(suit)s %(rank)s", suit=SUIT_NAMES[suit], rank=rank)
    return Card("kowah", card_id, "money", card_id, group, "", _money_index(card_id), subject)


def _hanafuda_card(card_id: str, kind: str, shows: LazyString | None) -> Card:
    month = card_id.partition("-")[0]
    return Card(
        "koikoi", card_id, "hanafuda", card_id, month, kind, str(MONTHS.index(month) + 1),
        shows if shows is not None else PLANTS[month],
    )  # fmt: skip


CATALOGUE: Final[dict[str, dict[str, Card]]] = {
    "koa": {card_id: _koa_card(card_id) for card_id in KOA_TYPES},
    "kowah": {card_id: _kowah_card(card_id) for card_id in KOWAH_TYPES},
    "koikoi": {card: _hanafuda_card(card, kind, shows) for card, kind, shows in _HANAFUDA},
}


def card(game: str, card_id: str) -> Card:
    """The card ``card_id`` of ``game``; ``back`` is the face-down card of that game's deck.

    >>> card("koa", "babi-pusek").art, card("kowah", "coins-5").group
    ('coins-5', 'coins')
    """
    if card_id == BACK:
        return Card(game, BACK, SPRITE[game], BACK, "", "", "", "")
    return CATALOGUE[game][card_id]


def deck(game: str) -> tuple[Card, ...]:
    """Every card type of a game, in its deck's order."""
    return tuple(CATALOGUE[game].values())


def koa_group_name(group: str) -> str:
    """A Koa group's display name (Minang, as the card names).

    >>> koa_group_name("suduang")
    'Suduang'
    """
    return group.capitalize()


def init_app(app: Flask) -> None:
    app.add_template_global(card, "card_info")
    app.add_template_global(deck, "card_deck")
