"""Class rooms: opening, joining, the teacher's control state, presence, the class puzzle.

No Flask web code here: the Socket.IO handlers (server/web/class_socket.py) and the pages
(server/web/class_pages.py) call these functions inside an app context; every refusal is
a :class:`ClassError` with a protocol error code.  All state lives in the database
(server/classroom/models.py), so any server process can serve any member of a room.

The demo is synchronised by *index*.  The room's state says where the class is: the
teacher's last control (an event index, playing or not, at what speed, when) from which
the index *now* follows (:func:`room_index`).  The teacher's page numbers its controls
and one only applies if it is newer (:func:`set_control`: a compare-and-set in one
UPDATE).  The room's one search runs in whichever process holds its lease
(:func:`acquire_lease`, server/classroom/feed.py); it records its progress and
checkpoints here, so any process can serve any index and take the search over.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import case, delete, func, or_, select, update

from ..db import db
from ..game import rules
from ..game import service as games
from ..game.rules import RuleError
from ..lesson.chapters import CHAPTERS
from ..stream.timeline import Demo, state_from_json, state_to_json
from .messages import (
    CODE_MAX,
    TOKEN_MAX,
    ControlMessage,
    LessonMessage,
    PuzzleMessage,
    SettingsMessage,
)
from .messages import MAX_INDEX as MAX_INDEX  # the limits of the messages, re-exported
from .messages import MAX_SEQ as MAX_SEQ
from .messages import MAX_SPEED as MAX_SPEED
from .models import ClassCheckpoint, ClassEntry, ClassPresence, ClassRoom, QuizStudent

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I, L, O, 0, 1: read aloud, typed on phones
CODE_LENGTH = 6
CODE_ATTEMPTS = 20
TOKEN_BYTES = 24
DEFAULT_TTL = 2 * 3600.0  # a room expires after this long without activity
PRESENCE_TIMEOUT = 60.0  # a connection without a heartbeat for this long is not counted
HEARTBEAT_SECONDS = 20.0  # what the clients are told to use
NODE_BUDGET = 300_000_000  # the room's one search is bounded by these: the lesson's 8x8
TIME_LIMIT = 600.0  # seconds of computing (8x8 plain to its end: about 10 s with the core)
MAX_ATTEMPTS = 5  # attempts at one puzzle per student, until the teacher clears them
LEADERBOARD_SIZE = 50
DEFAULT_SETTINGS = {
    "rows": 5,
    "cols": 5,
    "start": [4, 0],
    "algorithm": "warnsdorff",
    "closed": False,
    "pruning": False,
}


class ClassError(Exception):
    """A refused class message: ``code`` for the client, ``key`` + ``params`` for the words."""

    def __init__(self, code: str, key: str | None = None, **params) -> None:
        super().__init__(code)
        self.code = code
        self.key = key or f"class.error.{code}"
        self.params = params


def now() -> float:
    return time.time()


# -- codes and tokens --------------------------------------------------------------------
def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(value: str) -> str:
    """A typed code as stored: upper case, spaces and dashes dropped; ClassError if malformed."""
    if len(value) > CODE_MAX:
        raise ClassError("unknown-room")
    code = value.upper().replace(" ", "").replace("-", "")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise ClassError("unknown-room")
    return code


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(room: ClassRoom, token: str) -> bool:
    """Constant-time comparison of the presented token's hash with the stored one."""
    if not 1 <= len(token) <= TOKEN_MAX:
        return False
    return hmac.compare_digest(hash_token(token), room.token_hash)


# -- rooms ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Opened:
    code: str
    token: str  # shown to the teacher once; only its hash is stored


