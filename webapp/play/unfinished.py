"""A player's unfinished tables as the practice page lists them, each told apart from the
others: its game and main option, who else sits at it, how far it has come and when it
began and was last played."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from webapp import adapters
from webapp.play.models import TableRecord
from webapp.play.render import seat_names
from webapp.play.store import Seat, Store, is_practice


@dataclass(frozen=True)
class Unfinished:
    id: str
    title: str
    #: The table's main option as its setup names it ("Quick match", "Players: 3").
    option: str
    #: Everyone else at the table, as the table names them ("Hana (Medium)").
    others: tuple[str, ...]
    moves: int
    started: datetime
    played: datetime
    practice: bool
    broken: str | None


def option_label(game: str, options: dict[str, Any]) -> str:
    setup = adapters.get(game).setup
    value = options.get(setup.option, setup.default)
    label = str(dict(setup.choices).get(value, value))
    return label if setup.choices_name_themselves else f"{setup.label}: {label}"


def describe(record: TableRecord, player: str, moves: int) -> Unfinished:
    try:
        seats = [Seat(**seat) for seat in json.loads(record.seats)]
        options = json.loads(record.options)
    except (ValueError, TypeError):
        seats, options = [], {}
    known = record.game in adapters.names()
    mine = next((n for n, seat in enumerate(seats) if seat.player == player), None)
    names = seat_names(seats, mine)
    return Unfinished(
        id=record.id,
        title=adapters.get(record.game).title if known else record.game,
        option=option_label(record.game, options) if known and isinstance(options, dict) else "",
        others=tuple(name for n, name in enumerate(names) if n != mine),
        moves=moves,
        started=record.created_at,
        played=record.updated_at,
        practice=is_practice(record),
        broken=record.broken,
    )


def unfinished_tables(
    store: Store, player: str, records: Sequence[TableRecord]
) -> list[Unfinished]:
    """``player``'s unfinished tables among ``records``, the last played first."""
    waiting = [record for record in records if not record.finished]
    counts = store.move_counts([record.id for record in waiting])
    return [describe(record, player, counts[record.id]) for record in waiting]
