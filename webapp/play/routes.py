"""Practice tables over HTTP: choose a game, set it up, sit down, look back.

Thin views: parse the form, call the hub, render.  The table page is the full render of
the same fragments the WebSocket sends; its forms also post here, so a move still
works when the socket is down or scripts are off.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from webapp.adapters import setups
from webapp.adapters.setup import DEFAULT_LEVEL, LEVELS
from webapp.game.replay import replay
from webapp.play import clock, emotes, guide
from webapp.play.diff import strip
from webapp.play.hub import ASK, HINT, MORE_TIME, Hub, Refusal, TableSession
from webapp.play.players import current_player, known_player
from webapp.play.render import table_context
from webapp.play.store import Seat, TableBroken
from webapp.play.unfinished import unfinished_tables
from webapp.play.words import CLOCK_NAMES
from webapp.rate_limits import rate_limited
from webapp.services import services

bp = Blueprint("play", __name__)

#: Unfinished practice tables one player keeps: opening another ends the one left
#: untouched longest (a table nobody plays would otherwise be kept, and replayed at
#: every start, for ever).
MAX_UNFINISHED = 5


def hub() -> Hub:
    return services().hub


def number_text(text: str) -> bool:
    """Whether a form or query value is a plain count (what ``int()`` takes safely).

    >>> number_text("12"), number_text("²"), number_text("9" * 5000)
    (True, False, False)
    """
    return text.isascii() and text.isdigit() and len(text) <= 9


def session_or_404(table_id: str) -> TableSession:
    session = hub().get(table_id) if len(table_id) <= 16 else None
    if session is None:
        abort(404)
    return session


@bp.app_errorhandler(TableBroken)
def broken_table(broken: TableBroken) -> str:
    """Any page of a table whose moves no longer replay: it has ended, with an apology."""
    return render_template("play/broken.html", broken=broken, setups=setups(), oob=False)


@bp.get("/<lang_code>/play/")
def choose() -> str:
    player = known_player()
    store = hub().store
    unfinished = unfinished_tables(store, player, store.tables_of(player)) if player else []
    return render_template("play/choose.html", setups=setups(), unfinished=unfinished)


@bp.route("/<lang_code>/play/<game>", methods=["GET", "POST"])
@rate_limited("30/minute")
def setup(game: str) -> str | Response:
    chosen = setups().get(game)
    if chosen is None:
        abort(404)
    if request.method == "GET":
        # A preset's link fills the house rules in; any other name is the standard.
        preset = chosen.preset_named(request.args.get("preset", "")) or (
            chosen.presets[0] if chosen.presets else None
        )
        return render_template(
            "play/setup.html",
            setup=chosen,
            levels=LEVELS,
            default_level=DEFAULT_LEVEL,
            clocks=CLOCK_NAMES,
            practice_clock=clock.PRACTICE,
            preset=preset,
            rule_values=preset.options if preset else {},
        )
    parsed = chosen.parse(request.form)
    seconds = clock.parse(request.form.get(clock.OPTION) or str(clock.PRACTICE))
    if parsed is None or seconds is None:
        abort(400)
    options, level = parsed
    options[clock.OPTION] = seconds
    player = current_player()
    count = chosen.seat_count(options[chosen.option])
    seats = [Seat("human", player=player)] + [
        Seat("bot", level=level, name=chosen.bot_names[index % len(chosen.bot_names)])
        for index in range(count - 1)
    ]
    return open_practice(game, options, seats, player, current_app.config.get("TABLE_SEED"))


@bp.route("/<lang_code>/learn/<game>", methods=["GET", "POST"])
@rate_limited("30/minute")
def learn(game: str) -> str | Response:
    """A game's guided first game: what it teaches, then (posted) its table."""
    chosen = setups().get(game)
    lesson = guide.lesson_of(game) if chosen else None
    if chosen is None or lesson is None:
        abort(404)
    if request.method == "GET":
        return render_template("play/learn.html", setup=chosen, lesson=lesson)
    options = guide.table_options(lesson)
    player = current_player()
    count = chosen.seat_count(options.get(chosen.option, chosen.default))
    seats = [Seat("human", player=player)] + [
        Seat("bot", level=lesson.level, name=chosen.bot_names[index % len(chosen.bot_names)])
        for index in range(count - 1)
    ]
    return open_practice(game, options, seats, player, lesson.seed)


def open_practice(
    game: str, options: dict[str, Any], seats: list[Seat], player: str, seed: int | None
) -> Response:
    """Open a practice table for ``player`` (ending their oldest ones beyond the limit)
    and send them to it."""
    kept = hub().store.unfinished_practice(player)
    for table_id in kept[: max(0, len(kept) - MAX_UNFINISHED + 1)]:
        end_table(table_id)
    session = hub().create(game, options, seats, owner=player, seed=seed)
    return redirect(url_for("play.table", table_id=session.id), code=303)


