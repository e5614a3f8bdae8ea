"""The class quiz "where next?": the teacher asks, each student taps a square, the reveal.

A question is a position of the room's demo; its right answer is the square the room's
search moves to next from that exact position, read from the search's own event stream.
It is placed at the first position, from where the class stands, whose next event is a
move with candidates (a backtrack or the root move asks nothing) and that nobody holds:
never before the furthest index the class has been sent (``class_rooms.sent_upto``, the
high-water mark of the feed and of every snapshot, on every process), since the feed
leads a playing class.  The class is moved there, or plays on to it; the search computes
what is needed on the spot (:meth:`~server.classroom.feed.RoomFeed.find_question`), so a
paused room always has a question to ask until its search makes no move left.

Until the reveal nothing about the answer leaves the server for the students: the
question event carries the position only, acknowledgements echo the student's own
square, and no member ever holds an event past the question.  From the ask to the
reveal the demo is held at the question (``class_rooms.held_at``: the feed and
snapshots stop there, see :func:`service.claim_sent`, and the class's index goes no
further; the teacher's controls and new settings are refused with ``question-open``).

Everything is in the database (server/classroom/models.py), so any process answers
any member.  No Flask here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..db import db
from ..stream.encode import DecodedMove, decode
from .messages import QuizAnswerMessage, QuizEnterMessage
from .models import ClassEntry, ClassRoom, QuizAnswer, QuizQuestion, QuizStudent
from .service import ClassError, room_index, settings_of

KEY_BYTES = 18
PREPARE_SECONDS = 0.5  # computing a question may take before the ask is answered ``busy``
HELD_SECONDS = 0.05  # ... and, while the room's row is locked, what is left of it


# -- students -------------------------------------------------------------------------------
# A student is one name in the room, for the quiz and the puzzle.  A name is one student's
# (compared by :func:`name_key`); a connection answers as one student, and so does a
# browser (its ``kt_player`` cookie): entering again from the same browser is the same
# student.  The teacher can remove a student, who takes their answers and attempts along.
def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


NAME_KEY_MAX = 96  # class_quiz_students.name_key


def name_key(name: str) -> str:
    """How names are told apart in a room: compatibility forms folded (a full-width
    ``Ｂｏｂ`` is ``Bob``), case-folded, runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())[:NAME_KEY_MAX]


@dataclass(frozen=True)
class Entry:
    """Who ``enter`` let in: the student, the key their page keeps, whether the student
    is new to the room and whether the name changed (the teacher's scores list moves)."""

    student: QuizStudent
    key: str
    created: bool = False
    renamed: bool = False


def enter(
    room: ClassRoom,
    request: QuizEnterMessage,
    at: float,
    *,
    player: str | None = None,
    entered: str | None = None,
    cap: int | None = None,
    admit: Callable[[], None] = lambda: None,
) -> Entry:
    """The student under ``request.name``: the same one again with their key, or the
    browser's own (``player``), else a new one.

    ``entered`` is the student the connection entered as (None: it has not): it stays
    that student (``already-entered`` for another, a key renames it).  A name someone
    holds needs their key (``name-taken``).  A new student needs a free seat among the
    room's ``cap`` (``full``) and ``admit()`` (which raises the refusal of a rate limit).
    """
    own = student_in(room.code, entered)
    by_key = None
    if request.key is not None:
        by_key = db.session.scalar(
            select(QuizStudent).where(
                QuizStudent.code == room.code, QuizStudent.key_hash == _hash(request.key)
            )
        )
    mine = _of_player(room.code, player)
    if own is not None and by_key is not None and by_key.id != own.id:
        raise ClassError("already-entered", name=own.name)
    if by_key is not None:
        if mine is not None and mine.id != by_key.id:  # this browser is someone else here
            raise ClassError("already-entered", name=mine.name)
        if player is not None and by_key.player is None:
            by_key.player = player
        renamed = _rename(by_key, request.name)
        db.session.commit()
        return Entry(by_key, request.key, renamed=renamed)
    if own is not None:
        raise ClassError("already-entered", name=own.name)
    if mine is not None:  # the browser's student, back without the key: a new key
        renamed = _rename(mine, request.name)
        key = secrets.token_urlsafe(KEY_BYTES)
        mine.key_hash = _hash(key)
        db.session.commit()
        return Entry(mine, key, renamed=renamed)
    return _new_student(room, request.name, at, player, cap, admit)


