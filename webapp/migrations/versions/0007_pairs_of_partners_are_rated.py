"""Partners of a team of two (Koa's mandan) have their own record and rating: one row per
unordered pair of accounts per game.

The rated matches stored before are counted for their pairs, oldest first, as if the
pairs had been rated all along (a match whose teams are not all pairs any more, since an
account was deleted, is left out).  A database that ``create_all`` made from today's
models (stamped at 0001) has the table already: only a missing one is made and filled.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from itertools import groupby

import sqlalchemy as sa
from alembic import op

from webapp.ranking import elo

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RESULTS = sa.table(
    "ranking_result",
    sa.column("table_id", sa.String),
    sa.column("user_id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("team", sa.Integer),
    sa.column("score", sa.Float),
    sa.column("rated_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("ranking_pair"):
        return
    pairs = op.create_table(
        "ranking_pair",
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("first_id < second_id", name="ranking_pair_ordered"),
        sa.ForeignKeyConstraint(["first_id"], ["auth_user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["second_id"], ["auth_user.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game", "first_id", "second_id"),
    )
    op.create_index("ranking_pair_board", "ranking_pair", ["game", "rating"], unique=False)
    op.create_index("ranking_pair_second", "ranking_pair", ["second_id", "game"], unique=False)
    rows = past_pairs()
    if rows:
        op.bulk_insert(pairs, rows)


@dataclass
class PairRow:
    """One pair's row while the past matches are replayed."""

    game: str
    first_id: int
    second_id: int
    rating: float = elo.INITIAL
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    updated_at: datetime | None = None


def past_pairs() -> list[dict[str, object]]:
    """Every pair's row as the stored rated matches make it, replayed oldest first."""
    results = op.get_bind().execute(
        sa.select(RESULTS).order_by(RESULTS.c.rated_at, RESULTS.c.table_id, RESULTS.c.team)
    )
    found: dict[tuple[str, int, int], PairRow] = {}
    for _table, rows in groupby(results.mappings().all(), key=lambda row: row["table_id"]):
        played = list(rows)
        teams = [list(members) for _team, members in groupby(played, key=lambda r: r["team"])]
        if len(teams) < 2 or any(len(team) != 2 for team in teams):
            continue
        pairs = []
        for team in teams:
            first, second = sorted(row["user_id"] for row in team)
            key = (played[0]["game"], first, second)
            pairs.append(found.setdefault(key, PairRow(*key)))
        sides = [[elo.Player(pair.rating, pair.games)] for pair in pairs]
        winners = {index for index, team in enumerate(teams) if team[0]["score"] == 1.0}
        for pair, team, (change,) in zip(pairs, teams, elo.changes(sides, winners), strict=True):
            score = team[0]["score"]
            pair.rating += change
            pair.games += 1
            pair.wins += score == 1.0
            pair.draws += score == 0.5
            pair.losses += score == 0.0
            pair.updated_at = played[0]["rated_at"]
    return [asdict(pair) for pair in found.values()]


def downgrade() -> None:
    op.drop_index("ranking_pair_second", table_name="ranking_pair")
    op.drop_index("ranking_pair_board", table_name="ranking_pair")
    op.drop_table("ranking_pair")
