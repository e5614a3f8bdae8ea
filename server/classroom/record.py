"""The teacher's record of a lesson: every question, every student's answers in both
votes, the puzzle attempts and the lab submissions' checked results.

It is read from the room's own rows (``class_questions``, ``class_answers``,
``class_entries``, ``class_lab_submissions``), so it lasts as long as the room and goes
with it (ON DELETE CASCADE): nothing is copied anywhere else.  Only the teacher's token
opens it (server/web/class_record.py); a student sees their own answers in the quiz's
student view, never this.  :func:`rows` lays it out as one table, a line per answer,
attempt or submission, for the CSV and the printable page; the words are the caller's
(``say``).  No Flask here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import defer

from ..db import db
from ..engine.board import Board
from ..engine.questions import OBSTACLES
from .clock import settings_of
from .models import ClassEntry, ClassRoom, LabSubmission, QuizAnswer, QuizQuestion, QuizStudent
from .quiz import SQUARE_KINDS

COLUMNS = (
    "section",
    "number",
    "item",
    "student",
    "first",
    "second",
    "right",
    "correct",
    "detail",
    "at",
)


@dataclass(frozen=True)
class Question:
    number: int
    kind: str
    mode: str
    votes: int  # 1, or 2 once a peer question's second vote opened
    index: int
    asked_at: float
    revealed_at: float | None
    answer: int
    subject: dict
    rows: int
    cols: int


@dataclass(frozen=True)
class Record:
    code: str
    created_at: float
    students: list[dict]  # {id, name}, in the order they came
    questions: list[Question]
    # (question, student): {vote: (value, answered at)}
    answers: dict[tuple[int, str], dict[int, tuple[int, float]]]
    attempts: list[dict]  # the puzzle attempts, in the order they started
    submissions: list[dict]  # the lab submissions, in the order they came


def room_record(room: ClassRoom) -> Record:
    """Everything the room keeps of the lesson, in order."""
    code = room.code
    settings = settings_of(room)
    students = db.session.scalars(
        select(QuizStudent).where(QuizStudent.code == code).order_by(QuizStudent.joined_at)
    ).all()
    questions = []
    for q in db.session.scalars(
        select(QuizQuestion).where(QuizQuestion.code == code).order_by(QuizQuestion.number)
    ):
        board = json.loads(q.why).get("board") or settings
        questions.append(
            Question(
                number=q.number,
                kind=q.kind,
                mode=q.mode,
                votes=2 if q.phase == "revote" else 1,
                index=q.idx,
                asked_at=q.asked_at,
                revealed_at=q.revealed_at,
                answer=q.answer,
                subject=json.loads(q.subject),
                rows=board["rows"],
                cols=board["cols"],
            )
        )
    answers: dict = {}
    for number, student, vote, value, at in db.session.execute(
        select(
            QuizQuestion.number,
            QuizAnswer.student_id,
            QuizAnswer.round,
            QuizAnswer.value,
            QuizAnswer.answered_at,
        )
        .join(QuizQuestion, QuizQuestion.id == QuizAnswer.question_id)
        .where(QuizQuestion.code == code)
    ):
        answers.setdefault((number, student), {})[vote] = (value, at)
    names = {s.id: s.name for s in students}
    attempts = [
        {
            "puzzle": e.puzzle_seq,
            "student": names.get(e.student_id, e.name),
            "started_at": e.started_at,
            "solved_at": e.solved_at,
            "seconds": e.seconds,
            "moves": e.moves,
            "hints": e.hints,
            "undos": e.undos,
        }
        for e in db.session.scalars(
            select(ClassEntry).where(ClassEntry.code == code).order_by(ClassEntry.started_at)
        )
    ]
    submissions = [
        {
            "exercise": s.exercise,
            "student": names.get(s.student_id, ""),
            "submitted_at": s.submitted_at,
            "checked_at": s.checked_at,
            "passed": s.passed,
            "reason": s.reason,
            "moves": s.moves,
            "backtracks": s.backtracks,
            "closed": s.closed,
        }
        for s in db.session.scalars(
            select(LabSubmission)
            .where(LabSubmission.code == code)
            .order_by(LabSubmission.submitted_at, LabSubmission.id)
            .options(defer(LabSubmission.source))
        )
    ]
    return Record(
        code=code,
        created_at=room.created_at,
        students=[{"id": s.id, "name": s.name} for s in students],
        questions=questions,
        answers=answers,
        attempts=attempts,
        submissions=submissions,
    )


def answer_text(question: Question, value: int | None, say: Callable[..., str]) -> str:
    """A question's answer as the teacher reads it: a square's name, a number, yes or no,
    an obstacle's name."""
    if value is None:
        return ""
    if question.kind in SQUARE_KINDS:
        board = Board(question.rows, question.cols)
        return board.name(value) if 0 <= value < board.area else str(value)
    if question.kind == "possible":
        return say("class.record.yes" if value else "class.record.no")
    if question.kind == "obstacle" and 0 <= value < len(OBSTACLES):
        return say(f"class.quiz.obstacle.{OBSTACLES[value]}")
    return str(value)