def student_in(code: str, student_id: str | None) -> QuizStudent | None:
    """Room ``code``'s student of that id; None when it has none (removed, or never)."""
    student = db.session.get(QuizStudent, student_id) if student_id else None
    return student if student is not None and student.code == code else None


def _of_player(code: str, player: str | None) -> QuizStudent | None:
    if player is None:
        return None
    return db.session.scalar(
        select(QuizStudent).where(QuizStudent.code == code, QuizStudent.player == player)
    )


def _rename(student: QuizStudent, name: str) -> bool:
    key = name_key(name)
    if student.name == name:
        return False
    if student.name_key != key:
        _check_name_free(student.code, name)
    student.name, student.name_key = name, key
    return True


def _new_student(
    room: ClassRoom, name: str, at: float, player: str | None, cap: int | None, admit
) -> Entry:
    _check_name_free(room.code, name)
    if cap is not None and _students_in(room.code) >= cap:
        raise ClassError("full", "class.error.full.names", max=cap)
    admit()
    key = secrets.token_urlsafe(KEY_BYTES)
    student = QuizStudent(
        id=secrets.token_hex(8),
        code=room.code,
        name=name,
        name_key=name_key(name),
        key_hash=_hash(key),
        joined_at=at,
        player=player,
        attempts=0,
        attempts_seq=0,
    )
    db.session.add(student)
    try:
        db.session.commit()
    except IntegrityError:  # the same name (or browser) entered at the same moment elsewhere
        db.session.rollback()
        raise ClassError("name-taken") from None
    if cap is not None and _students_in(room.code) > cap:  # others took the last seats
        _delete_students(room.code, [student.id])
        raise ClassError("full", "class.error.full.names", max=cap)
    return Entry(student, key, created=True)


def _students_in(code: str) -> int:
    return (
        db.session.scalar(select(func.count(QuizStudent.id)).where(QuizStudent.code == code)) or 0
    )


def _check_name_free(code: str, name: str) -> None:
    taken = db.session.scalar(
        select(QuizStudent.id).where(
            QuizStudent.code == code, QuizStudent.name_key == name_key(name)
        )
    )
    if taken is not None:
        raise ClassError("name-taken")


def student_by_id(room: ClassRoom, student_id: str | None) -> QuizStudent:
    student = student_in(room.code, student_id)
    if student is None:
        raise ClassError("not-entered")
    return student


@dataclass(frozen=True)
class Removed:
    id: str
    name: str


def remove(room: ClassRoom, student_id: str) -> Removed:
    """The teacher takes a student out of the room: their name (free again), their
    answers (tallies and the reveal's distribution count without them), their attempts
    and leaderboard lines."""
    student = student_in(room.code, student_id)
    if student is None:
        raise ClassError("unknown-student")
    removed = Removed(student.id, student.name)
    _delete_students(room.code, [student.id])
    return removed


def _delete_students(code: str, ids: list[str]) -> None:
    """Delete students with what is theirs (explicitly: not every SQLite connection
    enforces foreign keys)."""
    db.session.execute(delete(QuizAnswer).where(QuizAnswer.student_id.in_(ids)))
    db.session.execute(delete(ClassEntry).where(ClassEntry.student_id.in_(ids)))
    db.session.execute(delete(QuizStudent).where(QuizStudent.code == code, QuizStudent.id.in_(ids)))
    db.session.commit()


# -- questions --------------------------------------------------------------------------------
def open_question(code: str) -> QuizQuestion | None:
    return db.session.scalar(
        select(QuizQuestion).where(QuizQuestion.code == code, QuizQuestion.revealed_at.is_(None))
    )


def check_not_held(room: ClassRoom) -> None:
    """The teacher's demo controls wait for the reveal: moving on would tell the answer."""
    if open_question(room.code) is not None:
        raise ClassError("question-open")


@dataclass(frozen=True)
class Found:
    """Where a question can be asked: the position after ``index`` events (``path``) and
    the move the search makes from it (``move``, the answer's event)."""

    index: int
    path: list[int]
    move: DecodedMove


