"""The class quiz's answers and scores, and what each member sees of the quiz.

A student's answer to the open question (``class_answers``, one per student, question
and vote, changeable until that vote closes); the tally the teacher watches; the
reveal's right answer, the class's distribution and, for a peer question, the first
vote's and how the class moved between the two; each student's right answers over the
revealed questions, counted by their last vote.  The views say who sees what: a
student never another student's answer, nobody the answer before its reveal (the
questions themselves are in server/classroom/quiz.py, their votes in quiz_peer.py).
No Flask here.
"""

from __future__ import annotations

import hmac

from sqlalchemy import and_, func, select

from ..db import db
from .clock import settings_of
from .messages import ClassError
from .models import ClassRoom, QuizAnswer, QuizQuestion, QuizStudent
from .quiz import (
    SQUARE_KINDS,
    answer_values,
    latest_question,
    open_question,
    public_question,
    why_of,
)
from .quiz_messages import QuizAnswerMessage
from .quiz_peer import first_tally_shown, rounds, voting_round


def answer(
    room: ClassRoom, student: QuizStudent, request: QuizAnswerMessage, at: float
) -> QuizAnswer:
    """Record (or change) ``student``'s answer to the open question, in its open vote."""
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
    vote = voting_round(question)
    value = request.answer
    values = answer_values(question, settings_of(room))
    if not 0 <= value < values:
        if question.kind in SQUARE_KINDS:
            raise ClassError("bad-square", max=values - 1)
        raise ClassError("bad-answer", max=values - 1)
    record = db.session.get(QuizAnswer, (question.id, student.id, vote))
    if record is None:
        record = QuizAnswer(
            question_id=question.id, student_id=student.id, round=vote, value=value, answered_at=at
        )
        db.session.add(record)
    else:
        record.value, record.answered_at = value, at
    db.session.commit()
    return record


def _counted(rows) -> list[list[int]]:
    return sorted(([value, count] for value, count in rows), key=lambda p: (-p[1], p[0]))


def tally(question: QuizQuestion, vote: int = 1) -> list[list[int]]:
    """``[[value, answers], ...]`` of one vote, most chosen first."""
    rows = db.session.execute(
        select(QuizAnswer.value, func.count())
        .where(QuizAnswer.question_id == question.id, QuizAnswer.round == vote)
        .group_by(QuizAnswer.value)
    )
    return _counted(rows)


def _final(*where):
    """Each student's last vote on each question, among the answers ``where`` picks (the
    same conditions pick the votes compared, so only those rows are read)."""
    last = (
        select(
            QuizAnswer.question_id,
            QuizAnswer.student_id,
            func.max(QuizAnswer.round).label("round"),
        )
        .where(*where)
        .group_by(QuizAnswer.question_id, QuizAnswer.student_id)
        .subquery()
    )
    return select(QuizAnswer).join(
        last,
        and_(
            QuizAnswer.question_id == last.c.question_id,
            QuizAnswer.student_id == last.c.student_id,
            QuizAnswer.round == last.c.round,
        ),
    )


def final_tally(question: QuizQuestion) -> list[list[int]]:
    """The class's answers by each student's last vote, most chosen first."""
    final = _final(QuizAnswer.question_id == question.id).subquery()
    rows = db.session.execute(select(final.c.value, func.count()).group_by(final.c.value))
    return _counted(rows)


def moves(question: QuizQuestion) -> dict:
    """How the class moved between a peer question's two votes: ``[[first, second,
    students], ...]`` for the students who voted twice, and the four counts of right and
    wrong (a student who did not vote again kept their first vote)."""
    votes: dict[int, dict[str, int]] = {1: {}, 2: {}}
    for student, vote, value in db.session.execute(
        select(QuizAnswer.student_id, QuizAnswer.round, QuizAnswer.value).where(
            QuizAnswer.question_id == question.id
        )
    ):
        votes[vote][student] = value
    first, second = votes[1], votes[2]
    pairs: dict[tuple[int, int], int] = {}
    shift = {"right_right": 0, "wrong_right": 0, "right_wrong": 0, "wrong_wrong": 0}
    for student, before in first.items():
        after = second.get(student, before)
        pairs[(before, after)] = pairs.get((before, after), 0) + 1
        was = "right" if before == question.answer else "wrong"
        now = "right" if after == question.answer else "wrong"
        shift[f"{was}_{now}"] += 1
    late = [v for s, v in second.items() if s not in first]  # voted only the second time
    changes = sorted(([a, b, n] for (a, b), n in pairs.items()), key=lambda r: (-r[2], r[:2]))
    return {"changes": changes, "shift": shift, "second_only": len(late)}


