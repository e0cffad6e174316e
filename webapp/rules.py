"""The rules pages of the games and their deck galleries.

One route per page, each with only the language in its URL, so the page budgets and
the catalog checks find every page by themselves.  Each game's adapter lists its pages
(:class:`webapp.adapters.Page`); the pages are plain templates, and the cards in them come
from the ``card`` macro (``_card.html``), named by the game's catalogue.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, render_template

from webapp.adapters import Page, adapters

bp = Blueprint("rules", __name__)


@bp.get("/<lang_code>/rules")
def index() -> str:
    return render_template("rules/index.html")


def _view(page: Page) -> Callable[[], str]:
    def view() -> str:
        return render_template(page.template, **page.context())

    return view


for _page in (page for adapter in adapters() for page in adapter.pages):
    bp.add_url_rule(f"/<lang_code>{_page.path}", _page.endpoint, _view(_page))
