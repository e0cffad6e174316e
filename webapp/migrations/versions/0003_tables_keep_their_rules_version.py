"""Tables keep the rules version they were dealt under, and why a log no longer replays.

Every table stored before was dealt before rules had versions: version 1.  A database that
``create_all`` made after these columns came (between the restore work and migrations)
already has them and was stamped at 0001: only a missing column is added.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def missing(column: str) -> bool:
    return column not in {
        found["name"] for found in sa.inspect(op.get_bind()).get_columns("play_table")
    }


def upgrade() -> None:
    if missing("rules_version"):
        version = sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1")
        op.add_column("play_table", version)
        # The default was for the rows already there; the code sets it on every new one.
        with op.batch_alter_table("play_table") as batch_op:
            batch_op.alter_column("rules_version", server_default=None)
    if missing("broken"):
        op.add_column("play_table", sa.Column("broken", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("play_table") as batch_op:
        batch_op.drop_column("broken")
        batch_op.drop_column("rules_version")
