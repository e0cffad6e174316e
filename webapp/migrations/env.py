"""Alembic's environment: migrations run on the connection ``webapp.schema`` hands over.

No ``alembic.ini``: run them through Flask, which knows the database URL:

    flask --app webapp db upgrade               # bring the database to the newest migration
    flask --app webapp db migrate -m "what"     # write the next one from the models

``render_as_batch``: SQLite alters a table by copying it into a new one (Alembic's batch
mode); elsewhere the same operations are plain ``ALTER TABLE``.
"""

from alembic import context

from webapp import schema

context.configure(
    connection=context.config.attributes["connection"],
    target_metadata=schema.metadata(),
    render_as_batch=True,
    render_item=schema.render_item,
)
with context.begin_transaction():
    context.run_migrations()
