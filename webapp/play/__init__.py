"""Live tables: practice against bots in the browser, over one WebSocket per table.

The helpers below are the tables' template helpers (registered in webapp/templating.py).
"""

from __future__ import annotations

from flask import Flask
from redis import Redis
from sqlalchemy import Engine

from webapp import adapters
from webapp.adapters.setup import Setup
from webapp.channels import Channels
from webapp.play import emotes, guide, parts, routes, sockets
from webapp.play.hub import (
    Hub,
    Scheduler,
    TableSession,
    Timing,
    Timings,
    gevent_scheduler,
    thread_scheduler,
)
from webapp.play.lease import leases_for
from webapp.play.once import said
from webapp.play.render import make_renderer, split_fragments
from webapp.play.store import Store


def table_title(table: TableSession) -> str:
    return adapters.get(table.game.name).title


def bot_level(table: TableSession) -> str:
    return next((seat.level for seat in table.seats if seat.is_bot and seat.level), "medium")


def card_name(card_id: str, game: str) -> str:
    """A card's name in the current language (up to three catalogue lookups, said once:
    every move's log names its cards for every seat)."""
    return said("card_names", (game, card_id), lambda: str(adapters.card(game, card_id).name))


def setup_of(game: str) -> Setup:
    return adapters.get(game).setup


def seat_name(seat: int, names: list[str]) -> str:
    return names[seat]


def scheduler() -> Scheduler:
    """Greenlet timers in gevent's monkey-patched world (the production worker),
    thread timers elsewhere (the development server, in-process tests)."""
    from gevent import monkey

    return gevent_scheduler if monkey.is_module_patched("threading") else thread_scheduler


def make_hub(app: Flask, database: Engine, channels: Channels, shared: Redis | None = None) -> Hub:
    """The app's hub: its tables stored in ``database``, rendered with ``app``'s templates,
    sent out on ``channels``, owned by leases in ``shared`` (Redis) if several processes
    serve the site."""
    timing = Timing(
        turn_seconds=float(app.config["TURN_SECONDS"]),
        bot_delay=float(app.config["BOT_DELAY"]),
        round_pause=float(app.config["ROUND_PAUSE"]),
        stand_in_grace=float(app.config["STAND_IN_GRACE"]),
    )
    timings = Timings(app.config["TIMINGS_FILE"])
    hub = Hub(
        Store(database),
        make_renderer(app),
        timing,
        scheduler(),
        timings=timings,
        coaches=guide.coach_for,
        channels=channels,
        leases=leases_for(shared),
        context=app.app_context,
    )
    emotes.listen(hub)
    return hub


def init_app(app: Flask) -> None:
    app.register_blueprint(routes.bp)
    sockets.init_app(app)
    parts.install(app.jinja_env, split_fragments)
