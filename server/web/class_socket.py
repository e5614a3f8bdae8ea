"""Socket.IO namespace ``/class``: class rooms (docs/protocol.md, "Class rooms").

Thin translators: room truth lives in the database (server.classroom.service), so any
server process can serve any member; broadcasts go to the Socket.IO rooms
``class:<code>`` (everyone) and ``class:<code>:teacher`` (the teacher's pages), which
reach every process through the message queue.  Only what belongs to one connection is
kept here in memory: its role and room (a connection always talks to the process that
accepted it) and its runs.

The demo's runs are the watch protocol's runs (``start`` / ``credit`` / ``stop``,
``batch`` / ``done``) on this namespace, always of the room's current settings, in a
run registry of their own: a class behind one NAT address must not hit /watch's
per-address limit, and a student's run is granted credit only up to the teacher's
furthest index plus a slack, so a student cannot make the server search ahead of the
class.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from dataclasses import dataclass, field

from flask import Flask, current_app, request
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import ObjectDeletedError, StaleDataError

from ..classroom import service
from ..classroom.service import ClassError
from ..db import db
from ..extensions import socketio
from ..i18n import request_lang, text
from ..stream.runs import Limits, Run, RunRegistry
from ..stream.spec import MAX_WINDOW, ProtocolError, parse_credit, parse_start, parse_stop, run_of
from .watch_socket import error_body as watch_error_body
from .watch_socket import is_client_event, start_ack, start_run

NAMESPACE = "/class"
EXTENSION = "class_rooms"
SERVER = "class_socketio_server"
CREDIT_SLACK = 3 * MAX_WINDOW  # a student's run may be granted this far past the teacher
CEILING_CACHE_SECONDS = 0.5
MAX_PUZZLE_GAMES = 5  # puzzle games one connection may open per puzzle

log = logging.getLogger(__name__)


@dataclass
class Member:
    sid: str
    lang: str
    code: str | None = None
    role: str | None = None  # "teacher" | "student" once joined
    run_gens: dict[str, int] = field(default_factory=dict)  # run id -> demo generation
    shown: dict[int, int] = field(default_factory=dict)  # teacher: gen -> events sent
    runs: list[Run] = field(default_factory=list)  # teacher: its recent runs
    puzzle_games: dict[int, int] = field(default_factory=dict)  # puzzle seq -> games opened


class Classroom:
    """This process's class connections and their run registry."""

    def __init__(self, app: Flask, server) -> None:
        config = app.config
        limits = Limits(
            per_connection=2,  # a restart overlaps the run it replaces by up to one batch
            per_address=int(config.get("CLASS_RUNS_PER_ADDRESS", 64)),
            total=int(config.get("CLASS_MAX_RUNS", 96)),
        )
        self.runs = RunRegistry(server.start_background_task, limits)
        self.server = server
        self.ttl = float(config.get("CLASS_ROOM_TTL", service.DEFAULT_TTL))
        self.presence_timeout = float(
            config.get("CLASS_PRESENCE_TIMEOUT", service.PRESENCE_TIMEOUT)
        )
        self.heartbeat = float(config.get("CLASS_HEARTBEAT", service.HEARTBEAT_SECONDS))
        self.members: dict[str, Member] = {}
        self.lock = threading.Lock()
        self._ceilings: dict[str, tuple[float, int, int]] = {}  # code -> (until, gen, ceiling)

    def ceiling(self, code: str, gen: int) -> int | None:
        """Total credit a student's run of ``gen`` may have (None: not the current gen)."""
        at = time.monotonic()
        cached = self._ceilings.get(code)
        if cached is None or cached[0] < at or cached[1] != gen:  # a new gen: look now
            room = service.find_room(code, ttl=self.ttl)
            ceiling = service.credit_ceiling(room, service.now(), CREDIT_SLACK)
            cached = (at + CEILING_CACHE_SECONDS, room.gen, ceiling)
            self._ceilings[code] = cached
        return cached[2] if cached[1] == gen else None


def init_app(app: Flask) -> None:
    """This app's class registry (handlers register at import)."""
    server = socketio.server
    app.extensions[EXTENSION] = Classroom(app, server)
    app.extensions[SERVER] = server


