"""The class quiz's Socket.IO handlers on ``/class`` (docs/protocol.md, "The class quiz").

Registered on :class:`~server.web.class_socket.ClassNamespace`, which answers their
refusals; each validates its payload with its model (server/classroom/messages.py), calls it,
and broadcasts: ``quiz_question``, ``quiz_reveal`` and ``quiz_why`` to the whole room,
``quiz_tally`` and ``quiz_scores`` to the teacher's pages only.
"""

from __future__ import annotations

from flask import current_app, request

from ..classroom import quiz, service
from ..classroom.messages import (
    EmptyMessage,
    QuizAnswerMessage,
    QuizEnterMessage,
    QuizQuestionMessage,
)
from ..classroom.service import ClassError


def _hub():
    return current_app.extensions["class_hub"]


def _students(code: str) -> int:
    return service.student_count(code, service.now(), _hub().presence_timeout)


def _nothing_in(payload) -> None:
    """``quiz_ask`` / ``quiz_state``: ``{}``, or no payload at all."""
    if payload is not None:
        EmptyMessage.model_validate(payload)


def on_quiz_enter(self, payload):
    """``{name, key?}``: take part under a name; the key brings the same student back."""
    member = self._member(costly=True)
    room = self._room(member)
    if member.role != "student":
        raise ClassError("not-student")
    student, key = quiz.enter(room, QuizEnterMessage.model_validate(payload), service.now())
    member.quiz_student = student.id
    _hub().to_teacher("quiz_scores", quiz.scores(room), room.code)
    return {"ok": True, "key": key, "quiz": quiz.student_view(room, student)}


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
    """``{}``: ask "where next?" where the paused class stands, or as far as it was sent
    (the class is moved there first: everyone gets the new ``state``)."""
    member = self._member()
    room = self._room(member, teacher=True)
    _nothing_in(payload)
    feed = _hub().feed(room.code)

    def peek(index: int):
        return feed.peek(room, index, 1) if feed is not None else None

    code = room.code
    question = quiz.ask(room, service.now(), peek)
    _hub().broadcast_state(code)
    self._to_room("quiz_question", quiz.public_question(question), code)
    _hub().wake(code)  # the feed sends up to the question, not past it
    state = service.public_state(room, service.now())
    return {"ok": True, "state": state, "quiz": quiz.teacher_view(room, _students(code))}


def on_quiz_reveal(self, payload):
    """``{question}``: everyone sees the right square and the class's distribution."""
    member = self._member()
    room = self._room(member, teacher=True)
    question = quiz.reveal(
        room, QuizQuestionMessage.model_validate(payload).question, service.now()
    )
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
