"""A room's host can choose a house-rule preset for the tables it opens (Koi-Koi).

Every room stored before plays the standard rules.  A database that ``create_all`` made
from today's models (stamped at 0001) has the column already: only a missing one is made.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("rooms_room")}
    if "rules" not in columns:
        op.add_column(
            "rooms_room",
            sa.Column("rules", sa.String(length=16), nullable=False, server_default="standard"),
        )
        # The default was for the rows already there; the code sets it on every new one.
        with op.batch_alter_table("rooms_room") as batch_op:
            batch_op.alter_column("rules", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("rooms_room") as batch_op:
        batch_op.drop_column("rules")
