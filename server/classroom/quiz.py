"""The class quiz: the teacher asks, each student answers, the reveal.

This module owns the questions (``class_questions``): where one is asked, holding the
demo while it is open, the reveal and the "why"; a peer question's two votes are stepped
through in server/classroom/quiz_peer.py; the students' answers, the tallies, the scores
and what each member sees of the quiz are in server/classroom/quiz_answers.py, the
students themselves in students.py.

A question is one of the engine's kinds (server/engine/questions.py: where next, a
square's onward count, Warnsdorff's pick, the steps back, the frame that carries on,
whether a tour is still possible, the board's obstacle) at a position of the room's
demo; an answer read from the search (where next, the steps back, the frame) comes from
the search's own event stream.  It is placed at the first position, from where the
class stands, where its kind can be asked and that nobody holds: never before the
furthest index the class has been sent (``class_rooms.sent_upto``, the high-water mark
of the feed and of every snapshot, on every process), since the feed leads a playing
class.  The class is moved there, or plays on to it; the search computes what is needed
on the spot (:meth:`~server.classroom.feed.RoomFeed.find_question`), so a paused room
always has a question to ask until its search makes no move left.

Until the reveal nothing about the answer leaves the server for the students: the
question event carries the position and the kind's subject only, acknowledgements echo
the student's own answer, and no member ever holds an event past the question.  From
the ask to the reveal the demo is held at the question (``class_rooms.held_at``: the
feed and snapshots stop there, see :func:`server.classroom.lease.claim_sent`, and the
class's index goes no further, see :func:`server.classroom.clock.room_index`); the
teacher's controls, new settings and lesson steps are refused with ``question-open``.

Everything is in the database (server/classroom/models.py), so any process answers
any member.  No Flask here.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ..db import db
from ..engine import questions
from ..engine.board import Board
from ..stream.encode import decode
from .clock import room_index, settings_of
from .messages import ClassError
from .models import ClassRoom, QuizQuestion

PREPARE_SECONDS = 0.5  # computing a question may take before the ask is answered ``busy``
HELD_SECONDS = 0.05  # ... and, while the room's row is locked, what is left of it
KINDS = questions.KINDS
# the kinds whose answer is a square of the board (the others: a count, 1/0, a choice)
SQUARE_KINDS = frozenset({"next", "pick", "frame"})
# kinds asked where the class stands or not at all: looking further on would not help
WHERE_THE_CLASS_IS = frozenset({"obstacle", "possible"})
_CANNOT_ASK = {"obstacle": "has-tour", "possible": "undecided"}


def cannot_ask_key(kind: str) -> str:
    """The words of ``cannot-ask`` when no position of the demo takes a ``kind``."""
    return f"class.error.cannot-ask.{_CANNOT_ASK.get(kind, 'end')}"


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
    the engine's question there (its answer, subject and why)."""

    index: int
    path: list[int]
    question: questions.Question


def first_question(
    snapshot: dict,
    counts: bool,
    board: Board,
    kind: str = "next",
    *,
    closed: bool = False,
    ended: bool = False,
    rng: random.Random | None = None,
    seconds: float = PREPARE_SECONDS,
) -> Found | object | None:
    """The first position in ``snapshot`` (from its ``index`` on) where a question of
    ``kind`` can be asked; None when its events hold none, :data:`questions.MORE` when the
    answer runs past them (``ended``: they run to the search's end).

    ``next`` skips a backtrack (the teacher asks where the knight goes, never "back") and
    the root move, which places the knight and chooses nothing.
    """
    path = list(snapshot["path"])  # the position after ``at`` events
    events = list(decode(snapshot["events"], counts))
    skip = max(0, snapshot["index"] - snapshot["at"])
    for event in events[:skip]:
        if event.kind == "move":
            path.append(event.square)
        else:
            path.pop()
    placed = questions.first(
        kind, board, path, events[skip:], closed=closed, ended=ended, rng=rng, seconds=seconds
    )
    if placed is None or placed is questions.MORE:
        return placed
    index = snapshot["at"] + skip + placed.offset
    return Found(index, list(placed.path), placed.question)


@dataclass(frozen=True)
class Asked:
    """A question asked: the question, and how the class was moved to it (or None)."""

    question: QuizQuestion
    moved: dict | None