def first_question(snapshot: dict, counts: bool) -> Found | None:
    """The first position in ``snapshot`` (from its ``index`` on) whose next event is a
    move with candidates to choose between; None when its events hold none.

    A backtrack is skipped (the teacher asks where the knight goes, never "back"), and
    so is the root move, which places the knight and chooses nothing.
    """
    path = list(snapshot["path"])  # the position after ``at`` events
    for position, event in enumerate(decode(snapshot["events"], counts), snapshot["at"]):
        if position >= snapshot["index"] and isinstance(event, DecodedMove) and event.candidates:
            return Found(position, path, event)
        if isinstance(event, DecodedMove):
            path.append(event.square)
        else:
            path.pop()
    return None


@dataclass(frozen=True)
class Asked:
    """A question asked: the question, and how the class was moved to it (or None)."""

    question: QuizQuestion
    moved: dict | None


def ask(room: ClassRoom, at: float, find, *, play: bool = False) -> Asked:
    """A new question at the first position, from where the class stands, that nobody
    holds the answer of: where the class is, or as far as it has been sent.

    ``find(start, seconds)`` is the demo's first :class:`Found` at or after ``start``
    (computed, for at most ``seconds``, if the search has not got there; never sent to
    anyone); it raises ``cannot-ask`` when the search has no move left, or ``busy``
    while it is still far behind.  It is called once before the transaction, which
    computes what the question needs while no lock is held, and once inside it, where
    that is done (a feed sending meanwhile only moves the mark over what was computed).

    The class is moved there: paused at once (``play`` False), or playing on at its
    speed until it reaches the question (``play``).  One transaction: the hold is taken
    first (an UPDATE of the room's row, so a feed sending at the same moment either went
    first and moved the mark, or waits and stops at the question), then the mark is read
    and the question placed.  Anything refused leaves the room as it was.
    """
    code = room.code
    if open_question(code) is not None:
        raise ClassError("question-open")
    if room.gen <= 1:
        raise ClassError("cannot-ask", "class.error.cannot-ask.no-demo")
    if settings_of(room)["algorithm"] == "construct":
        raise ClassError("cannot-ask", "class.error.cannot-ask.construct")
    find(max(room_index(room, at, held=False), room.sent_upto), PREPARE_SECONDS)
    db.session.rollback()  # no read transaction left open while the hold is taken
    try:
        return _ask_held(room, at, find, play)
    except BaseException:
        db.session.rollback()
        raise


def _ask_held(room: ClassRoom, at: float, find, play: bool) -> Asked:
    code, gen = room.code, room.gen
    held = db.session.execute(
        update(ClassRoom)
        .where(ClassRoom.code == code, ClassRoom.gen == gen, ClassRoom.held_at.is_(None))
        .values(held_at=ClassRoom.sent_upto),
        execution_options={"synchronize_session": False},
    )
    if held.rowcount != 1:
        raise ClassError("question-open")
    db.session.refresh(room)  # the row as this transaction holds it
    board = room_index(room, at, held=False)  # where the class stands
    start = max(board, room.sent_upto)  # nobody holds anything from here on
    found = find(start, HELD_SECONDS)  # computed already, but for what was sent meanwhile
    settings = settings_of(room)
    move = found.move
    why = {
        "algorithm": settings["algorithm"],
        "from": found.path[-1],
        "candidates": list(move.candidates),
        "onward": list(move.onward) if move.onward is not None else None,
        "tried": move.candidates.index(move.square),  # the ones before failed (or were cut)
    }
    number = (
        db.session.scalar(
            select(func.max(QuizQuestion.number)).where(QuizQuestion.code == room.code)
        )
        or 0
    ) + 1
    question = QuizQuestion(
        code=room.code,
        number=number,
        gen=room.gen,
        idx=found.index,
        path=json.dumps(found.path),
        answer=move.square,
        why=json.dumps(why),
        asked_at=at,
        revealed_at=None,
        why_shown=False,
    )
    db.session.add(question)
    # on at the class's speed from where it stands (it stops at the question), or there now
    plays_on = play and room.speed is not None and board < found.index
    values = {"held_at": found.index, "seq": ClassRoom.seq + 1, "last_active": at}
    if plays_on:
        values |= {"idx": board, "playing": True, "state_at": at}
    else:
        values |= {"idx": found.index, "playing": False, "state_at": at}
    db.session.execute(
        update(ClassRoom).where(ClassRoom.code == code).values(values),
        execution_options={"synchronize_session": False},
    )
    try:
        db.session.commit()
    except IntegrityError:  # the teacher's other page asked at the same moment
        raise ClassError("question-open") from None
    moved = None
    if found.index != board:
        moved = {
            "from": board,
            "to": found.index,
            "reason": _why_moved(board, start, found.index, room.sent_upto),
            "play": plays_on,
        }
    return Asked(question, moved)


