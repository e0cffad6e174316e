"""Table cards as HTML, written in Python because every move renders dozens of them.

A table card points at the page's local symbol for its picture and its name (see
templates/play/_card_defs.html), so it costs a few dozen bytes.  A keyed list wraps each
card in ``<!--k BOX-->…<!--/k-->`` markers (see :mod:`webapp.play.diff`).  With the
lite-cards setting the site's own text card is used instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from flask import g, get_template_attribute, request, url_for
from markupsafe import Markup, escape

from webapp import adapters, display
from webapp.auth.security import form_token
from webapp.locale import current_language
from webapp.play.hub import TableSession
from webapp.play.once import Remembered, language, said
from webapp.play.words import refusal


def lite() -> bool:
    """Whether this render uses text cards (read once per render, not per card)."""
    text = g.get("lite_cards")
    if text is None:
        text = g.lite_cards = display.current().lite_cards
    return bool(text)


def card(game: str, card_id: str, size: str = "md", element_id: str | None = None) -> Markup:
    return Markup(_card(game, card_id, size, element_id, lite()))


def _card(game: str, card_id: str, size: str, element_id: str | None, text: bool) -> str:
    # Ids, sizes and art names are our own [a-z0-9-] words: no escaping needed, and
    # f-strings keep this fast (it runs for every card of every move; a row asks
    # ``lite()`` once for all its cards, and is made Markup once, not card by card).
    ident = f' id="{element_id}"' if element_id else ""
    if text:
        drawn = said("text_cards", (game, card_id, size), lambda: _text_card(game, card_id, size))
        return f"<span{ident}>{drawn}</span>" if element_id else drawn
    return f"<svg{ident}{_picture(game, card_id, size)}"


def _text_card(game: str, card_id: str, size: str) -> str:
    """A text card: its words in the current language, and nothing else."""
    # Told explicitly: a socket's render has no browser cookie for the macro to read.
    return str(get_template_attribute("_card.html", "card")(game, card_id, size, True))


@cache
def _picture(game: str, card_id: str, size: str) -> str:
    """A card's picture, after its tag's name (where an id may go): the same in every
    language."""
    art = adapters.card(game, card_id).art
    return f' class="c {size}" role="img" aria-labelledby="{art}"><use href="#{art}"/></svg>'


def button(
    game: str,
    card_id: str,
    action: str,
    size: str,
    element_id: str | None,
    refused: str = "",
) -> Markup:
    """A card that makes a move; ``refused`` (a refusal code) marks one the rules do not
    allow now, dimmed, with the reason on focus.  It stays tappable: the tap answers
    with the same reason, next to the hand."""
    reason = _reason(refused) if refused else ""
    return Markup(_button(game, card_id, str(escape(action)), size, element_id, reason, lite()))


def _reason(code: str) -> str:
    """A refusal's sentence, escaped, said once per language (every move's render
    refuses the same few cards of a hand)."""
    return said("refusals", code, lambda: escape(str(refusal(code))))


def _button(
    game: str, card_id: str, action: str, size: str, element_id: str | None, reason: str, text: bool
) -> str:
    # ``action`` and ``reason`` come escaped (or are our own words).
    ident = f' id="{element_id}"' if element_id else ""
    inner = _card(game, card_id, size, None, text)
    state = f' aria-disabled="true" title="{reason}" aria-description="{reason}"' if reason else ""
    return f'<button{ident} class="cb" name="a" value="{action}"{state}>{inner}</button>'


def child_ids(key: str, ids: Sequence[str]) -> list[str]:
    """A keyed list's child ids: the key, the card, and which copy of it this is.

    >>> child_ids("h", ["a", "b", "a"])
    ['h-a-0', 'h-b-0', 'h-a-1']
    """
    seen: dict[str, int] = {}
    result = []
    for card_id in ids:
        copy = seen.get(card_id, 0)
        result.append(f"{key}-{card_id}-{copy}")
        seen[card_id] = copy + 1
    return result


def _row(items: list[str], key: str | None, label: str | None) -> Markup:
    # The id comes first: a fragment's root is found as `<tag id="...">` (render.py).
    attributes = f' id="{key}" class="cards"' if key else ' class="cards"'
    if label:
        attributes += f' role="group" aria-label="{escape(label)}"'
    if key:
        items = [f"<!--k {key}-->{item}<!--/k-->" for item in items]
    return Markup(f"<span{attributes}>{''.join(items)}</span>")


def row(
    game: str,
    ids: Sequence[str],
    size: str = "md",
    label: str | None = None,
    key: str | None = None,
) -> Markup:
    """A row of cards; with ``key`` a keyed list."""
    names = child_ids(key, ids) if key else [None] * len(ids)
    text = lite()
    return _row(
        [_card(game, c, size, n, text) for c, n in zip(ids, names, strict=True)], key, label
    )


def buttons(
    game: str,
    ids: Sequence[str],
    verb: str,
    key: str,
    size: str = "md",
    label: str | None = None,
    blocked: Mapping[str, str] | None = None,
) -> Markup:
    """Move buttons for cards (``verb card``), as a keyed list; ``blocked`` gives the
    refusal code of each move the rules do not allow now."""
    return _row(_buttons(game, ids, verb, key, size, _refusals(blocked), lite()), key, label)


#: A hand's rows of buttons as made, by everything that goes into a row, its language
#: included (text cards, labels and refusals are words).  A move changes one or two
#: groups of a hand; its other rows are the same text as the last time it was drawn.
#: At most 5,000 rows (a few hundred bytes each).
ROWS: Remembered[tuple[Any, ...], str] = Remembered(5000)


def button_groups(
    game: str,
    groups: Iterable[tuple[str, Sequence[str]]],
    verb: str,
    key: str,
    size: str,
    label: Callable[[str], str],
    blocked: Mapping[str, str] | None = None,
) -> Markup:
    """A hand's move buttons as one keyed list per group (``key-group``, labelled by
    ``label(group)``), in one call: every move that changes a hand draws them all."""
    refused, text, said_in = _refusals(blocked), lite(), language()
    rows = []
    for group, ids in groups:
        group_key, name = f"{key}-{group}", label(group)
        reasons = tuple(refused.get(f"{verb} {card_id}") for card_id in ids) if refused else ()
        memo = (said_in, game, tuple(ids), verb, group_key, size, text, name, reasons)
        row = ROWS.get(memo)
        if row is None:
            made = _buttons(game, ids, verb, group_key, size, refused, text)
            row = ROWS.keep(memo, _row(made, group_key, name))
        rows.append(row)
    return Markup("".join(rows))


def _refusals(blocked: Mapping[str, str] | None) -> dict[str, str]:
    """The reason, said, for each move the rules do not allow now (action: sentence)."""
    if not blocked:
        return {}
    reasons = {code: _reason(code) for code in set(blocked.values())}
    return {action: reasons[code] for action, code in blocked.items()}


def _buttons(
    game: str,
    ids: Sequence[str],
    verb: str,
    key: str,
    size: str,
    refused: Mapping[str, str],
    text: bool,
) -> list[str]:
    # Verbs and card ids are our own [a-z0-9-] words, as in _card: nothing to escape.
    items = []
    for card_id, element_id in zip(ids, child_ids(key, ids), strict=True):
        action = f"{verb} {card_id}"
        items.append(
            _button(game, card_id, action, size, element_id, refused.get(action, ""), text)
        )
    return items


def hand_fieldset(step: str, card_step: bool) -> Markup:
    """The opening of the fieldset around a hand's cards, disabled but at the hand's
    ``step`` (the phase in which a card of the hand is played).

    A page says so itself (for browsers without scripts; a replay's hand never plays).
    The socket's fragments leave it to table.js, which reads #status after every message:
    a turn's start and end then change #status only, instead of re-sending the whole hand
    twice a turn."""
    off = not card_step and request.endpoint in ("play.table", "play.replay_page")
    return Markup(f'<fieldset data-step="{step}"{" disabled" if off else ""}>')


#: The address each table's moves post to, by table and language: asked of the URL map
#: (20 µs) once, not on every move.
ADDRESSES: Remembered[tuple[str, str], str] = Remembered(10_000)


def move_form(table: TableSession, css_class: str = "") -> Markup:
    """The opening tag of a form whose buttons are moves: sent over the socket, or posted
    when there is no socket.  The state version comes from #status (hx-include on the
    table), so the form's markup does not change with every move."""
    # Every seat's prompt, hand and status of every move post to the same address.
    where = (table.id, current_language())
    action = ADDRESSES.get(where)
    if action is None:
        action = ADDRESSES.keep(where, url_for("play.act", table_id=table.id))
    opening = Markup(f'<form class="moves {css_class}" ws-send method="post" action="{action}">')
    if request.endpoint == "play.table":
        # The page a browser loads can post its moves (without scripts), so its forms carry
        # the CSRF token.  Fragments rendered for the socket are never posted: they carry
        # none (the socket ignores a token sent before its first render replaced them).
        token = Markup('<input type="hidden" name="csrf_token" value="{}">')
        opening += token.format(form_token())
    return opening
