"""What the /class handlers and the class pages share: the hub, the client's address,
looking a room up by the code a client typed, and what goes to the teacher's pages.

Per client address (``request.remote_addr``, the real client behind ``PROXY_FIX``): codes
looked up in vain (``RATE_LIMIT_CLASS_MISSES``: :func:`lookup`, for the pages and
``join`` alike) and the puzzle's games (:func:`admit_game`, counted with ``POST
/api/games`` under ``RATE_LIMIT_GAMES``).  What students cause on the teacher's pages
goes through the hub's throttle (:func:`to_teacher`).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app, request

from ..classroom import lab_checks, presence, puzzles, rooms
from ..classroom.hub import Hub
from ..classroom.messages import ClassError
from ..classroom.models import ClassRoom
from ..db import db
from . import ratelimit

EXTENSION = "class_hub"
MISSES = "RATE_LIMIT_CLASS_MISSES"


def hub(app: Flask | None = None) -> Hub:
    return (app or current_app).extensions[EXTENSION]


def address() -> str:
    return request.remote_addr or ""


# -- looking a room up by its code -------------------------------------------------------------
def lookup(code, *, known: Callable[[ClassRoom], bool] = lambda room: False) -> ClassRoom:
    """The live room with this code, for a client that typed it (a page, a ``join``).

    A code looked up in vain counts against the client address's ``RATE_LIMIT_CLASS_MISSES``
    (6 characters of 31: guessing must stay infeasible).  Beyond it, the address finds
    only rooms it already has a member in (its class goes on joining, whatever a
    classmate behind the same NAT guesses) or that ``known(room)`` lets it (the teacher's
    token, the browser that opened the room); every other lookup, hit or miss, is
    refused alike (``rate-limited``), so the refusal tells nothing of the code.
    """
    over = ratelimit.exceeded(MISSES, address())
    try:
        room = rooms.find_room(code, ttl=hub().ttl)
    except ClassError as err:
        if err.code not in ("unknown-room", "expired"):
            raise
        if over is not None:
            raise too_many_misses(over) from None
        ratelimit.charge(MISSES, address())
        raise
    if over is not None and not (hub().has_member_from(room.code, address()) or known(room)):
        raise too_many_misses(over)
    return room


def too_many_misses(seconds: int) -> ClassError:
    return ClassError("rate-limited", "class.error.rate-limited.codes", seconds=seconds)


# -- what students cause on the teacher's pages --------------------------------------------------
def to_teacher(event: str, code: str, read: Callable[[ClassRoom], dict | None]) -> None:
    """``event`` to the room's teacher pages, at most twice a second, with ``read(room)``
    as the room is when it goes (nothing when the room is gone)."""
    ttl = hub().ttl

    def latest() -> dict | None:
        try:
            return read(rooms.find_room(code, ttl=ttl))
        except ClassError:
            db.session.rollback()
            return None

    hub().to_teacher_latest(event, code, latest)


def presence_to_teacher(code: str) -> None:
    timeout = hub().presence_timeout
    to_teacher(
        "presence",
        code,
        lambda room: {"students": presence.student_count(room.code, rooms.now(), timeout)},
    )


def leaderboard_to_teacher(code: str) -> None:
    to_teacher("leaderboard", code, puzzles.leaderboard)


def lab_leaderboard_to_teacher(code: str) -> None:
    to_teacher("lab_leaderboard", code, lab_checks.leaderboard)


def admit_game() -> None:
    """One more game row for this client address (``RATE_LIMIT_GAMES``, the count of
    ``POST /api/games``): ``rate-limited`` beyond it."""
    wait = ratelimit.charge("RATE_LIMIT_GAMES", address())
    if wait is not None:
        raise ClassError("rate-limited", "class.error.rate-limited.games", seconds=wait)
