"""The schema of release 0.1.0: games, the leaderboard, class rooms.

Release 0.1.0 (and the development versions before it) made these tables without
migrations, so this revision also adopts such a database: it creates only the tables
that are missing, and adds ``games.version`` to databases from before that column.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables(meta: sa.MetaData) -> None:
    sa.Table(
        "games",
        meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("returned", sa.Boolean, nullable=False),
        sa.Column("undos", sa.Integer, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("finished_at", sa.Float),
        sa.Column("good_until", sa.Integer, nullable=False),
        sa.Column("dead_from", sa.Integer),
        sa.Column("dead", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
    )
    scores = sa.Table(
        "scores",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("undos", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id"),
    )
    sa.Index("ix_scores_board", scores.c.rows, scores.c.cols, scores.c.closed, scores.c.seconds)
    class_rooms = sa.Table(
        "class_rooms",
        meta,
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_active", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("gen", sa.Integer, nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("playing", sa.Boolean, nullable=False),
        sa.Column("speed", sa.Float),
        sa.Column("state_at", sa.Float, nullable=False),
        sa.Column("frontier", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("puzzle", sa.Text),
        sa.Column("puzzle_seq", sa.Integer, nullable=False),
    )
    sa.Index("ix_class_rooms_last_active", class_rooms.c.last_active)
    class_presence = sa.Table(
        "class_presence",
        meta,
        sa.Column("sid", sa.String(64), primary_key=True),
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    sa.Index("ix_class_presence_code", class_presence.c.code)
    class_entries = sa.Table(
        "class_entries",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("puzzle_seq", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("solved_at", sa.Float),
        sa.Column("seconds", sa.Float),
        sa.Column("moves", sa.Integer),
        sa.Column("hints", sa.Integer),
        sa.Column("undos", sa.Integer),
        sa.UniqueConstraint("game_id"),
    )
    sa.Index("ix_class_entries_code", class_entries.c.code)


def upgrade():
    bind = op.get_bind()
    meta = sa.MetaData()
    _tables(meta)
    present = set(sa.inspect(bind).get_table_names())
    for table in meta.sorted_tables:
        if table.name not in present:
            table.create(bind)  # with its indexes
    if "games" in present:
        columns = {column["name"] for column in sa.inspect(bind).get_columns("games")}
        if "version" not in columns:  # the optimistic lock came after the first games
            with op.batch_alter_table("games") as batch:
                batch.add_column(
                    sa.Column("version", sa.Integer, nullable=False, server_default="1")
                )


def downgrade():
    for table in ("class_entries", "class_presence", "class_rooms", "scores", "games"):
        op.drop_table(table)
