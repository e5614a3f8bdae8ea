"""The class quiz "where next?": the room's students, its questions and their answers.

* ``class_quiz_students``: a student who entered the quiz under a name (unique in the
  room, compared case-folded), with the SHA-256 of the key their page keeps to come
  back as the same student after a reload;
* ``class_questions``: one per question the teacher asked: the demo position (its
  generation, event index and path), the right square and the "why" (the candidates
  in the order tried, with their onward counts under Warnsdorff), when it was revealed;
* ``class_answers``: one answer per student per question (changed in place until the
  reveal);
* ``class_rooms.sent_upto``: how far into the demo the class has been sent (a question is
  asked there at the earliest), ``class_rooms.held_at``: the open question's index.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_rooms") as batch:
        batch.add_column(sa.Column("sent_upto", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("held_at", sa.Integer))
    op.create_table(
        "class_quiz_students",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.UniqueConstraint("code", "name_key", name="uq_class_quiz_students_name"),
    )
    op.create_table(
        "class_questions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "code",
            sa.String(8),
            sa.ForeignKey("class_rooms.code", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("gen", sa.Integer, nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("answer", sa.Integer, nullable=False),
        sa.Column("why", sa.Text, nullable=False),
        sa.Column("asked_at", sa.Float, nullable=False),
        sa.Column("revealed_at", sa.Float, nullable=True),
        sa.Column("why_shown", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("code", "number", name="uq_class_questions_number"),
    )
    op.create_table(
        "class_answers",
        sa.Column(
            "question_id",
            sa.Integer,
            sa.ForeignKey("class_questions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "student_id",
            sa.String(16),
            sa.ForeignKey("class_quiz_students.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("square", sa.Integer, nullable=False),
        sa.Column("answered_at", sa.Float, nullable=False),
    )


def downgrade():
    op.drop_table("class_answers")
    op.drop_table("class_questions")
    op.drop_table("class_quiz_students")
    with op.batch_alter_table("class_rooms") as batch:
        batch.drop_column("held_at")
        batch.drop_column("sent_upto")
