"""The teacher's page reports a submission's run; the server checks it, then ranks it.

The server never runs a student's program: the teacher's page runs it in its own worker
and reports ``{found, closed, moves, backtracks, path}`` (``lab_checked``).  What can be
checked without running it is checked here, against the definition of a tour and the
exercise alone (:func:`server.engine.theory.verify`, which trusts no solver): the path is
a tour of the exercise's board (its holes) from its start, closed when the exercise or
the run says so, its counts are those of a search that ended on it (every move not taken
back is on the path: ``moves - backtracks = len(path)``, the start's placement counted as
/watch counts it), and within the exercise's limit.  A run without a tour says what ended
it (``stop``): the program itself, the exercise's limit, the check's caps, or an error.  A
run that does not hold is stored as failed with the first reason that fails it
(:data:`REASONS`, words in the catalogues as ``class.lab.fail.<reason>``).  The
leaderboard lists passed runs only.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import defer

from ..db import db
from ..engine.board import Board
from ..engine.theory import verify
from .lab import exercise_of, submission_json, submission_of
from .lab_messages import LabCheckedMessage
from .models import ClassRoom, LabSubmission, QuizStudent
from .rooms import touch

LEADERBOARD_SIZE = 100
REASONS = (
    "not-found",  # the program returned without a tour
    "limit-reached",  # stopped at the exercise's limit of moves + backtracks, no tour yet
    "stopped",  # stopped by the check's time or step cap (a `while True:`), no tour
    "error",  # the program stopped with an error (the lab says which, on its line)
    "not-a-tour",  # the path is not a tour of the exercise's board
    "wrong-start",  # a tour, from another square than the exercise's start
    "not-closed",  # the exercise (or the run) says closed; the path does not close
    "counts",  # the moves and backtracks are not those of a search that ended on the path
    "over-limit",  # more moves + backtracks than the exercise allows
)


def failure(exercise: dict, run: LabCheckedMessage) -> str | None:
    """Why ``run`` does not pass ``exercise`` (one of :data:`REASONS`), None if it does."""
    limit = exercise.get("limit")
    if not run.found:
        if run.stop == "limit" and limit is not None and run.moves + run.backtracks > limit:
            return "limit-reached"
        return {"limit": "stopped", "time": "stopped", "error": "error"}.get(run.stop, "not-found")
    rows, cols = exercise["rows"], exercise["cols"]
    board = Board(rows, cols, exercise.get("holes", ()))
    if not verify(board, run.path):
        return "not-a-tour"
    start_row, start_col = exercise["start"]
    if run.path[0] != start_row * cols + start_col:
        return "wrong-start"
    if (exercise["closed"] or run.closed) and not verify(board, run.path, closed=True):
        return "not-closed"
    if run.moves - run.backtracks != len(run.path):
        return "counts"
    if limit is not None and run.moves + run.backtracks > limit:
        return "over-limit"
    return None


def record_check(room: ClassRoom, payload, at: float) -> dict:
    """Check and store the teacher page's report of a run (a :class:`LabCheckedMessage`
    payload); the submission with its check.  A later report of the same submission
    replaces the earlier one (the teacher's page ran it again)."""
    run = LabCheckedMessage.model_validate(payload)
    submission = submission_of(room, run.id)
    exercise = exercise_of(room)
    reason = failure(exercise, run)
    submission.passed = reason is None
    submission.reason = reason
    submission.moves, submission.backtracks = run.moves, run.backtracks
    submission.closed = run.closed and reason is None
    submission.checked_at = at
    touch(room, at)
    db.session.commit()
    name = db.session.scalar(
        select(QuizStudent.name).where(QuizStudent.id == submission.student_id)
    )
    return submission_json(submission, name or "")


def leaderboard(room: ClassRoom) -> dict:
    """The current exercise's passed runs, one line per student (their best: fewest moves
    + backtracks, then the earliest submitted), ranked; and how the class stands."""
    exercise = exercise_of(room)
    empty = {"exercise": None, "entries": [], "submitted": 0, "students": 0, "checked": 0}
    if exercise is None:
        return {**empty, "passed": 0}
    rows = db.session.execute(
        select(LabSubmission, QuizStudent.name)
        .join(QuizStudent, QuizStudent.id == LabSubmission.student_id)
        .where(LabSubmission.code == room.code, LabSubmission.exercise == exercise["number"])
        .order_by(
            LabSubmission.moves + LabSubmission.backtracks,
            LabSubmission.submitted_at,
            LabSubmission.id,
        )
        .options(defer(LabSubmission.source))
    ).all()
    entries, seen = [], set()
    for submission, name in rows:
        if not submission.passed or submission.student_id in seen:
            continue
        seen.add(submission.student_id)
        entries.append(
            {
                "rank": len(entries) + 1,
                "student": submission.student_id,
                "name": name,
                "submission": submission.id,
                "moves": submission.moves,
                "backtracks": submission.backtracks,
                "total": submission.moves + submission.backtracks,
                "closed": submission.closed,
                "at": submission.submitted_at,
            }
        )
    return {
        "exercise": exercise,
        "entries": entries[:LEADERBOARD_SIZE],
        "submitted": len(rows),
        "students": len({submission.student_id for submission, _name in rows}),
        "checked": sum(1 for submission, _name in rows if submission.passed is not None),
        "passed": len(entries),
    }


def rank_of(room: ClassRoom, student_id: str) -> int | None:
    """The student's place on the leaderboard (None: no passed run, or beyond its size)."""
    board = leaderboard(room)
    return next((e["rank"] for e in board["entries"] if e["student"] == student_id), None)
