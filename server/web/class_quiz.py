"""The class quiz's Socket.IO handlers on ``/class`` (docs/protocol.md, "The class quiz").

Registered on :class:`~server.web.class_socket.ClassNamespace`, which answers their
refusals; each validates its payload with its model (server/classroom/quiz_messages.py), calls it,
and broadcasts: ``quiz_question``, ``quiz_phase``, ``quiz_reveal``, ``quiz_why`` and
``quiz_removed`` to the whole room, ``quiz_tally`` and ``quiz_scores`` to the teacher's
pages only (through the hub's throttle: at most twice a second each, the latest).

A student is one name in the room (:func:`identity`), for the quiz and the puzzle: one per
connection, one per browser (its ``kt_player`` cookie, set by the students' page), and a
new one counts against the client address's ``RATE_LIMIT_CLASS_NAMES`` and the room's
``CLASS_QUIZ_STUDENTS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from flask import current_app, request

from ..classroom import clock, presence, puzzles, quiz, quiz_answers, quiz_peer, rooms, students
from ..classroom.messages import ClassError
from ..classroom.models import QuizStudent
from ..classroom.quiz_messages import (
    QuizAnswerMessage,
    QuizAskMessage,
    QuizEnterMessage,
    QuizPhaseMessage,
    QuizQuestionMessage,
    QuizRemoveMessage,
)
from ..classroom.room_messages import EmptyMessage
from . import ratelimit
from .class_room import hub, lab_leaderboard_to_teacher, leaderboard_to_teacher, to_teacher
from .player import COOKIE as PLAYER_COOKIE

PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what a kt_player cookie may hold


def _hub():
    return hub()


def scores_to_teacher(code: str) -> None:
    to_teacher("quiz_scores", code, quiz_answers.scores)


def tally_to_teacher(code: str) -> None:
    def tally(room):
        question = quiz.open_question(room.code)
        return (
            None if question is None else quiz_answers.teacher_tally(question, _students(room.code))
        )

    to_teacher("quiz_tally", code, tally)


def player() -> str | None:
    """This connection's browser: its ``kt_player`` cookie (sent with the handshake)."""
    value = request.cookies.get(PLAYER_COOKIE, "")
    return value if PLAYER_ID.fullmatch(value) else None


def admit_name() -> None:
    """One more new name from this client address, or ``rate-limited``."""
    wait = ratelimit.charge("RATE_LIMIT_CLASS_NAMES", request.remote_addr or "")
    if wait is not None:
        raise ClassError("rate-limited", "class.error.rate-limited.names", seconds=wait)


def _enter(member, room, message: QuizEnterMessage) -> students.Entry:
    entry = students.enter(
        room,
        message,
        rooms.now(),
        player=player(),
        entered=member.quiz_student,
        cap=current_app.config["CLASS_QUIZ_STUDENTS"],
        address=member.address,
        per_address=current_app.config["CLASS_ADDRESS_ROOM_NAMES"],
        admit=admit_name,
    )
    member.quiz_student = entry.student.id
    if entry.created or entry.renamed:
        scores_to_teacher(room.code)
    return entry


def _students(code: str) -> int:
    return presence.student_count(code, rooms.now(), _hub().presence_timeout)


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
    entry = _enter(member, room, QuizEnterMessage.model_validate(payload))
    return {"ok": True, "key": entry.key, "quiz": quiz_answers.student_view(room, entry.student)}


@dataclass(frozen=True)
class Entered:
    student: QuizStudent
    key: str | None  # a new student's key (None: the connection had entered before)


def identity(member, room, name: str | None) -> Entered:
    """The one name a student gives the room: the connection's entered student (unless
    the teacher removed it), else the one ``name`` enters (``not-entered`` without it)."""
    if member.role != "student":
        raise ClassError("not-student")
    student = students.student_in(room.code, member.quiz_student)
    if student is not None:
        return Entered(student, None)
    member.quiz_student = None  # never entered, or removed by the teacher
    if name is None:
        raise ClassError("not-entered")
    entry = _enter(member, room, QuizEnterMessage(name=name))
    return Entered(entry.student, entry.key)


