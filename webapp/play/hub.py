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
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from webapp.channels import Channels, Subscriber
from webapp.events import Event
from webapp.game import registry
from webapp.game.actions import NextRound, Timeout
from webapp.game.protocol import IllegalAction
from webapp.game.search import Advice
from webapp.play.clock import turn_length
from webapp.play.diff import operations, strip
from webapp.play.revive import revive
from webapp.play.store import Seat, Store, StoredTable, StoreError, TableBroken
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
    members: list[Subscriber] = field(default_factory=list)


def changes(before: Mapping[str, str], fragments: Mapping[str, str]) -> dict[str, list[str]]:
    """What to send, per element id, to turn ``before`` into ``fragments``: the keyed
    operations when they are smaller than the whole fragment, else the fragment."""
    parts: dict[str, list[str]] = {}
    for element_id, html in fragments.items():
        old = before.get(element_id)
        if old == html:
            continue
        whole = strip(html)
        ops = None if old is None else operations(old, html)
        parts[element_id] = ops if ops is not None and sum(map(len, ops)) < len(whole) else [whole]
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

    def heard(self) -> bool:
        """Whether a person at the table listens (a seat's socket is open)."""
        return any(subscriber.seat is not None for subscriber in self.subscribers)

    def _stand_in_from(self, seat: int) -> float | None:
        """When a bot may start playing for ``seat``: the grace after its socket dropped,
        if another person is at the table (alone, the table waits as it always did)."""
        since = self.away_since.get(seat)
        if since is None or not any(
            subscriber.seat not in (None, seat) for subscriber in self.subscribers
        ):
            return None
        return since + self.hub.timing.stand_in_grace

    def stand_ins(self) -> set[int]:
        """The people's seats a bot plays for now (their seats say so)."""
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
                self.unheard = 0
                self.away_since.pop(subscriber.seat, None)  # back: the seat is theirs again
                if not self.finished:
                    self._schedule(same_turn=True)  # a stand-in or a paused clock yields
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
            if stood_in:
                self._broadcast()  # the others' screens drop the seat's "away" tag

    def leave(self, subscriber: Subscriber) -> None:
        with self.lock:
            self.hub.channels.leave(self.topic, subscriber)
            self._drop(subscriber)
            seat = subscriber.seat
            if seat is not None and all(other.seat != seat for other in self.subscribers):
                self.away_since[seat] = self.hub.clock()
                if not self.finished:
                    self._schedule(same_turn=True)  # the grace runs from now
            self._release()

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
        """A finished table nobody watches leaves memory (its log rebuilds it if asked)."""
        if self.finished and not self.subscribers:
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
            self.unheard = 0
            self._apply(action, seat)
            self.hub.timings.record(arrived)

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
            self.extended = True
            self.deadline = self.hub.clock() + length
            self._schedule(same_turn=True)  # the timer, and a stand-in's, from the new deadline
            self._broadcast()  # everyone's countdown starts again: it is public

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
        self._broadcast()
        self._release()

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
        with self.lock:
            self.stop()
            self.deadline = None
            self.finished = True
            self.hub.store.finish(self.id)
            subscribers = list(self.subscribers)
        for subscriber in subscribers:
            try:
                subscriber.connection.close(1000, "ended")
            except Exception:  # noqa: BLE001 - closing what is already gone
                pass
        self.hub.forget(self)

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

    def _broadcast(self) -> None:
        """Tell the table's channel it has a new version (every process's sockets)."""
        self.hub.channels.publish(self.topic, self.version)

    def fan_out(self) -> None:
        """Send this process's sockets what changed for each audience since its last
        message: the memo and the diff are this channel's optimisation, behind it."""
        audiences = list(self.audiences.values())
        deliver = self.hub.channels.deliver  # once per member: 300 spectators, 300 calls
        for audience, fragments in zip(audiences, self.hub.renderer(self, audiences), strict=True):
            parts = changes(audience.sent, fragments)
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

    def record(self, arrived: float) -> None:
        elapsed = (time.perf_counter() - arrived) * 1000
        self.recent.append(elapsed)
        if self.path:
            with open(self.path, "a") as out:
                out.write(f"{elapsed:.3f}\n")

    def record_bot(self, seconds: float) -> None:
        """A bot's move delay, from its turn's timer being armed to its move arriving (the
        table's bot delay plus its thinking), appended to ``<path>.bots``."""
        if self.path:
            with open(f"{self.path}.bots", "a") as out:
                out.write(f"{seconds * 1000:.3f}\n")


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
    ) -> None:
        self.store = store
        #: The coach of a table by its game and options (guided tables have one).
        self.coaches = coaches
        #: The tables' channels (webapp/channels.py): a move is published there, and the
        #: table's sessions fan it out to the sockets of this process.
        self.channels = channels or Channels()
        self.channels.listen("table", self.published)
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
        self.store.create(table_id, game_name, seed, chosen, seats, owner)
        session = self._session(self.store.load(table_id))
        session.start()
        return session

    def _session(self, stored: StoredTable | None) -> TableSession:
        if stored is None:
            raise KeyError("no such table")
        _game, state = revive(self.store, stored)
        session = TableSession(self, stored, state, stored.log)
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
            stored = self.store.load(table_id)
            if stored is None:
                return None
            session = self._session(stored)
        session.start()
        return session

    def published(self, topic: str, _version: object) -> None:
        """A table's channel has a new version: its session here renders and sends it."""
        with self.lock:
            session = self.sessions.get(topic.partition(":")[2])
        if session is not None:
            with session.lock:
                session.fan_out()

    def forget(self, session: TableSession) -> None:
        with self.lock:
            if self.sessions.get(session.id) is session:
                del self.sessions[session.id]

    def finished(self, session: TableSession) -> None:
        self.on_finish.emit(session)  # the match is over and stored, whatever they do

    def transfer(self, old: str, new: str) -> None:
        """A guest signed in: their tables and seats now belong to their account."""
        changed = self.store.transfer(old, new)
        with self.lock:
            live = [self.sessions[table_id] for table_id in changed if table_id in self.sessions]
        for session in live:
            with session.lock:
                session.seats = tuple(
                    replace(seat, player=new) if seat.player == old else seat
                    for seat in session.seats
                )
                if session.owner == old:
                    session.owner = new
        self.on_transfer.emit(old, new)

    def restore(self) -> int:
        """Rebuild every unfinished table from its log (after a restart); returns how
        many resumed.  A table whose log no longer replays is marked broken and skipped:
        it stops nothing but itself."""
        count = 0
        for table_id in self.store.unfinished():
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
