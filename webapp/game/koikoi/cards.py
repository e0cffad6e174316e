"""The 48 hanafuda cards of Koi-Koi: canonical ids, months and kinds (docs/rules.md §3).

Card ids are ``MONTH-NAME`` as docs/rules.md writes them.  A card's kind matters only for the
yaku; capturing goes by month alone.  The sake cup is printed as an animal but also
counts as a plain card, and the rain man is a light that only counts for Five Lights and
Rainy Four Lights; both quirks are encoded here once, in the sets the scoring reads.
"""

from __future__ import annotations

from typing import Final

#: The twelve months in order, as they begin every card id.
MONTHS: Final = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

#: Each month's four cards: (lights, animals, ribbons, plains), as in docs/rules.md's table.
_TABLE: Final[dict[str, tuple[tuple[str, ...], ...]]] = {
    "jan": (("jan-crane",), (), ("jan-poetry",), ("jan-plain-1", "jan-plain-2")),
    "feb": ((), ("feb-warbler",), ("feb-poetry",), ("feb-plain-1", "feb-plain-2")),
    "mar": (("mar-curtain",), (), ("mar-poetry",), ("mar-plain-1", "mar-plain-2")),
    "apr": ((), ("apr-cuckoo",), ("apr-ribbon",), ("apr-plain-1", "apr-plain-2")),
    "may": ((), ("may-bridge",), ("may-ribbon",), ("may-plain-1", "may-plain-2")),
    "jun": ((), ("jun-butterflies",), ("jun-blue",), ("jun-plain-1", "jun-plain-2")),
    "jul": ((), ("jul-boar",), ("jul-ribbon",), ("jul-plain-1", "jul-plain-2")),
    "aug": (("aug-moon",), ("aug-geese",), (), ("aug-plain-1", "aug-plain-2")),
    "sep": ((), ("sep-sake-cup",), ("sep-blue",), ("sep-plain-1", "sep-plain-2")),
    "oct": ((), ("oct-deer",), ("oct-blue",), ("oct-plain-1", "oct-plain-2")),
    "nov": (("nov-rain-man",), ("nov-swallow",), ("nov-ribbon",), ("nov-lightning",)),
    "dec": (("dec-phoenix",), (), (), ("dec-plain-1", "dec-plain-2", "dec-plain-3")),
}

#: The kinds in the order the table (and a captured pile) groups them.
KINDS: Final = ("light", "animal", "ribbon", "plain")

#: The whole deck in canonical order: month by month, lights, animals, ribbons, plains.
DECK: Final[tuple[str, ...]] = tuple(
    card for month in MONTHS for group in _TABLE[month] for card in group
)

#: The printed kind of each card (the sake cup is an animal here; see PLAINS).
KIND: Final[dict[str, str]] = {
    card: kind
    for month in MONTHS
    for kind, group in zip(KINDS, _TABLE[month], strict=True)
    for card in group
}

#: The month of each card.
MONTH: Final[dict[str, str]] = {card: card.split("-", 1)[0] for card in DECK}

#: The position of each card in DECK, for sorting piles the same way everywhere.
ORDER: Final[dict[str, int]] = {card: index for index, card in enumerate(DECK)}

SAKE_CUP: Final = "sep-sake-cup"
RAIN_MAN: Final = "nov-rain-man"
CURTAIN: Final = "mar-curtain"
MOON: Final = "aug-moon"

LIGHTS: Final = frozenset(card for card in DECK if KIND[card] == "light")
ANIMALS: Final = frozenset(card for card in DECK if KIND[card] == "animal")
RIBBONS: Final = frozenset(card for card in DECK if KIND[card] == "ribbon")
#: Plain cards for the Plains yaku: the sake cup counts here as well as among the animals.
PLAINS: Final = frozenset(card for card in DECK if KIND[card] == "plain") | {SAKE_CUP}
#: The four lights that count for Three and Four Lights (all but the rain man).
DRY_LIGHTS: Final = LIGHTS - {RAIN_MAN}
POEMS: Final = frozenset({"jan-poetry", "feb-poetry", "mar-poetry"})
BLUES: Final = frozenset({"jun-blue", "sep-blue", "oct-blue"})
BOAR_DEER_BUTTERFLIES: Final = frozenset({"jul-boar", "oct-deer", "jun-butterflies"})


def month_of(card: str) -> str:
    """The month a card belongs to (capturing goes by month alone).

    >>> month_of("nov-rain-man")
    'nov'
    """
    return MONTH[card]


def kind_of(card: str) -> str:
    """The printed kind of a card: light, animal, ribbon or plain.

    >>> kind_of("sep-sake-cup"), kind_of("nov-lightning")
    ('animal', 'plain')
    """
    return KIND[card]


def sort_cards(cards: tuple[str, ...] | list[str] | frozenset[str]) -> tuple[str, ...]:
    """The cards in canonical deck order.

    >>> sort_cards(["dec-phoenix", "jan-crane"])
    ('jan-crane', 'dec-phoenix')
    """
    return tuple(sorted(cards, key=ORDER.__getitem__))