def open_room(at: float | None = None, ttl: float = DEFAULT_TTL) -> Opened:
    """A new room with default settings; expired rooms are swept first."""
    at = now() if at is None else at
    sweep(at, ttl)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    for _attempt in range(CODE_ATTEMPTS):
        code = new_code()
        if db.session.get(ClassRoom, code) is None:
            break
    else:  # pragma: no cover - 31^6 codes
        raise ClassError("busy")
    room = ClassRoom(
        code=code,
        token_hash=hash_token(token),
        created_at=at,
        last_active=at,
        settings=json.dumps(DEFAULT_SETTINGS),
        gen=1,
        idx=0,
        playing=False,
        speed=10.0,
        state_at=at,
        frontier=0,
        seq=0,
        control_seq=0,
        outcome=None,
        owner=None,
        lease_until=0.0,
        puzzle=None,
        puzzle_seq=0,
        lesson_chapter=None,
        lesson_step=None,
    )
    db.session.add(room)
    db.session.commit()
    return Opened(code, token)


def find_room(code, at: float | None = None, ttl: float = DEFAULT_TTL) -> ClassRoom:
    """The live room with this code; ``unknown-room`` when there is none or it expired."""
    code = normalize_code(code)
    room = db.session.get(ClassRoom, code)
    at = now() if at is None else at
    if room is None:
        raise ClassError("unknown-room")
    if room.last_active < at - ttl:
        _delete_rooms([code])
        raise ClassError("expired")
    return room


def rollback() -> None:
    """Forget a failed transaction (the room may have been deleted under it)."""
    db.session.rollback()


def touch(room: ClassRoom, at: float) -> None:
    room.last_active = max(room.last_active, at)


def sweep(at: float, ttl: float = DEFAULT_TTL) -> int:
    """Delete every room idle for longer than ``ttl`` (with its presence and entries)."""
    codes = list(db.session.scalars(select(ClassRoom.code).where(ClassRoom.last_active < at - ttl)))
    if codes:
        _delete_rooms(codes)
    return len(codes)


def _delete_rooms(codes: list[str]) -> None:
    db.session.execute(delete(ClassCheckpoint).where(ClassCheckpoint.code.in_(codes)))
    db.session.execute(delete(ClassPresence).where(ClassPresence.code.in_(codes)))
    db.session.execute(delete(ClassEntry).where(ClassEntry.code.in_(codes)))
    db.session.execute(delete(ClassRoom).where(ClassRoom.code.in_(codes)))
    db.session.commit()


def close_room(room: ClassRoom) -> None:
    _delete_rooms([room.code])


# -- the demo ------------------------------------------------------------------------------
def settings_of(room: ClassRoom) -> dict:
    return json.loads(room.settings)


def demo_of(room: ClassRoom) -> Demo:
    """The room's current demo as a timeline runs it."""
    settings = settings_of(room)
    row, col = settings["start"]
    return Demo(
        rows=settings["rows"],
        cols=settings["cols"],
        start=row * settings["cols"] + col,
        algorithm=settings["algorithm"],
        closed=settings["closed"],
        pruning=settings["pruning"],
        holes=frozenset(settings.get("holes", ())),
        node_budget=NODE_BUDGET,
        time_limit=TIME_LIMIT,
    )


