"""What the class room's tests share: a fixed moment, refusals as a client sees them, a
room with a demo, students, a puzzle played through.

The tests call server/classroom's functions directly, inside an app context on a real
SQLite database (the ``app`` fixture of tests/conftest.py: a copy of the migrated
schema), never through the socket.
"""

from __future__ import annotations

from pydantic import ValidationError

from server.classroom import clock, rooms, students
from server.classroom.messages import ClassError
from server.classroom.quiz_messages import QuizEnterMessage
from server.game import rules
from server.game import service as games
from server.web.refusals import CLASS, refusal_of
from tests.support.follower import SIX_BY_SIX

T0 = 1_800_000_000.0  # a fixed moment: every time a test passes is relative to it

SETTINGS = {**SIX_BY_SIX, "rows": 5, "cols": 5}  # the plain search from a corner: 551 events


def refused(fn, *args) -> str:
    """The code a client is shown when ``fn`` refuses its input (a model's or the room's)."""
    try:
        fn(*args)
    except ClassError as err:
        return err.code
    except ValidationError as err:
        return refusal_of(err, CLASS).code
    raise AssertionError(f"{getattr(fn, '__name__', fn)}{args!r:.200} was accepted")


def new_room(at: float = T0, ttl: float = rooms.DEFAULT_TTL):
    """A fresh room, read back as its row."""
    return rooms.find_room(rooms.open_room(at, ttl).code, at, ttl)


def room_with_demo(settings: dict = SETTINGS, at: float = T0):
    """A room showing ``settings`` (generation 2), paused at index 0."""
    room = new_room(at)
    clock.set_settings(room, {**settings, "seq": 1}, at)
    return room


def student(room, name: str, at: float = T0, **options):
    """A student of ``room`` under ``name`` (a puzzle's attempts are a student's)."""
    return students.enter(room, QuizEnterMessage(name=name), at, **options).student


def play_through(game_id: str, tour: list[int], cols: int, at: float = T0 + 30) -> None:
    """Play ``tour`` (the first square already placed) in game ``game_id``."""
    for sq in tour[1:]:
        games.change(game_id, lambda s, sq=sq: rules.move(s, *divmod(sq, cols), at))
