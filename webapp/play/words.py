"""The words of the tables: engine codes turned into sentences in the reader's language.

Engines speak in codes (``IllegalAction("makan-own")``, event kinds, yaku slugs); the
templates look the codes up here, and a game's own codes in its adapter (``game_words``).
A test checks that every code an engine can raise has a sentence.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from webapp.adapters import adapters
from webapp.flood import SLOW_DOWN
from webapp.play.emotes import TOO_MANY as TOO_MANY_REACTIONS
from webapp.sockets import REFUSALS as SOCKET_REFUSALS

#: Why an action was refused: from the table itself, the socket, or any engine (each
#: game's own codes come from its adapter).
REFUSALS: dict[str, Any] = {
    # The table and the socket.
    "stale": _l("The table has moved on since you clicked. Here is where it stands now."),
    "not-your-turn": _l("Wait for your turn."),
    "table-finished": _l("This game is over."),
    "malformed": _l("That message could not be read. Please use the buttons on the table."),
    "unknown-action": _l("That is not a move in this game."),
    "spectator": _l("You are watching this table; only the players can move."),
    "try-again": _l("Your move could not be saved. Please try again."),
    "slow-down": SLOW_DOWN,
    "more-time-used": _l("You have had more time this turn already. Please play now."),
    "no-clock": _l("This table has no clock: take all the time you need."),
    "lesson": _l("The lesson waits for another move: the coach's line says which."),
    "no-hints": _l("Hints are for practice tables only."),
    "hint-pending": _l("Your hint is on its way."),
    TOO_MANY_REACTIONS: _l(
        "That is plenty of reactions for one minute. Wait a little before sending another."
    ),
    # A socket past a cap (webapp/sockets.py).
    **SOCKET_REFUSALS,
    # Shared by the engines.
    "bad-action": _l("That is not a move in this game."),
    "unknown-card": _l("There is no such card in this game."),
    "card-not-in-hand": _l("That card is not in your hand."),
    "wrong-phase": _l("That move does not fit this moment of the turn."),
    "game-over": _l("This game is over."),
    "match-over": _l("This match is over."),
    "round-over": _l("This round is over; wait for the next one."),
    "round-not-over": _l("The round is still being played."),
    "bad-option": _l("That game setting is not available."),
    "bad-players": _l("This game needs 2, 3 or 4 players."),
}
REFUSALS.update((code, text) for adapter in adapters() for code, text in adapter.refusals.items())
DEFAULT_REFUSAL = _l("That move is not allowed right now.")


def refusal(code: str) -> Any:
    return REFUSALS.get(code, DEFAULT_REFUSAL)


#: What each turn clock (webapp.play.clock) is called on the setup form, in a room and
#: on the table.
CLOCK_NAMES: dict[int, Any] = {30: _l("30 seconds"), 60: _l("60 seconds"), 0: _l("No clock")}