def _why_moved(board: int, start: int, index: int, sent: int) -> str:
    """Why a question is not where the class stood: ``sent-ahead`` (the class had been
    sent events past it), ``root`` (the knight was not placed yet), ``backtrack``."""
    if sent > board:
        return "sent-ahead"
    if start == 0:
        return "root"
    return "backtrack"


def answer(
    room: ClassRoom, student: QuizStudent, request: QuizAnswerMessage, at: float
) -> QuizAnswer:
    """Record (or change) ``student``'s square for the open question."""
    if request.student is not None and not hmac.compare_digest(request.student, student.id):
        raise ClassError("not-yours")
    question = open_question(room.code)
    if question is None or question.number != request.question:
        asked = db.session.scalar(
            select(QuizQuestion).where(
                QuizQuestion.code == room.code, QuizQuestion.number == request.question
            )
        )
        if asked is not None and asked.revealed_at is not None:
            raise ClassError("revealed")
        raise ClassError("no-question")
    settings = settings_of(room)
    if not 0 <= request.square < settings["rows"] * settings["cols"]:
        raise ClassError("bad-square", max=settings["rows"] * settings["cols"] - 1)
    record = db.session.get(QuizAnswer, (question.id, student.id))
    if record is None:
        record = QuizAnswer(
            question_id=question.id, student_id=student.id, square=request.square, answered_at=at
        )
        db.session.add(record)
    else:
        record.square, record.answered_at = request.square, at
    db.session.commit()
    return record


def find_question(room: ClassRoom, number: int) -> QuizQuestion:
    question = db.session.scalar(
        select(QuizQuestion).where(QuizQuestion.code == room.code, QuizQuestion.number == number)
    )
    if question is None:
        raise ClassError("no-question")
    return question


def reveal(room: ClassRoom, number: int, at: float) -> QuizQuestion:
    """The answer for everyone; the class stands at the question, paused (had it not
    played on that far yet, it is moved there), and the teacher's controls work again."""
    question = find_question(room, number)
    if question.revealed_at is None:
        question.revealed_at = at
        values = {"held_at": None, "seq": ClassRoom.seq + 1, "last_active": at}
        if room.gen == question.gen:
            values |= {"idx": question.idx, "playing": False, "state_at": at}
        db.session.execute(
            update(ClassRoom).where(ClassRoom.code == room.code).values(values),
            execution_options={"synchronize_session": False},
        )
        db.session.commit()
    return question


def show_why(room: ClassRoom, number: int) -> QuizQuestion:
    question = find_question(room, number)
    if question.revealed_at is None:
        raise ClassError("not-revealed")
    if not question.why_shown:
        question.why_shown = True
        db.session.commit()
    return question


# -- what each one sees ---------------------------------------------------------------------
def tally(question: QuizQuestion) -> list[list[int]]:
    """``[[square, answers], ...]``, most chosen first."""
    rows = db.session.execute(
        select(QuizAnswer.square, func.count())
        .where(QuizAnswer.question_id == question.id)
        .group_by(QuizAnswer.square)
    )
    return sorted(([square, count] for square, count in rows), key=lambda p: (-p[1], p[0]))


def public_question(question: QuizQuestion) -> dict:
    """What everyone may see of a question before its reveal: the position, no answer."""
    return {
        "question": question.number,
        "gen": question.gen,
        "index": question.idx,
        "path": json.loads(question.path),
        "revealed": question.revealed_at is not None,
    }


def revealed(question: QuizQuestion) -> dict:
    """The reveal, for everyone: the right square and the class's distribution."""
    distribution = tally(question)
    return {
        "question": question.number,
        "answer": question.answer,
        "distribution": distribution,
        "answers": sum(count for _square, count in distribution),
    }


