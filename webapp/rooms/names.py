"""The names guests give themselves in a room: none may pass for someone else.

A guest's name is free text, shown to everyone at the table, so it must not read as a
bot's ("Malin (Hard)"), as the word each reader sees for themself ("You", "Kamu", "Jij"),
or as an account's username (accounts are named by their username, guests are marked
as guests).  Names are compared word by word, case and punctuation aside, so "Malinda"
stays a name of its own.
"""

from __future__ import annotations

import re

from webapp.adapters import setups
from webapp.auth import accounts, rules

#: "You" in the three languages, as the room and table call their reader, and "bot".
RESERVED = frozenset({"you", "kamu", "anda", "jij", "je", "u", "bot"})


def words(name: str) -> list[str]:
    """
    >>> words("Malin (Hard)")
    ['malin', 'hard']
    """
    return re.findall(r"[^\W_]+", name.casefold())


def reserved(name: str) -> bool:
    """Whether ``name`` reads as a bot's or as "You".

    >>> reserved("Baba  Liem!"), reserved("Malin (Hard)"), reserved("Jij")
    (True, True, True)
    >>> reserved("Malinda"), reserved("Rina Wati")
    (False, False)
    """
    said = words(name)
    if RESERVED.intersection(said):
        return True
    bots = (words(bot) for setup in setups().values() for bot in setup.bot_names)
    return any(said[: len(bot)] == bot for bot in bots)


def imitates(name: str) -> bool:
    """Whether a guest's ``name`` could be taken for a bot, for "You" or for an account."""
    if not words(name):
        return False
    return reserved(name) or accounts.find_by_username(rules.normalise_username(name)) is not None
