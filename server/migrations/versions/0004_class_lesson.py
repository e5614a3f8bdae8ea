"""The guided lesson run in a class room: where the teacher has the class.

* ``class_rooms.lesson_chapter``: the chapter's id (server/lesson/chapters.json) while the
  room follows the lesson, else NULL (a demo the teacher set up by hand);
* ``class_rooms.lesson_step``: the narration step in that chapter, counted from 0.

The room's demo already holds the chapter's settings and the step's position; these two
say which words go with it, so a reload, a late joiner or another process reads them here.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("class_rooms") as batch:
        batch.add_column(sa.Column("lesson_chapter", sa.String(32), nullable=True))
        batch.add_column(sa.Column("lesson_step", sa.Integer, nullable=True))


def downgrade():
    with op.batch_alter_table("class_rooms") as batch:
        batch.drop_column("lesson_step")
        batch.drop_column("lesson_chapter")
