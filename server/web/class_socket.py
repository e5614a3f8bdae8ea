"""Socket.IO namespace ``/class``: class rooms (docs/protocol.md, "Class rooms").

Thin translators.  The room's truth is in the database (server/classroom/: rooms,
clock, presence, puzzles), so any process serves any member; this process's connections
(their seats) and the room feeds they follow are in its
:class:`~server.classroom.hub.Hub`; the demo's one search runs in the room's feed
(server.classroom.feed).  Broadcasts go to the Socket.IO rooms
``class:<code>`` (everyone) and ``class:<code>:teacher`` (the teacher's pages), which
reach every process through the message queue; what students cause there goes through
the hub's throttle (:func:`to_teacher`).  Refusals are answered by
:class:`~server.web.sockets.AnsweringNamespace`.

Per client address (``request.remote_addr``, the real client behind ``PROXY_FIX``): the
seats (the hub), new names (``RATE_LIMIT_CLASS_NAMES``), the puzzle's games (counted with
``POST /api/games`` under ``RATE_LIMIT_GAMES``) and codes looked up in vain
(``RATE_LIMIT_CLASS_MISSES``, shared with the class pages: :func:`lookup`).
"""

from __future__ import annotations

import logging
from contextlib import nullcontext

from flask import Flask, request
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import ObjectDeletedError, StaleDataError

from ..classroom import clock, lab, presence, puzzles, quiz, rooms
from ..classroom.feed import where_the_class_is
from ..classroom.hub import Hub, Seats, room_name, teacher_room
from ..classroom.messages import ClassError
from ..classroom.puzzle_messages import ClearAttemptsMessage, SolvedMessage, SolveMessage
from ..classroom.room_messages import JoinMessage, SyncMessage
from ..db import db, is_busy
from ..i18n import request_lang
from . import budgets, class_lab, class_quiz
from .class_room import (
    EXTENSION,
    address,
    admit_game,
    hub,
    leaderboard_to_teacher,
    lookup,
    presence_to_teacher,
)
from .refusals import CLASS
from .sockets import AnsweringNamespace, is_client_event, server

