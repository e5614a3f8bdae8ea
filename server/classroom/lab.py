"""The code lab in a class: the teacher hands out an exercise, students submit programs.

The exercise lives in the room's row (``lab``, numbered by ``lab_seq``); each program a
student submits is a ``class_lab_submissions`` row of the room, the student
(server/classroom/students.py) and the exercise's number.  The server stores the source
text and never runs it: the teacher's page runs each submission in its own worker and
reports the run, which server/classroom/lab_checks.py checks and ranks.

Bounds: a student submits at most :data:`MAX_PER_STUDENT` programs for one exercise (a
program is sent when its author thinks it works: ten tries are plenty, and nothing is
dropped behind a student's back), a room keeps at most :data:`MAX_PER_ROOM`, and a new
exercise replaces the old one with its submissions.  Each cap is checked again after the
insert, so two tabs racing for the last place cannot both keep it.  No Flask here: the
web layer (server/web/class_lab.py) calls these.
"""

from __future__ import annotations

import json

from sqlalchemy import delete, func, select
from sqlalchemy.orm import defer

from ..db import db
from .lab_messages import LabExerciseMessage, LabSubmitMessage
from .messages import ClassError
from .models import ClassRoom, LabSubmission, QuizStudent
from .rooms import touch

MAX_PER_STUDENT = 10  # submissions per student per exercise
MAX_PER_ROOM = 400  # submissions a room keeps (of its one exercise)


# -- the exercise ---------------------------------------------------------------------------------
def set_exercise(room: ClassRoom, payload, at: float) -> dict | None:
    """Hand the class an exercise (a :class:`LabExerciseMessage` payload), or close the
    current one to new submissions with ``None``; the exercise as everyone sees it.

    The same exercise again (a teacher's second tab) keeps its number and submissions
    (and opens it again when closed); another one gets the next number, and the old
    one's submissions are deleted.  A ``ValidationError``
    refuses a bad one.
    """
    current = exercise_of(room)
    if payload is None:
        if current is not None and current["open"]:
            room.lab = json.dumps({**current, "open": False})
    else:
        exercise = LabExerciseMessage.model_validate(payload).stored()
        if current is not None and _content(current) == exercise:  # (re)opened as it was
            room.lab = json.dumps({**current, "open": True})
        else:
            room.lab_seq += 1
            room.lab = json.dumps({**exercise, "open": True, "number": room.lab_seq})
            db.session.execute(
                delete(LabSubmission).where(
                    LabSubmission.code == room.code, LabSubmission.exercise != room.lab_seq
                )
            )
    touch(room, at)
    db.session.commit()
    return exercise_of(room)


def _content(exercise: dict) -> dict:
    return {key: value for key, value in exercise.items() if key not in ("number", "open")}


def exercise_of(room: ClassRoom) -> dict | None:
    """The room's exercise: ``{number, preset, example, title, prompt, rows, cols, start,
    holes, closed, limit, open}``, or None when none was handed out."""
    return json.loads(room.lab) if room.lab else None


def current_exercise(room: ClassRoom) -> dict:
    exercise = exercise_of(room)
    if exercise is None:
        raise ClassError("no-exercise")
    return exercise


# -- submissions ----------------------------------------------------------------------------------
def submit(
    room: ClassRoom,
    student: QuizStudent,
    payload,
    at: float,
    *,
    per_student: int = MAX_PER_STUDENT,
    per_room: int = MAX_PER_ROOM,
) -> dict:
    """Store ``student``'s program (a :class:`LabSubmitMessage` payload) for the open
    exercise it names; the stored submission, its source included."""
    message = LabSubmitMessage.model_validate(payload)
    exercise = current_exercise(room)
    if message.exercise != exercise["number"]:
        raise ClassError("old-exercise", number=exercise["number"])
    if not exercise["open"]:
        raise ClassError("no-exercise", "class.error.no-exercise.closed")
    caps = _Caps(room.code, exercise["number"], student.id, per_student, per_room)
    caps.check()
    submission = LabSubmission(
        code=room.code,
        exercise=exercise["number"],
        student_id=student.id,
        source=message.source,
        submitted_at=at,
    )
    db.session.add(submission)
    touch(room, at)
    db.session.commit()
    try:
        caps.check(inserted=True)
    except ClassError:  # another tab or student took the last place meanwhile
        db.session.execute(delete(LabSubmission).where(LabSubmission.id == submission.id))
        db.session.commit()
        raise
    return submission_json(submission, student.name, source=True)


