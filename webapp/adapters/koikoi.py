"""Koi-Koi's web half: its setup, its cards (the hanafuda), words and pages."""

from __future__ import annotations

from typing import Any, Final

from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from webapp.adapters import Adapter, HintReason, Page, rules_page
from webapp.adapters.lesson import Lesson, Step
from webapp.adapters.setup import Preset, Rule, Setup
from webapp.cards import Card
from webapp.game.deck import arranged
from webapp.game.koikoi.cards import DECK
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


#: The guided match's three deals, each your 8 cards, the bot's 8, the field's 8 and the top
#: of the stock.  Round 1: your Curtain finds two March cards (a choice), the Sake cup
#: makes Flower Viewing (koi-koi), the Moon makes Moon Viewing (the round is yours); round
#: 2: Moon Viewing again (stop); round 3: four Paulownia in your hand, teshi
#: (tests/play/test_lessons.py).
LESSON_DEALS = (
    arranged(
        DECK,
        ["mar-curtain", "sep-sake-cup", "aug-moon", "jan-crane", "oct-deer", "apr-plain-2",
         "jun-plain-2", "nov-lightning"],
        ["sep-blue", "feb-plain-2", "feb-poetry", "apr-ribbon", "may-bridge", "may-ribbon",
         "dec-plain-1", "jul-plain-1"],
        ["mar-poetry", "mar-plain-1", "sep-plain-1", "aug-plain-1", "may-plain-1", "apr-plain-1",
         "jan-poetry", "jul-boar"],
        ["nov-swallow", "dec-plain-3", "nov-ribbon", "jun-butterflies", "mar-plain-2",
         "nov-rain-man", "jan-plain-2", "dec-plain-2", "apr-cuckoo", "feb-warbler",
         "dec-phoenix", "feb-plain-1"],
    ),
    arranged(
        DECK,
        ["aug-moon", "sep-sake-cup", "jul-boar", "nov-lightning", "jul-plain-1", "may-plain-2",
         "mar-poetry", "apr-cuckoo"],
        ["aug-plain-2", "sep-blue", "jun-plain-2", "dec-phoenix", "oct-deer", "dec-plain-1",
         "mar-plain-1", "oct-plain-1"],
        ["aug-plain-1", "sep-plain-1", "nov-swallow", "apr-ribbon", "jan-poetry", "mar-plain-2",
         "dec-plain-2", "mar-curtain"],
        ["dec-plain-3", "apr-plain-1", "may-ribbon", "feb-warbler", "nov-rain-man",
         "feb-plain-2", "may-plain-1", "feb-plain-1", "jan-plain-1", "jul-plain-2",
         "jun-plain-1", "jun-butterflies"],
    ),
    arranged(
        DECK,
        ["dec-phoenix", "dec-plain-1", "dec-plain-2", "dec-plain-3", "apr-ribbon", "jan-plain-2",
         "jul-ribbon", "jan-crane"],
        ["mar-poetry", "mar-plain-1", "apr-plain-1", "feb-plain-1", "feb-plain-2", "may-plain-2",
         "mar-curtain", "sep-blue"],
        ["aug-moon", "sep-plain-2", "feb-poetry", "nov-lightning", "jun-plain-2", "jul-plain-1",
         "nov-swallow", "oct-plain-2"],
    ),
)  # fmt: skip