def question_text(question: Question, say: Callable[..., str]) -> str:
    """``"Where next? (step 41)"``: the kind, where it was asked, its subject."""
    words = say(f"class.quiz.kind.{question.kind}")
    square = question.subject.get("square")
    if square is not None:
        name = Board(question.rows, question.cols).name(square)
        words = say("class.record.subject", kind=words, square=name)
    words += " " + say("class.record.at-step", step=question.index)
    if question.mode == "peer":
        words += " · " + say("class.record.peer")
    return words


def rows(record: Record, say: Callable[..., str], when: Callable[[float | None], str]):
    """The record as one table (:data:`COLUMNS`): a line per student and question (both
    votes, the right answer once revealed, whether their last vote was right), then a line
    per puzzle attempt and per lab submission.  ``say(key, **params)`` words a key,
    ``when(t)`` a moment."""
    quiz, puzzle = say("class.record.quiz"), say("class.record.puzzle")
    lab = say("class.record.lab")
    for question in record.questions:
        item = question_text(question, say)
        right = answer_text(question, question.answer, say) if question.revealed_at else ""
        for student in record.students:
            votes = record.answers.get((question.number, student["id"]), {})
            if not votes:
                continue
            first, second = votes.get(1), votes.get(2)
            last = votes[max(votes)]
            correct = ""
            if question.revealed_at is not None:
                right_ = last[0] == question.answer
                correct = say("class.record.yes" if right_ else "class.record.no")
            yield [
                quiz,
                str(question.number),
                item,
                student["name"],
                answer_text(question, first[0] if first else None, say),
                answer_text(question, second[0] if second else None, say),
                right,
                correct,
                "",
                when(last[1]),
            ]
    for attempt in record.attempts:
        solved = attempt["solved_at"] is not None
        detail = (
            say(
                "class.record.solved",
                seconds=round(attempt["seconds"] or 0),
                moves=attempt["moves"] or 0,
                hints=attempt["hints"] or 0,
                undos=attempt["undos"] or 0,
            )
            if solved
            else say("class.record.unsolved")
        )
        yield [
            puzzle,
            str(attempt["puzzle"]),
            "",
            attempt["student"],
            "",
            "",
            "",
            say("class.record.yes" if solved else "class.record.no"),
            detail,
            when(attempt["solved_at"] or attempt["started_at"]),
        ]
    for submission in record.submissions:
        checked = submission["checked_at"] is not None
        if not checked:
            correct, detail = "", say("class.record.unchecked")
        elif submission["passed"]:
            correct = say("class.record.yes")
            detail = say(
                "class.record.passed",
                moves=submission["moves"] or 0,
                backtracks=submission["backtracks"] or 0,
            )
        else:
            correct = say("class.record.no")
            detail = say(f"class.lab.fail.{submission['reason']}")
        yield [
            lab,
            str(submission["exercise"]),
            "",
            submission["student"],
            "",
            "",
            "",
            correct,
            detail,
            when(submission["submitted_at"]),
        ]
