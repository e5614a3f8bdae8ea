"""server.classroom.lease: who runs a room's search, what it recorded, and how far the
class may be sent (never past an open question, whichever process sends)."""

from __future__ import annotations

from sqlalchemy import select

from server.classroom import clock, lease, rooms
from server.classroom.models import ClassRoom
from server.db import db
from server.engine.walker import WalkerState
from tests.classroom.helpers import T0, room_with_demo


def test_a_lease_belongs_to_one_process_until_it_lapses(ctx):
    code = rooms.open_room(T0).code
    assert lease.acquire(code, "a", T0, 3.0)
    assert not lease.acquire(code, "b", T0 + 1, 3.0)
    assert lease.acquire(code, "a", T0 + 2, 3.0)  # renewed until T0 + 5
    assert not lease.acquire(code, "b", T0 + 4.9, 3.0)
    assert lease.acquire(code, "b", T0 + 5.1, 3.0)  # lapsed: taken over
    assert not lease.acquire(code, "a", T0 + 6, 3.0)
    lease.release(code, "a")  # not a's to give back: b keeps it
    assert not lease.acquire(code, "a", T0 + 6, 3.0)
    lease.release(code, "b")
    assert lease.acquire(code, "a", T0 + 6, 3.0)
    assert not lease.acquire("NOROOM", "a", T0, 3.0)


def test_progress_is_recorded_for_the_current_demo_and_its_end_is_news(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    seq = clock.public_state(room, T0)["seq"]
    assert lease.record_progress(code, gen, 400, None)
    state = clock.public_state(rooms.find_room(code, T0), T0)
    assert (state["frontier"], state["end"], state["seq"]) == (400, None, seq)  # no news
    end = {"status": "found", "total": 500, "nodes": 300, "backtracks": 200, "limit": None}
    assert lease.record_progress(code, gen, 500, end)
    state = clock.public_state(rooms.find_room(code, T0), T0)
    assert (state["frontier"], state["end"], state["seq"]) == (500, end, seq + 1)
    assert not lease.record_progress(code, gen - 1, 900, None)  # a replaced demo's search
    assert clock.public_state(rooms.find_room(code, T0), T0)["frontier"] == 500


def checkpoint(index: int) -> WalkerState:
    return WalkerState(index, (0, 13), None, 2, 0, 2, (0,) * 25, (1, 0, 0, 0, (), ()))


def test_checkpoints_are_kept_per_demo_thinned_with_the_spacing(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    lease.save_checkpoints(code, gen, [checkpoint(i) for i in (3000, 1000, 2000)], 1000)
    assert [s.index for s in lease.load_checkpoints(code, gen)] == [1000, 2000, 3000]
    lease.save_checkpoints(code, gen, [checkpoint(4000)], 2000)  # the spacing doubled
    assert [s.index for s in lease.load_checkpoints(code, gen)] == [2000, 4000]
    lease.save_checkpoints(code, gen, [checkpoint(4000)], 2000)  # saved again: one of it
    assert lease.load_checkpoints(code, gen) == [checkpoint(2000), checkpoint(4000)]
    lease.save_checkpoints(code, gen + 1, [checkpoint(2000)], 2000)
    lease.drop_old_checkpoints(code, gen + 1)
    assert lease.load_checkpoints(code, gen) == []
    assert lease.load_checkpoints(code, gen + 1) == [checkpoint(2000)]


def sent_upto(code: str) -> int:
    db.session.rollback()  # read the row as it is now, not as this session last saw it
    return db.session.scalar(select(ClassRoom.sent_upto).where(ClassRoom.code == code))


def test_the_mark_moves_on_with_each_claim_and_never_back(ctx):
    room = room_with_demo()
    code, gen = room.code, room.gen
    assert lease.claim_sent(code, gen, 10) == 10 and sent_upto(code) == 10
    assert lease.claim_sent(code, gen, 4) == 4  # sent already: allowed, the mark stays
    assert lease.claim_sent(code, gen, 10) == 10 and sent_upto(code) == 10
    assert lease.claim_sent(code, gen, 25) == 25 and sent_upto(code) == 25
    assert lease.claim_sent(code, gen - 1, 99) == 0  # a replaced demo: nothing to send
    assert sent_upto(code) == 25
    clock.set_settings(room, {**clock.settings_of(room), "seq": 2}, T0)  # a new demo
    assert sent_upto(code) == 0
    assert lease.claim_sent(code, gen, 30) == 0
