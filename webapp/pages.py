"""The site's own pages: the landing page, about, the bots and their strength, and the
display settings form."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp.adapters import setups
from webapp.adapters.setup import LEVELS
from webapp.cookies import remember_preference
from webapp.display import COOKIE, Display, current
from webapp.game.strength import published
from webapp.locale import LANGUAGES, guess_language

bp = Blueprint("pages", __name__)


@bp.get("/")
def root() -> BaseResponse:
    response = redirect(url_for("pages.index", lang_code=guess_language()))
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/<lang_code>/")
def index() -> str:
    return render_template("pages/index.html")


@bp.get("/<lang_code>/about")
def about() -> str:
    return render_template("pages/about.html")


@bp.get("/<lang_code>/bots")
def bots() -> str:
    """What each bot level knows, and the ladder's figures from the simulator."""
    return render_template(
        "pages/bots.html", setups=setups(), levels=LEVELS, figures=published()["games"]
    )


def safe_next(target: str | None) -> str:
    """Only a path on this site may be the place to go back to."""
    if target:
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc and target.startswith("/"):
            if not target.startswith("//") and "\\" not in target:
                return target
    return url_for("pages.index")


def same_site_referrer() -> str | None:
    """The page of this site the request came from (its path and query), or None."""
    try:
        referrer = urlsplit(request.referrer or "")
    except ValueError:  # not a URL at all ("http://[")
        return None
    if referrer.netloc != request.host or not referrer.path.startswith("/"):
        return None
    path = referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return path if safe_next(path) == path else None


@bp.route("/<lang_code>/settings", methods=["GET", "POST"])
def settings() -> str | BaseResponse:
    if request.method == "GET":
        return render_template(
            "pages/settings.html", next=safe_next(request.args.get("next")), shown=current()
        )
    chosen = Display.from_request(request).updated(request.form.to_dict())
    if "preview" in request.form:
        # Without scripts the preview shows the choices after this round trip; nothing is
        # kept until "Apply".
        return render_template(
            "pages/settings.html", next=safe_next(request.form.get("next")), shown=chosen
        )
    target = safe_next(request.form.get("next"))
    language = request.form.get("language")
    if language:
        target = swap_language(target, language)
    response = redirect(target, code=303)
    remember_preference(response, COOKIE, chosen.to_cookie())
    return response


def swap_language(path: str, language: str) -> str:
    """The same page in another language.

    >>> swap_language("/en/about?x=1", "nl")
    '/nl/about?x=1'
    """
    if language not in LANGUAGES:
        return path
    head, _, rest = path.lstrip("/").partition("/")
    if head in LANGUAGES:
        return f"/{language}/{rest}"
    return f"/{language}/"
