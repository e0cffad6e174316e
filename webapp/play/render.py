"""Per-seat rendering: every fragment of a table, from one seat's view, in its language.

The table page includes the same fragment templates, so a reload, a reconnect and a
move all come from one render.  Nothing here looks at the engine state: only at
``game.view(state, seat)``, the one door that knows what a seat may see.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast
from weakref import WeakKeyDictionary

from babel.support import NullTranslations, Translations
from flask import Flask, g, render_template, request
from flask import session as cookie_session
from flask_babel import get_translations
from flask_babel import gettext as _
from jinja2 import pass_context
from jinja2.runtime import Context, new_context
from markupsafe import Markup
from werkzeug.local import LocalProxy

from webapp import adapters
from webapp.adapters.setup import LEVELS
from webapp.channels import rendering
from webapp.play import clock
from webapp.play.hub import Audience, Renderer, TableSession
from webapp.play.once import Remembered
from webapp.play.parts import collector
from webapp.play.store import Seat
from webapp.play.views import View

#: A fragment is marked in the rendered layout as ``<!--f-->ELEMENT<!--/f-->``; ELEMENT
#: has a stable id, and a WebSocket message swaps it in by that id.
#: ("Text without a tag, then a tag that is not the end marker" finds what ``.*?`` would,
#: in half the time: every part drawn is split.)
FRAGMENT = re.compile(r'<!--f-->(<\w+ id="([\w-]+)"[^<]*(?:<(?!!--/f-->)[^<]*)*)<!--/f-->')


def seat_names(seats: Sequence[Seat], me: int | None) -> tuple[str, ...]:
    """How a table names its seats for the reader sitting in ``me``: "You", a bot with its
    level, a guest marked as one, an account by its username."""
    names = []
    for index, seat in enumerate(seats):
        if index == me:
            names.append(_("You"))
        elif seat.is_bot:
            names.append(f"{seat.name} ({LEVELS.get(seat.level or '', seat.level)})")
        elif seat.name and (seat.player or "").startswith("g-"):
            names.append(f"{seat.name} ({_('guest')})")  # not an account, whatever the name
        else:
            names.append(seat.name or _("Guest"))
    return tuple(names)


def hand_moves(session: TableSession, view: View, legal: set[str]) -> tuple[bool, dict[str, str]]:
    """Whether this is the seat's moment to play a card from its hand, and then why each
    card it may not play is refused (action text: refusal code)."""
    verb = adapters.get(session.game.name).hand_verb + " "
    if not any(action.startswith(verb) for action in legal):
        return False, {}
    blocked = [verb + card for card in dict.fromkeys(view.hand) if verb + card not in legal]
    return True, session.refusals(blocked)


def coach_words(session: TableSession, seat: int | None) -> tuple[str | None, str | None]:
    """A guided table's coach line for ``seat`` now, and its explanation of a wrong move
    (each in the render's language; None at other tables)."""
    coach = session.coach
    if coach is None:
        return None, None
    line = coach.line(session.version, seat, session.finished)
    wrong = coach.wrong(session.version) if seat is not None else None
    return (None if line is None else str(line)), (None if wrong is None else str(wrong))


def table_context(
    session: TableSession, seat: int | None, names: tuple[str, ...] | None = None
) -> dict[str, Any]:
    """What a table's templates draw from, for ``seat`` (``names``: its seat names, when
    the caller remembers them)."""
    view = session.view(seat)
    coach, coach_wrong = coach_words(session, seat)
    legal = {str(action) for action in view.legal}
    card_step, blocked = hand_moves(session, view, legal)
    count = len(session.seats)
    # The other seats as drawn from left to right: play passes to the right (seat + 1),
    # so the player on your left is the one who plays just before you (docs/rules.md, Koa).
    # A spectator sees every seat.
    others = list(range(count)) if seat is None else [(seat - k) % count for k in range(1, count)]
    to_act = session.game.to_act(session.state)
    outcome = session.game.outcome(session.state)
    return {
        "others": others,
        "table": session,
        "game": session.game.name,
        "game_words": adapters.get(session.game.name).words,
        "view": view,
        "legal": legal,
        "card_step": card_step,
        "blocked": blocked,
        "me": seat,
        "names": seat_names(session.seats, seat) if names is None else names,
        "version": session.version,
        "to_act": to_act,
        "seconds_left": session.seconds_left(),
        "clock": clock.of(session.options),
        "extended": session.extended,
        # Hints show only to their own seat, on practice tables, on its turn while the
        # game goes on, and only where there is a choice to make.  Decided here, not in
        # the hint's template: a template naming whose turn it is is drawn again on
        # every move for every seat, at tables that offer no hints too.
        "hint_offered": (
            seat is not None
            and to_act == seat
            and not outcome
            and len(view.legal) > 1
            and session.offers_hints()
        ),
        "hint": session.hint_for(seat),
        "hint_pending": seat in session.hinting,
        "played_for": session.played_for,
        "stand_ins": session.stand_ins(),
        "outcome": outcome,
        "teams": session.game.teams(len(session.seats)),
        "coach": coach,
        "coach_wrong": coach_wrong,
    }


def layout_template(game: str) -> str:
    return f"play/{game}/_layout.html"


#: The start of a fragment's element, with its id.
FRAGMENT_ROOT = re.compile(r'<\w+ id="([\w-]+)"[^<]*')

OPEN, CLOSE = "<!--f-->", "<!--/f-->"


def split_fragments(html: str) -> dict[str, str]:
    """The marked fragments of a rendered layout, by element id.

    >>> split_fragments('<main><!--f--><p id="a">1</p><!--/f--></main>')
    {'a': '<p id="a">1</p>'}
    >>> split_fragments('<p>Dealt</p><!--f--><p id="a">1</p><!--/f-->')
    {'a': '<p id="a">1</p>'}
    """
    # A table's parts hold one fragment each (and every part drawn is split): its
    # markers are found without a search by pattern.
    if html.count(OPEN) == 1 and html.count(CLOSE) == 1:
        start, end = html.index(OPEN) + len(OPEN), html.index(CLOSE)
        root = FRAGMENT_ROOT.match(html, start, end)
        return {root.group(1): html[start:end]} if root else {}
    return {match.group(2): match.group(1) for match in FRAGMENT.finditer(html)}


def render_layout(session: TableSession, seat: int | None) -> str:
    """The whole table for ``seat``, fragments marked, in the current request's language."""
    return render_template(layout_template(session.game.name), **table_context(session, seat))


def render_fragments(session: TableSession, seat: int | None) -> dict[str, str]:
    """Every fragment for ``seat`` in the current request's language."""
    return split_fragments(render_layout(session, seat))


#: Sentences remembered per language, at most, with placeholders and without (a template
#: passing a string it made would otherwise grow the memo without end); past it a memo
#: starts again, as every memo of a render does (:class:`Remembered`).
SAID_MAX = 2000
#: Filled-in sentences remembered per language, at most (each table has its own names).
FILLED_MAX = 5000
#: The values a filled-in sentence is remembered by: exactly these types, whose text and
#: escaping follow from their value (not Markup, escaped otherwise; not a lazy string,
#: said otherwise in another language).
PLAIN = (str, int)


def gettext_callables(translations: Translations | NullTranslations) -> dict[str, Any]:
    """The template's ``_``, ``gettext`` and ``ngettext`` bound to one language's
    catalogue, as Jinja's i18n extension makes them (escaped where the template
    autoescapes, always formatted), each sentence looked up once.

    Flask-Babel looks the catalogue up again for every string, and Jinja's ``_`` looks
    ``gettext`` up in the context and calls it through the context; a table render has
    dozens of strings and every move renders it for every seat, so the socket's renders
    look each up once per language.
    """
    said: Remembered[str, Markup] = Remembered(SAID_MAX)
    # Sentences with placeholders, to fill in each time.
    patterns: Remembered[str, Markup] = Remembered(SAID_MAX)
    # Sentences filled in with plain text and numbers (names, cards, seconds), by those
    # values: a move's parts say the same ones over and over ("Takabek: Ani ate your
    # throw", five times a Koa move), and Markup's ``%`` wraps and escapes every value.
    filled: Remembered[tuple[Any, ...], Markup] = Remembered(FILLED_MAX)

    @pass_context
    def gettext(context: Context, string: str, **variables: Any) -> str:
        if not context.eval_ctx.autoescape:
            return str(translations.ugettext(string) % variables)
        if variables:
            plain = all(type(value) in PLAIN for value in variables.values())
            key = (string, *variables.items()) if plain else None
            found = filled.get(key) if key else None
            if found is None:
                pattern = patterns.get(string)
                if pattern is None:
                    pattern = patterns.keep(string, Markup(translations.ugettext(string)))
                found = pattern % variables
                if key:
                    filled.keep(key, found)
            return found
        found = said.get(string)
        if found is None:
            found = said.keep(string, Markup(translations.ugettext(string)) % variables)
        return found

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int, **variables: Any) -> str:
        variables.setdefault("num", num)
        said = translations.ungettext(singular, plural, num)
        if context.eval_ctx.autoescape:
            return Markup(said) % variables
        return str(said % variables)

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def ambient() -> dict[str, Any]:
    """The current request's own objects, as Flask gives them to every template (behind
    Flask's names are werkzeug's proxies; a template is given what they stand for)."""
    return {
        name: cast("LocalProxy[Any]", proxy)._get_current_object()
        for name, proxy in (("g", g), ("request", request), ("session", cookie_session))
    }