def classroom(app: Flask | None = None) -> Classroom:
    return (app or current_app).extensions[EXTENSION]


def room_name(code: str) -> str:
    return f"class:{code}"


def teacher_room(code: str) -> str:
    return f"class:{code}:teacher"


def _emit(event: str, data, to: str, skip_sid: str | None = None) -> None:
    classroom().server.emit(event, data, to=to, skip_sid=skip_sid, namespace=NAMESPACE)


def _error_body(err: Exception, lang: str, payload) -> dict:
    if isinstance(err, ProtocolError):
        return watch_error_body(err, lang)
    assert isinstance(err, ClassError)
    body = {"run": None, "code": err.code, "message": text(err.key, lang, err.params)}
    if err.code == "stale":
        body["gen"] = err.params.get("gen")
    return body


def _handler(name: str):
    """Register ``name`` on /class; refusals become an ``error`` event and a failed ack."""

    def wrap(fn):
        @functools.wraps(fn)
        def handle(payload=None, *extra):
            rooms = classroom()
            member = rooms.members.get(request.sid)
            lang = member.lang if member is not None else request_lang()
            conn = None
            try:
                if member is None:  # pragma: no cover - a message racing the disconnect
                    raise ClassError("not-joined")
                conn = rooms.runs.connection(request.sid)
                if conn is not None:
                    rooms.runs.admit(conn, start=name in ("start", "solve", "join"))
                try:
                    return fn(rooms, member, payload)
                except (ObjectDeletedError, StaleDataError, IntegrityError) as err:
                    # the room was closed (or expired) by a message handled meanwhile:
                    # a connection's events run concurrently (async_handlers)
                    db.session.rollback()
                    if member.code is not None:  # unknown-room / expired when it has gone
                        service.find_room(member.code, ttl=rooms.ttl)
                    if isinstance(err, IntegrityError):  # not that: a real failure
                        raise
                    raise ClassError("unknown-room") from err
            except (ClassError, ProtocolError) as err:
                if isinstance(err, ProtocolError) and err.run is None:
                    err.run = run_of(payload)
                body = _error_body(err, lang, payload)
                if body["code"] == "rate-limited" and conn is not None:
                    now = time.monotonic()
                    if now - conn.last_rate_error < 1.0:
                        return {"ok": False, "error": body}
                    conn.last_rate_error = now
            except Exception:
                log.exception("class %s handler failed", name)
                body = {
                    "run": run_of(payload),
                    "code": "internal",
                    "message": text("class.error.internal", lang),
                }
            rooms.server.emit("error", body, to=request.sid, namespace=NAMESPACE)
            return {"ok": False, "error": body}

        socketio.on_event(name, handle, namespace=NAMESPACE)
        return handle

    return wrap


def _room(rooms: Classroom, member: Member, *, teacher: bool = False):
    if member.code is None:
        raise ClassError("not-joined")
    if teacher and member.role != "teacher":
        raise ClassError("not-teacher")
    return service.find_room(member.code, ttl=rooms.ttl)


# -- connection ------------------------------------------------------------------------------
def _client_event() -> bool:
    """Whether connect/disconnect runs for a client's *event* of that name (see /watch).

    A real connection runs them while the sid is not yet (or no longer) connected; a
    forged one would otherwise replace the member or drop it from its room.
    """
    return is_client_event(classroom().server, NAMESPACE)


def _refuse_forged_event():
    rooms = classroom()
    member = rooms.members.get(request.sid)
    lang = member.lang if member is not None else request_lang()
    body = _error_body(ProtocolError("bad-request"), lang, None)
    rooms.server.emit("error", body, to=request.sid, namespace=NAMESPACE)
    return {"ok": False, "error": body}


@socketio.on("connect", namespace=NAMESPACE)
def on_connect(auth=None, *extra):
    if _client_event():
        return _refuse_forged_event()
    rooms = classroom()
    lang = request_lang()
    rooms.runs.connect(request.sid, request.remote_addr or "", lang)
    with rooms.lock:
        rooms.members[request.sid] = Member(request.sid, lang)


