"""server.classroom.rooms: codes, tokens, expiry, closing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from server.classroom import clock, lease, presence, puzzles, quiz_answers, rooms
from server.classroom.messages import ClassError
from server.classroom.models import (
    ClassCheckpoint,
    ClassEntry,
    ClassPresence,
    ClassRoom,
    QuizAnswer,
    QuizQuestion,
    QuizStudent,
)
from server.classroom.quiz_messages import QuizAnswerMessage
from server.db import db
from server.engine.walker import WalkerState
from tests.classroom.helpers import SETTINGS, T0, new_room, student


def test_codes_are_short_unambiguous_and_typed_loosely():
    codes = {rooms.new_code() for _ in range(200)}
    assert len(codes) > 190
    for code in codes:
        assert len(code) == 6 and not set(code) & set("IL01O")
        assert set(code) <= set(rooms.CODE_ALPHABET)
    assert rooms.normalize_code(" ab-c 234 ") == "ABC234"
    for bad in ("ABC23", "ABC2345", "ABCDE1", "ABCDEO", "x" * 40):
        with pytest.raises(ClassError) as err:
            rooms.normalize_code(bad)
        assert err.value.code == "unknown-room"


def test_a_code_already_taken_is_never_handed_out_again(ctx, monkeypatch):
    first = rooms.open_room(T0)
    drawn = iter([first.code, first.code, "BCDEFG"])
    monkeypatch.setattr(rooms, "new_code", lambda: next(drawn))
    second = rooms.open_room(T0)
    assert second.code == "BCDEFG"
    # the first room is untouched: its teacher's token still opens it
    assert rooms.token_matches(rooms.find_room(first.code, T0), first.token)


def test_only_the_tokens_hash_is_stored_and_it_is_checked(ctx):
    opened = rooms.open_room(T0)
    room = db.session.get(ClassRoom, opened.code)
    assert opened.token not in room.token_hash and len(room.token_hash) == 64
    assert room.token_hash == rooms.hash_token(opened.token)
    assert rooms.token_matches(room, opened.token)
    for wrong in ("", "x", opened.token[:-1], "a" * 500):
        assert not rooms.token_matches(room, wrong)


def test_a_new_room_shows_nothing_yet(ctx):
    room = new_room()
    state = clock.public_state(room, T0)
    assert state["gen"] == 1 and state["index"] == 0 and not state["playing"]
    assert state["settings"] == rooms.DEFAULT_SETTINGS and state["end"] is None
    assert puzzles.puzzle_of(room) is None and state["lesson"] is None


def test_rooms_expire_after_inactivity_and_are_swept(ctx):
    old = rooms.open_room(T0, ttl=100)
    fresh = rooms.open_room(T0 + 50, ttl=100)
    assert rooms.find_room(old.code.lower(), T0 + 99, ttl=100).code == old.code
    with pytest.raises(ClassError) as err:
        rooms.find_room(old.code, T0 + 101, ttl=100)
    assert err.value.code == "expired"
    assert db.session.get(ClassRoom, old.code) is None  # deleted on the way
    with pytest.raises(ClassError) as err:  # told once: then it is no room at all
        rooms.find_room(old.code, T0 + 101, ttl=100)
    assert err.value.code == "unknown-room"
    presence.enter(fresh.code, "sid-1", "student", T0 + 60)
    assert rooms.sweep(T0 + 200, ttl=100) == 1
    assert db.session.get(ClassRoom, fresh.code) is None
    assert db.session.get(ClassPresence, "sid-1") is None
    with pytest.raises(ClassError) as err:
        rooms.find_room(fresh.code, T0 + 200, ttl=100)
    assert err.value.code == "unknown-room"


def test_activity_keeps_a_room_alive(ctx):
    opened = rooms.open_room(T0, ttl=100)
    room = rooms.find_room(opened.code, T0 + 90, ttl=100)
    control = {"seq": 1, "gen": 1, "index": 0, "playing": False, "speed": 5}
    clock.set_control(room, control, T0 + 90)
    assert rooms.find_room(opened.code, T0 + 180, ttl=100)
    rooms.touch(room, T0 + 170)
    db.session.commit()
    assert rooms.find_room(opened.code, T0 + 260, ttl=100)
    rooms.touch(room, T0 + 100)  # an older moment never takes the activity back
    db.session.commit()
    assert rooms.find_room(opened.code, T0 + 260, ttl=100)


def counts(code: str) -> dict[str, int]:
    tables = {
        "presence": ClassPresence,
        "entries": ClassEntry,
        "checkpoints": ClassCheckpoint,
        "students": QuizStudent,
        "questions": QuizQuestion,
    }
    found = {
        name: db.session.scalar(select(func.count()).select_from(model).where(model.code == code))
        for name, model in tables.items()
    }
    found["answers"] = db.session.scalar(select(func.count()).select_from(QuizAnswer))
    return found


def test_closing_a_room_takes_everything_of_it_along(ctx):
    room = new_room()
    other = new_room()
    code = room.code
    clock.set_settings(room, {**SETTINGS, "seq": 1}, T0)
    presence.enter(code, "t", "teacher", T0)
    presence.enter(other.code, "elsewhere", "student", T0)
    puzzles.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, T0)
    ann = student(room, "Ann")
    puzzles.start_puzzle_game(room, ann, T0)
    state = WalkerState(20_000, (0, 13), None, 2, 0, 2, (0,) * 25, (1, 0, 0, 0, (), ()))
    lease.save_checkpoints(code, room.gen, 0, [state], 20_000)
    db.session.add(
        QuizQuestion(
            code=code,
            number=1,
            gen=room.gen,
            idx=3,
            path="[0, 7, 4]",
            answer=13,
            why="{}",
            asked_at=T0,
            revealed_at=None,
            why_shown=False,
        )
    )
    db.session.commit()
    quiz_answers.answer(room, ann, QuizAnswerMessage(question=1, square=13), T0)
    assert all(counts(code).values()), counts(code)

    rooms.close_room(room)
    assert db.session.get(ClassRoom, code) is None
    assert not any(counts(code).values()), counts(code)
    assert db.session.get(ClassPresence, "elsewhere") is not None  # another room's
    with pytest.raises(ClassError) as err:
        rooms.find_room(code, T0)
    assert err.value.code == "unknown-room"


def test_live_rooms_are_capped_per_opening_address_until_one_expires_or_closes(ctx):
    caps = rooms.RoomCaps(total=10, per_address=3)
    ttl = 600.0
    opened = [rooms.open_room(T0 + i, ttl, address="10.0.0.66", caps=caps) for i in range(3)]
    with pytest.raises(ClassError) as err:
        rooms.open_room(T0 + 10, ttl, address="10.0.0.66", caps=caps)
    refused = err.value
    assert (refused.code, refused.key) == ("too-many-rooms", "class.error.too-many-rooms.address")
    assert refused.params["max"] == 3
    assert refused.params["seconds"] == 591  # the oldest expires 600 s after T0, 590 s from now
    assert refused.params["minutes"] == 10
    # another address is not held back by them
    rooms.open_room(T0 + 10, ttl, address="10.0.0.5", caps=caps)
    # a room used meanwhile lives on, so the wait is for the oldest one still idle
    rooms.touch(rooms.find_room(opened[0].code, T0 + 20, ttl), T0 + 20)
    db.session.commit()
    with pytest.raises(ClassError) as err:
        rooms.open_room(T0 + 30, ttl, address="10.0.0.66", caps=caps)
    assert err.value.params["seconds"] == 1 + 601 - 30
    rooms.close_room(rooms.find_room(opened[1].code, T0 + 30, ttl))  # the teacher closes one
    rooms.open_room(T0 + 30, ttl, address="10.0.0.66", caps=caps)
    with pytest.raises(ClassError):
        rooms.open_room(T0 + 31, ttl, address="10.0.0.66", caps=caps)
    rooms.open_room(T0 + 603, ttl, address="10.0.0.66", caps=caps)  # the oldest idle expired


def test_live_rooms_are_capped_on_the_whole_server(ctx):
    caps = rooms.RoomCaps(total=3, per_address=2)
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        rooms.open_room(T0, address=address, caps=caps)
    with pytest.raises(ClassError) as err:
        rooms.open_room(T0 + 1, address="10.0.0.4", caps=caps)
    assert err.value.key == "class.error.too-many-rooms.server" and err.value.params["max"] == 3
    assert db.session.scalar(select(func.count()).select_from(ClassRoom)) == 3
    legacy = rooms.open_room(T0 + 1)  # no caps (the CLI, a test): nothing counted
    assert rooms.find_room(legacy.code, T0 + 1).address is None