def make_renderer(app: Flask) -> Renderer:
    """A renderer usable outside any request (timers, bots, other players' moves).

    The audiences of one language share a request context, and each audience's
    fragments are collected from its remembered parts (see :mod:`webapp.play.parts`).
    """
    prepared: dict[tuple[str, str | None], dict[str, Any]] = {}
    collect = collector(app.jinja_env)
    # Each audience's seat names, said once while the seats stay the same (each name is a
    # catalogue lookup, for every seat of every audience on every move otherwise).
    named: WeakKeyDictionary[Audience, tuple[Sequence[Seat], tuple[str, ...]]] = WeakKeyDictionary()

    def names_for(session: TableSession, audience: Audience) -> tuple[str, ...]:
        kept = named.get(audience)
        if kept is None or kept[0] != session.seats:
            kept = named[audience] = (session.seats, seat_names(session.seats, audience.seat))
        return kept[1]

    def render(session: TableSession, audiences: Sequence[Audience]) -> list[dict[str, str]]:
        rendered: dict[int, dict[str, str]] = {}
        for language in dict.fromkeys(audience.language for audience in audiences):
            with rendering(app, language):
                layout = app.jinja_env.get_template(layout_template(session.game.name))
                shared = prepared.get((language, layout.name))
                if shared is None:
                    shared = dict(gettext_callables(get_translations()))
                    app.update_template_context(shared)  # what render_template would add
                    # The layout's globals with them, made once for the language rather
                    # than by every audience's render.
                    shared = prepared[language, layout.name] = {**layout.globals, **shared}
                # The context processors answer alike in every render (the same request
                # without cookies), except for the request's own objects.
                shared = {**shared, **ambient()}
                # The parts drawn for this language, per card style (see parts.py).
                alike: dict[bool, dict[tuple[str, Any], list[Any]]] = {False: {}, True: {}}
                for audience in audiences:
                    if audience.language != language:
                        continue
                    g.lite_cards = audience.lite
                    collected: dict[str, str] = {}
                    # Made as a part's is: ``shared`` holds the layout's globals already,
                    # and the template's own new_context would list them all again for
                    # every audience (for a module's exports, which a layout has none of).
                    context = new_context(
                        app.jinja_env,
                        layout.name,
                        layout.blocks,
                        {
                            **shared,
                            **table_context(session, audience.seat, names_for(session, audience)),
                            "memo": audience.memo,
                            "collected": collected,
                            "alike": alike[audience.lite],
                        },
                        shared=True,
                    )
                    # Only the fragments its parts collect are kept, not the page.
                    collect(layout, context)
                    rendered[id(audience)] = collected
        return [rendered[id(audience)] for audience in audiences]

    return render
