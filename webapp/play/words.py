"""The words of the tables: engine codes turned into sentences in the reader's language.

Engines speak in codes (``IllegalAction("makan-own")``, event kinds, yaku slugs); the
templates look the codes up here.  A test checks that every code an engine can raise
has a sentence.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from webapp.flood import SLOW_DOWN

#: Why an action was refused: from the table itself, the socket, or an engine.
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
    # Koa.
    "makan-own": _l("You can only eat the latest throw of the player on your left."),
    "throw-eaten-card": _l("You cannot throw the card you just ate."),
    "takabek": _l("Takabek: you may not throw this card type now."),
    "must-throw-hiu": _l("You must throw a hiu this turn."),
    # Kowah.
    "hand-locked": _l("Your hand is locked after declaring: discard the card you drew."),
    "pair-not-exposable": _l("That pair cannot be your exposed pair."),
    "no-discard": _l("There is no discard to take."),
    "discard-just-taken": _l("You cannot discard the card you just took."),
    # Koi-Koi.
    "not-play-phase": _l("Play a card from your hand first."),
    "not-an-option": _l("That card cannot be taken with this one."),
    "no-decision-pending": _l("There is nothing to decide right now."),
    "no-choice-pending": _l("There is no card to choose right now."),
}
DEFAULT_REFUSAL = _l("That move is not allowed right now.")


def refusal(code: str) -> Any:
    return REFUSALS.get(code, DEFAULT_REFUSAL)


YAKU: dict[str, Any] = {
    "five-lights": _l("Five Lights"),
    "four-lights": _l("Four Lights"),
    "rainy-four-lights": _l("Rainy Four Lights"),
    "three-lights": _l("Three Lights"),
    "flower-viewing": _l("Flower Viewing"),
    "moon-viewing": _l("Moon Viewing"),
    "boar-deer-butterflies": _l("Boar, Deer and Butterflies"),
    "red-poems": _l("Red Poem Ribbons"),
    "blue-ribbons": _l("Blue Ribbons"),
    "red-and-blue-ribbons": _l("Red and Blue Ribbons"),
    "animals": _l("Animals"),
    "ribbons": _l("Ribbons"),
    "plains": _l("Plains"),
}

KOIKOI_ENDINGS: dict[str, Any] = {
    "stop": _l("The winner stopped."),
    "after-koikoi": _l("A new yaku after the koi-koi call ended the round."),
    "last-card": _l("A yaku with the last card counts at once."),
    "hands-out": _l("The hands ran out."),
    "teshi": _l("Teshi: four cards of one month in the dealt hand."),
    "kuttsuki": _l("Kuttsuki: four pairs of months in the dealt hand."),
}

KOWAH_WINS: dict[str, Any] = {
    "self-draw": _l("Drawn from the stock by the winner: triple."),
    "draw": _l("Drawn from the stock by another player: single."),
    "discard": _l("Claimed from a discard: double."),
}

#: A Koi-Koi captured pile is shown by printed kind.
PILE_KINDS: dict[str, Any] = {
    "light": _l("Lights"),
    "animal": _l("Animals"),
    "ribbon": _l("Ribbons"),
    "plain": _l("Plains"),
}
