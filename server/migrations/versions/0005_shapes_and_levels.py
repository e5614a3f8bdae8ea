"""Shapes and levels: boards with holes, a fixed start, progress, the daily puzzle, replays.

* ``games.holes``: the board's holes (JSON list of squares, ``[]`` for a rectangle);
  ``games.start``: the square the first move must be, or NULL (a free start);
  ``games.level`` / ``games.daily``: the level id or the daily puzzle's date the game
  plays, else NULL; ``games.player``: the anonymous player who started it (for stars);
* ``scores.puzzle``: the puzzle's code (server/engine/shape.py) for a shape, a level or
  a daily puzzle, NULL for a plain rectangle (those rank by rows, cols and mode as
  before); ``scores.daily``: the daily puzzle's date;
* ``players``: an anonymous player, known by a cookie (no sign-up);
* ``level_progress``: a player's stars per level (bits: 1 finished, 2 without hints,
  4 without undo) and best time;
* ``replays``: a won game's public replay id (the game's own id stays its secret key).

Existing rows get ``[]`` and NULLs: every game and score so far is a plain rectangle.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("holes", sa.Text, nullable=False, server_default="[]"))
        batch.add_column(sa.Column("start", sa.Integer, nullable=True))
        batch.add_column(sa.Column("level", sa.String(32), nullable=True))
        batch.add_column(sa.Column("daily", sa.String(10), nullable=True))
        batch.add_column(sa.Column("player", sa.String(32), nullable=True))
    with op.batch_alter_table("scores") as batch:
        batch.add_column(sa.Column("puzzle", sa.String(96), nullable=True))
        batch.add_column(sa.Column("daily", sa.String(10), nullable=True))
        batch.create_index("ix_scores_puzzle", ["puzzle", "seconds"])
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "level_progress",
        sa.Column(
            "player",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("level", sa.String(32), primary_key=True),
        sa.Column("stars", sa.Integer, nullable=False, server_default="0"),
        sa.Column("best_seconds", sa.Float, nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "replays",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade():
    op.drop_table("replays")
    op.drop_table("level_progress")
    op.drop_table("players")
    with op.batch_alter_table("scores") as batch:
        batch.drop_index("ix_scores_puzzle")
        batch.drop_column("daily")
        batch.drop_column("puzzle")
    with op.batch_alter_table("games") as batch:
        for column in ("player", "daily", "level", "start", "holes"):
            batch.drop_column(column)
