"""Lapau, the web application: ``create_app`` builds it, as Flask's tutorial does.

This is the composition root: it declares the typed holders every app keeps
(:class:`Services`), makes them and joins the areas.  The areas reach their holders
through webapp/services.py, which imports none of them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only the types: every area is imported when an app is made
    from flask_limiter import Limiter
    from redis import Redis
    from sqlalchemy import Engine

    from webapp.assets import Assets
    from webapp.auth.live import AccountSockets
    from webapp.auth.oidc import SignInProviders
    from webapp.channels import Channels
    from webapp.config import Config
    from webapp.facts import Facts
    from webapp.play.hub import Hub
    from webapp.rooms.live import Rooms
    from webapp.services import Lapau
    from webapp.social.live import Social
    from webapp.sockets import Sockets


@dataclass(frozen=True)
class Services:
    """What one app keeps in memory, built in :func:`create_app` (which says in what order);
    read with :func:`webapp.services.services`."""

    #: The static files under their hashed names, compressed (webapp/assets.py).
    assets: Assets
    #: The SQLModel engine (webapp/db.py).
    database: Engine
    #: Redis, shared by every process (``REDIS_URL``); None: one process, all in memory.
    redis: Redis | None
    #: What each process holds that every process reads (webapp/facts.py).
    facts: Facts
    #: Every open WebSocket, for the shutdown and the log (webapp/sockets.py).
    sockets: Sockets
    #: Every live page's channel and the broker behind them (webapp/channels.py).
    channels: Channels
    #: The sockets of signed-in browsers, closed when their sign-in ends (auth/live.py).
    signed_in: AccountSockets
    #: Every live table (play/hub.py).
    hub: Hub
    #: Rooms' watchers and the one door to changing a room (rooms/live.py).
    rooms: Rooms
    #: Presence and invites (social/live.py).
    social: Social
    #: Rate limits on forms (webapp/rate_limits.py).
    limiter: Limiter
    #: Google and Apple, when configured (auth/oidc.py).
    providers: SignInProviders


def create_app(config: Config | None = None) -> Lapau:
    """Build the app: the composition root, where every part is made and joined.

    The order, and why:

    1. **Settings**, all read in webapp/config.py: from the environment by default, from
       a :class:`~webapp.config.TestConfig` in the tests.
    2. **Holders** (:class:`Services`), each made once: the static files (read and
       compressed), the database engine, Redis when ``REDIS_URL`` is set, the open
       sockets, the live pages' channels (with their broker: Redis pub/sub between
       processes, else in-process), what each process holds for the others (who is
       online, who watches a room: in Redis, else in memory), the hub of live tables,
       the rooms (they open tables in the hub), friends and presence (they follow the
       channels' events), the rate limiter (bound in step 5), the sign-in providers.
    3. **Events**, the only links between areas that are not plain calls: a finished
       table ends its room, leaves its players' presence and is rated; a guest's tables
       moved to their new account take the guest's rooms along; a changed room updates
       its players' presence and its invites; a socket joining or leaving a table's
       channel or its player's own makes its person online or not.
    4. **Requests**: the URL converters (before any blueprint uses them), the logs, the
       health check's hook (before every other ``before_request`` hook: its answer
       skips them), then languages, assets, headers, commands, error pages, the sockets'
       handshake check (webapp/sockets.py: before each area's check of its own target),
       and the areas' blueprints and socket routes; then every name templates may use, in
       one list (webapp/templating.py).
    5. **Rate limits** last: they wrap the views that declare them
       (webapp/rate_limits.py), so every blueprint must be registered by then.

    Unfinished tables are not resumed here: see :func:`resume_tables`.
    """
    from webapp.config import Config
    from webapp.services import Lapau

    config = config or Config()
    app = Lapau(
        __name__,
        instance_path=config.instance_path,
        instance_relative_config=True,
        static_folder=None,
    )
    # Owner only: the secret key and the SQLite database live here.
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    app.config.from_mapping(config.settings(app.instance_path))

    from webapp import (
        assets,
        auth,
        cli,
        db,
        display,
        edge,
        errors,
        headers,
        health,
        locale,
        logs,
        offline,
        pages,
        play,
        ranking,
        rate_limits,
        redis_broker,
        request_log,
        rooms,
        routing,
        rules,
        schema,
        social,
        sockets,
        templating,
    )
    from webapp.auth.live import AccountSockets
    from webapp.auth.oidc import SignInProviders
    from webapp.channels import Channels, LocalBroker
    from webapp.facts import LocalFacts, RedisFacts
    from webapp.locks import Locks, RedisLocks
    from webapp.ranking.ratings import make_hook
    from webapp.rooms.live import Rooms
    from webapp.social.invites import Invites, RedisInvites
    from webapp.social.live import Social

    database = db.make_engine(app.config["DATABASE_URL"], app.config["DATABASE_POOL"])
    shared = redis_broker.connect(app.config["REDIS_URL"]) if app.config["REDIS_URL"] else None
    live = Channels(redis_broker.RedisBroker(shared, app.app_context) if shared else LocalBroker())
    held = RedisFacts(shared) if shared else LocalFacts()
    hub = play.make_hub(app, database, live, shared)
    live_rooms = Rooms(app, database, hub, live, held, RedisLocks(shared) if shared else Locks())
    social_live = Social(app, live, held, RedisInvites(shared) if shared else Invites())
    app.services = Services(
        assets=assets.static_files(app),
        database=database,
        redis=shared,
        facts=held,
        sockets=sockets.Sockets(
            app.config["PLAYER_SOCKETS"], app.config["TABLE_WATCHERS"], app.config["PING_INTERVAL"]
        ),
        channels=live,
        signed_in=AccountSockets(live),
        hub=hub,
        rooms=live_rooms,
        social=social_live,
        limiter=rate_limits.make_limiter(app.config["REDIS_URL"]),
        providers=SignInProviders(app),
    )

    rate = make_hook(database)
    hub.on_finish.extend([live_rooms.table_finished, social_live.table_finished, rate])
    hub.on_transfer.append(live_rooms.transfer)
    hub.in_room = lambda table_id: live_rooms.room_of_table(table_id) is not None
    live_rooms.on_change.append(social_live.room_changed)
    live.on_join.append(social_live.subscribed)
    live.on_leave.append(social_live.unsubscribed)

    routing.init_app(app)
    logs.init_app(app)
    request_log.init_app(app)
    health.init_app(app)
    locale.init_app(app)
    assets.init_app(app)
    headers.init_app(app)
    edge.init_app(app)
    schema.init_app(app)
    cli.init_app(app)
    errors.init_app(app)
    display.init_app(app)
    sockets.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(rules.bp)
    offline.init_app(app)
    play.init_app(app)
    rooms.init_app(app)
    social.init_app(app)
    auth.init_app(app)
    ranking.init_app(app)
    templating.init_app(app)

    rate_limits.bind(app, app.services.limiter)
    return app


def resume_tables(app: Lapau) -> int:
    """Resume every unfinished table from its stored log; the web server calls it once
    its worker is ready (gunicorn.conf.py).

    Not part of ``create_app``: every ``flask`` command builds the app too, and a release
    step that resumed tables would start their bots and clocks beside the running site,
    moving the same tables from two processes.
    """
    from webapp import schema

    with app.app_context():
        if not schema.is_current(app.services.database):
            return 0
        resumed = app.services.hub.restore()
        app.services.hub.tend()  # between processes: the leases, from now on
        return resumed
