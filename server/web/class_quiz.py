"""The class quiz's Socket.IO handlers on ``/class`` (docs/protocol.md, "The class quiz").

Registered on :class:`~server.web.class_socket.ClassNamespace`, which answers their
refusals; each validates its payload with its model (server/classroom/messages.py), calls it,
and broadcasts: ``quiz_question``, ``quiz_reveal`` and ``quiz_why`` to the whole room,
``quiz_tally`` and ``quiz_scores`` to the teacher's pages only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from flask import current_app, request

from ..classroom import quiz, service
from ..classroom.messages import (
    EmptyMessage,
    QuizAnswerMessage,
    QuizAskMessage,
    QuizEnterMessage,
    QuizQuestionMessage,
)
from ..classroom.models import QuizStudent
from ..classroom.service import ClassError


def _hub():
    return current_app.extensions["class_hub"]


def _students(code: str) -> int:
    return service.student_count(code, service.now(), _hub().presence_timeout)


def _nothing_in(payload) -> None:
    """``quiz_state``: ``{}``, or no payload at all."""
    if payload is not None:
        EmptyMessage.model_validate(payload)


def on_quiz_enter(self, payload):
    """``{name, key?}``: enter the room under a name (for the quiz and the puzzle); the
    key brings the same student back."""
    member = self._member(costly=True)
    room = self._room(member)
    if member.role != "student":
        raise ClassError("not-student")
    student, key = quiz.enter(room, QuizEnterMessage.model_validate(payload), service.now())
    member.quiz_student = student.id
    _hub().to_teacher("quiz_scores", quiz.scores(room), room.code)
    return {"ok": True, "key": key, "quiz": quiz.student_view(room, student)}


@dataclass(frozen=True)
class Entered:
    student: QuizStudent
    key: str | None  # a new student's key (None: the connection had entered before)


def identity(member, room, name: str | None) -> Entered:
    """The one name a student gives the room: the connection's entered student, else a
    new one under ``name`` (``not-entered`` without it)."""
    if member.role != "student":
        raise ClassError("not-student")
    if member.quiz_student is not None:
        return Entered(quiz.student_by_id(room, member.quiz_student), None)
    if name is None:
        raise ClassError("not-entered")
    student, key = quiz.enter(room, QuizEnterMessage(name=name), service.now())
    member.quiz_student = student.id
    _hub().to_teacher("quiz_scores", quiz.scores(room), room.code)
    return Entered(student, key)


def on_quiz_answer(self, payload):
    """``{question, square, student?}``: this student's square, changeable until the reveal."""
    member = self._member()
    room = self._room(member)
    request_ = QuizAnswerMessage.model_validate(payload)
    if member.role != "student":
        raise ClassError("not-student")
    student = quiz.student_by_id(room, member.quiz_student)
    record = quiz.answer(room, student, request_, service.now())
    question = quiz.open_question(room.code)
    if question is not None:
        tally = quiz.teacher_tally(question, _students(room.code))
        _hub().to_teacher("quiz_tally", tally, room.code)
    return {"ok": True, "question": request_.question, "square": record.square}


def on_quiz_ask(self, payload):
    """``{play?}``: ask "where next?" at the first position from where the class stands
    that nobody holds the answer of; the class is moved there, or plays on to it
    (``play``).  Everyone gets the new ``state``, then ``quiz_question``."""
    member = self._member()
    room = self._room(member, teacher=True)
    play = QuizAskMessage.model_validate({} if payload is None else payload).play
    feed = _hub().feed(room.code)
    if feed is None:  # pragma: no cover - the teacher's own join started it
        raise ClassError("cannot-ask", "class.error.cannot-ask.no-demo")
    code = room.code
    asked = quiz.ask(room, service.now(), partial(feed.find_question, room), play=play)
    _hub().broadcast_state(code)
    self._to_room(
        "quiz_question", {**quiz.public_question(asked.question), "moved": asked.moved}, code
    )
    _hub().wake(code)  # the feed sends up to the question, not past it
    state = service.public_state(room, service.now())
    quiz_view = quiz.teacher_view(room, _students(code))
    return {"ok": True, "state": state, "quiz": quiz_view, "moved": asked.moved}


def on_quiz_reveal(self, payload):
    """``{question}``: everyone sees the right square and the class's distribution."""
    member = self._member()
    room = self._room(member, teacher=True)
    question = quiz.reveal(
        room, QuizQuestionMessage.model_validate(payload).question, service.now()
    )
    _hub().broadcast_state(room.code)  # the class stands at the question, paused
    self._to_room("quiz_reveal", quiz.revealed(question), room.code)
    scores = quiz.scores(room)
    _hub().to_teacher("quiz_scores", scores, room.code, skip_sid=request.sid)
    _hub().wake(room.code)  # the demo is no longer held
    return {"ok": True, "quiz": quiz.teacher_view(room, _students(room.code))}


def on_quiz_why(self, payload):
    """``{question}`` (revealed): everyone sees the candidates and why the search chose."""
    member = self._member()
    room = self._room(member, teacher=True)
    question = quiz.show_why(room, QuizQuestionMessage.model_validate(payload).question)
    why = quiz.why_of(question)
    self._to_room("quiz_why", why, room.code)
    return {"ok": True, "why": why}


def on_quiz_state(self, payload):
    """``{}``: the quiz as this member may see it (a reload, a reconnect, after a reveal)."""
    member = self._member()
    room = self._room(member)
    _nothing_in(payload)
    if member.role == "teacher":
        return {"ok": True, "quiz": quiz.teacher_view(room, _students(room.code))}
    student = None
    if member.quiz_student is not None:
        student = quiz.student_by_id(room, member.quiz_student)
    return {"ok": True, "quiz": quiz.student_view(room, student)}