@socketio.on("disconnect", namespace=NAMESPACE)
def on_disconnect(*reason):
    if _client_event():
        return _refuse_forged_event()
    rooms = classroom()
    rooms.runs.disconnect(request.sid)
    with rooms.lock:
        member = rooms.members.pop(request.sid, None)
    if member is None or member.code is None:
        return
    try:
        service.leave(request.sid)
        if member.role == "student":
            count = service.student_count(member.code, service.now(), rooms.presence_timeout)
            _emit("presence", {"students": count}, to=teacher_room(member.code))
    except Exception:  # pragma: no cover - the database went away
        log.exception("class disconnect")


# -- joining ------------------------------------------------------------------------------------
@_handler("join")
def on_join(rooms: Classroom, member: Member, payload):
    """``{code, token?}``: enter a room, as its teacher when the token matches."""
    if member.code is not None:
        raise ClassError("bad-request", "class.error.bad-request.joined")
    if not isinstance(payload, dict):
        raise ClassError("bad-request", "class.error.bad-request.payload")
    at = service.now()
    room = service.find_room(payload.get("code"), at, rooms.ttl)
    token = payload.get("token")
    if token is not None and not service.token_matches(room, token):
        raise ClassError("bad-token")
    role = "teacher" if token is not None else "student"
    member.code, member.role = room.code, role
    server = rooms.server
    server.enter_room(request.sid, room_name(room.code), namespace=NAMESPACE)
    if role == "teacher":
        server.enter_room(request.sid, teacher_room(room.code), namespace=NAMESPACE)
    service.touch(room, at)
    service.enter(room.code, request.sid, role, at)  # commits the touch too
    students = service.student_count(room.code, at, rooms.presence_timeout)
    if role == "student":
        _emit("presence", {"students": students}, to=teacher_room(room.code))
    answer = {
        "ok": True,
        "code": room.code,
        "role": role,
        "state": service.public_state(room, at),
        "puzzle": service.puzzle_of(room),
        "heartbeat": rooms.heartbeat,
    }
    if role == "teacher":
        answer["students"] = students
        answer["leaderboard"] = service.leaderboard(room)
        answer["ttl"] = rooms.ttl
    return answer


@_handler("heartbeat")
def on_heartbeat(rooms: Classroom, member: Member, payload):
    at = service.now()
    room = _room(rooms, member)
    if not service.heartbeat(request.sid, at) and request.sid in rooms.members:
        service.enter(room.code, request.sid, member.role, at)  # swept: not if it just left
    answer = {"ok": True}
    if member.role == "teacher":
        service.touch(room, at)
        service.forget_stale(at, rooms.presence_timeout)  # also commits the touch
        answer["students"] = service.student_count(room.code, at, rooms.presence_timeout)
    return answer


# -- the teacher's controls ----------------------------------------------------------------------
@_handler("settings")
def on_settings(rooms: Classroom, member: Member, payload):
    """New demo settings (teacher): a new generation at index 0, paused."""
    room = _room(rooms, member, teacher=True)
    state = service.set_settings(room, payload, service.now())
    rooms._ceilings.pop(room.code, None)
    _emit("state", state, to=room_name(room.code), skip_sid=request.sid)
    return {"ok": True, "state": state}


@_handler("control")
def on_control(rooms: Classroom, member: Member, payload):
    """The teacher's clock: ``{gen, index, playing, speed, frontier?}``."""
    room = _room(rooms, member, teacher=True)
    gen = room.gen
    sent = max(
        [run.events_sent for run in member.runs if member.run_gens.get(run.id) == gen] or [0]
    )
    member.shown[gen] = max(member.shown.get(gen, 0), sent)
    state = service.set_control(room, payload, service.now(), shown_limit=member.shown[gen])
    _emit("state", state, to=room_name(room.code), skip_sid=request.sid)
    return {"ok": True, "state": state}


@_handler("puzzle")
def on_puzzle(rooms: Classroom, member: Member, payload):
    """Hand the class a puzzle ``{rows, cols, closed, start}``, or ``null`` to take it back."""
    room = _room(rooms, member, teacher=True)
    puzzle = service.set_puzzle(room, payload, service.now())
    _emit("puzzle", {"puzzle": puzzle}, to=room_name(room.code), skip_sid=request.sid)
    board = service.leaderboard(room)
    _emit("leaderboard", board, to=teacher_room(room.code), skip_sid=request.sid)
    return {"ok": True, "puzzle": puzzle, "leaderboard": board}


