"""Every name a template may use besides what its view passes: registered here, in one list.

Templates are also rendered outside any request (a table's or a room's socket message,
in its reader's language), so these are app-wide globals rather than a blueprint's
context.  Each entry is something some template reads; a name no template uses any more
goes from here.  A game's own helpers come from its adapter (``template_globals`` and
``template_filters``, webapp/adapters/), listed here with the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from types import FunctionType
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from jinja2.utils import _PassArg

from webapp import adapters, display, headers, locale, offline, play, rooms, social
from webapp.auth import oidc, security
from webapp.play import emotes, hints, markup, words
from webapp.play.render import layout_template
from webapp.ranking import seat_change
from webapp.ranking.routes import player_link
from webapp.services import services
from webapp.social.invites import localized


class CompiledOnce(BytecodeCache):
    """Templates compiled once per process, however many apps it creates (the tests
    create hundreds, and each app's own Jinja environment compiled every template it
    rendered again: 60 ms of CPU for five pages).  Kept by name and source checksum, so
    an edited template is compiled anew; every app's environment is configured alike."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledOnce()


class QuickCalls(Context):
    """Jinja's context, calling plain functions without asking each time what they are.

    A template calls through ``context.call`` (every ``_()``, card and part of every
    seat's render on every move), and Jinja's own first asks whether the callable is a
    class instance with a ``__call__`` that wants the context, then what the callable
    itself wants.  A plain function has no such ``__call__``; its own wish is one
    attribute.  Anything else, or a call that carries a loop's or a block's variables to
    add to the context, goes the usual way.

    It also lists the template's global names only when asked.  Jinja's own context lists
    them when made, and only a template imported as a module asks: an include makes a
    context, and the log part's include listed the site's sixty globals (a ``ChainMap``,
    slow to list) on every draw.
    """

    def __init__(
        self,
        environment: Environment,
        parent: dict[str, Any],
        name: str | None,
        blocks: dict[str, Callable[[Context], Iterator[str]]],
        globals: MutableMapping[str, Any] | None = None,
    ) -> None:
        super().__init__(environment, parent, name, blocks)  # without globals: none listed
        self._globals = globals
        self._globals_keys: set[str] | None = None  # listed when asked (globals_keys)

    @property
    def globals_keys(self) -> set[str]:
        if self._globals_keys is None:
            self._globals_keys = set(self._globals or ())
        return self._globals_keys

    @globals_keys.setter
    def globals_keys(self, keys: set[str]) -> None:
        self._globals_keys = keys

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if type(__obj) is FunctionType:
            wants = getattr(__obj, "jinja_pass_arg", None)
            if wants is None or wants is _PassArg.context:
                if kwargs:  # most calls have none: a loop's or a block's variables, if any
                    loop, block = kwargs.pop("_loop_vars", None), kwargs.pop("_block_vars", None)
                    if wants and (loop or block):  # the context is to be given them
                        return super().call(
                            __obj, *args, _loop_vars=loop, _block_vars=block, **kwargs
                        )
                try:
                    return __obj(__self, *args, **kwargs) if wants else __obj(*args, **kwargs)
                except StopIteration:
                    return __self.environment.undefined(
                        "value was undefined because a callable raised a StopIteration exception"
                    )
        return super().call(__obj, *args, **kwargs)


def init_app(app: Flask) -> None:
    app.jinja_env.bytecode_cache = COMPILED
    app.jinja_env.context_class = QuickCalls
    found = services(app)
    app.jinja_env.globals.update(
        # Every page: its language and the others, static files, styles, display settings.
        LANGUAGES=locale.LANGUAGES,
        current_language=locale.current_language,
        translated_url=locale.translated_url,
        asset_url=found.assets.url,
        inline_style=headers.inline_style,
        display_settings=display.current,
        THEME_COLOUR=offline.THEME_COLOUR,
        # Flask-WTF's own csrf_token() is replaced (see webapp/auth/security.py).
        csrf_token=security.form_token,
        sign_in_providers=oidc.providers,
        # The games and their cards.
        games=adapters.adapters,
        card_info=adapters.card,
        card_deck=adapters.deck,
        # Tables.
        words=words,
        table_card=markup.card,
        table_cards=markup.row,
        table_buttons=markup.buttons,
        table_button_groups=markup.button_groups,
        table_button=markup.button,
        move_form=markup.move_form,
        hand_fieldset=markup.hand_fieldset,
        layout_template=layout_template,
        table_title=play.table_title,
        bot_level=play.bot_level,
        setup_of=play.setup_of,
        hint_line=hints.hint_line,
        rating_change=seat_change,
        reactions=emotes.PRESETS,
        # Rooms.
        room_words=rooms.words,
        room_of_table=found.rooms.room_of_table,
        # Friends, presence and invites.
        friend_status=social.status_of,
        my_invites=social.my_invites,
        waiting_requests=social.waiting_requests,
        friends_by_status=social.by_status,
        online_friends=social.online_friends,
        invited_to=social.invited_to,
        invite_link=localized,
        htmx_pages=social.HTMX_PAGES,
    )
    app.jinja_env.filters.update(
        card_name=play.card_name,
        seat_name=play.seat_name,
        player_link=player_link,
    )
    for adapter in adapters.adapters():
        app.jinja_env.globals.update(adapter.template_globals)
        app.jinja_env.filters.update(adapter.template_filters)