NAMESPACE = "/class"
__all__ = ["ClassNamespace", "hub", "init_app"]

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Give the app its class hub (the namespace is registered by create_app)."""
    sio = app.extensions["socketio_server"]
    config = app.config

    def emit(event, data, to, skip_sid=None):
        sio.emit(event, data, to=to, skip_sid=skip_sid, namespace=NAMESPACE)

    def in_context(fn):
        with app.app_context():
            return fn()

    app.extensions[EXTENSION] = Hub(
        emit=emit,
        start_task=sio.start_background_task,
        in_context=in_context,
        ttl=config["CLASS_ROOM_TTL"],
        presence_timeout=config["CLASS_PRESENCE_TIMEOUT"],
        heartbeat=config["CLASS_HEARTBEAT"],
        seats=Seats(
            students=config["CLASS_MAX_MEMBERS"],
            per_address=config["CLASS_ADDRESS_SEATS"],
            per_room=config["CLASS_ROOM_SEATS"],
            per_address_in_room=config["CLASS_ADDRESS_ROOM_SEATS"],
            teacher_pages=config["CLASS_TEACHER_PAGES"],
        ),
        handler_slots=config["CLASS_HANDLER_SLOTS"],
        searches=budgets.searches(app),
        memory=budgets.memory(app),
    )


class ClassNamespace(AnsweringNamespace):
    internal_code = "internal"
    internal_error = "class.error.internal"
    refusal_class = ClassError
    wording = CLASS

    def language(self, sid: str) -> str | None:
        member = hub().member(sid)
        return member.lang if member is not None else None

    def turn(self, sid: str):
        member = hub().member(sid)
        return nullcontext() if member is None else hub().turn(member)

    def throttle(self, sid: str):
        return hub().member(sid)

    def translate(self, err: Exception) -> Exception | None:
        """The room was closed (or expired) by a message handled meanwhile, or the
        database was busy: not a bug."""
        if is_busy(err):  # another writer held SQLite's lock too long: "try again"
            db.session.rollback()
            log.warning("class: %s %s: the database was busy", self.namespace, request.sid)
            return ClassError("busy")
        if isinstance(err, ObjectDeletedError | StaleDataError | IntegrityError):
            db.session.rollback()
            member = hub().member(request.sid)
            if member is None or member.code is None:  # the room was closed meanwhile
                return ClassError("unknown-room")
            try:
                rooms.find_room(member.code, ttl=hub().ttl)
            except ClassError as gone:
                return gone
            if not isinstance(err, IntegrityError):
                return ClassError("unknown-room")
        return None

    # -- helpers ---------------------------------------------------------------------------------
    def _member(self, *, costly: bool = False):
        member = hub().member(request.sid)
        if member is None:  # pragma: no cover - a message racing the disconnect
            raise ClassError("not-joined")
        member.admit(costly=costly)
        return member

    def _room(self, member, *, teacher: bool = False):
        if member.code is None:
            raise ClassError("not-joined")
        if teacher and member.role != "teacher":
            raise ClassError("not-teacher")
        return rooms.find_room(member.code, ttl=hub().ttl)

    def _to_room(self, event: str, data, code: str, *, skip_self: bool = True) -> None:
        hub().broadcast(event, data, code, skip_sid=request.sid if skip_self else None)

    # -- connection ------------------------------------------------------------------------------
    def on_connect(self, auth=None, *extra):
        if is_client_event(self.namespace):
            return self.refuse_client_event(auth)
        hub().connect(request.sid, request_lang(), address())
        return None

    def on_disconnect(self, *reason):
        if is_client_event(self.namespace):  # a client's event, with whatever arguments
            return self.refuse_client_event(reason[0] if reason else None)
        here = hub()
        member = here.disconnect(request.sid)
        if member is None or member.code is None:
            return None
        try:
            with here.turn(member):
                presence.leave(request.sid)
                if member.role == "student":
                    presence_to_teacher(member.code)
        except ClassError:  # no turn in time (one address letting go of 1,000 sockets)
            log.warning("class: %s left while the handlers were busy", request.sid)
        except Exception as err:  # the database went away, or was held: the sweep forgets it
            db.session.rollback()
            if not is_busy(err):  # pragma: no cover - the database went away
                log.exception("class disconnect")
            else:  # a storm of disconnects on SQLite (a script letting go of 1,000 sockets)
                log.warning("class: %s left while the database was busy", request.sid)
        return None

    # -- joining ---------------------------------------------------------------------------------
    def on_join(self, payload):
        """``{code, token?}``: enter a room (as its teacher when the token matches)."""
        member = self._member(costly=True)
        if member.code is not None:
            raise ClassError("bad-request", "class.error.bad-request.joined")
        message = JoinMessage.model_validate(payload)
        here = hub()  # this process's members and seats
        token = message.token
        room = lookup(
            message.code,
            known=lambda room: token is not None and rooms.token_matches(room, token),
        )
        at = rooms.now()
        if token is not None and not rooms.token_matches(room, token):
            raise ClassError("bad-token")
        role = "teacher" if token is not None else "student"
        feed = here.join(member, room.code, role)
        sio = server()
        sio.enter_room(request.sid, room_name(room.code), namespace=self.namespace)
        if role == "teacher":
            sio.enter_room(request.sid, teacher_room(room.code), namespace=self.namespace)
        rooms.touch(room, at)
        presence.enter(room.code, request.sid, role, at)  # commits the touch too
        if role == "student":
            presence_to_teacher(room.code)
        state, snapshot = where_the_class_is(room, feed)
        answer = {
            "ok": True,
            "code": room.code,
            "role": role,
            "state": state,
            "snapshot": snapshot,
            "puzzle": puzzles.puzzle_of(room),
            "lab": lab.exercise_of(room),
            "heartbeat": here.heartbeat,
        }
        if role == "teacher":
            answer["students"] = presence.student_count(room.code, at, here.presence_timeout)
            answer["leaderboard"] = puzzles.leaderboard(room)
            answer["ttl"] = here.ttl
        return answer

    def on_heartbeat(self, payload):
        member = self._member()
        here = hub()
        at = rooms.now()
        room = self._room(member)
        if not presence.heartbeat(request.sid, at) and here.member(request.sid) is not None:
            presence.enter(room.code, request.sid, member.role, at)  # swept: not if it just left
        answer = {"ok": True}
        if member.role == "teacher":
            rooms.touch(room, at)
            presence.forget_stale(at, here.presence_timeout)  # also commits the touch
            answer["students"] = presence.student_count(room.code, at, here.presence_timeout)
        return answer

    # -- following the demo -----------------------------------------------------------------------
    def on_sync(self, payload):
        """``{gen, index}``: the snapshot to stand at ``index`` of the current demo."""
        member = self._member(costly=True)
        room = self._room(member)
        message = SyncMessage.model_validate(payload)
        state = clock.public_state(room, rooms.now())
        if message.gen != room.gen:
            raise ClassError("stale", gen=room.gen, state=state)
        feed = hub().feed(room.code)
        if feed is None:  # pragma: no cover - the room was closed meanwhile
            raise ClassError("unknown-room")
        return {"ok": True, "state": state, "snapshot": feed.read(room, message.index)}

    # -- the teacher's controls -------------------------------------------------------------------
    def on_settings(self, payload):
        """New demo settings: a new generation at index 0, paused."""
        return self._change_demo(clock.set_settings, payload)

    def on_control(self, payload):
        """The teacher's clock ``{seq, gen, index, playing, speed}``, applied only if newer."""
        return self._change_demo(clock.set_control, payload)

    def on_lesson(self, payload):
        """``{seq, chapter, step}``: the class follows the guided lesson to that step."""
        return self._change_demo(clock.set_lesson, payload)

    def _change_demo(self, change, payload):
        """A teacher's change to the demo, refused while a quiz question is open (moving on
        would tell the answer); the room is told and its feed woken."""
        member = self._member()
        room = self._room(member, teacher=True)
        quiz.check_not_held(room)
        state = change(room, payload, rooms.now())
        self._to_room("state", state, room.code)
        hub().wake(room.code)
        return {"ok": True, "state": state}

    def on_puzzle(self, payload):
        """Hand the class a puzzle ``{rows, cols, closed, start}``, or ``null`` to take it back."""
        member = self._member()
        room = self._room(member, teacher=True)
        puzzle = puzzles.set_puzzle(room, payload, rooms.now())
        self._to_room("puzzle", {"puzzle": puzzle}, room.code)
        leaderboard_to_teacher(room.code)  # the teacher's other pages
        return {"ok": True, "puzzle": puzzle, "leaderboard": puzzles.leaderboard(room)}

    def on_clear_attempts(self, payload):
        """``{student?}``: a student (or everyone) gets their attempts at the puzzle back;
        the room is told (``attempts_cleared``) so their pages offer a new attempt."""
        member = self._member()
        room = self._room(member, teacher=True)
        student = ClearAttemptsMessage.model_validate({} if payload is None else payload).student
        cleared = puzzles.clear_attempts(room, student)
        self._to_room("attempts_cleared", {"student": student}, room.code)
        return {"ok": True, "cleared": cleared}

    def on_close(self, payload):
        """End the class: the room is deleted and everyone in it is told."""
        member = self._member()
        room = self._room(member, teacher=True)
        code = room.code
        rooms.close_room(room)
        self._to_room("ended", {"code": code}, code, skip_self=False)
        hub().room_closed(code)
        return {"ok": True}

    # -- the puzzle, for students ----------------------------------------------------------------
    def on_solve(self, payload):
        """``{name?}``: a game of the current puzzle for this student (the knight placed),
        under the one name the student gave the room (``quiz_enter``, or this ``name``);
        one of the student's attempts, and one of the client address's games."""
        member = self._member(costly=True)
        room = self._room(member)
        if puzzles.puzzle_of(room) is None:
            raise ClassError("no-puzzle")
        name = SolveMessage.model_validate(payload).name
        entered = class_quiz.identity(member, room, name)
        answer = puzzles.start_puzzle_game(room, entered.student, rooms.now(), admit=admit_game)
        leaderboard_to_teacher(room.code)
        if entered.key is not None:  # entered just now: the page keeps the key
            answer["key"] = entered.key
        return {"ok": True, **answer}

    def on_solved(self, payload):
        """``{game}``: the student won that game; the server checks it before ranking it."""
        member = self._member()
        room = self._room(member)
        game = SolvedMessage.model_validate(payload).game
        entry = puzzles.record_solution(room, game, rooms.now())
        leaderboard_to_teacher(room.code)
        board = puzzles.leaderboard(room)
        rank = next((e["rank"] for e in board["entries"] if _solver(e) == _solver(entry)), None)
        return {"ok": True, "entry": {**entry, "rank": rank}}

    # -- the class quiz (server/web/class_quiz.py) -----------------------------------------------
    on_quiz_enter = class_quiz.on_quiz_enter
    on_quiz_answer = class_quiz.on_quiz_answer
    on_quiz_ask = class_quiz.on_quiz_ask
    on_quiz_phase = class_quiz.on_quiz_phase
    on_quiz_reveal = class_quiz.on_quiz_reveal
    on_quiz_why = class_quiz.on_quiz_why
    on_quiz_state = class_quiz.on_quiz_state
    on_quiz_remove = class_quiz.on_quiz_remove

    # -- the code lab (server/web/class_lab.py) -------------------------------------------------
    on_lab_exercise = class_lab.on_lab_exercise
    on_lab_submit = class_lab.on_lab_submit
    on_lab_checked = class_lab.on_lab_checked
    on_lab_source = class_lab.on_lab_source
    on_lab_state = class_lab.on_lab_state


def _solver(entry: dict) -> tuple[str, str]:
    """A leaderboard line's solver, as :func:`.puzzles.solver_key` tells them apart."""
    if entry["student"]:
        return ("student", entry["student"])
    return ("name", entry["name"].casefold())
