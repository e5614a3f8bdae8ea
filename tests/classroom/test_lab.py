"""server.classroom.lab: the room's lab exercise and the students' submissions."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from server.app import create_app
from server.classroom import lab, rooms, students
from server.classroom.messages import ClassError
from server.classroom.models import LabSubmission
from server.db import db
from tests.classroom.helpers import T0, new_room, refused, student

SIX = {"rows": 6, "cols": 6, "start": [0, 0], "closed": False}


def submit(room, who, source: str = "print('tour')", at: float = T0, **caps) -> dict:
    number = lab.exercise_of(room)["number"]
    return lab.submit(room, who, {"exercise": number, "source": source}, at, **caps)


def stored(code: str) -> int:
    count = select(func.count(LabSubmission.id)).where(LabSubmission.code == code)
    return db.session.scalar(count)


def test_an_exercise_is_numbered_and_a_new_one_replaces_the_old_with_its_submissions(ctx):
    room = new_room()
    assert lab.exercise_of(room) is None
    first = lab.set_exercise(room, {"preset": "plain-dfs"}, T0)
    assert (first["number"], first["open"], first["rows"]) == (1, True, 6)
    ann = student(room, "Ann")
    mine = submit(room, ann, "def dfs(x, y, step):\n    pass\n")
    assert mine["source"] == "def dfs(x, y, step):\n    pass\n"
    assert (mine["student"], mine["name"], mine["exercise"], mine["check"]) == (
        ann.id,
        "Ann",
        1,
        None,
    )
    # the same exercise again (a second teacher tab) keeps its number and submissions
    assert lab.set_exercise(room, {"preset": "plain-dfs"}, T0 + 1) == first
    assert stored(room.code) == 1
    # closed: no more submissions, the stored ones stay; reopened as it was
    closed = lab.set_exercise(room, None, T0 + 2)
    assert closed == {**first, "open": False}
    assert refused(submit, room, ann) == "no-exercise"
    assert lab.set_exercise(room, {"preset": "plain-dfs"}, T0 + 3) == first
    # another one: the next number, and the old one's submissions are gone
    second = lab.set_exercise(room, {**SIX, "closed": True}, T0 + 4)
    assert second["number"] == 2 and second["preset"] is None and second["closed"]
    assert stored(room.code) == 0 and lab.submissions(room) == []


def test_a_submission_for_another_exercise_or_none_is_refused(ctx):
    room = new_room()
    ann = student(room, "Ann")
    with pytest.raises(ClassError) as err:
        lab.submit(room, ann, {"exercise": 1, "source": "x = 1"}, T0)
    assert err.value.code == "no-exercise"
    lab.set_exercise(room, {"preset": "plain-dfs"}, T0)
    lab.set_exercise(room, {"preset": "warnsdorff"}, T0)
    with pytest.raises(ClassError) as err:
        lab.submit(room, ann, {"exercise": 1, "source": "x = 1"}, T0)
    assert (err.value.code, err.value.params) == ("old-exercise", {"number": 2})
    assert refused(lab.submit, room, ann, {"exercise": 2, "source": ""}, T0) == "bad-source"
    assert stored(room.code) == 0


def test_submissions_are_bounded_per_student_and_per_room(ctx):
    room = new_room()
    lab.set_exercise(room, {"preset": "plain-dfs"}, T0)
    ann, bob, cy = (student(room, name) for name in ("Ann", "Bob", "Cy"))
    for n in range(3):
        submit(room, ann, f"# {n}", per_student=3, per_room=5)
    with pytest.raises(ClassError) as err:
        submit(room, ann, per_student=3, per_room=5)
    assert (err.value.key, err.value.params) == ("class.error.full.submissions", {"max": 3})
    submit(room, bob, per_student=3, per_room=5)
    submit(room, bob, per_student=3, per_room=5)
    with pytest.raises(ClassError) as err:
        submit(room, cy, per_student=3, per_room=5)
    assert (err.value.key, err.value.params) == ("class.error.full.lab-room", {"max": 5})
    assert stored(room.code) == 5
    assert not any("source" in s for s in lab.submissions(room))  # the list is light
    assert [s["name"] for s in lab.submissions(room, bob)] == ["Bob", "Bob"]


def test_the_default_caps_are_ten_per_student_and_four_hundred_per_room():
    assert (lab.MAX_PER_STUDENT, lab.MAX_PER_ROOM) == (10, 400)


def test_a_source_is_the_teachers_to_read_and_its_authors_alone(ctx):
    room = new_room()
    lab.set_exercise(room, {"preset": "plain-dfs"}, T0)
    ann, bob = student(room, "Ann"), student(room, "Bob")
    mine = submit(room, ann, "# Ann's 马")
    assert lab.source_of(room, mine["id"])["source"] == "# Ann's 马"
    assert lab.source_of(room, mine["id"], ann)["source"] == "# Ann's 马"
    assert refused(lab.source_of, room, mine["id"], bob) == "unknown-submission"
    assert refused(lab.source_of, room, mine["id"] + 1) == "unknown-submission"
    other = new_room()
    lab.set_exercise(other, {"preset": "plain-dfs"}, T0)
    assert refused(lab.source_of, other, mine["id"]) == "unknown-submission"


def test_submissions_go_with_their_student_and_their_room(ctx):
    room = new_room()
    lab.set_exercise(room, {"preset": "plain-dfs"}, T0)
    ann, bob = student(room, "Ann"), student(room, "Bob")
    submit(room, ann)
    submit(room, bob)
    students.remove(room, ann.id)
    assert [s["name"] for s in lab.submissions(room)] == ["Bob"]
    rooms.close_room(room)
    assert db.session.scalar(select(func.count(LabSubmission.id))) == 0


def test_submissions_survive_a_restart(app):
    with app.app_context():
        room = new_room()
        exercise = lab.set_exercise(room, {"preset": "python-sort"}, T0)
        mine = submit(room, student(room, "Ann"), "# 马 tour")
        code = room.code
    restarted = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": app.config["INSTANCE_PATH"],
            "DATABASE_URL": app.config["DATABASE_URL"],
        }
    )
    with restarted.app_context():
        room = rooms.find_room(code, T0)
        assert lab.exercise_of(room) == exercise
        assert lab.source_of(room, mine["id"]) == mine
