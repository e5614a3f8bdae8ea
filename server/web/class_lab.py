"""The code lab's Socket.IO handlers on ``/class`` (docs/protocol.md, "The code lab in a
class").

Registered on :class:`~server.web.class_socket.ClassNamespace`, which answers their
refusals.  The teacher hands out an exercise (``lab_exercise``, to the whole room),
students submit programs (``lab_submit``: the source text only; the teacher's pages get
each as ``lab_submission``), the teacher's page runs them in its worker and reports each
run (``lab_checked``), which the server checks (server/classroom/lab_checks.py) before
it counts: the teacher's pages get ``lab_leaderboard`` (through the hub's throttle), the
student their own result (``lab_result``, to that student's connections only).  No
student ever receives another's source.
"""

from __future__ import annotations

from flask import request

from ..classroom import lab, lab_checks, rooms, students
from ..classroom.hub import student_room
from ..classroom.lab_messages import LabSourceMessage
from ..classroom.messages import ClassError
from ..classroom.room_messages import EmptyMessage
from .class_room import hub, lab_leaderboard_to_teacher
from .sockets import server


def _student(namespace, member, room):
    """The connection's student (``not-student``, ``not-entered``); its connection joins
    the student's own Socket.IO room, where its results go."""
    if member.role != "student":
        raise ClassError("not-student")
    student = students.student_in(room.code, member.quiz_student)
    if student is None:
        member.quiz_student = None  # never entered, or removed by the teacher
        raise ClassError("not-entered")
    server().enter_room(request.sid, student_room(room.code, student.id), namespace=namespace)
    return student


def on_lab_exercise(self, payload):
    """An exercise for the class (a preset, or a board and a goal), or ``null`` to close
    the current one to new submissions; the room gets ``lab_exercise``."""
    member = self._member()
    room = self._room(member, teacher=True)
    exercise = lab.set_exercise(room, payload, rooms.now())
    self._to_room("lab_exercise", {"exercise": exercise}, room.code)
    lab_leaderboard_to_teacher(room.code)  # the teacher's other pages
    return {"ok": True, "exercise": exercise, "leaderboard": lab_checks.leaderboard(room)}


def on_lab_submit(self, payload):
    """``{exercise, source}``: this student's program; the teacher's pages get it."""
    member = self._member(costly=True)
    room = self._room(member)
    student = _student(self.namespace, member, room)
    submission = lab.submit(room, student, payload, rooms.now())
    hub().to_teacher("lab_submission", submission, room.code)
    lab_leaderboard_to_teacher(room.code)
    mine = {key: value for key, value in submission.items() if key != "source"}
    return {"ok": True, "submission": mine}


def on_lab_checked(self, payload):
    """``{id, found, closed, moves, backtracks, path}``: the teacher's page ran that
    submission; the server checks the run and stores the result, passed or not."""
    member = self._member()
    room = self._room(member, teacher=True)
    submission = lab_checks.record_check(room, payload, rooms.now())
    lab_leaderboard_to_teacher(room.code)
    rank = lab_checks.rank_of(room, submission["student"])
    hub().to_student(
        "lab_result", {"submission": submission, "rank": rank}, room.code, submission["student"]
    )
    return {"ok": True, "submission": submission, "leaderboard": lab_checks.leaderboard(room)}


def on_lab_source(self, payload):
    """``{id}``: a stored submission with its source: any of the room's for the teacher,
    a student's own for the student."""
    member = self._member()
    room = self._room(member)
    submission_id = LabSourceMessage.model_validate(payload).id
    owner = None if member.role == "teacher" else _student(self.namespace, member, room)
    return {"ok": True, "submission": lab.source_of(room, submission_id, owner)}


def on_lab_state(self, payload):
    """``{}``: the lab as this member may see it (a reload, a reconnect): the teacher's
    pages every submission (without sources) and the leaderboard; a student their own."""
    member = self._member()
    room = self._room(member)
    if payload is not None:
        EmptyMessage.model_validate(payload)
    exercise = lab.exercise_of(room)
    if member.role == "teacher":
        return {
            "ok": True,
            "exercise": exercise,
            "submissions": lab.submissions(room),
            "leaderboard": lab_checks.leaderboard(room),
        }
    try:
        student = _student(self.namespace, member, room)
    except ClassError:  # not entered yet: the exercise alone
        return {"ok": True, "exercise": exercise, "submissions": [], "rank": None}
    return {
        "ok": True,
        "exercise": exercise,
        "submissions": lab.submissions(room, student),
        "rank": lab_checks.rank_of(room, student.id),
    }
