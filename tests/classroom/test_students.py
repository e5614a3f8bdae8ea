"""server.classroom.students: one name per student in a room, for the quiz and the puzzle."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from server.classroom import puzzles, quiz_answers, rooms, students
from server.classroom.messages import ClassError
from server.classroom.models import ClassEntry, QuizAnswer, QuizQuestion, QuizStudent
from server.classroom.quiz_messages import QuizAnswerMessage, QuizEnterMessage
from server.db import db
from tests.classroom.helpers import T0, new_room, student


def enter(room, name: str, key: str | None = None, **options) -> students.Entry:
    return students.enter(room, QuizEnterMessage(name=name, key=key), T0, **options)


def count(code: str) -> int:
    return db.session.scalar(select(func.count(QuizStudent.id)).where(QuizStudent.code == code))


def test_names_are_told_apart_as_a_teacher_reads_them():
    assert students.name_key("Ｂｏｂ") == students.name_key("bob") == "bob"
    assert students.name_key("  Ann   LEE ") == "ann lee"
    assert students.name_key("Straße") == students.name_key("STRASSE")
    assert students.name_key("王小明") != students.name_key("王小红")


def test_a_name_is_one_students_and_the_key_brings_them_back(ctx):
    room = new_room()
    ann = enter(room, "Ann")
    assert ann.created and not ann.renamed and ann.key and ann.student.name == "Ann"
    assert ann.key not in ann.student.key_hash  # only its hash is kept
    for taken in ("ann", "ＡＮＮ", " Ann "):
        with pytest.raises(ClassError) as err:
            enter(room, taken)
        assert err.value.code == "name-taken"
    back = enter(room, "Ann", ann.key)
    assert back.student.id == ann.student.id and not back.created and not back.renamed
    renamed = enter(room, "Annie", ann.key)  # the key renames
    assert renamed.renamed and renamed.student.name == "Annie" and count(room.code) == 1
    assert enter(room, "Ann").created  # the old name is free again
    # the same name in another room is another student
    assert enter(new_room(), "Annie").student.id != ann.student.id


def test_a_connection_and_a_browser_are_one_student(ctx):
    room = new_room()
    ann = enter(room, "Ann", player="browser-1", entered=None)
    bob = enter(room, "Bob")
    # the connection that entered as Ann cannot become Bob, with or without his key
    for name, key in (("Bob", bob.key), ("Carol", None)):
        with pytest.raises(ClassError) as err:
            enter(room, name, key, entered=ann.student.id)
        assert err.value.code == "already-entered" and err.value.params["name"] == "Ann"
    # ... and neither can another connection of her browser
    with pytest.raises(ClassError) as err:
        enter(room, "Bob", bob.key, player="browser-1")
    assert err.value.code == "already-entered"
    # her browser, back without the key: the same student, a new key (the old one is void)
    again = enter(room, "Ann", player="browser-1")
    assert again.student.id == ann.student.id and again.key != ann.key and not again.created
    assert enter(room, "Ann", again.key).student.id == ann.student.id
    with pytest.raises(ClassError) as err:
        enter(room, "Ann", ann.key)  # the old key opens nothing: the name is hers
    assert err.value.code == "name-taken"
    # a student who entered without a browser id gets it with their key
    enter(room, "Bob", bob.key, player="browser-2")
    assert enter(room, "Bob", player="browser-2").student.id == bob.student.id


def test_new_students_take_seats_and_the_callers_allowance(ctx):
    room = new_room()
    ann = enter(room, "Ann", cap=2)
    enter(room, "Bob", cap=2)
    with pytest.raises(ClassError) as err:
        enter(room, "Carol", cap=2)
    assert (err.value.code, err.value.key, err.value.params) == (
        "full",
        "class.error.full.names",
        {"max": 2},
    )

    def limited():
        raise ClassError("rate-limited", "class.error.rate-limited.names", seconds=5)

    with pytest.raises(ClassError) as err:
        enter(room, "Dan", cap=3, admit=limited)
    assert err.value.code == "rate-limited" and count(room.code) == 2
    back = enter(room, "Ann", ann.key, cap=2, admit=limited)  # not new: no seat, no allowance
    assert back.student.id == ann.student.id


def race(app, code: str, names: list[str], cap: int | None) -> tuple[list, list[str]]:
    """Each name entered at once on its own connection: (the entries, the refusals)."""
    entered, refusals = [], []
    barrier = threading.Barrier(len(names))

    def one(name: str) -> None:
        with app.app_context():
            room = rooms.find_room(code, T0)
            barrier.wait()
            try:
                entered.append(enter(room, name, cap=cap).student.id)
            except ClassError as err:
                refusals.append(err.code)

    threads = [threading.Thread(target=one, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return entered, refusals


def test_a_name_entered_at_the_same_moment_twice_is_one_students(app):
    with app.app_context():
        code = new_room().code
    entered, refusals = race(app, code, ["Ann", "ann", "ANN", "Ａｎｎ", "Ann", "Ann"], None)
    assert len(entered) == 1 and refusals == ["name-taken"] * 5
    with app.app_context():
        assert count(code) == 1


def test_the_last_seats_are_not_taken_twice(app):
    with app.app_context():
        code = new_room().code
    entered, refusals = race(app, code, [f"Student {n}" for n in range(8)], 3)
    assert len(entered) <= 3 and set(refusals) == {"full"}
    with app.app_context():
        assert count(code) == len(entered)


def test_a_removed_student_takes_their_answers_and_attempts_along(ctx):
    room = new_room()
    ann, bob = student(room, "Ann"), student(room, "Bob")
    puzzles.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, T0)
    for who in (ann, bob):
        puzzles.start_puzzle_game(room, who, T0)
    db.session.add(
        QuizQuestion(
            code=room.code, number=1, gen=1, idx=3, path="[0, 7, 4]", answer=13, why="{}",
            asked_at=T0, revealed_at=None, why_shown=False,
        )
    )  # fmt: skip
    db.session.commit()
    for who in (ann, bob):
        quiz_answers.answer(room, who, QuizAnswerMessage(question=1, square=13), T0)
    ann_id = ann.id
    removed = students.remove(room, ann_id)
    assert (removed.id, removed.name) == (ann_id, "Ann")
    assert students.student_in(room.code, ann_id) is None
    assert db.session.scalars(select(QuizAnswer.student_id)).all() == [bob.id]
    assert db.session.scalars(select(ClassEntry.student_id)).all() == [bob.id]
    assert enter(room, "Ann").created  # her name is free
    for gone in (ann_id, "nobody"):
        with pytest.raises(ClassError) as err:
            students.remove(room, gone)
        assert err.value.code == "unknown-student"


def test_a_student_belongs_to_their_room(ctx):
    room, other = new_room(), new_room()
    ann = student(room, "Ann")
    assert students.student_in(room.code, ann.id).id == ann.id
    assert students.student_in(other.code, ann.id) is None
    assert students.student_in(room.code, None) is None
    assert students.student_by_id(room, ann.id).id == ann.id
    for who in (None, "nobody"):
        with pytest.raises(ClassError) as err:
            students.student_by_id(room, who)
        assert err.value.code == "not-entered"
    with pytest.raises(ClassError) as err:
        students.student_by_id(other, ann.id)
    assert err.value.code == "not-entered"
    with pytest.raises(ClassError) as err:
        students.remove(other, ann.id)
    assert err.value.code == "unknown-student"
