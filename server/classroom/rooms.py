"""Class rooms and their tokens: opening, finding by the code a client typed, expiry,
closing.

A room is one row (``class_rooms``, server/classroom/models.py) that several modules
share, each owning its own columns: the teacher's control clock (clock.py), the
search's lease, progress and high-water mark (lease.py), the class puzzle (puzzles.py);
presence (presence.py) and the quiz (students.py, quiz.py) have tables of their own.
This module owns the row's life: the join code, the SHA-256 of the teacher's token (the
token itself is shown once and never stored), the last activity, and deleting a room
with its rows in the other tables (the quiz's follow by their foreign keys).  All of a
room's truth is in the database, so any server process can serve any member.

**Live rooms are counted** (:class:`RoomCaps`): a room costs its server a feed, a
search and its checkpoints while it lives, so one client address may keep only so many
alive (a script opening rooms cannot fill the server, while a school's teachers behind
one NAT fit), and the server as many in all.  The count is in the database, so it holds
across processes (two opens at the same moment may both pass: a cap, not a ledger).

No Flask here: the Socket.IO handlers (server/web/class_socket.py) and the pages
(server/web/class_pages.py) call these functions inside an app context; every refusal
is a :class:`~server.classroom.messages.ClassError` with a protocol error code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import delete, func, select

from ..db import db
from .messages import ClassError
from .models import ClassCheckpoint, ClassEntry, ClassPresence, ClassRoom, LabSubmission
from .room_messages import CODE_MAX, TOKEN_MAX

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I, L, O, 0, 1: read aloud, typed on phones
CODE_LENGTH = 6
CODE_ATTEMPTS = 20
TOKEN_BYTES = 24
DEFAULT_TTL = 2 * 3600.0  # a room expires after this long without activity
DEFAULT_SETTINGS = {
    "rows": 5,
    "cols": 5,
    "start": [4, 0],
    "algorithm": "warnsdorff",
    "closed": False,
    "pruning": False,
}


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


@dataclass(frozen=True)
class RoomCaps:
    """How many live rooms the server keeps: in all, and opened by one client address."""

    total: int = 500
    per_address: int = 100


def open_room(
    at: float | None = None,
    ttl: float = DEFAULT_TTL,
    *,
    address: str | None = None,
    caps: RoomCaps | None = None,
) -> Opened:
    """A new room with default settings, opened from ``address``; expired rooms are swept
    first.  ``too-many-rooms`` when ``caps`` are reached (``seconds``: until the oldest
    of the rooms counted expires, unless it is used meanwhile)."""
    at = now() if at is None else at
    sweep(at, ttl)
    if caps is not None:
        _check_caps(caps, address, at, ttl)
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
        address=address,
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


def _check_caps(caps: RoomCaps, address: str | None, at: float, ttl: float) -> None:
    """``too-many-rooms`` when the server's live rooms, or ``address``'s, reach their cap
    (the sweep just ran: every room left is live)."""
    live = select(func.count(), func.min(ClassRoom.last_active))
    counted = [(live, caps.total, "server")]
    if address is not None:
        counted.append((live.where(ClassRoom.address == address), caps.per_address, "address"))
    for query, cap, which in counted:
        count, oldest = db.session.execute(query).one()
        if count >= cap:
            seconds = max(1, int(oldest + ttl - at) + 1)
            raise ClassError(
                "too-many-rooms",
                f"class.error.too-many-rooms.{which}",
                max=cap,
                seconds=seconds,
                minutes=max(1, -(-seconds // 60)),
            )


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
    db.session.execute(delete(LabSubmission).where(LabSubmission.code.in_(codes)))
    db.session.execute(delete(ClassRoom).where(ClassRoom.code.in_(codes)))
    db.session.commit()


def close_room(room: ClassRoom) -> None:
    _delete_rooms([room.code])
