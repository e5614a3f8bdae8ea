"""Live class rooms per client address.

* ``class_rooms.address``: the client address that opened the room (NULL for the rooms
  opened before), indexed: one address may keep only ``CLASS_ADDRESS_ROOMS`` rooms
  alive, and its rooms' demos are searched on its search budget.

Nothing is lost: existing rooms keep everything and count against no address.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    # not in a batch: on SQLite a batch copies the table and drops the old one, and that
    # drop would delete every row that belongs to a room (ON DELETE CASCADE)
    op.add_column("class_rooms", sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_class_rooms_address", "class_rooms", ["address"])


def downgrade():
    op.drop_index("ix_class_rooms_address", table_name="class_rooms")
    if op.get_bind().dialect.name == "sqlite":  # in place (SQLite 3.35+), for the same reason
        op.execute("ALTER TABLE class_rooms DROP COLUMN address")
    else:
        op.drop_column("class_rooms", "address")
