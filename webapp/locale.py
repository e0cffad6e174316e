"""Which language a page speaks: the URL says it, and ``/`` guesses it.

Every page lives under a language prefix (``/id/``, ``/en/``, ``/nl/``).  The bare root
redirects by the reader's remembered choice (the language they last read the site in),
else their browser's ``Accept-Language``, else Indonesian.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, Response, abort, current_app, g, request, url_for
from flask_babel import Babel
from werkzeug import Request

from webapp.cookies import remember_preference

LANGUAGES: dict[str, str] = {"id": "Bahasa Indonesia", "en": "English", "nl": "Nederlands"}
DEFAULT_LANGUAGE = "id"
LANGUAGE_COOKIE = "lang"


def guess_language(asked: Request | None = None) -> str:
    """The reader's language when the URL names none (``asked``: the request being
    served, unless the edge asks before the app has one, see webapp/edge.py)."""
    asked = asked or request
    remembered = asked.cookies.get(LANGUAGE_COOKIE, "")
    if remembered in LANGUAGES:
        return remembered
    best = asked.accept_languages.best_match(list(LANGUAGES))
    return best or DEFAULT_LANGUAGE


def current_language() -> str:
    """The language of the page being rendered."""
    lang = str(g.get("lang_code", ""))
    if lang in LANGUAGES:
        return lang
    # A page that matched no route (a 404) still speaks the language its URL names.
    prefix = request.path.lstrip("/").partition("/")[0]
    return prefix if prefix in LANGUAGES else guess_language()


def pull_language(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Take the language out of the URL's values so views need not know about it.

    An unknown prefix (``/fr/``) is a page that does not exist: the localized 404.
    """
    if values is None or "lang_code" not in values:
        return
    lang = values.pop("lang_code")
    if lang not in LANGUAGES:
        abort(404)
    g.lang_code = lang


def push_language(endpoint: str, values: dict[str, Any]) -> None:
    """Give ``url_for`` the current language unless the caller names another."""
    if "lang_code" in values or not current_app.url_map.is_endpoint_expecting(
        endpoint, "lang_code"
    ):
        return
    values["lang_code"] = current_language()


def remember_language(response: Response) -> Response:
    """Remember the language of every localized page the reader opened successfully.

    Only a navigation counts: the service worker fetches pages of its own language in the
    background to keep them offline, and that is not the reader choosing a language.
    """
    lang = g.get("lang_code")
    if (
        lang in LANGUAGES
        and response.status_code == 200
        and request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate"
        and request.cookies.get(LANGUAGE_COOKIE) != lang
    ):
        remember_preference(response, LANGUAGE_COOKIE, lang)
    return response


def init_app(app: Flask) -> None:
    compile_catalogs(Path(app.root_path) / "i18n")
    Babel(app, locale_selector=current_language)
    # Paragraph-long messages are extracted with their white space folded (babel.cfg).
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.url_value_preprocessor(pull_language)
    app.url_defaults(push_language)
    app.after_request(remember_language)


def translated_url(language: str, external: bool = False) -> str:
    """This page in another language (the home page when this page has no language)."""
    endpoint = request.endpoint
    if endpoint and current_app.url_map.is_endpoint_expecting(endpoint, "lang_code"):
        args = dict(request.view_args or {})
        args["lang_code"] = language
        return url_for(endpoint, _external=external, **args)
    return url_for("pages.index", lang_code=language, _external=external)


def compile_catalogs(root: Path) -> None:
    """Compile each ``.po`` catalog whose ``.mo`` is missing or older.

    Done at start-up so a fresh checkout, a test run and a PaaS dyno all speak every
    language without a separate build step; written atomically for parallel workers.
    """
    for po_path in root.glob("*/LC_MESSAGES/messages.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as source:
            catalog = read_po(source)
        temporary = mo_path.with_name(f".{mo_path.name}.{os.getpid()}")
        with temporary.open("wb") as target:
            write_mo(target, catalog)
        os.replace(temporary, mo_path)