def why_of(question: QuizQuestion) -> dict:
    return {"question": question.number, **json.loads(question.why)}


def teacher_tally(question: QuizQuestion, students: int) -> dict:
    distribution = tally(question)
    return {
        "question": question.number,
        "tally": distribution,
        "answers": sum(count for _square, count in distribution),
        "students": students,
    }


def scores(room: ClassRoom) -> dict:
    """Each student's right answers over the room's revealed questions, best first."""
    revealed_ids = select(QuizQuestion.id).where(
        QuizQuestion.code == room.code, QuizQuestion.revealed_at.is_not(None)
    )
    questions = db.session.scalar(select(func.count()).select_from(revealed_ids.subquery())) or 0
    right = dict(
        db.session.execute(
            select(QuizAnswer.student_id, func.count())
            .join(QuizQuestion, QuizQuestion.id == QuizAnswer.question_id)
            .where(
                QuizQuestion.code == room.code,
                QuizQuestion.revealed_at.is_not(None),
                QuizAnswer.square == QuizQuestion.answer,
            )
            .group_by(QuizAnswer.student_id)
        ).all()
    )
    answered = dict(
        db.session.execute(
            select(QuizAnswer.student_id, func.count())
            .where(QuizAnswer.question_id.in_(revealed_ids))
            .group_by(QuizAnswer.student_id)
        ).all()
    )
    students = db.session.scalars(select(QuizStudent).where(QuizStudent.code == room.code))
    rows = [
        {
            "student": s.id,
            "name": s.name,
            "right": right.get(s.id, 0),
            "answered": answered.get(s.id, 0),
        }
        for s in students
    ]
    rows.sort(key=lambda r: (-r["right"], -r["answered"], r["name"].casefold()))
    return {"questions": questions, "scores": rows}


def own_score(room: ClassRoom, student: QuizStudent) -> dict:
    """One student's score, counted for them alone (not read off the whole class's: a
    student's page must not cost what the room's size does)."""
    revealed = (QuizQuestion.code == room.code, QuizQuestion.revealed_at.is_not(None))
    questions = db.session.scalar(select(func.count(QuizQuestion.id)).where(*revealed)) or 0
    answered, right = db.session.execute(
        select(
            func.count(QuizAnswer.question_id),
            func.count(QuizAnswer.question_id).filter(QuizAnswer.square == QuizQuestion.answer),
        )
        .join(QuizQuestion, QuizQuestion.id == QuizAnswer.question_id)
        .where(QuizAnswer.student_id == student.id, *revealed)
    ).one()
    return {"questions": questions, "right": right or 0, "answered": answered or 0}


def latest_question(code: str) -> QuizQuestion | None:
    return db.session.scalar(
        select(QuizQuestion)
        .where(QuizQuestion.code == code)
        .order_by(QuizQuestion.number.desc())
        .limit(1)
    )


def student_view(room: ClassRoom, student: QuizStudent | None) -> dict:
    """A student's quiz: the latest question (its reveal once revealed), their own answer
    and score; never another student's answer, never the answer before the reveal."""
    question = latest_question(room.code)
    view: dict = {"question": None, "mine": None, "reveal": None, "why": None, "score": None}
    if question is not None:
        view["question"] = public_question(question)
        if question.revealed_at is not None:
            view["reveal"] = revealed(question)
            if question.why_shown:
                view["why"] = why_of(question)
    if student is not None:
        view["student"] = {"id": student.id, "name": student.name}
        view["score"] = own_score(room, student)
        if question is not None:
            mine = db.session.get(QuizAnswer, (question.id, student.id))
            view["mine"] = mine.square if mine is not None else None
    return view


def teacher_view(room: ClassRoom, students: int) -> dict:
    """The teacher's quiz: the latest question with its answer, the tally, the scores."""
    question = latest_question(room.code)
    view: dict = {"question": None, "answer": None, "tally": None, "reveal": None, "why": None}
    if question is not None:
        view["question"] = public_question(question)
        view["answer"] = question.answer
        view["tally"] = teacher_tally(question, students)
        view["why"] = why_of(question)
        view["why_shown"] = question.why_shown
        if question.revealed_at is not None:
            view["reveal"] = revealed(question)
    view["scores"] = scores(room)
    return view
