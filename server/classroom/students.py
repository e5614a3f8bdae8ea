"""The room's students: one name each, for the quiz and the puzzle (``class_quiz_students``).

A name is one student's in a room (compared by :func:`name_key`: a full-width ``Ｂｏｂ``
is ``Bob``).  A connection answers as one student, and so does a browser (its
``kt_player`` cookie): entering again from the same browser is the same student, and
the key a student's page keeps brings them back from another.  New students count
against the room's seats and the caller's rate limit.  The teacher can remove a student,
who takes their answers and puzzle attempts along.  No Flask here: the web layer
(server/web/class_quiz.py) passes the browser's id, the cap and the rate limit.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from ..db import db
from .messages import ClassError
from .models import ClassEntry, ClassRoom, LabSubmission, QuizAnswer, QuizStudent
from .quiz_messages import QuizEnterMessage

KEY_BYTES = 18


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


NAME_KEY_MAX = 96  # class_quiz_students.name_key


def name_key(name: str) -> str:
    """How names are told apart in a room: compatibility forms folded (a full-width
    ``Ｂｏｂ`` is ``Bob``), case-folded, runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())[:NAME_KEY_MAX]


@dataclass(frozen=True)
class Entry:
    """Who ``enter`` let in: the student, the key their page keeps, whether the student
    is new to the room and whether the name changed (the teacher's scores list moves)."""

    student: QuizStudent
    key: str
    created: bool = False
    renamed: bool = False


def enter(
    room: ClassRoom,
    request: QuizEnterMessage,
    at: float,
    *,
    player: str | None = None,
    entered: str | None = None,
    cap: int | None = None,
    address: str = "",
    per_address: int | None = None,
    admit: Callable[[], None] = lambda: None,
) -> Entry:
    """The student under ``request.name``: the same one again with their key, or the
    browser's own (``player``), else a new one.

    ``entered`` is the student the connection entered as (None: it has not): it stays
    that student (``already-entered`` for another, a key renames it).  A name someone
    holds needs their key (``name-taken``).  A new student needs a free seat among the
    room's ``cap`` and among the ``per_address`` names the client ``address`` may enter
    there (``full``: one address, a script, cannot take every name of a room, while a
    class behind one NAT address fits), and ``admit()`` (which raises the refusal of a
    rate limit).
    """
    own = student_in(room.code, entered)
    by_key = None
    if request.key is not None:
        by_key = db.session.scalar(
            select(QuizStudent).where(
                QuizStudent.code == room.code, QuizStudent.key_hash == _hash(request.key)
            )
        )
    mine = _of_player(room.code, player)
    if own is not None and by_key is not None and by_key.id != own.id:
        raise ClassError("already-entered", name=own.name)
    if by_key is not None:
        if mine is not None and mine.id != by_key.id:  # this browser is someone else here
            raise ClassError("already-entered", name=mine.name)
        if player is not None and by_key.player is None:
            by_key.player = player
        renamed = _rename(by_key, request.name)
        db.session.commit()
        return Entry(by_key, request.key, renamed=renamed)
    if own is not None:
        raise ClassError("already-entered", name=own.name)
    if mine is not None:  # the browser's student, back without the key: a new key
        renamed = _rename(mine, request.name)
        key = secrets.token_urlsafe(KEY_BYTES)
        mine.key_hash = _hash(key)
        db.session.commit()
        return Entry(mine, key, renamed=renamed)
    return _new_student(room, request.name, at, player, _NameCaps(cap, address, per_address), admit)


def student_in(code: str, student_id: str | None) -> QuizStudent | None:
    """Room ``code``'s student of that id; None when it has none (removed, or never)."""
    student = db.session.get(QuizStudent, student_id) if student_id else None
    return student if student is not None and student.code == code else None


def _of_player(code: str, player: str | None) -> QuizStudent | None:
    if player is None:
        return None
    return db.session.scalar(
        select(QuizStudent).where(QuizStudent.code == code, QuizStudent.player == player)
    )


def _rename(student: QuizStudent, name: str) -> bool:
    key = name_key(name)
    if student.name == name:
        return False
    if student.name_key != key:
        _check_name_free(student.code, name)
    student.name, student.name_key = name, key
    return True


@dataclass(frozen=True)
class _NameCaps:
    room: int | None  # names in the room
    address: str  # the client address entering one
    per_address: int | None  # names that address may enter in the room

    def check(self, code: str, *, inserted: bool = False) -> None:
        """``full`` when the room (or the address in it) has no name left for one more;
        ``inserted``: that one is in already (others may have taken the last meanwhile)."""
        more = 0 if inserted else 1
        if self.room is not None and _students_in(code) + more > self.room:
            raise ClassError("full", "class.error.full.names", max=self.room)
        if self.per_address is not None and (
            _students_in(code, self.address) + more > self.per_address
        ):
            raise ClassError("full", "class.error.full.names-address", max=self.per_address)


def _new_student(
    room: ClassRoom, name: str, at: float, player: str | None, caps: _NameCaps, admit
) -> Entry:
    _check_name_free(room.code, name)
    caps.check(room.code)
    admit()
    key = secrets.token_urlsafe(KEY_BYTES)
    student = QuizStudent(
        id=secrets.token_hex(8),
        code=room.code,
        name=name,
        name_key=name_key(name),
        key_hash=_hash(key),
        joined_at=at,
        player=player,
        address=caps.address or None,
        attempts=0,
        attempts_seq=0,
    )
    db.session.add(student)
    try:
        db.session.commit()
    except IntegrityError:  # the same name (or browser) entered at the same moment elsewhere
        db.session.rollback()
        raise ClassError("name-taken") from None
    try:
        caps.check(room.code, inserted=True)
    except ClassError:  # others took the last names meanwhile
        _delete_students(room.code, [student.id])
        raise
    return Entry(student, key, created=True)


def _students_in(code: str, address: str | None = None) -> int:
    where = [QuizStudent.code == code]
    if address is not None:
        where.append(QuizStudent.address == address)
    return db.session.scalar(select(func.count(QuizStudent.id)).where(*where)) or 0


def _check_name_free(code: str, name: str) -> None:
    taken = db.session.scalar(
        select(QuizStudent.id).where(
            QuizStudent.code == code, QuizStudent.name_key == name_key(name)
        )
    )
    if taken is not None:
        raise ClassError("name-taken")


def student_by_id(room: ClassRoom, student_id: str | None) -> QuizStudent:
    student = student_in(room.code, student_id)
    if student is None:
        raise ClassError("not-entered")
    return student


@dataclass(frozen=True)
class Removed:
    id: str
    name: str


def remove(room: ClassRoom, student_id: str) -> Removed:
    """The teacher takes a student out of the room: their name (free again), their
    answers (tallies and the reveal's distribution count without them), their attempts,
    lab submissions and leaderboard lines."""
    student = student_in(room.code, student_id)
    if student is None:
        raise ClassError("unknown-student")
    removed = Removed(student.id, student.name)
    _delete_students(room.code, [student.id])
    return removed


def _delete_students(code: str, ids: list[str]) -> None:
    """Delete students with what is theirs (explicitly: not every SQLite connection
    enforces foreign keys)."""
    db.session.execute(delete(QuizAnswer).where(QuizAnswer.student_id.in_(ids)))
    db.session.execute(delete(ClassEntry).where(ClassEntry.student_id.in_(ids)))
    db.session.execute(delete(LabSubmission).where(LabSubmission.student_id.in_(ids)))
    db.session.execute(delete(QuizStudent).where(QuizStudent.code == code, QuizStudent.id.in_(ids)))
    db.session.commit()
