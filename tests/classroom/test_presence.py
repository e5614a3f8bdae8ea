"""server.classroom.presence: who is in a room, counted by fresh heartbeats."""

from __future__ import annotations

import threading

from sqlalchemy import select

from server.classroom import presence, rooms
from server.classroom.models import ClassPresence
from server.db import db
from tests.classroom.helpers import T0


def test_students_are_counted_by_fresh_heartbeats(ctx):
    code = rooms.open_room(T0).code
    presence.enter(code, "t", "teacher", T0)
    presence.enter(code, "a", "student", T0)
    presence.enter(code, "b", "student", T0)
    assert presence.student_count(code, T0 + 1) == 2  # the teacher is not counted
    assert presence.heartbeat("a", T0 + 50)
    assert presence.student_count(code, T0 + 70) == 1  # b went quiet (a dead process)
    assert presence.student_count(code, T0 + 70, timeout=80) == 2
    assert presence.leave("a") == code and presence.leave("a") is None
    assert presence.student_count(code, T0 + 70) == 0
    assert not presence.heartbeat("nobody", T0)


def test_a_connection_is_in_one_room_at_a_time(ctx):
    first, second = rooms.open_room(T0).code, rooms.open_room(T0).code
    presence.enter(first, "a", "student", T0)
    presence.enter(second, "a", "teacher", T0 + 1)  # the same connection, elsewhere now
    assert presence.student_count(first, T0 + 1) == 0
    assert presence.student_count(second, T0 + 1) == 0  # as its teacher
    row = db.session.get(ClassPresence, "a")
    assert (row.code, row.role, row.last_seen) == (second, "teacher", T0 + 1)


def test_long_dead_connections_are_forgotten(ctx):
    code = rooms.open_room(T0).code
    presence.enter(code, "old", "student", T0)
    presence.enter(code, "quiet", "student", T0 + 500)
    presence.enter(code, "live", "student", T0 + 640)
    presence.forget_stale(T0 + 650, timeout=60)  # ten timeouts without a heartbeat
    assert db.session.get(ClassPresence, "old") is None
    assert db.session.get(ClassPresence, "quiet") is not None  # not counted, but kept
    assert presence.student_count(code, T0 + 650, timeout=60) == 1
    assert not presence.heartbeat("old", T0 + 651)  # its page enters again (the socket's part)


def test_entering_races_safely_on_one_connection(app):
    """A join and a heartbeat of one connection run concurrently; both record presence.

    The old read-then-insert raced into a duplicate key (found by the /class fuzzer).
    """
    with app.app_context():
        code = rooms.open_room(T0).code
    sids = [f"sid-{n}" for n in range(12)]
    barrier = threading.Barrier(8)
    failures: list[BaseException] = []

    def enter_all(worker: int) -> None:
        with app.app_context():
            barrier.wait()
            for sid in sids:
                try:
                    presence.enter(code, sid, "student", T0 + worker)
                except BaseException as err:  # reported below
                    failures.append(err)
                    db.session.rollback()

    threads = [threading.Thread(target=enter_all, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures, failures[:3]
    with app.app_context():
        assert presence.student_count(code, T0 + 1) == len(sids)
        assert {row.sid for row in db.session.scalars(select(ClassPresence))} == set(sids)
        assert all(presence.leave(sid) == code for sid in sids)
        assert presence.leave(sids[0]) is None
