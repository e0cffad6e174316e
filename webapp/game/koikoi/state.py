"""Koi-Koi's frozen data: pending choices, events, round results, the state.

One state is one whole match.  Nothing here decides a rule; ``rules`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webapp.game.koikoi.house import STANDARD, HouseRules

#: The phases of a match.  ``play``: the seat to move plays a hand card; ``choose``: it
#: picks which of two same-month field cards its played or turned-over card takes;
#: ``decide``: it stops or calls koi-koi; ``round-over``: both hands are shown until the
#: next round's starter deals; ``match-over``: the game is finished.
PHASES = ("play", "choose", "decide", "round-over", "match-over")


@dataclass(frozen=True)
class Pending:
    """A played (``source="hand"``) or turned-over (``"stock"``) card waiting for its target.

    It matched two field cards (``options``); the card itself lies in neither hand, field
    nor stock until the choice is made.
    """

    source: str
    card: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class Event:
    """Something that happened, for announcements.

    ``kind`` is a code: ``deal`` (codes: round number), ``redeal`` (codes: reason
    ``four-on-field`` or ``both-special``), ``play`` (the hand card), ``flip`` (the stock
    card turned over), ``capture`` (the cards taken, the capturing card first), ``field``
    (the card stays on the field), ``yaku`` (codes: the slugs now formed), ``koikoi``,
    ``stop``, ``teshi`` / ``kuttsuki`` (the special hand), ``round-end`` (codes: reason).
    """

    kind: str
    seat: int | None
    cards: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundResult:
    """How one round ended.

    ``winner`` is None when nobody scored.  ``reason``: ``stop`` (the winner stopped),
    ``after-koikoi`` (a new or improved yaku after the koi-koi ended it), ``last-card``
    (a yaku formed with no hand card left, scored at once), ``hands-out`` (no winner),
    ``teshi`` or ``kuttsuki`` (special hand at the deal).  ``yaku`` lists the winner's
    yaku and points; ``base`` is their sum (6 for a special hand), doubled once when
    ``seven_doubled`` (7 or more) and again when ``koikoi_doubled`` (the winner's opponent
    had called koi-koi), then times ``multiplier`` (1 plus the winner's own koi-koi calls
    under the house rule of many calls, else 1); ``points`` is what the winner scored.
    ``koikoi`` is the seat that last called koi-koi in the round, if any.
    """

    number: int
    starter: int
    winner: int | None
    reason: str
    yaku: tuple[tuple[str, int], ...]
    base: int
    seven_doubled: bool
    koikoi_doubled: bool
    points: int
    koikoi: int | None
    multiplier: int = 1

    def as_dict(self) -> dict[str, Any]:
        """Plain values for an outcome's detail (JSON-friendly)."""
        return {
            "round": self.number,
            "starter": self.starter,
            "winner": self.winner,
            "reason": self.reason,
            "yaku": dict(self.yaku),
            "base": self.base,
            "seven_doubled": self.seven_doubled,
            "koikoi_doubled": self.koikoi_doubled,
            "points": self.points,
            "koikoi": self.koikoi,
            # Only where a house rule made one: standard outcomes keep their shape.
            **({"multiplier": self.multiplier} if self.multiplier != 1 else {}),
        }


@dataclass(frozen=True)
class KoikoiState:
    """A whole Koi-Koi match at one moment.

    ``number`` is the current round (1-based) of ``rounds``; ``starter`` the seat that
    started it; ``turn`` the seat playing.  ``turn_start`` is how many cards the seat in
    turn had captured when its turn began (its yaku then are the baseline for "new or
    improved").  ``stock[0]`` is the next card to turn over.  ``starter_draw`` holds the
    months both seats drew before the first round (seat 0's first), one pair per draw.
    ``events`` are the latest events of the current round, ``event_count`` how many the
    round has had in all.  ``house`` are the table's house rules (the standard by default);
    ``calls`` counts each seat's koi-koi calls in this round; ``deals`` are prepared decks
    for the first rounds (a guided game), dealt instead of a shuffle.
    """

    seed: int
    rounds: int
    number: int
    scores: tuple[int, int]
    results: tuple[RoundResult, ...]
    starter_draw: tuple[tuple[str, str], ...]
    starter: int
    redeals: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    field: tuple[str, ...]
    stock: tuple[str, ...]
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    phase: str
    turn: int
    pending: Pending | None
    turn_start: int
    koikoi: int | None
    events: tuple[Event, ...]
    event_count: int
    house: HouseRules = STANDARD
    calls: tuple[int, int] = (0, 0)
    #: Prepared deals (a guided game), one deck order per round from the first.
    deals: tuple[tuple[str, ...], ...] = ()
