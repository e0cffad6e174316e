"""A hint in the reader's language: the expert's move and the reason its search found.

The engines explain a move with a reason code and its figures (``webapp.game.search.Advice``);
this module turns them into one line: the move, then why, then how the move did in the
deals the search played (when it played enough of them to say).
"""

from __future__ import annotations

from flask_babel import gettext as _

from webapp import adapters
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
    words = adapters.get(game).hint_moves
    return str(words[verb]) if verb in words else action


def reason_text(game: str, advice: Advice) -> str:
    """Why the move is good, in a few words (the game's own reasons are its adapter's)."""
    if advice.reason == "only-move":
        return str(_("it is the only move"))
    reason = adapters.get(game).hint_reasons.get(advice.reason)
    card = card_name(advice.card, game) if advice.card else ""
    return str(reason(advice, card)) if reason else ""


def figure_text(game: str, advice: Advice) -> str:
    """How the move did in the deals the search played, when they were enough to say."""
    if advice.value is None or advice.deals < MIN_DEALS:
        return ""
    if adapters.get(game).hint_in_points:
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
