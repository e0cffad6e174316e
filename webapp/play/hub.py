"""Live tables: one :class:`TableSession` per table, kept in the :class:`Hub`.

A session owns the engine state of one table and is the only place that changes it.  It
takes actions from seats (checked against the state version so a stale or repeated
click does nothing), lets bots move after a short delay, plays for a seat whose turn
timer runs out, appends every applied action to the stored log *before* the new state
is adopted, and sends each subscriber of its channel only the fragments that changed for
its seat.

Timers use ``threading.Timer``, or under gunicorn's gevent worker a greenlet spawned to
start later (:func:`gevent_scheduler`): a monkey-patched ``Timer.start()`` waits for its
greenlet to begin, and that wait, in the middle of a move, let every other ready
greenlet run first (the slowest 1% of moves took 200-600 ms under load).

**Several processes** (issue 18).  Each table has one owner process at a time, by a lease
(webapp/play/lease.py); one process alone owns every table and none of this shows.

- The owner's session is the one described above: it alone applies, stores, runs the
  timer and the bots, and publishes each change on the table's channel as a plain
  message (:meth:`TableSession.news`: the version, the action's text, the clock and the
  table's public marks, never a rendered card).
- Every other process with sockets on the table keeps a replica session, moved on by
  those messages (:meth:`TableSession.follow`: the engine is deterministic, so applying
  the same text gives the same state), and renders it per seat for its own sockets as
  the owner does.  A message that skips a version, or a broker that reconnected, makes
  the replica reload the stored log: a missed message is never guessed at.
- A replica's socket sends its move to the owner (webapp/play/forward.py) after checking
  it against the replica, so the usual refusals need no round trip; the owner's refusal
  comes back as its code, and no answer in a few seconds is "try again".  Replicas tell
  the owner which seats they hold sockets for (at each change, and every round of the
  leases), so a person on another process is heard, until that process falls silent.
- The hub tends its leases (:meth:`Hub.tend`): renews its own, gives up the ones lost,
  takes over the tables its sockets watch once their owner is gone (reloading the log and
  starting the clock and bots), and now and then the unfinished tables nobody owns.
  Two owners at once store at most one move of a step: the log's (table, seq) key
  refuses the other (:class:`~webapp.play.store.StepTaken`), whose session reloads.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol, TextIO

from webapp.channels import Channels, Subscriber
from webapp.events import Event
from webapp.game import registry
from webapp.game.actions import NextRound, Timeout
from webapp.game.protocol import IllegalAction
from webapp.game.search import Advice
from webapp.play.clock import turn_length
from webapp.play.diff import Parsed, operations_between, parse, strip
from webapp.play.forward import MOVED, NO_ANSWER, Forwarder
from webapp.play.lease import Leases, OneProcess
from webapp.play.revive import revive
from webapp.play.store import Seat, StepTaken, Store, StoredTable, StoreError, TableBroken
from webapp.play.thinker import Thinker
from webapp.play.views import View

log = logging.getLogger(__name__)

TABLE_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
#: The form field of a request to the table that is no move, beside the moves' ``a``, and
#: its one value: the "More time" button's (see :meth:`TableSession.more_time`).
ASK = "ask"
MORE_TIME = "more-time"
#: What the "Hint" button sends there (practice tables only): no game has that move either.
HINT = "hint"


class Refusal(Exception):
    """A submitted action that changes nothing, with a code the page translates, or
    the words that explain it (a lazy string: said in the reader's language)."""

    def __init__(self, code: str, explanation: Any = None) -> None:
        super().__init__(code)
        self.code = code
        self.explanation = explanation


def bot_random(seed: int, version: int, seat: int) -> random.Random:
    """A bot's generator for one decision: the same table, moment and seat, the same move."""
    return random.Random(f"{seed}:{version}:{seat}")


class Coach(Protocol):
    """A guided table's coach (see webapp/play/guide.py): it checks each person's move
    and says what to do next."""

    def check(self, version: int, seat: int, text: str) -> None:
        """Raise :class:`Refusal` when the lesson waits for another move."""

    def line(self, version: int, seat: int | None, over: bool) -> Any:
        """What the coach says to ``seat`` now (None: nothing)."""

    def wrong(self, version: int) -> Any:
        """Why the move the table waits for is the one to play (None: it waits for none)."""


def no_coach(game: str, options: Mapping[str, Any]) -> Coach | None:
    return None


#: Renders every fragment of a table for each audience (its seat, language and card
#: style, redrawing only what changed since its memo): {element id: html} per audience.
Renderer = Callable[["TableSession", Sequence["Audience"]], list[dict[str, str]]]


class Cancellable(Protocol):
    def cancel(self) -> None: ...


#: Calls a function after a delay in seconds, returning a handle that cancels it.
Scheduler = Callable[[float, Callable[[], None]], Cancellable]


def thread_scheduler(delay: float, callback: Callable[[], None]) -> Cancellable:
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class GreenletTimer:
    """A callback in a greenlet of its own after a delay; spawning it never switches."""

    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        import gevent

        self.running = False
        self.greenlet = gevent.spawn_later(delay, self._run, callback)

    def _run(self, callback: Callable[[], None]) -> None:
        self.running = True
        callback()

    def cancel(self) -> None:
        # A timer already running is the one rearming the table (or waits for its lock
        # and then finds the version moved on): only one not yet begun is unscheduled.
        if not self.running:
            self.greenlet.kill(block=False)


def gevent_scheduler(delay: float, callback: Callable[[], None]) -> Cancellable:
    return GreenletTimer(delay, callback)


@dataclass(eq=False)
class Audience:
    """The sockets that see one table alike: one seat (or the spectators), one language,
    one card style.  Rendered and diffed once per move; every member gets the same bytes,
    so 300 spectators cost one render, and a seat's view is never another seat's."""

    seat: int | None
    language: str
    lite: bool = False
    memo: dict[Any, Any] = field(default_factory=dict)  # the renderer's, see play/parts.py
    sent: dict[str, str] = field(default_factory=dict)  # what its members were last sent
    parsed: dict[str, tuple[str, Parsed]] = field(default_factory=dict)  # see changes()
    members: list[Subscriber] = field(default_factory=list)


#: What a fragment's change came to: the new side taken apart, and what to send.
Change = tuple[Parsed, list[str]]


def changes(
    before: Mapping[str, str],
    fragments: Mapping[str, str],
    parsed: dict[str, tuple[str, Parsed]],
    alike: dict[tuple[str | None, str], Change] | None = None,
) -> dict[str, list[str]]:
    """What to send, per element id, to turn ``before`` into ``fragments``: the keyed
    operations when they are smaller than the whole fragment, else the fragment.

    ``parsed`` remembers fragments taken apart (with the HTML they came from): a
    changed fragment is taken apart once, and is the old side of its next change.
    ``alike`` remembers each change (old and new HTML) worked out for the other
    audiences of the same move: those that share a part's drawing (see parts.py) had
    and now have the same fragment."""
    parts: dict[str, list[str]] = {}
    for element_id, html in fragments.items():
        old = before.get(element_id)
        if old == html:
            continue
        change = None if alike is None else alike.get((old, html))
        if change is None:
            whole = strip(html)
            new = parse(html)
            ops = None
            if old is not None:
                known = parsed.get(element_id)
                taken = known[1] if known and known[0] is old else parse(old)
                ops = operations_between(taken, new)
            small = ops is not None and sum(map(len, ops)) < len(whole)
            change = (new, ops if ops is not None and small else [whole])
            if alike is not None:
                alike[old, html] = change
        parsed[element_id] = (html, change[0])
        parts[element_id] = change[1]
    return parts


@dataclass(frozen=True)
class Timing:
    """The table's clock: a person's turn, a bot's thinking pause, and the pause a bot
    leaves after a round's result before it deals the next one (people read it)."""

    turn_seconds: float = 30.0
    bot_delay: float = 0.8
    round_pause: float = 6.0
    #: Turns the timer plays for a person while no person listens; then the table
    #: pauses (no timer, nothing stored) until a seat's socket joins again.
    unheard_turns: int = 3
    #: Seconds a person's dropped seat is given to come back before a bot plays its
    #: turns (while another person is at the table), so they do not cost everyone a
    #: whole turn clock each turn.
    stand_in_grace: float = 10.0


class TableSession:
    """The live state of one table."""

    def __init__(
        self, hub: Hub, stored: StoredTable, state: Any, log_texts: tuple[str, ...]
    ) -> None:
        self.hub = hub
        self.id = stored.id
        self.game = registry.get(stored.game)
        self.seed = stored.seed
        self.options = stored.options
        self.seats = stored.seats
        self.owner = stored.owner
        self.state = state
        self.log = list(log_texts)
        #: Its channel: every socket on the table, whatever process holds it.
        self.topic = f"table:{self.id}"
        self.audiences: dict[tuple[int | None, str, bool], Audience] = {}
        self.lock = threading.RLock()
        self.deadline: float | None = None
        self.timer: Cancellable | None = None
        # A table its player ended is finished without an outcome.
        self.finished = stored.finished or self.game.outcome(state) is not None
        self.notices: dict[int, str] = {}
        #: The seat whose turn the table just played because its time ran out (the log
        #: says so), until the next action.
        self.played_for: int | None = None
        #: Turn timeouts in a row while no person listened (see Timing.unheard_turns).
        self.unheard = 0
        #: When each person's seat lost its last socket (the hub's clock), while away.
        #: A seat never heard is not away: after a restart or a takeover, or on another
        #: process, people come back at their own pace, and a bot must not play for one
        #: whose socket is merely not yet reported (the turn clock covers one who never
        #: comes).
        self.away_since: dict[int, float] = {}
        #: Whether the running turn's deadline was extended already (once per turn).
        self.extended = False
        #: A guided table's coach (None at every other table).
        self.coach = hub.coaches(stored.game, stored.options)
        #: When the running bot turn's timer was armed (perf_counter), for its move delay.
        self.bot_armed: float | None = None
        #: Each seat's last hint, with the version it was asked at (shown while it holds).
        self.hints: dict[int, tuple[int, Advice]] = {}
        #: The seats whose hint is being searched: one at a time a seat.
        self.hinting: set[int] = set()
        self._offers_hints: bool | None = None
        #: Whether this process owns the table (webapp/play/lease.py); if not, the session
        #: is a replica: it follows the owner's messages and forwards its sockets' moves.
        self.owned = True
        #: A replica's: the seats a bot plays for now, as the owner last said.
        self.shown_stand_ins: set[int] = set()
        #: The owner's: the seats other processes hold sockets for, by process.
        self.remote_seats: dict[str, set[int]] = {}
        #: The owner's: when each of those processes last said so (monotonic seconds):
        #: they say it again every round of their leases, and a silent one is gone.
        self.remote_heard: dict[str, float] = {}
        #: A replica's: the owner it follows (a new one is told the seats held here).
        self.followed: str | None = None

    @property
    def version(self) -> int:
        return len(self.log)

    def seat_of(self, player: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.player == player:
                return index
        return None

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know of the table now (None: a spectator)."""
        seen: View = self.game.view(self.state, seat)
        return seen

    def refusals(self, actions: Sequence[str]) -> dict[str, str]:
        """Why the rules would refuse each of ``actions`` now (its code), for the seat
        to act: the table marks the cards it may not play, with the reason."""
        found: dict[str, str] = {}
        for text in actions:
            try:
                self.game.apply(self.state, self.game.parse_action(text))
            except IllegalAction as error:
                found[text] = error.reason
            except (ValueError, KeyError, IndexError):
                found[text] = "unknown-action"
        return found

    def seconds_left(self) -> int | None:
        if self.deadline is None:
            return None
        return max(0, round(self.deadline - self.hub.clock()))

    # Subscribers -----------------------------------------------------------

    @property
    def subscribers(self) -> list[Subscriber]:
        """The sockets on this table's channel in this process."""
        return self.hub.channels.subscribers(self.topic)

    def local_seats(self) -> set[int]:
        """The seats with a socket on the table in this process."""
        return {subscriber.seat for subscriber in self.subscribers if subscriber.seat is not None}

    def present(self) -> set[int]:
        """The seats with a socket on the table, here or (as they said) in other processes."""
        return self.local_seats().union(*self.remote_seats.values())

    def heard(self) -> bool:
        """Whether a person at the table listens (a seat's socket is open)."""
        return bool(self.present())

    def _stand_in_from(self, seat: int) -> float | None:
        """When a bot may start playing for ``seat``: the grace after its socket dropped,
        if another person is at the table (alone, the table waits as it always did)."""
        since = self.away_since.get(seat)
        if since is None or not self.present() - {seat}:
            return None
        return since + self.hub.timing.stand_in_grace

    def stand_ins(self) -> set[int]:
        """The people's seats a bot plays for now (their seats say so)."""
        if not self.owned:
            return set(self.shown_stand_ins)
        now = self.hub.clock()
        return {
            seat
            for seat in self.away_since
            if (start := self._stand_in_from(seat)) is not None and start <= now
        }

    def paused(self) -> bool:
        return not self.finished and self.timer is None

    def join(self, subscriber: Subscriber) -> None:
        """Add a subscriber and send it the whole table (a reconnect is a fresh start); a
        player's return wakes a paused table, and takes their seat back from a stand-in."""
        with self.lock:
            audience = self.audiences.get(subscriber.audience)
            if audience is None:
                audience = Audience(subscriber.seat, subscriber.language, subscriber.lite)
                self.audiences[subscriber.audience] = audience
            stood_in = subscriber.seat in self.stand_ins()
            self.hub.channels.join(self.topic, subscriber)
            if subscriber.seat is not None:
                self._seat_heard(subscriber.seat)
                if not self.owned:
                    self.tell_seats()
            audience.members.append(subscriber)
            fragments = self.hub.renderer(self, [audience])[0]
            if len(audience.members) == 1:
                audience.sent = dict(fragments)
            # The others keep their screen until the next move; the newcomer's may be
            # fresher (the turn clock's seconds), so it remembers where it differs.
            subscriber.own = {
                element_id: html
                for element_id, html in fragments.items()
                if audience.sent.get(element_id) != html
            }
            self._deliver(subscriber, "\n".join(strip(html) for html in fragments.values()))
            if stood_in and self.owned:
                self._broadcast()  # the others' screens drop the seat's "away" tag

    def leave(self, subscriber: Subscriber) -> None:
        with self.lock:
            self.hub.channels.leave(self.topic, subscriber)
            self._drop(subscriber)
            seat = subscriber.seat
            if seat is not None and seat not in self.present():
                self._seat_gone(seat)
            if seat is not None and not self.owned:
                self.tell_seats()
            self._release()

    def _seat_heard(self, seat: int) -> None:
        self.unheard = 0
        self.away_since.pop(seat, None)  # back: the seat is theirs again
        if not self.finished:
            self._schedule(same_turn=True)  # a stand-in or a paused clock yields

    def _seat_gone(self, seat: int) -> None:
        self.away_since[seat] = self.hub.clock()
        if not self.finished:
            self._schedule(same_turn=True)  # the grace runs from now

    def tell_seats(self) -> None:
        """Tell the owner which seats this replica holds sockets for."""
        self.hub.tell_owner(self.id, {"k": "seats", "s": sorted(self.local_seats())})

    def seen(self, process: str, seats: Sequence[int]) -> None:
        """The owner hears which seats another process holds sockets for: as if they
        joined or left here."""
        with self.lock:
            before = self.present()
            self.remote_seats[process] = set(seats)
            self.remote_heard[process] = time.monotonic()
            if not seats:
                del self.remote_seats[process], self.remote_heard[process]
            after = self.present()
            for seat in after - before:
                self._seat_heard(seat)
            for seat in before - after:
                self._seat_gone(seat)
            if after != before:
                self._broadcast()  # a seat's "away" tag

    def _drop(self, subscriber: Subscriber) -> None:
        """Take ``subscriber`` out of its audience, once it is off the channel: a socket
        that closed while messages to it were still queued is dropped by each failed
        send, and by its own leaving, alike."""
        audience = self.audiences.get(subscriber.audience)
        if audience is None or subscriber not in audience.members:
            return
        audience.members.remove(subscriber)
        if not audience.members:
            del self.audiences[subscriber.audience]

    def _release(self) -> None:
        """A finished table nobody watches leaves memory (its log rebuilds it if asked),
        and so does a replica nobody here watches."""
        if (self.finished or not self.owned) and not self.subscribers:
            self.hub.forget(self)

    def notify(self, subscriber: Subscriber, notice_html: str) -> None:
        """Send one subscriber a message of its own (a refusal)."""
        with self.lock:
            # Remembered as its own, so the next move's render (without it) clears it.
            subscriber.own["notice"] = notice_html
            self._deliver(subscriber, notice_html)

    def send_aside(self, message_for: Callable[[Subscriber], str | None]) -> None:
        """Send each subscriber its message (None: nothing) of a moment that is no part of
        the table (a reaction): nothing is rendered or remembered, so no move redraws it.
        Only to this process's sockets: the moment's own channel reaches the others'."""
        with self.lock:
            for subscriber in self.subscribers:
                message = message_for(subscriber)
                if message:
                    self._deliver(subscriber, message)

    # Actions ---------------------------------------------------------------

    def submit(self, seat: int, text: str, version: int | None) -> None:
        """A person's action for their seat; raises :class:`Refusal` and changes nothing."""
        arrived = time.perf_counter()
        if text == HINT:
            self.ask_hint(seat)
            return
        with self.lock:
            if self.finished:
                raise Refusal("table-finished")
            if version is not None and version != self.version:
                raise Refusal("stale")
            if self.game.to_act(self.state) != seat:
                raise Refusal("not-your-turn")
            try:
                action = self.game.parse_action(text)
            except (ValueError, KeyError, IndexError) as error:
                raise Refusal("unknown-action") from error
            if isinstance(action, Timeout):
                raise Refusal("unknown-action")  # only the table's turn timer plays it
            if self.coach is not None:
                self.coach.check(self.version, seat, str(action))
            if self.owned:
                self.unheard = 0
                self._apply(action, seat)
                self.hub.timings.record(arrived)
                return
            try:  # the rules' refusal said at once, without asking the owner
                self.game.apply(self.state, action)
            except IllegalAction as error:
                raise Refusal(error.reason) from error
        self.hub.forward(self.id, {"k": "move", "seat": seat, "a": text, "v": version})

    def more_time(self, seat: int) -> None:
        """Start the acting person's countdown again from the table's whole clock, once per
        turn.  Not an engine action and not in the log: the moves replay the same without
        it.  Whatever its version, a request is for the turn running when it arrives."""
        with self.lock:
            if self.finished:
                raise Refusal("table-finished")
            if self.game.to_act(self.state) != seat:
                raise Refusal("not-your-turn")
            length = turn_length(self.options, self.hub.timing.turn_seconds)
            if length is None or self.deadline is None:
                raise Refusal("no-clock")
            if self.extended:
                raise Refusal("more-time-used")
            if self.owned:
                self.extended = True
                self.deadline = self.hub.clock() + length
                self._schedule(same_turn=True)  # the timer, and a stand-in's, from it
                self._broadcast()  # everyone's countdown starts again: it is public
                return
        self.hub.forward(self.id, {"k": MORE_TIME, "seat": seat})

    def offers_hints(self) -> bool:
        """Whether the table gives hints: a practice table (one person, the rest bots),
        never a table a room opened (rated or not, people there play on their own), nor a
        lesson's (its coach says what to play, and may want another move)."""
        if self._offers_hints is None:
            alone = sum(not seat.is_bot for seat in self.seats) == 1
            self._offers_hints = alone and self.coach is None and not self.hub.in_room(self.id)
        return self._offers_hints

    def hint_for(self, seat: int | None) -> Advice | None:
        """The seat's hint while the table still stands where it was asked."""
        found = self.hints.get(seat) if seat is not None else None
        return found[1] if found is not None and found[0] == self.version else None

    def ask_hint(self, seat: int, wait: bool = False) -> None:
        """Search the expert's move for ``seat``'s turn, from its view only, and show it to
        that seat (its screen is re-rendered with the hint).  Not a move and not in the log.
        The search runs in the thinker's processes; ``wait`` returns once it is shown (a
        page posting without scripts), else the asking socket goes on at once."""
        with self.lock:
            if self.finished:
                raise Refusal("table-finished")
            if not self.offers_hints():
                raise Refusal("no-hints")
            if self.game.to_act(self.state) != seat:
                raise Refusal("not-your-turn")
            if self.hint_for(seat) is not None:
                return  # shown already
            if seat in self.hinting:
                raise Refusal("hint-pending")
            if self.owned:
                self._search_hint(seat, wait)
                return
        self.hub.forward(self.id, {"k": HINT, "seat": seat})

    def _search_hint(self, seat: int, wait: bool) -> None:
        """Search the hint in the thinker (the owner's: its message carries the hint)."""
        with self.lock:
            self.hinting.add(seat)
            version = self.version
            view = self.game.view(self.state, seat)
            self._broadcast()  # the button says the hint is coming

        def search() -> None:
            advice = None
            try:
                advice = self.hub.thinker.advise(
                    self.game.name, view, f"{self.seed}:{version}:hint"
                )
            finally:
                with self.lock:
                    self.hinting.discard(seat)
                    if advice is not None and version == self.version:
                        self.hints[seat] = (version, advice)
                    self._broadcast()

        if wait:
            search()
        else:
            self.hub.scheduler(0.0, search)

    def _apply(self, action: Any, seat: int | None) -> None:
        """Apply an action of ``seat`` (None: the table plays for the seat to act)."""
        acting = self.game.to_act(self.state)
        try:
            new_state = self.game.apply(self.state, action)
        except IllegalAction as error:
            raise Refusal(error.reason) from error
        text = str(action)
        # Stored first: a move that is not in the log never happened.
        try:
            self.hub.store.append(self.id, self.version, text, seat)
        except StepTaken as error:
            self._lost_race()
            raise Refusal("try-again") from error
        except StoreError as error:
            if seat is None or self.seats[seat].is_bot:
                self._schedule()  # a bot or the turn timer tries again later
            raise Refusal("try-again") from error
        self.state = new_state
        self.log.append(text)
        self.played_for = acting if seat is None else None
        if self.game.outcome(new_state) is not None:
            self.finished = True
            self.hub.store.finish(self.id)
            # Before the last fan-out, so the result it shows includes the new ratings.
            self.hub.finished(self)
        self._schedule(same_turn=seat is not None and self._turn_goes_on(acting, text))
        self._broadcast(text)
        self._release()

    def _lost_race(self) -> None:
        """Another process stored this step first (it owns the table now, or did while
        this one's lease ran out): the log is the truth, so the table reloads from it and
        goes on as the owner only if the lease still says so."""
        self.contested()
        if self.owned:
            self._broadcast()
        else:
            self.fan_out()  # this process's screens, from the log

    def contested(self) -> None:
        """Another process moved this table too (it stored a step, or published one):
        reload the log, and stay the owner only if the lease is still this process's."""
        log.warning("table %s moved elsewhere meanwhile: reloading its log", self.id)
        self.reload()
        if self.hub.leases.claim(self.id):
            self._schedule()
        else:
            self.give_up()

    # Owners and replicas ---------------------------------------------------

    def news(self, action: str | None) -> object:
        """What the table's channel is told of a change: the version alone in one process;
        between processes, also what a replica needs to follow it (the action's text, the
        clock, the public marks), never anything rendered."""
        if not self.hub.leases.shared:
            return self.version
        return {
            "v": self.version,
            "a": action,
            "o": self.hub.leases.process,
            "d": self.deadline,
            "x": self.extended,
            "p": self.played_for,
            "f": self.finished,
            "s": sorted(self.stand_ins()),
            "h": [
                [seat, version, asdict(advice)] for seat, (version, advice) in self.hints.items()
            ],
            "w": sorted(self.hinting),
        }

    def follow(self, news: Mapping[str, Any]) -> bool:
        """A replica takes the owner's message (see :meth:`news`); whether it changed
        anything to show.  The next version's action is applied through the engine;
        a gap (a message missed) reloads the stored log."""
        version, action = int(news["v"]), news.get("a")
        if version < self.version:
            return False  # older than the log it reloaded
        if version == self.version + 1 and isinstance(action, str):
            try:
                self.state = self.game.play(self.state, action)
                self.log.append(action)
            except (IllegalAction, ValueError, KeyError, IndexError):
                log.exception("table %s: replica could not follow %r", self.id, action)
                self.reload()
        elif version != self.version:
            self.reload()
        self.deadline = news.get("d")
        self.extended = bool(news.get("x"))
        self.played_for = news.get("p")
        self.finished = self.finished or bool(news.get("f"))
        self.shown_stand_ins = set(news.get("s") or ())
        self.hints = {seat: (at, Advice(**advice)) for seat, at, advice in news.get("h") or ()}
        self.hinting = set(news.get("w") or ())
        if self.finished and self.game.outcome(self.state) is None:
            self.close_sockets(self.subscribers)  # its player ended it (see end)
        owner = news.get("o")
        if owner != self.followed:
            self.followed = owner if isinstance(owner, str) else None
            if self.local_seats():
                self.tell_seats()  # a new owner learns who is here
        return True

    def reload(self) -> None:
        """Rebuild the table from its stored log: the only truth a replica that may have
        missed a message, or an owner that lost a race, trusts."""
        try:
            stored = self.hub.store.load(self.id)
            if stored is None:
                return
            _game, state = revive(self.hub.store, stored)
        except TableBroken:
            self.finished = True  # marked and logged; its players find an apology
            return
        self.state, self.log, self.seats = state, list(stored.log), stored.seats
        self.finished = stored.finished or self.game.outcome(state) is not None

    def take_over(self) -> None:
        """Become the owner (the last one is gone): from the stored log, with the clock
        and the bots running here now."""
        with self.lock:
            self.reload()
            self.owned = True
            self.remote_seats, self.remote_heard = {}, {}  # replicas say again who is there
            self.followed = None
            if not self.heard():
                self.unheard = self.hub.timing.unheard_turns  # as after a restart
            self._schedule()
            self._broadcast()
        if self.hub.forwarder is not None:
            self.hub.forwarder.moved(self.id)  # this process's moves waiting for the last

    def give_up(self) -> None:
        """No longer the owner (the lease was lost): a replica from now on."""
        with self.lock:
            self.owned = False
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def _dealing(self) -> bool:
        """Whether the table waits for the next round's deal (the protocol's ``NextRound``)."""
        return self.game.legal_actions(self.state) == (NextRound(),)

    def _turn_goes_on(self, acting: int | None, text: str) -> bool:
        """Whether the seat that just moved still has the rest of the same turn to play
        (Koa's throw after the cabut, Kowah's discard after the draw...).  A deal and a
        round's result each begin afresh."""
        return (
            acting is not None
            and self.game.to_act(self.state) == acting
            and text != str(NextRound())
            and not self._dealing()
        )

    def _schedule(self, same_turn: bool = False) -> None:
        """Arm the next timer: a bot's move, or the acting person's turn timer.  A turn
        has one deadline for all its steps: ``same_turn`` keeps the running one."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.owned:
            return  # the owner's clock runs it; its messages say the deadline
        deadline, self.deadline = self.deadline, None
        # A stopping server arms nothing: a move stored now waits for the next start.
        seat = None if self.finished or self.hub.stopped else self.game.to_act(self.state)
        if seat is None:
            return
        version = self.version
        timing = self.hub.timing
        if self.seats[seat].is_bot:
            dealing = self._dealing()
            delay = timing.round_pause if dealing else timing.bot_delay
            # A move's delay is timed; the pause before dealing the next round is not.
            self.bot_armed = None if dealing else time.perf_counter()
            self.timer = self.hub.scheduler(delay, lambda: self._bot_move(version))
        elif self.unheard >= timing.unheard_turns and not self.heard():
            return  # paused: nobody to play for, nothing to store
        else:
            now = self.hub.clock()
            length = turn_length(self.options, timing.turn_seconds)
            if length is not None and (not same_turn or deadline is None):
                deadline = now + length
                self.extended = False  # a new turn may ask for more time again
            self.deadline = deadline if length is not None else None
            stand_in = self._stand_in_from(seat)
            if stand_in is not None:
                start = max(stand_in, now + timing.bot_delay)  # a bot's speed, at most
                if self.deadline is None or start < self.deadline:
                    self.bot_armed = None  # a stand-in waits out the grace, not a bot delay
                    self.timer = self.hub.scheduler(start - now, lambda: self._bot_move(version))
                    return
            if self.deadline is None:
                return  # a table without a clock waits for the person as long as it takes
            delay = max(0.0, self.deadline - now)
            self.timer = self.hub.scheduler(delay, lambda: self._timeout(version))

    def start(self) -> None:
        """Begin (or, after a restart, resume) the table's clock."""
        with self.lock:
            self._schedule()

    def stop(self) -> None:
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def rest(self) -> None:
        """Resumed with nobody at it (after a restart): it pauses at a person's next turn
        instead of playing their turns for them again."""
        with self.lock:
            self.unheard = self.hub.timing.unheard_turns
            self._schedule()

    def end(self) -> None:
        """The player gave the table up: no more moves, its sockets closed."""
        if not self.owned:
            try:
                self.hub.forward(self.id, {"k": "end"})
            except Refusal:  # the owner is away: the stored flag ends it (no sweep takes it)
                self.hub.store.finish(self.id)
        with self.lock:
            self.stop()
            self.deadline = None
            self.finished = True
            if self.owned:
                self.hub.store.finish(self.id)
                if self.hub.leases.shared:
                    self._broadcast()  # other processes close their sockets too
            subscribers = list(self.subscribers)
        self.close_sockets(subscribers)
        self.hub.forget(self)

    @staticmethod
    def close_sockets(subscribers: Sequence[Subscriber]) -> None:
        for subscriber in subscribers:
            try:
                subscriber.connection.close(1000, "ended")
            except Exception:  # noqa: BLE001 - closing what is already gone
                pass

    def _bot_move(self, version: int) -> None:
        with self.lock:
            if self.finished or version != self.version:
                return
            seat = self.game.to_act(self.state)
            if seat is None:
                return
            level = self.seats[seat].level or "medium"
            view = self.game.view(self.state, seat)
            seed = f"{self.seed}:{version}:{seat}"
            searching = level == "expert" and len(self.game.legal_actions(self.state)) > 1
            if not searching:
                action = self.game.bots[level](view, bot_random(self.seed, version, seat))
        if searching:
            # A search runs in another process, with the table unlocked meanwhile.
            action = self.hub.thinker.decide(self.game.name, view, seed)
        with self.lock:
            if self.finished or version != self.version:
                return
            # The bot's move arrives once it has decided; its thinking is not fan-out.
            arrived = time.perf_counter()
            if self.bot_armed is not None:
                self.hub.timings.record_bot(arrived - self.bot_armed)
            try:
                self._apply(action, seat)
            except Refusal as refusal:
                if refusal.code == "try-again":
                    return
                log.exception("bot %s refused on table %s", level, self.id)
                self._apply(self.game.timeout_action(self.state), None)
            self.hub.timings.record(arrived)

    def _timeout(self, version: int) -> None:
        with self.lock:
            if self.finished or version != self.version:
                return
            if not self.heard():
                self.unheard += 1
            try:
                self._apply(self.game.timeout_action(self.state), None)
            except Refusal:
                return  # not stored; _apply armed the timer again

    # Fan-out ---------------------------------------------------------------

    def _broadcast(self, action: str | None = None) -> None:
        """Tell the table's channel it has a new version, or news (every process's
        sockets); only the owner speaks there."""
        if self.owned:
            self.hub.channels.publish(self.topic, self.news(action))

    def fan_out(self) -> None:
        """Send this process's sockets what changed for each audience since its last
        message: the memo and the diff are this channel's optimisation, behind it."""
        audiences = list(self.audiences.values())
        deliver = self.hub.channels.deliver  # once per member: 300 spectators, 300 calls
        alike: dict[tuple[str | None, str], Change] = {}
        for audience, fragments in zip(audiences, self.hub.renderer(self, audiences), strict=True):
            parts = changes(audience.sent, fragments, audience.parsed, alike)
            audience.sent.update(fragments)
            shared = "\n".join(op for ops in parts.values() for op in ops)
            for member in list(audience.members):
                message = self._message_for(member, fragments, parts) if member.own else shared
                if message and not deliver(self.topic, member, message):
                    self._drop(member)  # a dead socket: off the channel, out of its audience

    @staticmethod
    def _message_for(
        subscriber: Subscriber, fragments: Mapping[str, str], parts: Mapping[str, list[str]]
    ) -> str:
        """The audience's message, except where this socket showed something of its own:
        there, the whole new fragment if it differs from what this socket shows."""
        own, subscriber.own = subscriber.own, {}
        chosen: list[str] = []
        for element_id, html in fragments.items():
            if element_id not in own:
                chosen.extend(parts.get(element_id, ()))
            elif own[element_id] != html:
                chosen.append(strip(html))
        return "\n".join(chosen)

    def _deliver(self, subscriber: Subscriber, data: str) -> None:
        if not self.hub.channels.deliver(self.topic, subscriber, data):
            self._drop(subscriber)  # a dead socket: off the channel, out of its audience


class Timings:
    """How long each applied action took, from arriving to every subscriber sent.

    Kept for the benchmarks: with ``LAPAU_TIMINGS`` set to a file (``TIMINGS_FILE``),
    one line of milliseconds per action is appended there.
    """

    def __init__(self, path: str | None = None) -> None:
        self.path = path
        self.recent: deque[float] = deque(maxlen=10000)
        # Kept open, a line at a time: opening the file for every move cost more than the
        # line (the benchmarks measure the worker's CPU per move with it on).
        self.files: dict[str, TextIO] = {}

    def _write(self, path: str, line: str) -> None:
        out = self.files.get(path)
        if out is None:
            out = self.files[path] = open(path, "a", buffering=1)
        out.write(line)

    def record(self, arrived: float) -> None:
        elapsed = (time.perf_counter() - arrived) * 1000
        self.recent.append(elapsed)
        if self.path:
            self._write(self.path, f"{elapsed:.3f}\n")

    def record_bot(self, seconds: float) -> None:
        """A bot's move delay, from its turn's timer being armed to its move arriving (the
        table's bot delay plus its thinking), appended to ``<path>.bots``."""
        if self.path:
            self._write(f"{self.path}.bots", f"{seconds * 1000:.3f}\n")


class Hub:
    """Every live table of this process, by id."""

    def __init__(
        self,
        store: Store,
        renderer: Renderer,
        timing: Timing | None = None,
        scheduler: Scheduler = thread_scheduler,
        clock: Callable[[], float] = time.time,
        timings: Timings | None = None,
        coaches: Callable[[str, Mapping[str, Any]], Coach | None] = no_coach,
        channels: Channels | None = None,
        leases: Leases | None = None,
        context: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.store = store
        #: Which tables this process owns (webapp/play/lease.py): all of them, alone.
        self.leases: Leases = leases or OneProcess()
        #: Where another process's request runs, as a socket's message does: in the app's
        #: context (a finished match's listeners read the database through it).
        self.context = context
        #: The coach of a table by its game and options (guided tables have one).
        self.coaches = coaches
        #: The tables' channels (webapp/channels.py): a move is published there, and the
        #: table's sessions fan it out to the sockets of this process.
        self.channels = channels or Channels()
        self.channels.listen("table", self.published)
        self.channels.listen("transfer", self.transferred)
        self.renderer = renderer
        self.timing = timing or Timing()
        self.scheduler = scheduler
        #: Wall-clock seconds for turn deadlines; tests that drive the scheduler by hand
        #: stop it too, so a render does not depend on when it ran.
        self.clock = clock
        self.sessions: dict[str, TableSession] = {}
        self.lock = threading.RLock()
        self.timings = timings or Timings()
        #: Expert bots search in its worker processes, never on the loop.
        self.thinker = Thinker()
        #: Whether a room opened the table (set by the rooms, which the hub does not know).
        self.in_room: Callable[[str], bool] = lambda table_id: False
        #: Each table whose match has just ended (its room, presence, ratings).
        self.on_finish = Event[[TableSession]]("table finished")
        #: A guest signed in (old player id, new): their tables have moved (their rooms).
        self.on_transfer = Event[[str, str]]("tables transferred")
        #: Set when the server stops: no table's clock runs any more.
        self.stopped = False
        #: Requests to other processes' tables, and theirs to ours (several processes).
        self.forwarder: Forwarder | None = None
        if self.leases.shared:
            self.forwarder = Forwarder(
                self.channels,
                lambda: self.leases.process,
                self.owns,
                self.requested,
                lambda work: self.scheduler(0.0, work),
                self.heard,
            )
            self.channels.on_gap.append(self.resync)  # messages lost: replicas reload
        #: Rounds of :meth:`tend` so far (None: not tending).
        self.rounds: int | None = None

    def create(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seats: list[Seat],
        owner: str,
        seed: int | None = None,
    ) -> TableSession:
        game = registry.get(game_name)
        chosen = {**game.default_options, **options}
        table_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(10))
        seed = secrets.randbelow(2**31) if seed is None else seed
        game.new_game(seed, chosen)  # options the rules refuse raise here, storing nothing
        # Claimed before it is stored: once stored, another process's restore() may find
        # it unfinished and without an owner, and take it.
        owned = self.leases.claim(table_id)
        try:
            self.store.create(table_id, game_name, seed, chosen, seats, owner)
        except BaseException:
            if owned:
                self.leases.release(table_id)
            raise
        session = self._session(self.store.load(table_id), owned)
        session.start()
        return session

    def _session(self, stored: StoredTable | None, owned: bool) -> TableSession:
        if stored is None:
            raise KeyError("no such table")
        _game, state = revive(self.store, stored)
        session = TableSession(self, stored, state, stored.log)
        session.owned = owned
        with self.lock:
            self.sessions[stored.id] = session
        return session

    def get(self, table_id: str) -> TableSession | None:
        """The live session, loaded from its log if this process has not seen it yet.

        Raises :class:`TableBroken` for a stored table whose log no longer replays.
        """
        with self.lock:
            session = self.sessions.get(table_id)
            if session is not None:
                return session
            # Claimed before it is read: a log read while owning it is the whole log.
            owned = self.leases.claim(table_id)
            stored = self.store.load(table_id)
            if stored is None:
                if owned:
                    self.leases.release(table_id)
                return None
            session = self._session(stored, owned)
        session.start()
        return session

    def published(self, topic: str, news: object) -> None:
        """A table's channel has news: its session here (a replica follows it first)
        renders and sends it.  Held on the hub's lock while a table loads, so a message
        published after the load read the log is not lost."""
        with self.lock:
            session = self.sessions.get(topic.partition(":")[2])
        if session is not None:
            with session.lock:
                if (
                    isinstance(news, dict)
                    and session.owned
                    and news.get("o") != self.leases.process
                ):
                    session.contested()  # another process moved it: two owners for a while
                elif isinstance(news, dict) and not session.owned and not session.follow(news):
                    return
                session.fan_out()

    def owns(self, table_id: str) -> bool:
        session = self.sessions.get(table_id)
        return session is not None and session.owned

    def forward(self, table_id: str, request: dict[str, Any]) -> None:
        """Have the table's owner act on ``request`` (see webapp/play/forward.py);
        raises its :class:`Refusal`."""
        code = self.forwarder.ask(table_id, request) if self.forwarder else NO_ANSWER
        if code == MOVED:  # taken over here while it waited: acted on here
            code = self.requested(table_id, request)
        if code is not None:
            raise Refusal(code)

    def tell_owner(self, table_id: str, request: dict[str, Any]) -> None:
        if self.forwarder is not None:
            self.forwarder.tell(table_id, request)

    def requested(self, table_id: str, request: dict[str, Any]) -> str | None:
        """Act on another process's request for a table owned here: the refusal's code."""
        session = self.sessions.get(table_id)
        if session is None or not session.owned:
            return NO_ANSWER
        with self.context():
            return self._act(session, request)

    def heard(self, process: str, seats: dict[str, list[int]]) -> None:
        """Another process's seats on tables owned here (its round's "still here")."""
        with self.context():
            for table_id, held in seats.items():
                session = self.sessions.get(table_id)
                if session is not None and session.owned:
                    session.seen(process, held)

    def _act(self, session: TableSession, request: dict[str, Any]) -> str | None:
        kind, seat = request.get("k"), request.get("seat")
        try:
            if kind == "seats":
                seats = request.get("s")
                if isinstance(seats, list):
                    session.seen(str(request.get("from")), [s for s in seats if isinstance(s, int)])
            elif kind == "end":
                session.end()
            elif not isinstance(seat, int):
                return "malformed"
            elif kind == "move":
                version = request.get("v")
                session.submit(
                    seat, str(request.get("a")), version if isinstance(version, int) else None
                )
            elif kind == MORE_TIME:
                session.more_time(seat)
            elif kind == HINT:
                session.ask_hint(seat)
            else:
                return "malformed"
        except Refusal as refusal:
            return refusal.code
        return None

    def resync(self) -> None:
        """The broker may have missed messages (it reconnected): every replica reloads
        its table from the stored log and redraws what changed."""
        with self.lock:
            replicas = [session for session in self.sessions.values() if not session.owned]
        for session in replicas:
            with session.lock:
                session.reload()
                session.fan_out()

    def tend(self) -> None:
        """One round of the leases, every third of their time to live while the server
        runs (several processes only): renew this process's, give up those lost, take
        over the tables watched here whose owner is gone, and every third round the
        unfinished tables nobody owns (no socket anywhere: bots, or a paused table)."""
        if self.stopped or not self.leases.shared:
            return
        try:
            with self.lock:
                sessions = list(self.sessions.values())
            owned = [session for session in sessions if session.owned]
            lost = set(self.leases.renew([session.id for session in owned]))
            silent = time.monotonic() - 3 * self.leases.seconds
            for session in owned:
                if session.id in lost:
                    log.warning("lost the lease of table %s", session.id)
                    session.give_up()
                for process, heard in list(session.remote_heard.items()):
                    if heard < silent:  # that process died with its sockets
                        session.seen(process, [])
            followed = [s for s in sessions if not s.owned and not s.finished]
            # One look at all their leases; a claim (a round trip each) only where it is
            # free: a replica of each of a few hundred tables asked every second before.
            free = set(self.leases.free([session.id for session in followed]))
            self.rounds = (self.rounds or 0) + 1
            held: dict[str, list[int]] = {}
            for session in followed:
                if session.id in free and self.leases.claim(session.id):
                    log.info("took over table %s", session.id)
                    session.take_over()
                elif self.rounds % 3 == 0 and (seats := session.local_seats()):
                    held[session.id] = sorted(seats)
            if held and self.forwarder is not None:
                # Still here (see remote_heard): three times within the owners'
                # patience, in one message for every table rather than one each.
                self.forwarder.tell_held(held)
            if self.rounds % 3 == 0:
                self.restore()
        except Exception:
            log.exception("tending the leases failed")  # the next round tries again
        finally:
            if not self.stopped:
                self.scheduler(self.leases.seconds / 3, self.tend)

    def forget(self, session: TableSession) -> None:
        with self.lock:
            if self.sessions.get(session.id) is session:
                del self.sessions[session.id]
        if session.owned and self.leases.shared:
            self.leases.release(session.id)

    def finished(self, session: TableSession) -> None:
        self.on_finish.emit(session)  # the match is over and stored, whatever they do

    def transfer(self, old: str, new: str) -> None:
        """A guest signed in: their tables and seats now belong to their account (in
        every process's sessions: :meth:`transferred`)."""
        self.store.transfer(old, new)
        self.channels.publish(f"transfer:{old}", new)
        self.on_transfer.emit(old, new)

    def transferred(self, topic: str, new: object) -> None:
        old = topic.partition(":")[2]
        with self.lock:
            live = list(self.sessions.values())
        for session in live:
            if old not in (session.owner, *(seat.player for seat in session.seats)):
                continue
            with session.lock:
                session.seats = tuple(
                    replace(seat, player=str(new)) if seat.player == old else seat
                    for seat in session.seats
                )
                if session.owner == old:
                    session.owner = str(new)

    def restore(self) -> int:
        """Rebuild every unfinished table from its log (after a restart); returns how
        many resumed.  A table whose log no longer replays is marked broken and skipped:
        it stops nothing but itself."""
        count = 0
        unfinished = self.store.unfinished()
        if self.leases.shared:  # between processes: only the tables nobody owns
            unfinished = self.leases.free([t for t in unfinished if t not in self.sessions])
        for table_id in unfinished:
            if self.leases.shared and not self.leases.claim(table_id):
                continue  # another process was quicker
            try:
                session = self.get(table_id)
            except TableBroken:
                continue  # marked and logged; its players find an apology
            if session is not None:
                session.rest()
                count += 1
        return count

    def shutdown(self) -> None:
        """Stop every table's clock: no bot moves and no turn runs out while the server
        stops (webapp/sockets.py closes the sockets)."""
        self.stopped = True
        with self.lock:
            sessions = list(self.sessions.values())
        self.thinker.close()
        for session in sessions:
            session.stop()
            if session.owned and self.leases.shared:
                self.leases.release(session.id)  # another process takes it at once
