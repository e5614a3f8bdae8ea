"""Questions of seven kinds, asked once or in two votes (peer instruction).

* ``class_questions.kind``: which question (server/engine/questions.py: ``next`` for every
  question asked before, the only kind there was); ``subject``: what it shows besides the
  position (JSON); ``answer_values``: how many answers it takes (its answers are
  ``0 .. answer_values - 1``: squares, counts, yes/no or a choice); ``mode``: ``single``
  or ``peer``; ``phase``: a peer question's step before the reveal (``vote``, ``tally``,
  ``discuss``, ``revote``);
* ``class_answers.round``: the vote an answer belongs to (1, or 2 for a peer question's
  second vote), part of the key; ``square`` becomes ``value``, since an answer is not
  always a square.

The answers' key changes, so that table is made anew and every answer copied into it as
round 1 (nothing refers to it: dropping the old one deletes nothing else).  The questions
keep their rows: their columns are added in place (a batch on SQLite would copy and drop
the table, and the drop would delete every answer, ON DELETE CASCADE).  Downgrading keeps
each student's last vote.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = ("kind", "subject", "answer_values", "mode", "phase")


def _answers_table(name: str, *, rounds: bool) -> None:
    columns = [
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
    ]
    if rounds:
        columns.append(sa.Column("round", sa.Integer, primary_key=True))
        columns.append(sa.Column("value", sa.Integer, nullable=False))
    else:
        columns.append(sa.Column("square", sa.Integer, nullable=False))
    columns.append(sa.Column("answered_at", sa.Float, nullable=False))
    op.create_table(name, *columns)


def upgrade():
    op.add_column(
        "class_questions", sa.Column("kind", sa.String(16), nullable=False, server_default="next")
    )
    op.add_column(
        "class_questions", sa.Column("subject", sa.Text, nullable=False, server_default="{}")
    )
    op.add_column("class_questions", sa.Column("answer_values", sa.Integer, nullable=True))
    op.add_column(
        "class_questions", sa.Column("mode", sa.String(8), nullable=False, server_default="single")
    )
    op.add_column("class_questions", sa.Column("phase", sa.String(8), nullable=True))
    _answers_table("class_answers_new", rounds=True)
    op.execute(
        "INSERT INTO class_answers_new (question_id, student_id, round, value, answered_at) "
        "SELECT question_id, student_id, 1, square, answered_at FROM class_answers"
    )
    op.drop_table("class_answers")
    op.rename_table("class_answers_new", "class_answers")


def downgrade():
    _answers_table("class_answers_old", rounds=False)
    op.execute(
        "INSERT INTO class_answers_old (question_id, student_id, square, answered_at) "
        "SELECT a.question_id, a.student_id, a.value, a.answered_at FROM class_answers a "
        "WHERE a.round = (SELECT MAX(b.round) FROM class_answers b "
        "WHERE b.question_id = a.question_id AND b.student_id = a.student_id)"
    )
    op.drop_table("class_answers")
    op.rename_table("class_answers_old", "class_answers")
    for column in reversed(COLUMNS):
        if op.get_bind().dialect.name == "sqlite":  # in place (SQLite 3.35+): see upgrade
            op.execute(f"ALTER TABLE class_questions DROP COLUMN {column}")
        else:
            op.drop_column("class_questions", column)
