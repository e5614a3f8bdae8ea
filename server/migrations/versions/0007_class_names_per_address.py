"""Names per client address in a class room.

* ``class_quiz_students.address``: the client address that entered the name (NULL for
  the names entered before), indexed with the room's code: one address, a script, may
  enter only ``CLASS_ADDRESS_ROOM_NAMES`` names in a room.

Nothing is lost: existing names keep everything and count against no address.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    # not in a batch: on SQLite a batch copies the table and drops the old one, and that
    # drop would delete every class entry of its students (ON DELETE CASCADE)
    op.add_column("class_quiz_students", sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_class_quiz_students_address", "class_quiz_students", ["code", "address"])


def downgrade():
    op.drop_index("ix_class_quiz_students_address", table_name="class_quiz_students")
    if op.get_bind().dialect.name == "sqlite":  # in place (SQLite 3.35+), for the same reason
        op.execute("ALTER TABLE class_quiz_students DROP COLUMN address")
    else:
        op.drop_column("class_quiz_students", "address")
