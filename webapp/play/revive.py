"""A stored table's state, rebuilt from its log by the rules of the day.

The rules may have changed since the table was dealt: a log they refuse (an action no
longer legal, an option or game that no longer exists, or any other failure) marks the
table broken, and only that table.  A log from an older rules version that still
replays goes on under the new rules.
"""

from __future__ import annotations

from typing import Any

from webapp.game import registry
from webapp.game.registry import AnyGame
from webapp.play.store import Store, StoredTable, TableBroken


def revive(store: Store, stored: StoredTable) -> tuple[AnyGame, Any]:
    """The table's game and its state after every logged action.

    Raises :class:`TableBroken` (after marking the table) when the log does not replay.
    """
    step = "the deal"
    try:
        game = registry.get(stored.game)
        state = game.new_game(stored.seed, stored.options)
        for number, text in enumerate(stored.log, start=1):
            step = f"move {number} {text!r}"
            state = game.play(state, text)
    except Exception as error:
        # Any failure: the replay is deterministic, so it would fail the same way again.
        reason = f"{step}: {type(error).__name__}: {error} ({versions(stored)})"
        store.mark_broken(stored.id, reason)
        raise TableBroken(stored.id, stored.game, reason, stored.finished) from error
    return game, state


def versions(stored: StoredTable) -> str:
    """The rules version the table was dealt under, and the one that replayed it.

    >>> from webapp.play.store import StoredTable
    >>> versions(StoredTable("t", "koa", 1, {}, (), "g-x", False, (), rules_version=0))
    'dealt under rules v0, replayed under v1'
    >>> versions(StoredTable("t", "chess", 1, {}, (), "g-x", False, (), rules_version=3))
    'dealt under rules v3, no such game now'
    """
    game = registry.games().get(stored.game)
    now = f"replayed under v{game.rules_version}" if game else "no such game now"
    return f"dealt under rules v{stored.rules_version}, {now}"