class _Caps:
    def __init__(self, code: str, exercise: int, student: str, per_student: int, per_room: int):
        self.where = (LabSubmission.code == code, LabSubmission.exercise == exercise)
        self.student = student
        self.per_student, self.per_room = per_student, per_room

    def check(self, *, inserted: bool = False) -> None:
        """``full`` when the student (or the room) has no place left for one more;
        ``inserted``: that one is in already."""
        more = 0 if inserted else 1
        mine = self._count(LabSubmission.student_id == self.student)
        if mine + more > self.per_student:
            raise ClassError("full", "class.error.full.submissions", max=self.per_student)
        if self._count() + more > self.per_room:
            raise ClassError("full", "class.error.full.lab-room", max=self.per_room)

    def _count(self, *more) -> int:
        count = select(func.count(LabSubmission.id)).where(*self.where, *more)
        return db.session.scalar(count) or 0


def submissions(room: ClassRoom, student: QuizStudent | None = None) -> list[dict]:
    """The current exercise's submissions (``student``'s only, when given), oldest first,
    without their sources (at most :data:`MAX_PER_ROOM`)."""
    exercise = exercise_of(room)
    if exercise is None:
        return []
    where = [LabSubmission.code == room.code, LabSubmission.exercise == exercise["number"]]
    if student is not None:
        where.append(LabSubmission.student_id == student.id)
    rows = db.session.execute(
        select(LabSubmission, QuizStudent.name)
        .join(QuizStudent, QuizStudent.id == LabSubmission.student_id)
        .where(*where)
        .order_by(LabSubmission.id)
        .limit(MAX_PER_ROOM)
        .options(defer(LabSubmission.source))
    )
    return [submission_json(submission, name) for submission, name in rows]


def submission_of(
    room: ClassRoom, submission_id: int, student: QuizStudent | None = None
) -> LabSubmission:
    """The room's submission ``submission_id`` for its current exercise (``student``'s
    own, when given); ``unknown-submission`` otherwise, alike for someone else's."""
    exercise = exercise_of(room)
    submission = db.session.get(LabSubmission, submission_id)
    if (
        exercise is None
        or submission is None
        or submission.code != room.code
        or submission.exercise != exercise["number"]
        or (student is not None and submission.student_id != student.id)
    ):
        raise ClassError("unknown-submission")
    return submission


def source_of(room: ClassRoom, submission_id: int, student: QuizStudent | None = None) -> dict:
    """A submission with its source (the teacher's page after a reload, or its author's)."""
    submission = submission_of(room, submission_id, student)
    name = db.session.scalar(
        select(QuizStudent.name).where(QuizStudent.id == submission.student_id)
    )
    return submission_json(submission, name or "", source=True)


def submission_json(submission: LabSubmission, name: str, *, source: bool = False) -> dict:
    answer = {
        "id": submission.id,
        "student": submission.student_id,
        "name": name,
        "exercise": submission.exercise,
        "at": submission.submitted_at,
        "check": None,
    }
    if submission.passed is not None:
        answer["check"] = {
            "passed": submission.passed,
            "reason": submission.reason,
            "moves": submission.moves,
            "backtracks": submission.backtracks,
            "closed": submission.closed,
            "at": submission.checked_at,
        }
    if source:
        answer["source"] = submission.source
    return answer
