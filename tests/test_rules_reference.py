"""docs/rules.md, the rules reference the code points to, against the engines: each game's
deck section names exactly the engine's card ids, in the numbers its heading gives.

A deck changed in one place and not the other fails here, whichever was changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webapp.game import registry

RULES = Path(__file__).parent.parent / "docs" / "rules.md"

#: "### Deck: 180 cards, 30 types, 6 copies each" or "### Deck: 48 cards, 12 months of 4".
DECK_HEADING = re.compile(r"^### Deck: (\d+) cards, (\d+) (?:types|months)", re.M)
CARD_ID = re.compile(r"`([a-z]+(?:-[a-z0-9]+)+)`")
#: "`coins-1` ... `coins-9`": every rank between the two.
RUN = re.compile(r"`([a-z]+)-(\d)` \.\.\. `\1-(\d)`")


def sections() -> dict[str, str]:
    """The text of each game's section ("## 1. Koa (…)" is koa's), by game name."""
    text = RULES.read_text(encoding="utf-8")
    parts = re.split(r"^## \d+\. ", text, flags=re.M)[1:]
    return {re.sub(r"[^a-z]", "", part.split(" ", 1)[0].lower()): part for part in parts}


def deck_section(section: str) -> tuple[int, int, set[str]]:
    """The card count and type count a section's deck heading gives, and the ids it names."""
    heading = DECK_HEADING.search(section)
    assert heading, "no deck heading"
    body = section[heading.end() :].split("\n### ", 1)[0]
    ids = set(CARD_ID.findall(body))
    for suit, first, last in RUN.findall(body):
        ids |= {f"{suit}-{rank}" for rank in range(int(first), int(last) + 1)}
    return int(heading.group(1)), int(heading.group(2)), ids


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_the_rules_reference_names_every_card_of_the_engine(name: str) -> None:
    cards, kinds, ids = deck_section(sections()[name])
    deck = registry.get(name).deck
    assert len(deck) == cards
    if name != "koikoi":  # its heading counts months; each of its 48 cards is one of a kind
        assert len(set(deck)) == kinds
    # Koa's section also maps each of its ids to Kowah's (the shared card art).
    names = ids if name != "koa" else {i for i in ids if i.split("-")[0] in groups(deck)}
    assert names == set(deck)


def groups(deck: tuple[str, ...]) -> set[str]:
    return {card.split("-")[0] for card in deck}


def test_every_game_has_a_section() -> None:
    assert set(sections()) == set(registry.games())
