"""A hint in the reader's language: the expert's move and the reason its search found.

The engines explain a move with a reason code and its figures (``webapp.game.search.Advice``);
this module turns them into one line: the move, then why, then how the move did in the
deals the search played (when it played enough of them to say).
"""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _
from flask_babel import ngettext

from webapp.adapters.koikoi import yaku_name
from webapp.game.search import MIN_DEALS, Advice
from webapp.play import card_name


def move_text(game: str, action: str) -> str:
    """The move of an action text, as the player would say it."""
    verb, _space, rest = action.partition(" ")
    card, _declare, pair = rest.partition(" declare ")
    if verb == "throw":
        return str(_("Throw %(card)s", card=card_name(card, game)))
    if verb == "discard" and pair:
        return str(_("Discard %(card)s and declare checki", card=card_name(card, game)))
    if verb == "discard":
        return str(_("Discard %(card)s", card=card_name(card, game)))
    if verb == "play":
        return str(_("Play %(card)s", card=card_name(card, game)))
    if verb == "take" and card:
        return str(_("Capture %(card)s", card=card_name(card, game)))
    words: dict[str, Callable[[], str]] = {
        "cabut": lambda: _("Cabut"),
        "makan": lambda: _("Makan"),
        "draw": lambda: _("Draw from the stock"),
        "take": lambda: _("Take the discard"),
        "stop": lambda: _("Stop"),
        "koikoi": lambda: _("Koi-koi!"),
    }
    return words[verb]() if verb in words else action


def reason_text(game: str, advice: Advice) -> str:
    """Why the move is good, in a few words."""
    card = card_name(advice.card, game) if advice.card else ""
    count = advice.count
    reasons: dict[str, Callable[[], str]] = {
        "only-move": lambda: _("it is the only move"),
        "ceki-waits": lambda: ngettext(
            "keeps you ceki, waiting on %(num)d live koa card",
            "keeps you ceki, waiting on %(num)d live koa cards",
            count,
        ),
        "ceki-distance": lambda: ngettext(
            "leaves your hand %(num)d card from ceki",
            "leaves your hand %(num)d cards from ceki",
            count,
        ),
        "makan-closer": lambda: _("eating the throw brings your hand closer to ceki"),
        "cabut-better": lambda: _("a card from the arena is worth more here"),
        "declare": lambda: _(
            "your hand is checki: wait on %(card)s, %(count)s still to come",
            card=card,
            count=str(count),
        ),
        "keeps-danger": lambda: _("keeps %(card)s, the card a declared player waits on", card=card),
        "checki-distance": lambda: ngettext(
            "leaves your hand %(num)d card from checki",
            "leaves your hand %(num)d cards from checki",
            count,
        ),
        "take-closer": lambda: _("the discard brings your hand closer to checki"),
        "draw-better": lambda: _("the discard would not bring you closer; the stock may"),
        "stop-threat": lambda: _(
            "the opponent is one card from %(yaku)s", yaku=yaku_name(advice.slug or "")
        ),
        "stop-bank": lambda: _("take your points now"),
        "koikoi-more": lambda: _("playing on scored more in the deals looked at"),
        "takes-yaku": lambda: _(
            "takes %(card)s, which counts for %(count)s yaku", card=card, count=str(count)
        ),
        "takes": lambda: _("takes %(card)s", card=card),
        "lays-down": lambda: _("nothing to capture: this card gives least away"),
    }
    return reasons[advice.reason]() if advice.reason in reasons else ""


def figure_text(game: str, advice: Advice) -> str:
    """How the move did in the deals the search played, when they were enough to say."""
    if advice.value is None or advice.deals < MIN_DEALS:
        return ""
    if game == "koikoi":
        text = _(
            "%(points).1f points a round on average over %(deals)d deals tried",
            points=advice.value,
            deals=advice.deals,
        )
    else:
        text = _(
            "won %(percent)d%% of %(deals)d deals tried",
            percent=round(100 * advice.value),
            deals=advice.deals,
        )
    return str(text)


def hint_line(game: str, advice: Advice) -> str:
    """The whole hint: "Throw Babi Pusek: keeps you ceki, ... (won 62% of 64 deals)"."""
    line = move_text(game, advice.action)
    reason = reason_text(game, advice)
    if reason:
        line = _("%(move)s: %(reason)s", move=line, reason=reason)
    figure = figure_text(game, advice)
    return f"{line} ({figure})" if figure else line
