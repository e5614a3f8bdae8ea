"""The class puzzle: the teacher hands one out, each student plays it on the Play page,
and the room ranks the solutions.

The puzzle lives in the room's row (``puzzle``, numbered by ``puzzle_seq``); each
attempt is a ``class_entries`` row linking an ordinary game (server/game/) to the
student (``class_quiz_students``, server/classroom/students.py) who plays it.  A student
has :data:`MAX_ATTEMPTS` attempts at one puzzle until the teacher clears them, counted
in one UPDATE so two tabs cannot both take the last.  A solution is ranked only once
the server has checked the stored game: won, on the puzzle's board, from its start.
Only the web layer (server/web/class_socket.py) uses it.  No Flask here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import case, func, or_, select, update

from ..db import db
from ..game import audit
from ..game import service as games
from ..game.rules import RuleError
from .messages import ClassError
from .models import ClassEntry, ClassRoom, QuizStudent
from .puzzle_messages import PuzzleMessage
from .rooms import now, touch

MAX_ATTEMPTS = 5  # attempts at one puzzle per student, until the teacher clears them
LEADERBOARD_SIZE = 50


def set_puzzle(room: ClassRoom, payload, at: float) -> dict | None:
    """Hand the class a puzzle (a :class:`PuzzleMessage`, or take it back with ``None``);
    the public puzzle.  A ``ValidationError`` refuses a bad one."""
    if payload is None:
        room.puzzle = None
    else:
        puzzle = PuzzleMessage.model_validate(payload).stored()
        room.puzzle_seq += 1
        room.puzzle = json.dumps({**puzzle, "seq": room.puzzle_seq})
    touch(room, at)
    db.session.commit()
    return puzzle_of(room)


def puzzle_of(room: ClassRoom) -> dict | None:
    return json.loads(room.puzzle) if room.puzzle else None


def start_puzzle_game(
    room: ClassRoom,
    student: QuizStudent,
    at: float,
    *,
    admit: Callable[[], None] = lambda: None,
    max_attempts: int = MAX_ATTEMPTS,
) -> dict:
    """A Play-page game for the room's puzzle with the knight already on its start square,
    one of ``student``'s attempts (``full`` once they are used, until the teacher clears
    them); ``admit()`` raises the refusal of the game limits (one more game row).

    The student then plays it through the ordinary game API; the start cannot be changed
    there (undo never takes back the placement, restart keeps it), so a win of this game
    is a solution of the puzzle.
    """
    puzzle = puzzle_of(room)
    if puzzle is None:
        raise ClassError("no-puzzle")
    seq = puzzle["seq"]
    # one UPDATE that counts the attempt only while one is left: two connections of one
    # student (two tabs, a script with the key) cannot both take the last
    taken = db.session.execute(
        update(QuizStudent)
        .where(
            QuizStudent.id == student.id,
            or_(QuizStudent.attempts_seq != seq, QuizStudent.attempts < max_attempts),
        )
        .values(
            attempts=case((QuizStudent.attempts_seq == seq, QuizStudent.attempts + 1), else_=1),
            attempts_seq=seq,
        ),
        execution_options={"synchronize_session": False},
    )
    if taken.rowcount != 1:
        db.session.rollback()
        raise ClassError("full", "class.error.full.attempts", max=max_attempts)
    try:
        admit()
        start = _start_square(puzzle)
        created = games.create_game(
            puzzle["rows"],
            puzzle["cols"],
            puzzle["closed"],
            holes=frozenset(puzzle.get("holes", ())),
            start=start,
            placed_at=at,  # the knight on the fixed start already
            commit=False,  # one commit below: the attempt, the game and the entry
        )
    except BaseException:
        db.session.rollback()
        raise
    db.session.add(
        ClassEntry(
            code=room.code,
            puzzle_seq=seq,
            game_id=created.id,
            student_id=student.id,
            name=student.name,
            started_at=at,
        )
    )
    touch(room, at)
    db.session.commit()
    return {"game": created.id, "puzzle": puzzle, "name": student.name}


def clear_attempts(room: ClassRoom, student_id: str | None = None) -> int:
    """The teacher gives a student (None: every student) their attempts at the puzzle
    back; how many students had some.  ``unknown-student`` for a student not in the room."""
    where = [QuizStudent.code == room.code]
    if student_id is not None:
        where.append(QuizStudent.id == student_id)
        if db.session.scalar(select(QuizStudent.id).where(*where)) is None:
            raise ClassError("unknown-student")
    result = db.session.execute(
        update(QuizStudent).where(*where, QuizStudent.attempts > 0).values(attempts=0),
        execution_options={"synchronize_session": False},
    )
    touch(room, now())
    db.session.commit()
    return result.rowcount


def record_solution(room: ClassRoom, game_id: str, at: float) -> dict:
    """A student says they solved it: the server checks the stored game, then ranks it."""
    entry = db.session.scalar(
        select(ClassEntry).where(ClassEntry.code == room.code, ClassEntry.game_id == game_id)
    )
    puzzle = puzzle_of(room)
    if entry is None or puzzle is None or entry.puzzle_seq != puzzle["seq"]:
        raise ClassError("unknown-entry")
    if entry.solved_at is not None:
        return _entry_json(entry)
    try:
        state = games.load(game_id).state
    except RuleError:
        raise ClassError("unknown-entry") from None
    start = _start_square(puzzle)
    if (
        not (state.won and audit.is_tour(state))  # the rules' word, and the path checked again
        or (state.rows, state.cols, state.closed)
        != (puzzle["rows"], puzzle["cols"], puzzle["closed"])
        or state.holes != frozenset(puzzle.get("holes", ()))
        or (start is not None and state.path[0] != start)
    ):
        raise ClassError("not-solved")
    finished = state.finished_at if state.finished_at is not None else at
    entry.solved_at = finished
    entry.seconds = round(max(0.0, finished - entry.started_at), 1)
    entry.moves, entry.hints, entry.undos = state.moves, state.hints, state.undos
    touch(room, at)
    db.session.commit()
    return _entry_json(entry)


def _start_square(puzzle: dict) -> int | None:
    """The puzzle's fixed start as a square; None when each student picks it."""
    if puzzle.get("start") is None:
        return None
    row, col = puzzle["start"]
    return row * puzzle["cols"] + col


