"""A class demo may race two searches: checkpoints per lane.

* ``class_checkpoints.lane``: which search of the room's demo a checkpoint belongs to
  (0, or 1 for the second search of a lesson's race, server/stream/race.py), part of
  the key.

The key changes, so the table is made anew and every stored checkpoint copied into it as
lane 0 (nothing refers to this table: dropping the old one deletes nothing else).
Downgrading keeps lane 0's checkpoints; a race's second lane is computed again.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _checkpoints_table(name: str, *, lanes: bool) -> None:
    columns = [
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("gen", sa.Integer, primary_key=True),
    ]
    if lanes:
        columns.append(sa.Column("lane", sa.Integer, primary_key=True))
    columns += [
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
    ]
    op.create_table(name, *columns)


def upgrade():
    _checkpoints_table("class_checkpoints_new", lanes=True)
    op.execute(
        "INSERT INTO class_checkpoints_new (code, gen, lane, idx, data) "
        "SELECT code, gen, 0, idx, data FROM class_checkpoints"
    )
    op.drop_table("class_checkpoints")
    op.rename_table("class_checkpoints_new", "class_checkpoints")


def downgrade():
    _checkpoints_table("class_checkpoints_old", lanes=False)
    op.execute(
        "INSERT INTO class_checkpoints_old (code, gen, idx, data) "
        "SELECT code, gen, idx, data FROM class_checkpoints WHERE lane = 0"
    )
    op.drop_table("class_checkpoints")
    op.rename_table("class_checkpoints_old", "class_checkpoints")