LESSON = Lesson(
    seed=3,  # you start
    options={"rounds": 3, "deal": LESSON_DEALS},
    level="easy",
    intro=_l(
        "A short guided match of three rounds against a bot. You will choose between two "
        "cards, form yaku, call koi-koi once and stop once. The coach above your hand says "
        "what to do and why; there is no clock."
    ),
    steps=(
        Step(
            "play mar-curtain",
            _l(
                "You play first. Play a card onto a field card of the same month to capture "
                "both; then the stock's top card is turned over and plays the same way. Play "
                "the Curtain (March): two March cards lie on the field."
            ),
            _l(
                "Play the Curtain: it is a light, and two March cards on the field are waiting "
                "for it. Your other cards get their turn later."
            ),
        ),
        Step(
            "take mar-poetry",
            _l(
                "Two March cards lie on the field, so you choose which one to take. Take the "
                "red poem ribbon: ribbons count toward yaku, a plain card hardly does."
            ),
            _l(
                "Take the red poem ribbon: ribbons count toward yaku (all three poem ribbons "
                "make Red Poem Ribbons), while the plain card is worth far less."
            ),
            after=_l(
                "The stock's top card was turned over for you; now your opponent plays. Only "
                "captured cards form yaku."
            ),
        ),
        Step(
            "play sep-sake-cup",
            _l(
                "Play the Sake cup onto the September card on the field. The Curtain and the "
                "Sake cup together make Flower Viewing, a yaku worth 5."
            ),
            _l(
                "Play the Sake cup: with the Curtain you captured, it makes Flower Viewing, a yaku."
            ),
        ),
        Step(
            "koikoi",
            _l(
                "A yaku: Flower Viewing, 5 points. Stop ends the round and scores it; koi-koi "
                "plays on for more, but if your opponent forms a yaku first, they score "
                "double. You hold the Moon and a Pampas card lies on the field: call koi-koi."
            ),
            _l(
                "This time call koi-koi: the Moon in your hand and the Sake cup make Moon "
                "Viewing, one more yaku. You will stop in the next round."
            ),
            after=_l(
                "Koi-koi: the round goes on. The next new yaku, yours or your opponent's, ends it."
            ),
        ),
        Step(
            "play aug-moon",
            _l(
                "Play the Moon onto the Pampas card: the Moon and the Sake cup make Moon "
                "Viewing. After a koi-koi, a new yaku ends the round at once, and you score."
            ),
            _l(
                "Play the Moon: it captures the Pampas card, and Moon Viewing ends the round "
                "in your favour."
            ),
        ),
        Step(
            "next",
            _l(
                "Round 1 is yours: Flower Viewing and Moon Viewing make 10 points, doubled "
                "for reaching 7. The winner starts the next round: tap Next round."
            ),
            _l("Tap Next round to start round 2."),
        ),
        Step(
            "play aug-moon",
            _l(
                "Round 2. You hold the Moon and the Sake cup again, and the field has a Pampas "
                "and a September card. Play the Moon first."
            ),
            _l(
                "Play the Moon: it captures the Pampas card on the field, and the Sake cup "
                "follows on your next turn."
            ),
        ),
        Step(
            "play sep-sake-cup",
            _l("Now play the Sake cup onto the September card: Moon Viewing again."),
            _l("Play the Sake cup: with the Moon you captured, it makes Moon Viewing."),
        ),
        Step(
            "stop",
            _l(
                "Moon Viewing, 5 points. Your opponent has captured the Curtain, and after a "
                "koi-koi any yaku of theirs would score double. Stop: take your 5 points and "
                "end the round."
            ),
            _l(
                "Stop this time: 5 points in hand are safer than a koi-koi your opponent "
                "could turn into double points."
            ),
        ),
        Step(
            "next",
            _l("Round 2 is yours too. Tap Next round for the last round of this short match."),
            _l("Tap Next round to deal round 3."),
        ),
    ),
    end=_l(
        "Round 3 ended at the deal: four Paulownia cards in your hand are teshi, 6 points "
        "at once. You won the match! You have seen a choice between two cards, yaku, "
        "koi-koi and stop. Try a real table next."
    ),
    watch=_l("Your opponent is playing: watch what they capture."),
)

HINT_REASONS: Final[dict[str, HintReason]] = {
    "stop-threat": lambda advice, _card: _(
        "the opponent is one card from %(yaku)s", yaku=yaku_name(advice.slug or "")
    ),
    "stop-bank": lambda _advice, _card: _("take your points now"),
    "koikoi-more": lambda _advice, _card: _("playing on scored more in the deals looked at"),
    "takes-yaku": lambda advice, card: _(
        "takes %(card)s, which counts for %(count)s yaku", card=card, count=str(advice.count)
    ),
    "takes": lambda _advice, card: _("takes %(card)s", card=card),
    "lays-down": lambda _advice, _card: _("nothing to capture: this card gives least away"),
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
        levels_known={
            "easy": _l(
                "Knows which cards are precious: takes the dearest capture, lays down its cheapest"
                " card and always stops at its first yaku."
            ),
            "medium": _l(
                "Knows the yaku and captures whenever it can, choosing by its own yaku. It does not"
                " follow the opponent’s pile or which cards are gone, and calls koi-koi on a cheap"
                " early yaku."
            ),
            "hard": _l(
                "Also follows the unseen cards and the opponent’s pile: it weighs what a move"
                " leaves the opponent, and decides koi-koi by playing sample rounds out."
            ),
        },
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
    lesson=LESSON,
    hint_reasons=HINT_REASONS,
    hint_moves={"stop": _l("Stop"), "koikoi": _l("Koi-koi!")},
    hint_in_points=True,
)
