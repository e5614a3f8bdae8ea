"""FairGate: a few handlers at a time, a freed slot to the fairest waiter.

The order is checked without timing: with one slot, each waiter that is granted notes
its name and lets the slot go, which grants the next, so the notes are the grant order.
"""

from __future__ import annotations

import threading

import pytest

from server.limits.gate import FairGate, GateBusy
from tests.support.waiting import wait_until


def queue(gate: FairGate, waiters: list[tuple[str, str, int]], order: list[str]):
    """Start a thread per (name, key, priority), each queued before the next starts."""
    threads = []
    for name, key, priority in waiters:

        def run(name=name, key=key, priority=priority):
            gate.acquire(key, priority)
            order.append(name)
            gate.release(key)

        before = gate.waiting
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        assert wait_until(lambda before=before: gate.waiting == before + 1)
        threads.append(thread)
    return threads


def test_a_freed_slot_goes_to_the_teacher_first_then_in_order():
    gate = FairGate(1, wait=30, per_key=10)
    gate.acquire("flood")  # the slot is taken: everyone below waits
    order: list[str] = []
    threads = queue(
        gate,
        [
            ("flood-1", "flood", 0),
            ("flood-2", "flood", 0),
            ("student", "phone", 0),
            ("teacher", "laptop", 1),
            ("flood-3", "flood", 0),
            ("student-2", "phone-2", 0),
        ],
        order,
    )
    gate.release("flood")
    for thread in threads:
        thread.join(5)
    # nobody holds a slot when each is granted (one slot): the teacher first, then by arrival
    assert order == ["teacher", "flood-1", "flood-2", "student", "flood-3", "student-2"]


def test_the_address_holding_fewer_slots_goes_first():
    gate = FairGate(3, wait=30, per_key=10)
    gate.acquire("flood")
    gate.acquire("flood")
    gate.acquire("phone")  # all three slots taken: flood holds two, phone one
    order: list[str] = []
    threads = queue(gate, [("flood-next", "flood", 0), ("phone-next", "phone", 0)], order)
    gate.release("phone")  # phone now holds none, flood two: phone's waiter first
    for thread in threads:
        thread.join(5)
    assert order == ["phone-next", "flood-next"]


def test_an_address_may_keep_only_so_many_waiters():
    gate = FairGate(1, wait=30, per_key=2)
    gate.acquire("other")
    threads = queue(gate, [("a", "flood", 0), ("b", "flood", 0)], [])
    with pytest.raises(GateBusy):
        gate.acquire("flood")  # refused at once: its queue is full
    gate.release("other")
    for thread in threads:
        thread.join(5)
    assert gate.waiting == 0


def test_a_waiter_gives_up_after_its_wait_and_leaves_no_trace():
    gate = FairGate(1, wait=0.05, per_key=10)
    gate.acquire("holder")
    with pytest.raises(GateBusy):
        gate.acquire("late")
    assert gate.waiting == 0
    gate.release("holder")
    gate.acquire("next")  # the slot is free again: taken at once, nobody waiting
    gate.release("next")
    assert gate.waiting == 0


def test_slots_bound_how_many_run_at_once():
    gate = FairGate(2, wait=30, per_key=100)
    running, most = 0, 0
    lock = threading.Lock()
    release = threading.Event()

    def handler(i):
        nonlocal running, most
        gate.acquire(f"k{i % 3}")
        with lock:
            running += 1
            most = max(most, running)
        release.wait(5)
        with lock:
            running -= 1
        gate.release(f"k{i % 3}")

    threads = [threading.Thread(target=handler, args=(i,), daemon=True) for i in range(8)]
    for thread in threads:
        thread.start()
    assert wait_until(lambda: gate.waiting == 6)
    assert running == 2
    release.set()
    for thread in threads:
        thread.join(5)
    assert most == 2 and gate.waiting == 0
