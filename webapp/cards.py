"""How a card looks and is named on the web pages, and the money cards' sprite.

The engines in ``webapp.game`` know cards only by id; a game's adapter (``webapp.adapters``)
turns each id into a :class:`Card`: a symbol in one of the two sprites, a name in the
page's language, a group or month and a kind.  The Chinese money cards are drawn by one
sprite that two games share, so their art ids, suits and names live here once.  Names are
lazy strings, translated when a template renders them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

#: The shape of each sprite's cards.
VIEW_BOX: Final[dict[str, str]] = {"money": "0 0 40 104", "hanafuda": "0 0 40 60"}

# --- The Chinese money cards ---------------------------------------------------------------

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
#: The 30 money-card pictures in the deck's order: the suits 1 to 9, then the three honours.
MONEY_ART: Final[tuple[str, ...]] = (
    *(f"{suit}-{rank}" for suit in SUITS for rank in range(1, 10)),
    *HONOURS,
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
    #: The group a game sorts it by: a Minang group, a suit (``honour``) or a month.
    group: str
    #: A hanafuda card's kind: light, animal, ribbon or plain ("" for money cards).
    kind: str
    #: The short mark a lite card shows in its corner (a rank, a month number).
    index: str
    #: What the card shows, before any month or kind (hanafuda); the name otherwise.
    subject: str | LazyString
    #: The class suffix that colours a lite card: the art's suit or honour, or the kind.
    colour: str
    #: Said before and after the subject in the accessible name (a month, a kind).
    prefix: LazyString | None = None
    suffix: LazyString | None = None

    @property
    def name(self) -> str:
        """The accessible name, in the language of the page being rendered."""
        if self.id == BACK:
            return str(_l("Face-down card"))
        parts = (self.prefix, self.subject, self.suffix)
        return " · ".join(str(part) for part in parts if part is not None)

    @property
    def view_box(self) -> str:
        return VIEW_BOX[self.sprite]


def money_suit(art: str) -> str:
    """The suit of a money-card picture, ``honour`` for the three honours.

    >>> money_suit("coins-5"), money_suit("red-flower")
    ('coins', 'honour')
    """
    suit = art.rpartition("-")[0]
    return suit if suit in SUITS else "honour"


def money_index(art: str) -> str:
    """The corner mark of a money-card picture: its rank, or the honour's sign."""
    if art in HONOURS:
        return {"old-thousand": "1000", "red-flower": "✿", "white-flower": "❀"}[art]
    return art.rpartition("-")[2]


def money_name(art: str) -> LazyString:
    """A money-card picture's name in the reader's language ("Coins 5", "Red Flower")."""
    if art in HONOURS:
        return HONOUR_NAMES[art]
    suit, _, rank = art.rpartition("-")
    return _l("%(suit)s %(rank)s", suit=SUIT_NAMES[suit], rank=rank)
