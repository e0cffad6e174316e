"""Redrawing only what changed draws exactly what a fresh render would.

A listener remembers each part of the table with what the part read (play/parts.py).
Whole games are played by bots; after every move, each seat's remembered render (all
seats rendered together, in several languages and card styles) must equal a render
from nothing and the fragments of the whole table as the table page draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import g
from flask_babel import get_locale
from jinja2 import DictLoader, Environment
from markupsafe import Markup

from tests.play.conftest import ManualClock
from tests.tiers import quick_then_slow
from webapp.play.hub import Audience, Hub, TableSession
from webapp.play.parts import Read, ReadSeat, ReadView, collector
from webapp.play.render import render_fragments, render_layout
from webapp.services import Lapau

# Rendering: the stored log is replayed the same on either database.
pytestmark = pytest.mark.databases("sqlite")

CASES = [
    ("koa", {"mode": "quick"}, 11),
    ("kowah", {"players": 4}, 14),
    ("koikoi", {"rounds": 3}, 15),
]
#: Every game with listeners of mixed languages and styles; listeners all alike (whose parts
#: are shared) for Koa in both tiers, for the other two in ``make test`` alone.
RENDER_CASES = quick_then_slow(
    [(*case, False) for case in CASES] + [(*CASES[0], True)],
    [(*case, True) for case in CASES[1:]],
)
STYLES = [("en", False), ("nl", True), ("id", False)]


def page_fragments(app: Lapau, session: TableSession, listener: Audience) -> dict[str, str]:
    """The fragments as the table page draws them: the whole layout, nothing remembered."""
    with app.test_request_context(f"/{listener.language}/"):
        g.lang_code = listener.language
        g.lite_cards = listener.lite
        return render_fragments(session, listener.seat)


def each_move(session: TableSession, clock: ManualClock, check: Callable[[], None]) -> int:
    moves = 0
    while not session.finished and clock.fire():
        check()
        moves += 1
    return moves


@pytest.mark.parametrize(
    ("game", "options", "seed", "alike"),
    RENDER_CASES,
    ids=lambda value: ("alike" if value else "mixed") if isinstance(value, bool) else None,
)
def test_a_remembered_render_equals_a_fresh_one_after_every_move(
    app: Lapau,
    hub: Hub,
    clock: ManualClock,
    practice: Any,
    game: str,
    options: dict[str, Any],
    seed: int,
    alike: bool,
) -> None:
    """Listeners of several languages and card styles, or all of one (whose parts may be
    drawn once for several of them)."""
    session = practice(game, seed=seed, human=False, **options)
    seats: list[int | None] = [*range(len(session.seats)), None]
    styles = [STYLES[0 if alike else index % len(STYLES)] for index in range(len(seats))]
    kept = [
        Audience(seat, language, lite=lite)
        for seat, (language, lite) in zip(seats, styles, strict=True)
    ]

    def check() -> None:
        together = hub.renderer(session, kept)
        for listener, fragments in zip(kept, together, strict=True):
            alone = Audience(listener.seat, listener.language, lite=listener.lite)
            where = f"seat {listener.seat} ({listener.language}) at version {session.version}"
            assert fragments == hub.renderer(session, [alone])[0], where
            assert fragments == page_fragments(app, session, listener), where

    check()
    assert each_move(session, clock, check) > 20
    assert session.finished


def test_a_remembered_part_is_not_drawn_again(hub: Hub, practice: Any) -> None:
    session = practice("koa", mode="quick")
    listener = Audience(0, "en")
    hub.renderer(session, [listener])
    drawn = {slot: entry.html for slot, entry in listener.memo.items()}
    assert len(drawn) >= 10
    hub.renderer(session, [listener])
    assert all(listener.memo[slot].html is html for slot, html in drawn.items())


def test_each_listener_reads_its_own_language_whoever_moved(
    app: Lapau, hub: Hub, practice: Any
) -> None:
    """A move is rendered for everyone inside the mover's request, whose language the
    translations have already settled on; the other listeners must not get it."""
    session = practice("koa", mode="quick")
    dutch = Audience(0, "nl")
    with app.test_request_context("/en/"):
        g.lang_code = "en"
        assert str(get_locale()) == "en"
        fragments = hub.renderer(session, [dutch])[0]
    assert fragments == page_fragments(app, session, dutch)
    assert "kaarten" in fragments["seat-1"]


def test_a_tuple_field_is_read_by_item_where_a_template_indexes_it() -> None:
    """One seat's count changing redraws only the parts that read that seat's count;
    anything else done with the tuple reads all of it."""

    class View:
        counts = (11, 12, 13)

    reads: dict[Read, Any] = {}
    counts = ReadView(View(), reads).counts
    assert counts[1] == 12
    assert reads == {("counts", 1): 12}
    assert counts[7:] == ()
    assert reads == {("counts", 1): 12, "counts": (11, 12, 13)}
    for whole in (len, list, sorted, bool, lambda items: 13 in items, lambda items: items[5]):
        reads.clear()
        try:
            whole(counts)
        except IndexError:
            pass  # a template gets undefined: the length it depended on is noted
        assert reads == {"counts": (11, 12, 13)}, whole


def test_a_read_view_notes_the_views_fields_and_nothing_else() -> None:
    """A field read is noted with its value; what Python or Jinja ask of any object (its
    class, whether it is markup) is the read view's own, and is not noted."""

    class View:
        round_no = 3

    reads: dict[Read, Any] = {}
    view = ReadView(View(), reads)
    assert view.round_no == 3
    assert reads == {"round_no": 3}
    assert isinstance(view, ReadView)
    assert view.__class__ is ReadView
    assert not hasattr(view, "__html__")
    assert Markup.escape(view)  # escaping asks for __html__
    with pytest.raises(AttributeError):
        _ = view.missing
    assert reads == {"round_no": 3}


