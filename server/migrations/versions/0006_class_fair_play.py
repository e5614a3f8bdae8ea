"""Fair class play: attempts and leaderboard lines per student, one student per player.

* ``class_quiz_students.player``: the ``kt_player`` cookie of the browser that entered
  the room (NULL when it had none), unique in the room: a browser is one student there;
* ``class_quiz_students.attempts`` / ``attempts_seq``: the student's attempts at the
  room's puzzle number ``attempts_seq`` (counted per student, not per connection; the
  teacher can clear them);
* ``class_entries.student_id``: the student who made the attempt (the leaderboard has one
  line per student, not per name).

Nothing is lost: existing students get no player and no attempts (the next puzzle
counts from 0), and an existing attempt is given the student of its room whose name is
the attempt's (case-folded, as names are compared), else it stays NULL and is told
apart by its name, as before.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_quiz_students") as batch:
        batch.add_column(sa.Column("player", sa.String(32), nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("attempts_seq", sa.Integer, nullable=False, server_default="0"))
        batch.create_unique_constraint("uq_class_quiz_students_player", ["code", "player"])
    with op.batch_alter_table("class_entries") as batch:
        batch.add_column(
            sa.Column(
                "student_id",
                sa.String(16),
                sa.ForeignKey(
                    "class_quiz_students.id",
                    name="fk_class_entries_student_id",
                    ondelete="CASCADE",
                ),
                nullable=True,
            )
        )
        batch.create_index("ix_class_entries_student_id", ["student_id"])
    _attempts_to_their_students()


def _attempts_to_their_students():
    """Each attempt made under a student's name (``solve`` takes the entered name) is
    that student's; names are compared case-folded, as the app does (in Python: SQL's
    ``lower`` folds ASCII only)."""
    bind = op.get_bind()
    students = sa.table(
        "class_quiz_students", sa.column("id"), sa.column("code"), sa.column("name_key")
    )
    entries = sa.table(
        "class_entries",
        sa.column("id"),
        sa.column("code"),
        sa.column("name"),
        sa.column("student_id"),
    )
    owner = {
        (code, name_key): student
        for student, code, name_key in bind.execute(
            sa.select(students.c.id, students.c.code, students.c.name_key)
        )
    }
    for entry, code, name in bind.execute(
        sa.select(entries.c.id, entries.c.code, entries.c.name).where(
            entries.c.student_id.is_(None)
        )
    ).all():
        student = owner.get((code, name.casefold()))
        if student is not None:
            bind.execute(sa.update(entries).where(entries.c.id == entry).values(student_id=student))


def downgrade():
    with op.batch_alter_table("class_entries") as batch:
        batch.drop_index("ix_class_entries_student_id")
        batch.drop_constraint("fk_class_entries_student_id", type_="foreignkey")
        batch.drop_column("student_id")
    with op.batch_alter_table("class_quiz_students") as batch:
        batch.drop_constraint("uq_class_quiz_students_player", type_="unique")
        batch.drop_column("attempts_seq")
        batch.drop_column("attempts")
        batch.drop_column("player")
