"""server.classroom.room_budget: a room's search in the server's slots, on its opener's
search budget and memory share."""

from __future__ import annotations

from server.classroom.room_budget import RoomBudget
from server.limits.budget import SearchBudget, Searches, SearchSlots
from server.limits.memory import MB, MemoryBudget
from server.stream.timeline import Demo, Timeline

TEACHER, PRANKSTER = "10.0.0.5", "10.0.0.66"
BIG = Demo(30, 30, 0, "seed", closed=True, pruning=False, node_budget=10**9, time_limit=600)


def room(searches=None, memory=None, address=TEACHER) -> RoomBudget:
    budget = RoomBudget(searches, memory)
    budget.address = address
    return budget


def test_a_slice_is_charged_to_the_opener_and_its_checkpoints_saved_inside_it():
    budget = SearchBudget(burst=5.0, refill=0.01)
    slots = SearchSlots(2, wait=0.1)
    prankster, teacher = room(Searches(budget, slots), address=PRANKSTER), Timeline(BIG)
    saved = []

    def save(states):
        assert slots.running() == 1  # storing is part of the search's cost
        saved.extend(states)

    assert prankster.slice(teacher, 10**7, 0.1, save)
    assert teacher.frontier > 0 and saved  # every checkpoint it keeps went to ``save``
    assert {state.index for state in teacher.checkpoints()} <= {state.index for state in saved}
    assert budget.level(PRANKSTER) < 5.0 - 0.01 and budget.level(TEACHER) == 5.0
    budget.charge(PRANKSTER, 10.0)  # its searches used its time: its rooms wait
    frontier = teacher.frontier
    assert not prankster.slice(teacher, 10**7, 0.1, save) and teacher.frontier == frontier
    assert room(Searches(budget, slots)).slice(teacher, 10**7, 0.1, save)  # others go on


def test_the_timelines_are_pinned_under_the_opener_and_freed():
    memory = MemoryBudget(per_address=4 * MB, total=64 * MB)
    evicted = []
    memory.keep(TEACHER, 3 * MB, lambda: evicted.append("a finished /watch run"))
    budget, owner, replica = room(memory=memory), Timeline(BIG), Timeline(BIG)
    while owner.nbytes <= MB:
        assert budget.slice(owner, 10**9, 0.1, lambda states: None)
    assert memory.used(TEACHER) == owner.nbytes  # counted as it grew: the kept run made way
    assert evicted == ["a finished /watch run"]
    budget.count("replica", replica)
    assert memory.used(TEACHER) == owner.nbytes + replica.nbytes
    budget.count("owner", None)
    budget.count("replica", None)
    assert memory.used() == 0


def test_rooms_that_fill_their_opener_memory_stop_growing():
    memory = MemoryBudget(per_address=MB, total=64 * MB)
    pranks, timeline = room(memory=memory, address=PRANKSTER), Timeline(BIG)
    while memory.has_room(PRANKSTER):
        assert pranks.slice(timeline, 10**9, 0.1, lambda states: None)
    frontier, held = timeline.frontier, memory.used(PRANKSTER)
    assert not pranks.slice(timeline, 10**9, 0.1, lambda states: None)
    assert timeline.frontier == frontier and memory.used(PRANKSTER) == held
    other = Timeline(BIG)
    assert room(memory=memory).slice(other, 10**9, 0.1, lambda states: None)
    assert other.frontier > 0  # another address's rooms are not held back
