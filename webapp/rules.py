"""The rules pages of the three games and the two deck galleries.

One route per page, each with only the language in its URL, so the page budgets and
the catalog checks find every page by themselves.  The pages are plain templates; the
cards in them come from the ``card`` macro (``_card.html``), named by
:mod:`webapp.cards`.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from webapp import cards

bp = Blueprint("rules", __name__)


@bp.get("/<lang_code>/rules")
def index() -> str:
    return render_template("rules/index.html")


@bp.get("/<lang_code>/rules/koa")
def koa() -> str:
    return render_template("rules/koa.html", game="koa")


@bp.get("/<lang_code>/rules/kowah")
def kowah() -> str:
    return render_template("rules/kowah.html", game="kowah")


@bp.get("/<lang_code>/rules/koikoi")
def koikoi() -> str:
    return render_template("rules/koikoi.html", game="koikoi")


@bp.get("/<lang_code>/cards/money")
def money() -> str:
    koa_by_group = {
        group: [c for c in cards.deck("koa") if c.group == group] for group in cards.KOA_GROUPS
    }
    return render_template(
        "rules/money.html",
        koa_by_group=koa_by_group,
        kowah_name={c.id: c.name for c in cards.deck("kowah")},
    )


@bp.get("/<lang_code>/cards/hanafuda")
def hanafuda() -> str:
    by_month = {
        month: [c for c in cards.deck("koikoi") if c.group == month] for month in cards.MONTHS
    }
    return render_template(
        "rules/hanafuda.html",
        by_month=by_month,
        month_names=cards.MONTH_NAMES,
        plants=cards.PLANTS,
        kind_names=cards.KIND_NAMES,
    )
