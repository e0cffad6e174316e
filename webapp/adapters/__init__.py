"""The web half of every game: what the pages need of a game beyond its engine.

A game is two halves: its engine package ``webapp/game/<name>/`` (pure rules, standard
library only, found by :mod:`webapp.game.registry`) and one adapter module here,
``webapp/adapters/<name>.py``, exposing ``ADAPTER``: the game's title and place in lists,
its practice and room setup, its card catalogue, the words of its own codes, the verb of
a tapped hand card, the helpers its templates call, its rules pages and its guided first
game.  Its templates live
in ``templates/play/<name>/`` and ``templates/rules/``.  The adapters use Flask-Babel, so
they sit beside the areas rather than in ``webapp/game``.

Every other module finds a game here or in the engine registry, by the name it was given,
and never names one itself (``tests/test_layout.py`` checks it).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from flask_babel import lazy_gettext as _l

from webapp.adapters.lesson import Lesson
from webapp.adapters.setup import Setup
from webapp.cards import BACK, Card
from webapp.game import registry
from webapp.game.search import Advice

#: One of a game's hint reasons: the search's advice and the named card, in words.
HintReason = Callable[[Advice, str], str]


@dataclass(frozen=True)
class Page:
    """A page of a game's rules (or of its cards): its path after the language, its
    endpoint in the ``rules`` blueprint, its template and the template's context."""

    path: str
    endpoint: str
    #: What lists of pages call it (the offline page's list).
    title: Any
    template: str
    context: Callable[[], dict[str, Any]] = dict


def rules_page(name: str, title: str) -> Page:
    """The rules page of the game called ``name``: ``/rules/<name>``, ``rules/<name>.html``."""
    return Page(
        f"/rules/{name}",
        name,
        _l("%(game)s rules", game=title),
        f"rules/{name}.html",
        lambda: {"game": name},
    )


@dataclass(frozen=True)
class Adapter:
    """One game's web half; its name (its setup's ``game``) is its engine's in the registry."""

    #: Where the game comes in every list of games (the home page's order).
    position: int
    setup: Setup
    #: The sprite that draws its cards, and each card type by id in its deck's order.
    sprite: str
    catalogue: Mapping[str, Card]
    #: The action a tapped hand card plays (``throw``, ``discard``, ``play``).
    hand_verb: str
    #: The refusal codes of its engine, in the reader's language.
    refusals: Mapping[str, Any]
    #: Its own words by kind (its templates read them as ``game_words``).
    words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Helpers its templates call, as Jinja globals; and its Jinja filters.
    template_globals: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    template_filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    pages: tuple[Page, ...] = ()
    #: Its guided first game, if it has one.
    lesson: Lesson | None = None
    #: Why a hint's move is good, by the search's reason code: (advice, the card's name)
    #: to a few words in the reader's language (``webapp/play/hints.py``).
    hint_reasons: Mapping[str, HintReason] = field(default_factory=dict)
    #: A hint's move when it names no card (``cabut``, ``stop``), in the reader's language.
    hint_moves: Mapping[str, Any] = field(default_factory=dict)
    #: A hint's figure is the round's points on average, not the share of deals won.
    hint_in_points: bool = False

    @property
    def name(self) -> str:
        return self.setup.game

    @property
    def title(self) -> str:
        return self.setup.title


@cache
def adapters() -> tuple[Adapter, ...]:
    """Every game's adapter, in the order pages list the games.

    An adapter whose game has no engine fails here (KeyError), at start-up.
    """
    found: list[Adapter] = []
    for module in pkgutil.iter_modules(__path__):
        adapter = getattr(importlib.import_module(f"{__name__}.{module.name}"), "ADAPTER", None)
        if isinstance(adapter, Adapter):
            registry.get(adapter.name)
            found.append(adapter)
    return tuple(sorted(found, key=lambda adapter: adapter.position))


def names() -> tuple[str, ...]:
    """The games' names, in list order."""
    return tuple(adapter.name for adapter in adapters())


def get(name: str) -> Adapter:
    """The adapter of the game called ``name`` (KeyError when there is none)."""
    for adapter in adapters():
        if adapter.name == name:
            return adapter
    raise KeyError(name)


def setups() -> dict[str, Setup]:
    """Every game's setup by name, in list order."""
    return {adapter.name: adapter.setup for adapter in adapters()}


def card(game: str, card_id: str) -> Card:
    """The card ``card_id`` of ``game``; ``back`` is the face-down card of that game's deck.

    >>> card("koa", "babi-pusek").art, card("kowah", "coins-5").group
    ('coins-5', 'coins')
    """
    adapter = get(game)
    if card_id == BACK:
        return Card(game, BACK, adapter.sprite, BACK, "", "", "", "", "")
    return adapter.catalogue[card_id]


def deck(game: str) -> tuple[Card, ...]:
    """Every card type of a game, in its deck's order."""
    return tuple(get(game).catalogue.values())