def on_quiz_answer(self, payload):
    """``{question, square | value, student?}``: this student's answer in the open vote,
    changeable until that vote closes."""
    member = self._member()
    room = self._room(member)
    request_ = QuizAnswerMessage.model_validate(payload)
    if member.role != "student":
        raise ClassError("not-student")
    student = students.student_by_id(room, member.quiz_student)
    record = quiz_answers.answer(room, student, request_, rooms.now())
    tally_to_teacher(room.code)
    return {"ok": True, "question": request_.question, "value": record.value, "round": record.round}


def on_quiz_ask(self, payload):
    """``{play?, kind?, peer?}``: ask a question of ``kind`` at the first position from
    where the class stands that nobody holds the answer of; the class is moved there, or
    plays on to it (``play``).  Everyone gets the new ``state``, then ``quiz_question``."""
    member = self._member()
    room = self._room(member, teacher=True)
    message = QuizAskMessage.model_validate({} if payload is None else payload)
    feed = _hub().feed(room.code)
    if feed is None:  # pragma: no cover - the teacher's own join started it
        raise ClassError("cannot-ask", "class.error.cannot-ask.no-demo")
    code = room.code
    asked = quiz.ask(
        room,
        rooms.now(),
        partial(feed.find_question, room),
        play=message.play,
        kind=message.kind,
        peer=message.peer,
    )
    _hub().broadcast_state(code)
    self._to_room(
        "quiz_question", {**quiz.public_question(asked.question), "moved": asked.moved}, code
    )
    _hub().wake(code)  # the feed sends up to the question, not past it
    state = clock.public_state(room, rooms.now())
    quiz_view = quiz_answers.teacher_view(room, _students(code))
    return {"ok": True, "state": state, "quiz": quiz_view, "moved": asked.moved}


def on_quiz_phase(self, payload):
    """``{question, phase}``: a peer question's next step; the room gets ``quiz_phase``
    (with the first vote's tally from ``tally`` on: it tells no answer)."""
    member = self._member()
    room = self._room(member, teacher=True)
    message = QuizPhaseMessage.model_validate(payload)
    question = quiz_peer.set_phase(room, message.question, message.phase, rooms.now())
    code = room.code
    self._to_room("quiz_phase", _phase_event(question), code)
    tally_to_teacher(code)  # the second vote's tally starts at nobody
    return {"ok": True, "quiz": quiz_answers.teacher_view(room, _students(code))}


def _phase_event(question) -> dict:
    return {
        "question": question.number,
        "phase": question.phase,
        "first_tally": quiz_answers.first_tally(question),
    }


def on_quiz_reveal(self, payload):
    """``{question}``: everyone sees the right square and the class's distribution."""
    member = self._member()
    room = self._room(member, teacher=True)
    question = quiz.reveal(room, QuizQuestionMessage.model_validate(payload).question, rooms.now())
    _hub().broadcast_state(room.code)  # the class stands at the question, paused
    self._to_room("quiz_reveal", quiz_answers.revealed(question), room.code)
    scores_to_teacher(room.code)  # the teacher's other pages
    _hub().wake(room.code)  # the demo is no longer held
    return {"ok": True, "quiz": quiz_answers.teacher_view(room, _students(room.code))}


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
        return {"ok": True, "quiz": quiz_answers.teacher_view(room, _students(room.code))}
    student = students.student_in(room.code, member.quiz_student)
    if student is None:
        member.quiz_student = None  # never entered, or removed by the teacher
    return {"ok": True, "quiz": quiz_answers.student_view(room, student)}


def on_quiz_remove(self, payload):
    """``{student}``: the teacher takes a student out of the room: their name (free for
    another), answers, attempts and leaderboard lines.  The room gets ``quiz_removed``
    (that student's page asks for a name again); the teacher's pages the new scores,
    tally and leaderboard."""
    member = self._member()
    room = self._room(member, teacher=True)
    removed = students.remove(room, QuizRemoveMessage.model_validate(payload).student)
    code = room.code
    self._to_room("quiz_removed", {"student": removed.id, "name": removed.name}, code)
    scores_to_teacher(code)
    tally_to_teacher(code)
    leaderboard_to_teacher(code)
    lab_leaderboard_to_teacher(code)
    return {
        "ok": True,
        "student": {"id": removed.id, "name": removed.name},
        "quiz": quiz_answers.teacher_view(room, _students(code)),
        "leaderboard": puzzles.leaderboard(room),
    }
