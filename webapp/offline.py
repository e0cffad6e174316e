"""An installable site that reads offline: per language, a web app manifest, a service
worker and an offline page.

The service worker of a language (``/<lang>/sw.js``, scope ``/<lang>/``) is registered
by ``static/js/offline.js`` once a page of that language has loaded.  It then keeps the
rules pages, the card galleries, the static files they use and the offline page in one
cache, named by the language and the static files' fingerprint: a new set of static
files makes a new worker, which fills a new cache and deletes the old one.  Offline,
the kept pages come from that cache and every other page is the offline page; tables,
rooms, forms, sockets and personal pages only ever come from the network.  The worker
is hand-written (``templates/offline/worker.js``); only its first lines are filled in.

Signing out clears what the browser kept (:func:`forget_signed_in_pages`): a kept page
shows its reader's account in its header, and on a shared phone the next person must not
read it offline.  The next page loaded registers the worker again, which keeps the pages
afresh, signed out.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, Response, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from webapp.adapters import adapters
from webapp.assets import Assets
from webapp.display import Display, hex_colour
from webapp.locale import current_language
from webapp.services import services

bp = Blueprint("offline", __name__)

#: The stylesheet's ``--red-ink``: the browser's bar and the installed app's title bar.
THEME_COLOUR = "#7a1f16"


def kept_pages() -> dict[str, Any]:
    """The pages kept for reading offline, by endpoint (each takes only the language), with
    the titles the offline page lists them under: the rules index and every game's pages."""
    kept: dict[str, Any] = {"rules.index": _l("Rules")}
    for adapter in adapters():
        kept.update({f"rules.{page.endpoint}": page.title for page in adapter.pages})
    return kept


#: The app's icons: static file, sizes, purpose.  The PNGs are drawn from img/icon.svg
#: by scripts/icons.py (a maskable icon keeps its art inside the middle 80%).
ICONS = (
    ("img/icon.svg", "any", "any"),
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-maskable-192.png", "192x192", "maskable"),
)


#: What a browser drops as it signs out: its HTTP cache (pages drawn for the account, the
#: back-forward cache) and its storage, which holds the worker's cache of kept pages and
#: the worker itself (the only directive that reaches them).  Not "cookies": the language
#: and display settings are the reader's, not the account's.
SIGN_OUT_CLEARS = '"cache", "storage"'


def forget_signed_in_pages(response: BaseResponse) -> BaseResponse:
    """Tell the browser to drop every page it kept while signed in (a sign-out's response)."""
    response.headers["Clear-Site-Data"] = SIGN_OUT_CLEARS
    return response


def static_files() -> Assets:
    return services().assets


def cache_prefix(language: str) -> str:
    """The start of the name of every offline cache of a language, old ones too."""
    return f"lapau-{language}-"


def cache_name(language: str) -> str:
    """The offline cache of a language for the static files being served."""
    return cache_prefix(language) + static_files().fingerprint


@bp.get("/<lang_code>/offline")
def page() -> str:
    """What the service worker shows for a page it may not keep, when there is no network."""
    kept = [(url_for(endpoint), title) for endpoint, title in kept_pages().items()]
    return render_template("offline/page.html", kept=kept)


@bp.get("/<lang_code>/manifest.webmanifest")
def manifest() -> Response:
    home = url_for("pages.index")
    files = static_files().by_name
    body: dict[str, Any] = {
        "id": home,
        "name": "Lapau",
        "short_name": "Lapau",
        "description": render_template("_description.html").strip(),
        "lang": current_language(),
        "dir": "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": hex_colour(Display().paper),
        "categories": ["games"],
        "icons": [
            {
                "src": static_files().url(name),
                "sizes": sizes,
                "type": files[name].mimetype.partition(";")[0],
                "purpose": purpose,
            }
            for name, sizes, purpose in ICONS
        ],
        "shortcuts": [
            {"name": _("Rules"), "url": url_for("rules.index")},
            {"name": _("Practice against bots"), "url": url_for("play.choose")},
        ],
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return Response(text, mimetype="application/manifest+json")


@bp.get("/<lang_code>/sw.js")
def worker() -> Response:
    language = current_language()
    script = render_template(
        "offline/worker.js",
        cache=cache_name(language),
        prefix=cache_prefix(language),
        offline=url_for("offline.page"),
        kept=[url_for(endpoint) for endpoint in kept_pages()],
    )
    return Response(script, mimetype="text/javascript")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
