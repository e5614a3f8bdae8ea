"""Who is in a room now: one row per Socket.IO connection (``class_presence``).

A connection lives in whichever process accepted it, and that process may die without
a word, so presence is kept in the database and *refreshed*: each page sends a heartbeat
every ``CLASS_HEARTBEAT`` seconds, and the student count is the number of student rows
seen within the presence timeout.  A dead process's connections thus drop off the count
by themselves, and :func:`forget_stale` deletes them later.  Only the web layer
(server/web/class_socket.py, class_quiz.py, class_room.py) uses it.  No Flask here.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..db import db
from .models import ClassPresence

PRESENCE_TIMEOUT = 60.0  # a connection without a heartbeat for this long is not counted
HEARTBEAT_SECONDS = 20.0  # what the clients are told to use


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
        return postgresql.insert
    if dialect == "sqlite":
        return sqlite.insert
    raise RuntimeError(  # pragma: no cover - the supported databases are SQLite and PostgreSQL
        f"class rooms need SQLite or PostgreSQL, not {dialect}"
    )


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
