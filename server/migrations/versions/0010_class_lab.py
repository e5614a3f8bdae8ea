"""The code lab in a class room: its exercise and the students' submissions.

* ``class_rooms.lab`` / ``lab_seq``: the exercise handed out (JSON) and the number of the
  last one (a submission names the exercise it was sent for);
* ``class_lab_submissions``: one row per program a student submitted (its source text,
  never run by the server) and the check of the run the teacher's page reported; it
  belongs to its room and its student (ON DELETE CASCADE).

Nothing is lost: existing rooms have no exercise.  Downgrading drops the submissions.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

COLUMNS = ("lab", "lab_seq")


def upgrade():
    # not in a batch: on SQLite a batch copies the table and drops the old one, and that
    # drop would delete every row that belongs to a room (ON DELETE CASCADE)
    op.add_column("class_rooms", sa.Column("lab", sa.Text, nullable=True))
    op.add_column(
        "class_rooms", sa.Column("lab_seq", sa.Integer, nullable=False, server_default="0")
    )
    op.create_table(
        "class_lab_submissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("exercise", sa.Integer, nullable=False),
        sa.Column(
            "student_id",
            sa.String(16),
            sa.ForeignKey("class_quiz_students.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("submitted_at", sa.Float, nullable=False),
        sa.Column("checked_at", sa.Float, nullable=True),
        sa.Column("passed", sa.Boolean, nullable=True),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("moves", sa.BigInteger, nullable=True),
        sa.Column("backtracks", sa.BigInteger, nullable=True),
        sa.Column("closed", sa.Boolean, nullable=True),
    )
    op.create_index(
        "ix_class_lab_submissions_exercise",
        "class_lab_submissions",
        ["code", "exercise", "student_id"],
    )


def downgrade():
    op.drop_index("ix_class_lab_submissions_exercise", table_name="class_lab_submissions")
    op.drop_table("class_lab_submissions")
    for column in reversed(COLUMNS):
        if op.get_bind().dialect.name == "sqlite":  # in place (SQLite 3.35+): see upgrade
            op.execute(f"ALTER TABLE class_rooms DROP COLUMN {column}")
        else:
            op.drop_column("class_rooms", column)
