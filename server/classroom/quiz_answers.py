"""The class quiz's answers and scores, and what each member sees of the quiz.

A student's answer to the open question (``class_answers``, one per student and
question, changeable until the reveal); the tally the teacher watches; the reveal's
right square and distribution; each student's right answers over the revealed
questions.  The views say who sees what: a student never another student's answer,
nobody the answer before its reveal (the questions themselves are in
server/classroom/quiz.py).  No Flask here.
"""

from __future__ import annotations

import hmac

from sqlalchemy import func, select

from ..db import db
from .clock import settings_of
from .messages import ClassError
from .models import ClassRoom, QuizAnswer, QuizQuestion, QuizStudent
from .quiz import latest_question, open_question, public_question, why_of
from .quiz_messages import QuizAnswerMessage


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


def tally(question: QuizQuestion) -> list[list[int]]:
    """``[[square, answers], ...]``, most chosen first."""
    rows = db.session.execute(
        select(QuizAnswer.square, func.count())
        .where(QuizAnswer.question_id == question.id)
        .group_by(QuizAnswer.square)
    )
    return sorted(([square, count] for square, count in rows), key=lambda p: (-p[1], p[0]))


def revealed(question: QuizQuestion) -> dict:
    """The reveal, for everyone: the right square and the class's distribution."""
    distribution = tally(question)
    return {
        "question": question.number,
        "answer": question.answer,
        "distribution": distribution,
        "answers": sum(count for _square, count in distribution),
    }


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
