"""A room's host chooses the turn clock of the tables it opens (30 or 60 seconds, or
none).  Every room stored before keeps the rules' 30 seconds.  A database that
``create_all`` made from today's models (stamped at 0001) has the column already.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("rooms_room")}
    if "clock" in columns:
        return
    op.add_column(
        "rooms_room", sa.Column("clock", sa.Integer(), nullable=False, server_default="30")
    )
    # The default was for the rows already there; the code sets it on every new one.
    with op.batch_alter_table("rooms_room") as batch_op:
        batch_op.alter_column("clock", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("rooms_room") as batch_op:
        batch_op.drop_column("clock")
