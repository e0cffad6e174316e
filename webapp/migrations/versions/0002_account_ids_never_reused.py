"""Account ids are never given out again (AUTOINCREMENT on SQLite).

Without it SQLite hands a deleted account's id, when it was the highest, to the next
sign-up, who would then inherit the old account's open sockets, seats and rooms.
PostgreSQL's sequences never go back, so there is nothing to do there.  SQLite cannot
alter a table's key, so batch mode copies the table into a new one.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def recreate_accounts(autoincrement: bool) -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "auth_user", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass


def upgrade() -> None:
    recreate_accounts(autoincrement=True)


def downgrade() -> None:
    recreate_accounts(autoincrement=False)