def _apply(room: ClassRoom, seq: int, at: float, values: dict, *, gen: int | None = None) -> None:
    """Compare-and-set: apply ``values`` only if ``seq`` is newer than the last one applied.

    One UPDATE whose WHERE holds the comparison, so neither two threads nor two
    processes can put an older state back (the database serialises the writes and
    re-checks the condition).  Refusals: ``superseded`` when a newer control was applied
    already, else ``stale`` when the demo changed under the message (``gen``); both
    carry the room's current state.
    """
    conditions = [ClassRoom.code == room.code, ClassRoom.control_seq < seq]
    if gen is not None:
        conditions.append(ClassRoom.gen == gen)
    values = {**values, "control_seq": seq, "seq": ClassRoom.seq + 1, "last_active": at}
    result = db.session.execute(
        update(ClassRoom).where(*conditions).values(values),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()  # expires ``room``: the next read sees the row as it is now
    if result.rowcount != 1:
        if db.session.get(ClassRoom, room.code) is None:
            raise ClassError("unknown-room")
        state = public_state(room, at)
        if gen is not None and room.gen != gen and room.control_seq < seq:
            raise ClassError("stale", gen=room.gen, state=state)
        raise ClassError("superseded", state=state)  # a newer message came first


def set_settings(room: ClassRoom, payload, at: float) -> dict:
    """New demo settings (a :class:`SettingsMessage`): a new generation, index 0, paused.

    ``payload`` is validated first: a ``ValidationError`` refuses it.
    """
    message = SettingsMessage.model_validate(payload)
    values = _new_demo(message.settings(), at)
    _apply(room, message.seq, at, {**values, "lesson_chapter": None, "lesson_step": None})
    _drop_old_checkpoints(room)
    return public_state(room, at)


def _new_demo(settings: dict, at: float) -> dict:
    """The columns of a new demo generation: at index 0, paused, nothing computed."""
    return {
        "settings": json.dumps(settings),
        "gen": ClassRoom.gen + 1,
        "idx": 0,
        "sent_upto": 0,
        "frontier": 0,
        "outcome": None,
        "playing": False,
        "state_at": at,
    }


def _drop_old_checkpoints(room: ClassRoom) -> None:
    db.session.execute(
        delete(ClassCheckpoint).where(
            ClassCheckpoint.code == room.code, ClassCheckpoint.gen < room.gen
        )
    )
    db.session.commit()


LESSON_ATTEMPTS = (
    8  # a lesson message re-reads the room this often if an older one changed the demo under it
)


def lesson_settings(chapter: dict) -> dict:
    """A chapter's demo as a room stores it: one search, so a race shows its first lane."""
    settings = chapter["settings"]
    return {
        "algorithm": settings["algorithm"],
        "pruning": settings.get("pruning", False),
        "rows": settings["rows"],
        "cols": settings["cols"],
        "closed": settings["closed"],
        "start": list(settings["start"]),
    }


def _lesson_position(step: dict, index: int) -> dict:
    """Where a step puts the class: paused at its event, or playing from ``index`` to the
    end (at its speed, or as fast as the search goes when it has none)."""
    if step["at"] == "end":
        return {"idx": index, "playing": True, "speed": step.get("speed")}
    return {"idx": step["at"], "playing": False}


def set_lesson(room: ClassRoom, payload, at: float) -> dict:
    """The teacher takes the class to ``{seq, chapter, step}`` of the guided lesson.

    A new chapter is a new demo (its settings, a new generation); a step of the same
    chapter moves the same demo.  Both in one compare-and-set, numbered with the
    controls' ``seq``; if the demo changed between the read and the write (another
    message of the teacher's), the room is read again so the two never disagree.
    """
    message = LessonMessage.model_validate(payload)
    chapter = next(c for c in CHAPTERS if c["id"] == message.chapter)
    step = chapter["steps"][message.step]
    settings = lesson_settings(chapter)
    for attempt in range(LESSON_ATTEMPTS):
        same_demo = room.gen > 1 and room.lesson_chapter == chapter["id"]
        same_demo = same_demo and settings_of(room) == settings
        values = {} if same_demo else _new_demo(settings, at)
        index = room_index(room, at) if same_demo else 0
        values |= _lesson_position(step, index)
        values |= {"state_at": at, "lesson_chapter": chapter["id"], "lesson_step": message.step}
        try:
            _apply(room, message.seq, at, values, gen=room.gen)
        except ClassError as err:
            if err.code != "stale" or attempt == LESSON_ATTEMPTS - 1:
                raise
            continue  # ``room`` was expired by the commit: the loop reads it again
        break
    if not same_demo:
        _drop_old_checkpoints(room)
    return public_state(room, at)


def set_control(room: ClassRoom, payload, at: float) -> dict:
    """The teacher's clock ``{seq, gen, index, playing, speed}``, applied only if newer.

    ``speed`` is events per second, or None: run to the end as fast as the search goes.
    """
    message = ControlMessage.model_validate(payload)  # a ValidationError refuses it
    values = {"idx": message.index, "playing": message.playing, "speed": message.speed}
    _apply(room, message.seq, at, {**values, "state_at": at}, gen=message.gen)
    return public_state(room, at)


def outcome_of(room: ClassRoom) -> dict | None:
    return json.loads(room.outcome) if room.outcome else None


def room_index(room: ClassRoom, at: float, *, held: bool = True) -> int:
    """The demo's index at ``at``: where the class is.

    Playing at a speed, the index moves on from the last control by itself (a late
    joiner lands where the class is, not where it was); playing with no speed, it is
    as far as the search has got.  Never past the search's end once that is known, nor
    past an open question (``held_at``: a class playing on to its question stops there).
    """
    index = room.idx
    if room.playing:
        if room.speed is None:
            index = max(index, room.frontier)
        else:
            index += int(room.speed * max(0.0, at - room.state_at))
    outcome = outcome_of(room)
    if outcome is not None:
        index = min(index, outcome["total"])
    if held and room.held_at is not None:
        index = min(index, room.held_at)
    return min(index, MAX_INDEX)


def public_state(room: ClassRoom, at: float) -> dict:
    """What every member needs to follow: settings, generation, the index *now*, the end."""
    outcome = outcome_of(room)
    if outcome is not None:
        outcome = {key: outcome[key] for key in ("status", "total", "nodes", "backtracks", "limit")}
    return {
        "gen": room.gen,
        "settings": json.loads(room.settings),
        "index": room_index(room, at),
        "playing": room.playing,
        "speed": room.speed,
        "frontier": room.frontier,
        "end": outcome,
        "hold": room.held_at,  # an open question's index: the class goes no further
        "seq": room.seq,
        "control_seq": room.control_seq,
        "lesson": lesson_of(room),
    }


def lesson_of(room: ClassRoom) -> dict | None:
    """Where the guided lesson stands in the room (``{chapter, step}``), or None."""
    if room.lesson_chapter is None:
        return None
    return {"chapter": room.lesson_chapter, "step": room.lesson_step}


def record_progress(code: str, gen: int, frontier: int, outcome: dict | None) -> bool:
    """The room's search reached ``frontier`` events (and maybe its end); False if stale."""
    values = {"frontier": frontier}
    if outcome is not None:
        values["outcome"] = json.dumps(outcome)
        values["seq"] = ClassRoom.seq + 1  # the end is news: members take the new state
    result = db.session.execute(
        update(ClassRoom).where(ClassRoom.code == code, ClassRoom.gen == gen).values(values),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1


def stop_at_hold(code: str, gen: int, at: float) -> bool:
    """A class that played on to its open question stands there, paused: its state says
    so (a new ``seq``), so no page goes on showing it as playing.  False when it is not
    there yet (or was stopped already)."""
    room = db.session.get(ClassRoom, code, populate_existing=True)
    if room is None or room.gen != gen or room.held_at is None or not room.playing:
        return False
    if room_index(room, at) < room.held_at:
        return False
    result = db.session.execute(
        update(ClassRoom)
        .where(
            ClassRoom.code == code,
            ClassRoom.gen == gen,
            ClassRoom.held_at == room.held_at,
            ClassRoom.playing,
        )
        .values(idx=room.held_at, playing=False, state_at=at, seq=ClassRoom.seq + 1),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1


def claim_sent(code: str, gen: int, upto: int) -> int:
    """Before members are sent the demo's events up to ``upto``: how far they may go.

    The class's high-water mark (``sent_upto``) moves on to ``upto`` in one UPDATE whose
    WHERE holds the quiz's hold (``held_at``), so a question asked at the same moment on
    another process either sees the new mark (and is asked there) or stops this send
    at its index: nobody is ever sent an event past an open question.  Answers ``upto``,
    or less while a question holds the demo (0 for a replaced demo).
    """
    for _ in range(2):
        result = db.session.execute(
            update(ClassRoom)
            .where(
                ClassRoom.code == code,
                ClassRoom.gen == gen,
                ClassRoom.sent_upto < upto,
                or_(ClassRoom.held_at.is_(None), ClassRoom.held_at >= upto),
            )
            .values(sent_upto=upto),
            execution_options={"synchronize_session": False},
        )
        db.session.commit()
        if result.rowcount == 1:
            return upto
        row = db.session.execute(
            select(ClassRoom.sent_upto, ClassRoom.held_at).where(
                ClassRoom.code == code, ClassRoom.gen == gen
            )
        ).first()
        if row is None:
            return 0
        sent, held = row
        if sent >= upto:
            return upto
        if held is None:  # the hold was lifted meanwhile: claim again
            continue
        upto = max(sent, held)  # as far as the question's position, not past it
    return sent


# -- the search's owner and checkpoints ------------------------------------------------------
def acquire_lease(code: str, owner: str, at: float, seconds: float) -> bool:
    """Take (or keep) the room's search for ``seconds``; False while another process holds it."""
    result = db.session.execute(
        update(ClassRoom)
        .where(
            ClassRoom.code == code,
            or_(
                ClassRoom.owner.is_(None),
                ClassRoom.owner == owner,
                ClassRoom.lease_until < at,
            ),
        )
        .values(owner=owner, lease_until=at + seconds),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()
    return result.rowcount == 1


def release_lease(code: str, owner: str) -> None:
    db.session.execute(
        update(ClassRoom)
        .where(ClassRoom.code == code, ClassRoom.owner == owner)
        .values(owner=None, lease_until=0.0),
        execution_options={"synchronize_session": False},
    )
    db.session.commit()


def save_checkpoints(code: str, gen: int, states, spacing: int) -> None:
    """Store the search's new checkpoints; drop those the thinned spacing no longer keeps."""
    for state in states:
        db.session.merge(
            ClassCheckpoint(
                code=code, gen=gen, idx=state.index, data=json.dumps(state_to_json(state))
            )
        )
    db.session.execute(
        delete(ClassCheckpoint).where(
            ClassCheckpoint.code == code,
            ClassCheckpoint.gen == gen,
            ClassCheckpoint.idx % spacing != 0,
        )
    )
    db.session.commit()


def load_checkpoints(code: str, gen: int) -> list:
    rows = db.session.scalars(
        select(ClassCheckpoint.data)
        .where(ClassCheckpoint.code == code, ClassCheckpoint.gen == gen)
        .order_by(ClassCheckpoint.idx)
    )
    return [state_from_json(json.loads(data)) for data in rows]


# -- presence ------------------------------------------------------------------------------
def enter(code: str, sid: str, role: str, at: float) -> None:
    """Record (or refresh) the connection's presence in a room, in one statement.

    A connection's events run concurrently: a heartbeat can arrive while its join is
    still committing, so a read-then-insert would race into a duplicate key.  An
    ``INSERT ... ON CONFLICT DO UPDATE`` (SQLite and PostgreSQL both have it) cannot.
    """
    values = {"sid": sid, "code": code, "role": role, "last_seen": at}
    statement = _insert_for(db.session.get_bind().dialect.name)(ClassPresence).values(values)
    statement = statement.on_conflict_do_update(
        index_elements=[ClassPresence.sid],
        set_={"code": code, "role": role, "last_seen": at},
    )
    db.session.execute(statement)
    db.session.commit()


def _insert_for(dialect: str):
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover - the supported databases are SQLite and PostgreSQL
        raise RuntimeError(f"class rooms need SQLite or PostgreSQL, not {dialect}")
    return insert


def heartbeat(sid: str, at: float) -> bool:
    """Refresh the connection's presence; False when it has none (e.g. swept)."""
    result = db.session.execute(
        update(ClassPresence).where(ClassPresence.sid == sid).values(last_seen=at)
    )
    db.session.commit()
    return bool(result.rowcount)


def leave(sid: str) -> str | None:
    """Forget the connection; the room code it was in, if any (a bulk delete: no race)."""
    code = db.session.execute(
        delete(ClassPresence).where(ClassPresence.sid == sid).returning(ClassPresence.code)
    ).scalar()
    db.session.commit()
    return code


def student_count(code: str, at: float, timeout: float = PRESENCE_TIMEOUT) -> int:
    query = select(func.count(ClassPresence.sid)).where(
        ClassPresence.code == code,
        ClassPresence.role == "student",
        ClassPresence.last_seen >= at - timeout,
    )
    return db.session.scalar(query) or 0


def forget_stale(at: float, timeout: float = PRESENCE_TIMEOUT) -> None:
    """Drop presence rows no heartbeat refreshed for a long while (dead processes)."""
    db.session.execute(delete(ClassPresence).where(ClassPresence.last_seen < at - 10 * timeout))
    db.session.commit()


# -- the class puzzle ----------------------------------------------------------------------
def set_puzzle(room: ClassRoom, payload, at: float) -> dict | None:
    """Hand the class a puzzle (a :class:`PuzzleMessage`, or take it back with ``None``);
    the public puzzle.  A ``ValidationError`` refuses a bad one."""
    if payload is None:
        room.puzzle = None
    else:
        puzzle = PuzzleMessage.model_validate(payload).stored()
        room.puzzle_seq += 1
        room.puzzle = json.dumps({**puzzle, "seq": room.puzzle_seq})
    touch(room, at)
    db.session.commit()
    return puzzle_of(room)


def puzzle_of(room: ClassRoom) -> dict | None:
    return json.loads(room.puzzle) if room.puzzle else None


def start_puzzle_game(
    room: ClassRoom,
    student: QuizStudent,
    at: float,
    *,
    admit: Callable[[], None] = lambda: None,
    max_attempts: int = MAX_ATTEMPTS,
) -> dict:
    """A Play-page game for the room's puzzle with the knight already on its start square,
    one of ``student``'s attempts (``full`` once they are used, until the teacher clears
    them); ``admit()`` raises the refusal of the game limits (one more game row).

    The student then plays it through the ordinary game API; the start cannot be changed
    there (undo never takes back the placement, restart keeps it), so a win of this game
    is a solution of the puzzle.
    """
    puzzle = puzzle_of(room)
    if puzzle is None:
        raise ClassError("no-puzzle")
    seq = puzzle["seq"]
    # one UPDATE that counts the attempt only while one is left: two connections of one
    # student (two tabs, a script with the key) cannot both take the last
    taken = db.session.execute(
        update(QuizStudent)
        .where(
            QuizStudent.id == student.id,
            or_(QuizStudent.attempts_seq != seq, QuizStudent.attempts < max_attempts),
        )
        .values(
            attempts=case((QuizStudent.attempts_seq == seq, QuizStudent.attempts + 1), else_=1),
            attempts_seq=seq,
        ),
        execution_options={"synchronize_session": False},
    )
    if taken.rowcount != 1:
        db.session.rollback()
        raise ClassError("full", "class.error.full.attempts", max=max_attempts)
    try:
        admit()
        start = _start_square(puzzle)
        created = games.create_game(
            puzzle["rows"],
            puzzle["cols"],
            puzzle["closed"],
            holes=frozenset(puzzle.get("holes", ())),
            start=start,
        )
    except BaseException:
        db.session.rollback()
        raise
    if start is not None:
        row, col = puzzle["start"]
        games.change(created.id, lambda state: rules.move(state, row, col, at))
    db.session.add(
        ClassEntry(
            code=room.code,
            puzzle_seq=seq,
            game_id=created.id,
            student_id=student.id,
            name=student.name,
            started_at=at,
        )
    )
    touch(room, at)
    db.session.commit()
    return {"game": created.id, "puzzle": puzzle, "name": student.name}


def clear_attempts(room: ClassRoom, student_id: str | None = None) -> int:
    """The teacher gives a student (None: every student) their attempts at the puzzle
    back; how many students had some.  ``unknown-student`` for a student not in the room."""
    where = [QuizStudent.code == room.code]
    if student_id is not None:
        where.append(QuizStudent.id == student_id)
        if db.session.scalar(select(QuizStudent.id).where(*where)) is None:
            raise ClassError("unknown-student")
    result = db.session.execute(
        update(QuizStudent).where(*where, QuizStudent.attempts > 0).values(attempts=0),
        execution_options={"synchronize_session": False},
    )
    touch(room, now())
    db.session.commit()
    return result.rowcount


def record_solution(room: ClassRoom, game_id: str, at: float) -> dict:
    """A student says they solved it: the server checks the stored game, then ranks it."""
    entry = db.session.scalar(
        select(ClassEntry).where(ClassEntry.code == room.code, ClassEntry.game_id == game_id)
    )
    puzzle = puzzle_of(room)
    if entry is None or puzzle is None or entry.puzzle_seq != puzzle["seq"]:
        raise ClassError("unknown-entry")
    if entry.solved_at is not None:
        return _entry_json(entry)
    try:
        state = games.load(game_id).state
    except RuleError:
        raise ClassError("unknown-entry") from None
    start = _start_square(puzzle)
    if (
        not state.won
        or (state.rows, state.cols, state.closed)
        != (puzzle["rows"], puzzle["cols"], puzzle["closed"])
        or state.holes != frozenset(puzzle.get("holes", ()))
        or (start is not None and state.path[0] != start)
    ):
        raise ClassError("not-solved")
    finished = state.finished_at if state.finished_at is not None else at
    entry.solved_at = finished
    entry.seconds = round(max(0.0, finished - entry.started_at), 1)
    entry.moves, entry.hints, entry.undos = state.moves, state.hints, state.undos
    touch(room, at)
    db.session.commit()
    return _entry_json(entry)


def _start_square(puzzle: dict) -> int | None:
    """The puzzle's fixed start as a square; None when each student picks it."""
    if puzzle.get("start") is None:
        return None
    row, col = puzzle["start"]
    return row * puzzle["cols"] + col


def _entry_json(entry: ClassEntry, name: str | None = None) -> dict:
    return {
        "student": entry.student_id,
        "name": name or entry.name,
        "seconds": entry.seconds,
        "moves": entry.moves,
        "hints": entry.hints,
        "undos": entry.undos,
    }


def solver_key(entry: ClassEntry) -> str:
    """Whose line of the leaderboard an attempt is: its student's (attempts made before
    students were kept: its name's, case-folded)."""
    if entry.student_id is not None:
        return f"student:{entry.student_id}"
    return f"name:{entry.name.casefold()}"


def leaderboard(room: ClassRoom) -> dict:
    """The current puzzle's solvers: unaided solutions first, each group fastest first.

    As on the Play page's leaderboard, a run that used hints is ranked apart: it goes
    after every run without, however quick (ties: fewer hints).  One line per student,
    their best result under their name now (nobody can take another's line by a name
    alike).  ``trying`` counts the attempts handed out.
    """
    puzzle = puzzle_of(room)
    if puzzle is None:
        return {"puzzle": None, "entries": [], "trying": 0, "solved": 0}
    seq = puzzle["seq"]
    base = (ClassEntry.code == room.code, ClassEntry.puzzle_seq == seq)
    trying = db.session.scalar(select(func.count(ClassEntry.id)).where(*base)) or 0
    solved = db.session.execute(
        select(ClassEntry, QuizStudent.name)
        .outerjoin(QuizStudent, QuizStudent.id == ClassEntry.student_id)
        .where(*base, ClassEntry.solved_at.is_not(None))
        .order_by(ClassEntry.hints > 0, ClassEntry.seconds, ClassEntry.hints, ClassEntry.id)
    )
    entries, seen = [], set()
    for entry, name in solved:
        key = solver_key(entry)
        if key in seen:
            continue
        seen.add(key)
        entries.append({"rank": len(entries) + 1, **_entry_json(entry, name)})
    return {
        "puzzle": puzzle,
        "entries": entries[:LEADERBOARD_SIZE],
        "trying": trying,
        "solved": len(entries),
    }
