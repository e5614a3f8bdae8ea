"""One search per class room: the demo's progress, its owner, its checkpoints.

* ``class_rooms.control_seq``: the teacher page's sequence number of the last control
  applied (a control is applied only when newer: compare-and-set);
* ``class_rooms.outcome``: the search's end once reached (JSON), and ``frontier`` now
  counts the events the room's search has computed (it counted the teacher's shown
  events before, so it restarts at 0);
* ``class_rooms.owner`` / ``lease_until``: the server process that runs the room's
  search, for as long as its lease lasts;
* ``class_checkpoints``: the search's state every so many events (a walker state), from
  which any process serves any index of the demo.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_rooms") as batch:
        batch.add_column(sa.Column("control_seq", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("outcome", sa.Text))
        batch.add_column(sa.Column("owner", sa.String(64)))
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=False, server_default="0"))
    op.execute("UPDATE class_rooms SET frontier = 0")
    op.create_table(
        "class_checkpoints",
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("gen", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade():
    op.drop_table("class_checkpoints")
    with op.batch_alter_table("class_rooms") as batch:
        for column in ("lease_until", "owner", "outcome", "control_seq"):
            batch.drop_column(column)