@bp.post("/<lang_code>/table/<table_id>/practice")
def practice_deal(table_id: str) -> Response:
    """Play a finished table's deal again against bots: the same seed and options, the
    reader in the seat they had (the first if they only watched), a bot in every other
    (the table's own bots stay; a person's seat gets one of the default level)."""
    session = session_or_404(table_id)
    if not session.finished:
        abort(404)
    player = current_player()
    mine = session.seat_of(player)
    mine = 0 if mine is None else mine
    names = setups()[session.game.name].bot_names
    seats = [
        Seat("human", player=player)
        if index == mine
        else seat
        if seat.is_bot
        else Seat("bot", level=DEFAULT_LEVEL, name=names[index % len(names)])
        for index, seat in enumerate(session.seats)
    ]
    return open_practice(session.game.name, dict(session.options), seats, player, session.seed)


@bp.get("/<lang_code>/table/<table_id>")
def table(table_id: str) -> str:
    session = session_or_404(table_id)
    player = known_player()
    seat = session.seat_of(player) if player else None
    return strip(render_template("play/table.html", **table_context(session, seat)))


@bp.post("/<lang_code>/table/<table_id>/act")
def act(table_id: str) -> Response:
    """The same move (or request for more time) as over the socket, for a page without
    scripts or socket."""
    session = session_or_404(table_id)
    player = known_player()
    seat = session.seat_of(player) if player else None
    target = url_for("play.table", table_id=table_id)
    if seat is None:
        abort(403)
    form = request.form
    try:
        if ASK in form:
            if form[ASK] != MORE_TIME or "a" in form:
                raise Refusal("unknown-action")
            session.more_time(seat)
        elif form.get("a") == HINT:
            session.ask_hint(seat, wait=True)  # shown on the page the redirect loads
        else:
            session.submit(seat, form.get("a", ""), posted_version(form.get("v", "")))
    except Refusal as refusal:
        target = url_for("play.table", table_id=table_id, notice=refusal.code)
    return redirect(target, code=303)


@bp.post("/<lang_code>/table/<table_id>/react")
def react(table_id: str) -> Response:
    """A reaction as over the socket, for a page without scripts or socket."""
    session = session_or_404(table_id)
    player = known_player()
    seat = session.seat_of(player) if player else None
    if seat is None:
        abort(403)
    target = url_for("play.table", table_id=table_id)
    try:
        emotes.react(session, seat, request.form.get("e", ""))
    except Refusal as refusal:
        target = url_for("play.table", table_id=table_id, notice=refusal.code)
    return redirect(target, code=303)


def posted_version(text: str) -> int | None:
    """The state version a move form posted: None when it sent none (a page without
    scripts); -1, which is always stale, for anything but a few ASCII digits (str.isdigit()
    also passes '²', and int() refuses 5000 digits).

    >>> posted_version(""), posted_version("12"), posted_version("²")
    (None, 12, -1)
    """
    if text == "":
        return None
    return int(text) if number_text(text) else -1


def end_table(table_id: str) -> None:
    try:
        session = hub().get(table_id)
    except TableBroken:
        return  # ended already, with an apology
    if session is not None:
        session.end()


@bp.post("/<lang_code>/table/<table_id>/end")
def end(table_id: str) -> Response:
    """The player gives up one of their unfinished practice tables (from the list)."""
    session = session_or_404(table_id)
    player = known_player()
    people = [seat for seat in session.seats if not seat.is_bot]
    if player is None or [seat.player for seat in people] != [player]:
        abort(403)
    session.end()
    return redirect(url_for("play.choose"), code=303)


@bp.get("/<lang_code>/table/<table_id>/replay")
def replay_page(table_id: str) -> str:
    """Step through a finished table's log, move by move."""
    session = session_or_404(table_id)
    if not session.finished:
        abort(404)
    step = request.args.get("step", "")
    total = session.version
    at = min(int(step), total) if number_text(step) else total
    state = replay(session.game, session.seed, session.options, session.log[:at])
    # The match is over: every hand of the step is shown, and your own in its place.
    player = known_player()
    seat = session.seat_of(player) if player else None
    views = [session.game.view(state, who) for who in range(len(session.seats))]
    context = table_context(session, seat)
    context.update(
        view=session.game.view(state, seat),
        to_act=None,
        step=at,
        total=total,
        hands=[list(view.hand) for view in views],
        outcome=session.game.outcome(state),
        played_for=None,
        replaying=True,
    )
    return strip(render_template("play/replay.html", **context))