def ask(
    room: ClassRoom,
    at: float,
    find,
    *,
    play: bool = False,
    kind: str = "next",
    peer: bool = False,
) -> Asked:
    """A new question of ``kind`` at the first position, from where the class stands, that
    nobody holds the answer of: where the class is, or as far as it has been sent.

    ``find(start, seconds, kind)`` is the demo's first :class:`Found` of that kind at or
    after ``start`` (computed, for at most ``seconds``, if the search has not got there;
    never sent to anyone); it raises ``cannot-ask`` when the search has no such position
    left, or ``busy`` while it is still far behind.  It is called once before the
    transaction, which computes what the question needs while no lock is held, and once
    inside it, where that is done (a feed sending meanwhile only moves the mark over what
    was computed).

    The class is moved there: paused at once (``play`` False), or playing on at its
    speed until it reaches the question (``play``).  ``peer`` asks it as peer instruction:
    two votes with the class's first tally between them (server/classroom/quiz_peer.py).
    One transaction: the hold is taken first (an UPDATE of the room's row, so a feed
    sending at the same moment either went first and moved the mark, or waits and stops
    at the question), then the mark is read and the question placed.  Anything refused
    leaves the room as it was.
    """
    code = room.code
    if open_question(code) is not None:
        raise ClassError("question-open")
    if room.gen <= 1:
        raise ClassError("cannot-ask", "class.error.cannot-ask.no-demo")
    if settings_of(room)["algorithm"] == "construct":
        raise ClassError("cannot-ask", "class.error.cannot-ask.construct")
    find(max(room_index(room, at, held=False), room.sent_upto), PREPARE_SECONDS, kind)
    db.session.rollback()  # no read transaction left open while the hold is taken
    try:
        return _ask_held(room, at, find, play, kind, peer)
    except BaseException:
        db.session.rollback()
        raise


def _ask_held(room: ClassRoom, at: float, find, play: bool, kind: str, peer: bool) -> Asked:
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
    found = find(start, HELD_SECONDS, kind)  # computed already, but for what was sent since
    written = found.question
    settings = settings_of(room)
    dims = {"rows": settings["rows"], "cols": settings["cols"]}  # its squares' names
    why = {"algorithm": settings["algorithm"], "board": dims, **written.why}
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
        kind=written.kind,
        subject=json.dumps(written.subject),
        answer_values=written.values,
        answer=written.answer,
        why=json.dumps(why),
        mode="peer" if peer else "single",
        phase="vote" if peer else None,
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
            "reason": _why_moved(board, start, room.sent_upto, kind),
            "play": plays_on,
        }
    return Asked(question, moved)


def _why_moved(board: int, start: int, sent: int, kind: str) -> str:
    """Why a question is not where the class stood: ``sent-ahead`` (the class had been
    sent events past it), ``root`` (the knight was not placed yet), ``backtrack`` (where
    next: the search steps back first), ``fits`` (the first position its kind fits)."""
    if sent > board:
        return "sent-ahead"
    if start == 0:
        return "root"
    return "backtrack" if kind == "next" else "fits"


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


def answer_values(question: QuizQuestion, settings: dict) -> int:
    """How many answers ``question`` takes (0 .. n - 1): a square of the board for the
    questions asked before there were kinds."""
    if question.answer_values is not None:
        return question.answer_values
    return settings["rows"] * settings["cols"]


def public_question(question: QuizQuestion) -> dict:
    """What everyone may see of a question before its reveal: the position, the kind and
    its subject, the vote it is at; no answer."""
    return {
        "question": question.number,
        "gen": question.gen,
        "index": question.idx,
        "path": json.loads(question.path),
        "kind": question.kind,
        "subject": json.loads(question.subject),
        "values": question.answer_values,
        "mode": question.mode,
        "phase": question.phase,
        "revealed": question.revealed_at is not None,
    }


def why_of(question: QuizQuestion) -> dict:
    return {"question": question.number, **json.loads(question.why)}


def latest_question(code: str) -> QuizQuestion | None:
    return db.session.scalar(
        select(QuizQuestion)
        .where(QuizQuestion.code == code)
        .order_by(QuizQuestion.number.desc())
        .limit(1)
    )