def test_a_part_that_only_asks_whether_its_reader_moved_is_drawn_once_for_the_others(
    hub: Hub, practice: Any
) -> None:
    """Four seats alike: the status says "Your turn" to the seat that plays and names
    it to the three others, who get one drawing; each hand is drawn for its seat."""
    session = practice("koa", mode="quick", human=False)
    listeners = [Audience(seat, "en") for seat in range(4)]
    hub.renderer(session, listeners)
    playing = session.game.to_act(session.state)
    status = [listener.memo["play/_status.html", None] for listener in listeners]
    waiting = [drawn for seat, drawn in enumerate(status) if seat != playing]
    assert all(drawn is waiting[0] for drawn in waiting)
    assert status[playing] is not waiting[0]
    assert "Your turn" in status[playing].html and "Your turn" not in waiting[0].html
    hands = {id(listener.memo["play/koa/_hand.html", None]) for listener in listeners}
    assert len(hands) == 4


def test_a_koa_seat_is_drawn_once_for_the_three_who_see_it(
    app: Lapau, hub: Hub, practice: Any
) -> None:
    """Each seat is mandan to one reader and on the left of another: that is written on
    the page around the seat, so the seat itself is the same for all three readers."""
    session = practice("koa", mode="quick", human=False)
    listeners = [Audience(seat, "en") for seat in range(4)]
    hub.renderer(session, listeners)
    for who in range(4):
        drawings = {
            id(listener.memo["play/koa/_seat.html", who])
            for listener in listeners
            if listener.seat != who
        }
        assert len(drawings) == 1, who
    page = page_fragments(app, session, listeners[0])
    assert "mandan" not in page["seat-2"]  # ... and the whole page writes it beside it
    with app.test_request_context("/en/"):
        g.lang_code, g.lite_cards = "en", False
        layout = render_layout(session, 0)
    assert '<div class="seat-box mandan"><span class="tag relation">mandan</span>' in layout
    assert '<span class="tag relation">on your left</span><!--f--><div id="seat-3"' in layout


def test_the_readers_seat_notes_what_a_template_asks_of_it() -> None:
    """Whether it is some seat is noted as that question; anything else reads it whole;
    and a seated reader is never taken for a spectator."""
    asked: dict[Read, Any] = {}
    me = ReadSeat(2, asked)
    assert asked == {("me", None): False}
    assert me == 2 and me != 3 and 1 != me and me in (0, 2)
    assert asked == {
        ("me", None): False,
        ("me", 2): True,
        ("me", 3): False,
        ("me", 1): False,
        ("me", 0): False,
    }
    for whole in (lambda m: m + 2, lambda m: [10, 11, 12][m], str, hash, bool, lambda m: m < 3):
        asked.clear()
        whole(me)
        assert asked == {"me": 2}, whole


def test_a_layout_collected_for_its_parts_is_not_escaped_unless_it_passes_text_on() -> None:
    """A move's render throws the layout's own text away, so its values are not made
    into escaped text; a layout that makes text of its own into a value (a macro here)
    gives its parts that value escaped, exactly as the whole page does."""

    class Loud:
        """A value that counts how often it is made into text."""

        def __init__(self) -> None:
            self.said = 0

        def __str__(self) -> str:
            self.said += 1
            return "<b>loud</b>"

    given: list[Any] = []
    environment = Environment(
        autoescape=True,
        loader=DictLoader(
            {
                "plain.html": "<p>{{ loud }}</p>{{ loud|part }}",
                "passing.html": "{% macro m(v) %}<i>{{ v }}</i>{% endmacro %}{{ m(loud)|part }}",
            }
        ),
    )

    def part(value: Any) -> str:
        given.append(value)
        return ""

    environment.filters["part"] = part
    collect = collector(environment)
    loud = Loud()
    for name in ("plain.html", "passing.html"):
        layout = environment.get_template(name)
        collect(layout, layout.new_context({"loud": loud}))
    assert loud.said == 1  # the macro's, not the plain layout's
    assert given == [loud, Markup("<i>&lt;b&gt;loud&lt;/b&gt;</i>")]
    assert layout.render(loud=loud) == ""  # the page: the same value for the part
    assert given[-1] == given[1]
    plain = environment.get_template("plain.html").render(loud=loud)
    assert plain == "<p>&lt;b&gt;loud&lt;/b&gt;</p>"  # the page escapes as ever
