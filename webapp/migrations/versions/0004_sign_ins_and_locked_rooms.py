"""Each browser's sign-in is a row (signing out ends it for every copy of the cookie), and
a host can lock a room.

Sessions signed in before this migration carry no sign-in key, so they end: everyone
signs in once more.  Every room stored before is unlocked.  A database that ``create_all``
made from today's models (stamped at 0001) has both already: only what is missing is made.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def missing_table(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def missing_column(table: str, column: str) -> bool:
    return column not in {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    if missing_table("auth_signin"):
        create_sign_ins()
    if missing_column("rooms_room", "locked"):
        add_locked()


def create_sign_ins() -> None:
    op.create_table(
        "auth_signin",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key"),
        sa.ForeignKeyConstraint(["user_id"], ["auth_user.id"], ondelete="CASCADE"),
    )
    op.create_index(op.f("ix_auth_signin_user_id"), "auth_signin", ["user_id"], unique=False)


def add_locked() -> None:
    op.add_column(
        "rooms_room", sa.Column("locked", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    # The default was for the rows already there; the code sets it on every new one.
    with op.batch_alter_table("rooms_room") as batch_op:
        batch_op.alter_column("locked", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("rooms_room") as batch_op:
        batch_op.drop_column("locked")
    op.drop_index(op.f("ix_auth_signin_user_id"), table_name="auth_signin")
    op.drop_table("auth_signin")