def _entry_json(entry: ClassEntry, name: str | None = None) -> dict:
    return {
        "student": entry.student_id,
        "name": name or entry.name,
        "seconds": entry.seconds,
        "moves": entry.moves,
        "hints": entry.hints,
        "undos": entry.undos,
    }


def solver_key(entry: ClassEntry) -> str:
    """Whose line of the leaderboard an attempt is: its student's (attempts made before
    students were kept: its name's, case-folded)."""
    if entry.student_id is not None:
        return f"student:{entry.student_id}"
    return f"name:{entry.name.casefold()}"


def leaderboard(room: ClassRoom) -> dict:
    """The current puzzle's solvers: unaided solutions first, each group fastest first.

    As on the Play page's leaderboard, a run that used hints is ranked apart: it goes
    after every run without, however quick (ties: fewer hints).  One line per student,
    their best result under their name now (nobody can take another's line by a name
    alike).  ``trying`` counts the attempts handed out.
    """
    puzzle = puzzle_of(room)
    if puzzle is None:
        return {"puzzle": None, "entries": [], "trying": 0, "solved": 0}
    seq = puzzle["seq"]
    base = (ClassEntry.code == room.code, ClassEntry.puzzle_seq == seq)
    trying = db.session.scalar(select(func.count(ClassEntry.id)).where(*base)) or 0
    solved = db.session.execute(
        select(ClassEntry, QuizStudent.name)
        .outerjoin(QuizStudent, QuizStudent.id == ClassEntry.student_id)
        .where(*base, ClassEntry.solved_at.is_not(None))
        .order_by(ClassEntry.hints > 0, ClassEntry.seconds, ClassEntry.hints, ClassEntry.id)
    )
    entries, seen = [], set()
    for entry, name in solved:
        key = solver_key(entry)
        if key in seen:
            continue
        seen.add(key)
        entries.append({"rank": len(entries) + 1, **_entry_json(entry, name)})
    return {
        "puzzle": puzzle,
        "entries": entries[:LEADERBOARD_SIZE],
        "trying": trying,
        "solved": len(entries),
    }
