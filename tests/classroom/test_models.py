"""server.classroom.models: the constraints the room's races fall back on.

Two connections of one room can do the same thing at the same moment on two processes
(enter one name, ask a question from two teacher pages); the code checks first, and the
database's unique constraints refuse whichever write comes second
(server/classroom/students.py and quiz.py turn that into ``name-taken`` and
``question-open``)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from server.classroom.models import ClassCheckpoint, QuizQuestion, QuizStudent
from server.db import db
from tests.classroom.helpers import T0, new_room


def add(row) -> None:
    db.session.add(row)
    db.session.commit()


def refused(row) -> bool:
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return True
    return False


def a_student(code: str, sid: str, name_key: str, player: str | None) -> QuizStudent:
    return QuizStudent(
        id=sid, code=code, name=name_key, name_key=name_key, key_hash="0" * 64, joined_at=T0,
        player=player, attempts=0, attempts_seq=0,
    )  # fmt: skip


def a_question(code: str, number: int) -> QuizQuestion:
    return QuizQuestion(
        code=code, number=number, gen=2, idx=5, path="[0]", answer=7, why="{}", asked_at=T0,
        revealed_at=None, why_shown=False,
    )  # fmt: skip


def test_a_name_and_a_browser_are_one_students_in_a_room(ctx):
    room, other = new_room(), new_room()
    add(a_student(room.code, "s1", "ann", "browser-1"))
    assert refused(a_student(room.code, "s2", "ann", None))  # the same name
    assert refused(a_student(room.code, "s3", "bob", "browser-1"))  # the same browser
    add(a_student(room.code, "s4", "bob", None))
    add(a_student(room.code, "s5", "cy", None))  # many without a browser id
    add(a_student(other.code, "s6", "ann", "browser-1"))  # another room: another student


def test_a_question_number_is_asked_once_in_a_room(ctx):
    room, other = new_room(), new_room()
    add(a_question(room.code, 1))
    assert refused(a_question(room.code, 1))
    add(a_question(room.code, 2))
    add(a_question(other.code, 1))


def test_a_checkpoint_is_one_per_index_of_a_demos_lane(ctx):
    room = new_room()
    add(ClassCheckpoint(code=room.code, gen=2, lane=0, idx=20_000, data="{}"))
    assert refused(ClassCheckpoint(code=room.code, gen=2, lane=0, idx=20_000, data="{}"))
    add(ClassCheckpoint(code=room.code, gen=2, lane=1, idx=20_000, data="{}"))  # a race's other
    add(ClassCheckpoint(code=room.code, gen=3, lane=0, idx=20_000, data="{}"))


def test_rows_belong_to_a_room_that_exists(ctx):
    assert refused(a_question("NOROOM", 1))
    assert refused(a_student("NOROOM", "s1", "ann", None))
    with pytest.raises(IntegrityError):
        add(ClassCheckpoint(code="NOROOM", gen=2, lane=0, idx=0, data="{}"))