@_handler("close")
def on_close(rooms: Classroom, member: Member, payload):
    """End the class: the room is deleted and everyone in it is told."""
    room = _room(rooms, member, teacher=True)
    code = room.code
    service.close_room(room)
    _emit("ended", {"code": code}, to=room_name(code), skip_sid=request.sid)
    return {"ok": True}


# -- the puzzle, for students ---------------------------------------------------------------------
@_handler("solve")
def on_solve(rooms: Classroom, member: Member, payload):
    """``{name}``: a game of the current puzzle for this student (the knight placed)."""
    room = _room(rooms, member)
    puzzle = service.puzzle_of(room)
    if puzzle is None:
        raise ClassError("no-puzzle")
    opened = member.puzzle_games.get(puzzle["seq"], 0)
    if opened >= MAX_PUZZLE_GAMES:
        raise ClassError("full")
    name = payload.get("name") if isinstance(payload, dict) else None
    answer = service.start_puzzle_game(room, name, service.now())
    member.puzzle_games[puzzle["seq"]] = opened + 1
    _emit("leaderboard", service.leaderboard(room), to=teacher_room(room.code))
    return {"ok": True, **answer}


@_handler("solved")
def on_solved(rooms: Classroom, member: Member, payload):
    """``{game}``: the student won that game; the server checks it before ranking it."""
    room = _room(rooms, member)
    game = payload.get("game") if isinstance(payload, dict) else None
    entry = service.record_solution(room, game, service.now())
    board = service.leaderboard(room)
    _emit("leaderboard", board, to=teacher_room(room.code))
    rank = next((e["rank"] for e in board["entries"] if e["name"] == entry["name"]), None)
    return {"ok": True, "entry": {**entry, "rank": rank}}


# -- the demo's runs (the watch protocol, the room's settings) ------------------------------------
@_handler("start")
def on_start(rooms: Classroom, member: Member, payload):
    """``{run, window}``: a run of the room's current demo; the ack says its generation."""
    room = _room(rooms, member)
    run_id = run_of(payload)
    if run_id is None:
        raise ProtocolError("bad-request", "watch.error.bad-request.run-id")
    window = payload.get("window")
    spec = parse_start({**service.run_payload(room, run_id, 1), "window": window})
    gen = room.gen
    conn = rooms.runs.connection(request.sid)
    if conn is None:  # pragma: no cover - racing the disconnect
        raise ClassError("not-joined")
    run = start_run(rooms.runs, conn, spec, rooms.server, NAMESPACE)
    member.run_gens[spec.run] = gen
    if len(member.run_gens) > 64:
        member.run_gens.pop(next(iter(member.run_gens)))
    if member.role == "teacher":
        member.runs = [*[r for r in member.runs if member.run_gens.get(r.id) == gen][-3:], run]
    return start_ack(spec, gen=gen)


@_handler("credit")
def on_credit(rooms: Classroom, member: Member, payload):
    """As on /watch; a student's run is capped at the teacher's furthest index + a slack."""
    run_id, events = parse_credit(payload)
    conn = rooms.runs.connection(request.sid)
    if member.role == "student" and conn is not None and member.code is not None:
        run = conn.runs.get(run_id)
        if run is not None:
            ceiling = rooms.ceiling(member.code, member.run_gens.get(run_id, -1))
            granted = run.events_sent + run.credit
            allowed = 0 if ceiling is None else max(0, ceiling - granted)
            if allowed < events:
                if allowed:
                    rooms.runs.grant(conn, run_id, allowed)
                return {"ok": True, "run": run_id, "granted": allowed}
    rooms.runs.grant(conn, run_id, events)
    return {"ok": True, "run": run_id}


@_handler("stop")
def on_stop(rooms: Classroom, member: Member, payload):
    run_id = parse_stop(payload)
    rooms.runs.stop(rooms.runs.connection(request.sid), run_id)
    return {"ok": True, "run": run_id}
