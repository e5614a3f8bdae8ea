"""Alembic's environment: the app's own engine and models (Flask-Migrate).

No ``fileConfig``: migrations also run inside a serving app (an embedded SQLite
database is upgraded at start), whose logging must not be reconfigured.
"""

from alembic import context
from flask import current_app

target = current_app.extensions["migrate"]


def run_migrations_online() -> None:
    with target.db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target.db.metadata,
            **target.configure_args,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():  # `flask db upgrade --sql`: the statements, not run
    context.configure(
        url=target.db.engine.url.render_as_string(hide_password=False),
        target_metadata=target.db.metadata,
        literal_binds=True,
        **target.configure_args,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
