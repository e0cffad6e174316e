"""The live layer's channels: publishing through the broker, one delivery path that drops a
dead socket, and the events presence follows."""

from __future__ import annotations

from flask import g, request
from flask_babel import get_locale
from greenlet import greenlet

from webapp.channels import Channels, LocalBroker, Subscriber, rendering
from webapp.play.once import language
from webapp.services import Lapau


class Page:
    def __init__(self, alive: bool = True) -> None:
        self.alive = alive
        self.sent: list[str] = []

    def send(self, data: str) -> None:
        if not self.alive:
            raise ConnectionError("gone")
        self.sent.append(data)

    def close(self, reason: int = 1000, message: str | None = None) -> None:
        self.alive = False


def test_a_publish_reaches_the_handlers_of_its_kind_only() -> None:
    broker = LocalBroker()
    heard: list[tuple[str, object]] = []
    broker.subscribe("table", lambda topic, message: heard.append((topic, message)))
    broker.publish("table:abc", 7)
    broker.publish("room:ABC234", "changed")
    assert heard == [("table:abc", 7)]


def test_a_dead_socket_leaves_its_channel_on_the_first_failed_send() -> None:
    channels = Channels()
    events: list[tuple[str, str, Subscriber]] = []
    channels.on_join.append(lambda topic, who: events.append(("join", topic, who)))
    channels.on_leave.append(lambda topic, who: events.append(("leave", topic, who)))
    alive, dead = Subscriber(Page()), Subscriber(Page(alive=False))
    for subscriber in (alive, dead):
        channels.join("table:abc", subscriber)
    delivered = [
        channels.deliver("table:abc", s, "move") for s in channels.subscribers("table:abc")
    ]
    assert delivered == [True, False]
    assert channels.subscribers("table:abc") == [alive]
    # The socket's own leaving afterwards is not a second departure.
    assert channels.leave("table:abc", dead) is False
    assert events == [
        ("join", "table:abc", alive),
        ("join", "table:abc", dead),
        ("leave", "table:abc", dead),
    ]


def test_a_channel_is_gone_with_its_last_subscriber() -> None:
    channels = Channels()
    page = Subscriber(Page(), person="u-1")
    with channels.joined("me:u-1", page):
        assert channels.subscribers("me:u-1") == [page]
    assert channels.subscribers("me:u-1") == []
    assert channels.topics == {}


def test_channels_publish_through_the_broker_they_are_given() -> None:
    """Another broker (between processes) takes the in-process one's place."""

    class Recording(LocalBroker):
        def __init__(self) -> None:
            super().__init__()
            self.carried: list[tuple[str, object]] = []

        def publish(self, topic: str, message: object) -> None:
            self.carried.append((topic, message))
            super().publish(topic, message)

    broker = Recording()
    channels = Channels(broker)
    page = Page()
    channels.join("me:u-1", Subscriber(page, person="u-1"))

    def deliver(topic: str, message: object) -> None:
        for subscriber in channels.subscribers(topic):
            channels.deliver(topic, subscriber, str(message))

    channels.listen("me", deliver)
    channels.publish("me:u-1", "badge")
    assert broker.carried == [("me:u-1", "badge")]
    assert page.sent == ["badge"]


def test_a_render_outside_requests_has_its_own_language_and_g_even_inside_another(
    app: Lapau,
) -> None:
    """A render's request context is made once per language and pushed again, yet each
    render gets a fresh ``g`` in its own language, a render begun inside another (in the
    same language or not) gets a context of its own, and a mover's request keeps its g."""
    seen: list[tuple[str, str, str, str | None, bool]] = []

    def note() -> None:
        words_in = language()  # what said() keys its words by: the render's language
        seen.append(
            (str(get_locale()), words_in, request.path, request.endpoint, hasattr(g, "mark"))
        )
        g.mark = True

    with app.test_request_context("/nl/"):
        g.mover = "kept"
        for _ in range(2):  # the second time, from the context the first one left
            with rendering(app, "id"):
                note()
                with rendering(app, "id"):
                    note()
                with rendering(app, "en"):
                    note()
                note()
        assert g.mover == "kept" and not hasattr(g, "mark")
        assert language() == "nl"  # the request's own, once the renders are over
    assert seen == 2 * [
        ("id", "id", "/id/", "pages.index", False),
        ("id", "id", "/id/", "pages.index", False),
        ("en", "en", "/en/", "pages.index", False),
        ("id", "id", "/id/", "pages.index", True),
    ]


def test_renders_in_two_greenlets_at_once_each_have_their_own_context(app: Lapau) -> None:
    """Two tables' renders in one language, the first waiting inside its block while the
    second runs (a gevent switch): neither pops the other's context."""
    main = greenlet.getcurrent()
    seen: list[str] = []

    def render(name: str) -> None:
        with rendering(app, "nl"):
            g.name = name
            main.switch()
            seen.append(f"{g.name} {request.path} {get_locale()}")

    with rendering(app, "nl"):
        pass  # leaves its context ready for the next render
    first, second = greenlet(render), greenlet(render)
    first.switch("first")
    second.switch("second")
    first.switch()
    second.switch()
    assert seen == ["first /nl/ nl", "second /nl/ nl"]