def revealed(question: QuizQuestion) -> dict:
    """The reveal, for everyone: the right answer and the class's distribution (by each
    student's last vote); a peer question's first vote and how the class moved."""
    distribution = final_tally(question)
    out = {
        "question": question.number,
        "answer": question.answer,
        "distribution": distribution,
        "answers": sum(count for _value, count in distribution),
    }
    if question.mode == "peer":
        first = tally(question, 1)
        out["first"] = {"distribution": first, "answers": sum(n for _v, n in first)}
        out["rounds"] = rounds(question)
        out["moves"] = moves(question)
    return out


def first_tally(question: QuizQuestion) -> dict | None:
    """A peer question's first vote once it is shown (no answer in it), else None."""
    if not first_tally_shown(question):
        return None
    first = tally(question, 1)
    return {"question": question.number, "tally": first, "answers": sum(n for _v, n in first)}


def teacher_tally(question: QuizQuestion, students: int) -> dict:
    """The open vote's tally (the second once it opened) and how many students are here."""
    vote = rounds(question)
    distribution = tally(question, vote)
    return {
        "question": question.number,
        "round": vote,
        "tally": distribution,
        "answers": sum(count for _value, count in distribution),
        "students": students,
    }


def scores(room: ClassRoom) -> dict:
    """Each student's right answers over the room's revealed questions (their last vote
    on each), best first."""
    revealed_ids = select(QuizQuestion.id).where(
        QuizQuestion.code == room.code, QuizQuestion.revealed_at.is_not(None)
    )
    questions = db.session.scalar(select(func.count()).select_from(revealed_ids.subquery())) or 0
    final = _final(QuizAnswer.question_id.in_(revealed_ids)).subquery()
    counted = db.session.execute(
        select(
            final.c.student_id,
            func.count(),
            func.count().filter(final.c.value == QuizQuestion.answer),
        )
        .join(QuizQuestion, QuizQuestion.id == final.c.question_id)
        .group_by(final.c.student_id)
    ).all()
    answered = {student: n for student, n, _right in counted}
    right = {student: n for student, _n, n in counted}
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
    final = _final(QuizAnswer.student_id == student.id).subquery()
    answered, right = db.session.execute(
        select(
            func.count(final.c.question_id),
            func.count(final.c.question_id).filter(final.c.value == QuizQuestion.answer),
        )
        .join(QuizQuestion, QuizQuestion.id == final.c.question_id)
        .where(*revealed)
    ).one()
    return {"questions": questions, "right": right or 0, "answered": answered or 0}


def own_answers(question: QuizQuestion, student: QuizStudent) -> dict[int, int]:
    """``{vote: value}``: one student's own answers to one question."""
    rows = db.session.execute(
        select(QuizAnswer.round, QuizAnswer.value).where(
            QuizAnswer.question_id == question.id, QuizAnswer.student_id == student.id
        )
    )
    return dict(rows.all())


def student_view(room: ClassRoom, student: QuizStudent | None) -> dict:
    """A student's quiz: the latest question (its reveal once revealed), their own
    answer (in the open vote, or their last once revealed; ``first``: a peer question's
    first vote of theirs) and score; never another student's answer, never the answer
    before the reveal."""
    question = latest_question(room.code)
    view: dict = {"question": None, "mine": None, "reveal": None, "why": None, "score": None}
    if question is not None:
        view["question"] = public_question(question)
        view["first_tally"] = first_tally(question)
        if question.revealed_at is not None:
            view["reveal"] = revealed(question)
            if question.why_shown:
                view["why"] = why_of(question)
    if student is not None:
        view["student"] = {"id": student.id, "name": student.name}
        view["score"] = own_score(room, student)
        if question is not None:
            mine = own_answers(question, student)
            vote = max(mine) if question.revealed_at is not None and mine else rounds(question)
            view["mine"] = mine.get(vote)
            if question.mode == "peer":
                view["first"] = mine.get(1)
    return view


def teacher_view(room: ClassRoom, students: int) -> dict:
    """The teacher's quiz: the latest question with its answer, the tally, the scores."""
    question = latest_question(room.code)
    view: dict = {"question": None, "answer": None, "tally": None, "reveal": None, "why": None}
    if question is not None:
        view["question"] = public_question(question)
        view["answer"] = question.answer
        view["tally"] = teacher_tally(question, students)
        view["first_tally"] = first_tally(question)
        view["why"] = why_of(question)
        view["why_shown"] = question.why_shown
        if question.revealed_at is not None:
            view["reveal"] = revealed(question)
    view["scores"] = scores(room)
    return view
