"""Koi-Koi's web half: its setup, its cards (the hanafuda), words and pages."""

from __future__ import annotations

from typing import Any, Final

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

from webapp.adapters import Adapter, Page, rules_page
from webapp.adapters.setup import Preset, Rule, Setup
from webapp.cards import Card
from webapp.game.koikoi.house import PRESETS

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
#: docs/rules.md §3, month by month: (card id, kind, what the card shows; None for the plant).
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


def _card(card_id: str, kind: str, shows: LazyString | None) -> Card:
    month = card_id.partition("-")[0]
    return Card(
        "koikoi", card_id, "hanafuda", card_id, month, kind, str(MONTHS.index(month) + 1),
        shows if shows is not None else PLANTS[month], kind, MONTH_NAMES[month], KIND_NAMES[kind],
    )  # fmt: skip


CATALOGUE: Final[dict[str, Card]] = {
    card: _card(card, kind, shows) for card, kind, shows in _HANAFUDA
}

YAKU: Final[dict[str, Any]] = {
    "five-lights": _l("Five Lights"),
    "four-lights": _l("Four Lights"),
    "rainy-four-lights": _l("Rainy Four Lights"),
    "three-lights": _l("Three Lights"),
    "flower-viewing": _l("Flower Viewing"),
    "moon-viewing": _l("Moon Viewing"),
    "boar-deer-butterflies": _l("Boar, Deer and Butterflies"),
    "red-poems": _l("Red Poem Ribbons"),
    "blue-ribbons": _l("Blue Ribbons"),
    "red-and-blue-ribbons": _l("Red and Blue Ribbons"),
    "animals": _l("Animals"),
    "ribbons": _l("Ribbons"),
    "plains": _l("Plains"),
}


def yaku_name(slug: str) -> str:
    return str(YAKU.get(slug, slug))


#: The house rules as the setup form, the room and the table word them (the engine's
#: webapp/game/koikoi/house.py says what each does); the standard value first.
RULES: Final = (
    Rule(
        "sake_plain",
        _l("Sake cup"),
        ((True, _l("An animal and also a plain")), (False, _l("An animal only"))),
    ),
    Rule(
        "viewing",
        _l("Flower and moon viewing"),
        (
            ("on", _l("Score")),
            ("with-yaku", _l("Score only beside another yaku")),
            ("off", _l("Do not score")),
        ),
    ),
    Rule(
        "rain_spoils",
        _l("Rain man"),
        ((False, _l("Spoils nothing")), (True, _l("Spoils the viewings"))),
        _l(
            "With this rule, a player who has captured the rain man scores no flower or "
            "moon viewing."
        ),
    ),
    Rule(
        "double_seven",
        _l("7 points or more"),
        ((True, _l("Doubled")), (False, _l("Not doubled"))),
    ),
    Rule(
        "koikoi_calls",
        _l("Koi-koi calls"),
        (
            ("once", _l("One per round")),
            ("many", _l("Any number, each raising the caller's multiplier")),
        ),
        _l(
            "With any number of calls, a new or better yaku after a koi-koi lets its player "
            "stop or call again. A player who wins after calling wins ×2 after one call, ×3 "
            "after two, and so on; winning after the opponent's call still doubles."
        ),
    ),
)

_PRESET_WORDS: Final[dict[str, tuple[LazyString, LazyString]]] = {
    "standard": (
        _l("Standard (default)"),
        _l("The rules of our rules page. Only matches under these rules count for ratings."),
    ),
    "no-viewing": (
        _l("No viewings"),
        _l("Flower and moon viewing do not score, as Nintendo's own rule sheet allows."),
    ),
    "tamed-sake": (
        _l("Tamed sake cup"),
        _l(
            "The sake cup is an animal only, the viewings score only beside another yaku, "
            "and the rain man in your pile spoils them."
        ),
    ),
    "bold-koikoi": (
        _l("Bold koi-koi"),
        _l("Call koi-koi as often as you dare: each call raises your own multiplier."),
    ),
    "no-double": (
        _l("No doubling at 7"),
        _l("An older way of scoring: 7 points or more are not doubled."),
    ),
}
PRESETS_SHOWN: Final = tuple(
    Preset(name, _PRESET_WORDS[name][0], rules.as_options(), _PRESET_WORDS[name][1])
    for name, rules in PRESETS.items()
)


def _gallery() -> dict[str, Any]:
    """The hanafuda month by month, with the names the gallery prints."""
    return {
        "by_month": {
            month: [c for c in CATALOGUE.values() if c.group == month] for month in MONTHS
        },
        "month_names": MONTH_NAMES,
        "plants": PLANTS,
        "kind_names": KIND_NAMES,
    }


ADAPTER = Adapter(
    position=3,
    setup=Setup(
        game="koikoi",
        title="Koi-Koi",
        option="rounds",
        label=_l("Rounds"),
        choices=((3, "3"), (6, "6"), (12, "12")),
        default=12,
        room_default=3,
        seats=2,
        bot_names=("Hana",),
        rules=RULES,
        presets=PRESETS_SHOWN,
    ),
    sprite="hanafuda",
    catalogue=CATALOGUE,
    hand_verb="play",
    refusals={
        "not-play-phase": _l("Play a card from your hand first."),
        "not-an-option": _l("That card cannot be taken with this one."),
        "no-decision-pending": _l("There is nothing to decide right now."),
        "no-choice-pending": _l("There is no card to choose right now."),
    },
    words={
        "yaku": YAKU,
        "endings": {
            "stop": _l("The winner stopped."),
            "after-koikoi": _l("A new yaku after the koi-koi call ended the round."),
            "last-card": _l("A yaku with the last card counts at once."),
            "hands-out": _l("The hands ran out."),
            "teshi": _l("Teshi: four cards of one month in the dealt hand."),
            "kuttsuki": _l("Kuttsuki: four pairs of months in the dealt hand."),
        },
        #: A captured pile is shown by printed kind.
        "piles": {
            "light": _l("Lights"),
            "animal": _l("Animals"),
            "ribbon": _l("Ribbons"),
            "plain": _l("Plains"),
        },
    },
    template_filters={"yaku_name": yaku_name},
    pages=(
        rules_page("koikoi", "Koi-Koi"),
        Page(
            "/cards/hanafuda",
            "hanafuda",
            _l("The hanafuda cards of Koi-Koi"),
            "rules/hanafuda.html",
            _gallery,
        ),
    ),
)
