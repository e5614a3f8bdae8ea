"""server.classroom.replica: a room's demo on the stored checkpoints, in a process that
does not run its search: never a replay from event 0, never far past what was stored."""

from __future__ import annotations

from server.classroom import clock, lease, rooms
from server.classroom.replica import Replica
from server.classroom.room_budget import RoomBudget
from server.limits.memory import MemoryBudget
from server.stream.timeline import Timeline
from tests.support.follower import SIX_BY_SIX

OPENER = "10.0.0.5"


def room_with_stored_search(upto: int):
    """A room showing 6x6 plain backtracking whose owner stored its checkpoints to ``upto``."""
    room = rooms.find_room(rooms.open_room(address=OPENER).code)
    clock.set_settings(room, {**SIX_BY_SIX, "seq": 1}, rooms.now())
    owner = Timeline(clock.demo_of(room))
    lease.save_checkpoints(room.code, room.gen, 0, owner.extend(upto), owner.spacing)
    return room, owner


def test_reads_start_from_the_stored_checkpoints_and_go_at_most_two_spacings_on(ctx):
    room, owner = room_with_stored_search(100_000)
    replica = Replica(RoomBudget(None, None))
    timeline = replica.at(room, 10**9)  # far past what was stored
    stored = owner.checkpoints()
    (lane,) = timeline.lanes
    assert lane.checkpoints()[: len(stored)] == stored  # built on them
    assert timeline.frontier == owner.latest_checkpoint + 2 * owner.spacing
    assert lane.events(90_000, 90_010) == owner.events(90_000, 90_010)
    assert replica.at(room, 10) is timeline  # the same replica serves what it has


def test_a_replica_is_rebuilt_for_newer_checkpoints_and_a_new_demo(ctx):
    room, owner = room_with_stored_search(40_000)
    replica = Replica(RoomBudget(None, None))
    first = replica.at(room, 40_000)
    lease.save_checkpoints(room.code, room.gen, 0, owner.extend(200_000), owner.spacing)
    later = replica.at(room, 200_000)
    assert later is not first and later.first.checkpoints() == owner.checkpoints()
    clock.set_settings(room, {**SIX_BY_SIX, "rows": 5, "cols": 5, "seq": 2}, rooms.now())
    fresh = replica.at(room, 10)
    assert fresh is not later and fresh.first.board.rows == 5


def test_its_memory_counts_against_the_opener_until_closed(ctx):
    memory = MemoryBudget(per_address=None, total=None)
    room, _owner = room_with_stored_search(40_000)
    replica = Replica(RoomBudget(None, memory))
    timeline = replica.at(room, 40_000)
    assert memory.used(OPENER) == timeline.nbytes > 0
    replica.close()
    assert memory.used() == 0
