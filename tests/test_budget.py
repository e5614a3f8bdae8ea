"""server/limits/budget.py: search-seconds per address, search slots, who pays for a search.

Clocks are fake where refilling matters; waits are zero or bounded by an event, never
timed.
"""

from __future__ import annotations

import threading

import pytest

from server.limits.budget import (
    Busy,
    OverBudget,
    SearchBudget,
    Searches,
    SearchSlots,
    charged_to,
    payer,
    searching,
)
from tests.support.waiting import wait_until


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# -- the budget -------------------------------------------------------------------------------
def test_an_address_spends_its_seconds_then_is_refused_until_they_refill():
    clock = Clock()
    budget = SearchBudget(burst=10, refill=0.5, clock=clock)
    budget.check("a")
    budget.charge("a", 12)  # a search may overrun what was left: the debt is kept
    with pytest.raises(OverBudget) as refused:
        budget.check("a")
    assert refused.value.retry_after == 4  # 2 s of debt at 0.5 s a second
    budget.check("b")  # another address has its own
    clock.now = 3.9
    with pytest.raises(OverBudget):
        budget.check("a")
    clock.now = 4.1
    budget.check("a")
    clock.now = 1000
    assert budget.level("a") == 10  # never more than the burst


def test_full_buckets_are_forgotten_so_the_addresses_do_not_pile_up(monkeypatch):
    import server.limits.budget as module

    monkeypatch.setattr(module, "FORGET_AFTER", 10)
    clock = Clock()
    budget = SearchBudget(burst=1, refill=1, clock=clock)
    for n in range(10):
        budget.charge(f"10.0.0.{n}", 0.5)
    clock.now = 5  # every bucket is full again
    budget.check("10.0.1.1")
    assert len(budget) == 1


# -- the slots --------------------------------------------------------------------------------
def test_one_address_holds_at_most_half_the_slots_and_the_rest_stay_free():
    slots = SearchSlots(4, wait=0)
    slots.acquire("a")
    slots.acquire("a")
    with pytest.raises(Busy) as busy:
        slots.acquire("a")
    assert busy.value.retry_after == 1
    slots.acquire("b")
    slots.acquire("c")
    assert slots.running() == 4
    with pytest.raises(Busy):
        slots.acquire("d")
    slots.release("a")
    slots.acquire("d")
    assert slots.running("a") == 1 and slots.running("d") == 1


def waiter(
    slots: SearchSlots, address: str, served: list[str], release: bool = False
) -> threading.Thread:
    """A started thread that waits for a slot for ``address`` and notes it in ``served`` once
    it has one (then frees it at once, when ``release``)."""

    def wait_for_one():
        slots.acquire(address)
        served.append(address)
        if release:
            slots.release(address)

    thread = threading.Thread(target=wait_for_one)
    thread.start()
    return thread


def test_a_waiter_gets_the_next_free_slot_in_turn():
    slots = SearchSlots(1, wait=30)
    slots.acquire("a")
    got: list[str] = []
    first = waiter(slots, "b", got)
    assert wait_until(lambda: slots.waiting() == 1, 5)
    second = waiter(slots, "c", got)
    assert wait_until(lambda: slots.waiting() == 2, 5)
    slots.release("a")
    first.join(5)
    assert got == ["b"] and slots.waiting() == 1
    slots.release("b")
    second.join(5)
    assert got == ["b", "c"] and slots.running() == 1


def test_a_free_slot_goes_to_the_address_served_least_recently():
    slots = SearchSlots(1, wait=30)
    slots.acquire("a")
    order: list[str] = []
    threads = []
    for count, address in enumerate(("a", "a", "b"), 1):  # a's queue came first
        threads.append(waiter(slots, address, order, release=True))
        assert wait_until(lambda n=count: slots.waiting() == n, 5)
    slots.release("a")
    for thread in threads:
        thread.join(5)
    assert order == ["b", "a", "a"]
    assert slots._turns == {}  # nobody runs or waits: nothing is remembered


def test_the_queue_is_bounded_per_address_and_in_all():
    slots = SearchSlots(1, wait=30, queue=2, queue_per_address=1)
    slots.acquire("a")
    waiters = []
    for count, address in enumerate(("b", "c"), 1):
        thread = threading.Thread(target=lambda a=address: slots.acquire(a))
        thread.start()
        waiters.append(thread)
        assert wait_until(lambda n=count: slots.waiting() == n, 5)
    with pytest.raises(Busy):  # the queue is full: answered at once, not queued
        slots.acquire("d")
    slots.release("a")
    slots.release(next(a for a in "bc" if slots.running(a)))
    for thread in waiters:
        thread.join(5)
    assert slots.waiting() == 0


def test_a_runs_task_waits_its_turn_without_filling_the_queue():
    slots = SearchSlots(1, wait=30, queue=1)
    slots.acquire("a")
    run = threading.Thread(target=lambda: slots.acquire("r", counted=False))
    run.start()
    assert wait_until(lambda: len(slots._waiting) == 1, 5) and slots.waiting() == 0
    request = threading.Thread(target=lambda: slots.acquire("b"))
    request.start()  # the queue (one request) still has room for it
    assert wait_until(lambda: slots.waiting() == 1, 5)
    slots.release("a")
    run.join(5)  # first come, first served
    assert slots.running("r") == 1 and slots.waiting() == 1
    slots.release("r")
    request.join(5)
    assert slots.running("b") == 1


def test_a_wait_that_runs_out_leaves_the_queue():
    slots = SearchSlots(1, wait=0.01)
    slots.acquire("a")
    with pytest.raises(Busy):
        slots.acquire("b")
    assert slots.waiting() == 0
    slots.release("a")
    slots.acquire("b")  # the slot was not handed to the waiter that left


# -- searches and who pays ----------------------------------------------------------------------
def test_a_search_is_charged_the_cpu_time_it_used():
    searches = Searches(SearchBudget(10, 1), SearchSlots(1, wait=0))
    with searches.search("a"):
        assert searches.slots.running("a") == 1
        sum(i * i for i in range(200_000))  # some CPU
    assert searches.slots.running() == 0
    assert searches.searches == 1 and searches.seconds > 0
    assert searches.budget.level("a") < 10


def test_searching_does_nothing_unless_someone_pays_and_counts_a_nested_search_once():
    searches = Searches(SearchBudget(10, 1), SearchSlots(1, wait=0))
    with searching():  # nobody pays (the CLI): nothing limits it
        assert payer() is None
    with charged_to(searches, "a"):
        with searching(), searching():  # the inner one takes no second slot
            assert searches.slots.running("a") == 1
        searches.budget.charge("a", 100)
        with pytest.raises(OverBudget), searching():
            pass
    assert payer() is None and searches.searches == 1


def test_a_run_waits_for_its_budget_instead_of_failing_and_stops_when_told():
    clock = Clock()
    searches = Searches(SearchBudget(1, 1, clock=clock), SearchSlots(1, wait=0))
    stop = threading.Event()
    searches.budget.charge("a", 5)
    results = []
    worker = threading.Thread(
        target=lambda: results.append(searches.compute("a", lambda: "done", stop))
    )
    worker.start()
    assert not wait_until(lambda: results, 0.3)  # still waiting for its budget
    clock.now = 10
    worker.join(5)
    assert results == ["done"]
    searches.budget.charge("a", 100)
    stop.set()
    assert searches.compute("a", lambda: "never", stop) is None


def test_an_attempt_in_the_background_takes_a_slot_or_is_refused_at_once():
    """A class room's feed: one slice now, in a slot and charged, or the next tick tries."""
    searches = Searches(SearchBudget(10, 1), SearchSlots(1, wait=30, queue=0))
    assert searches.attempt("a", lambda: "slice", 0) == "slice"
    assert searches.slots.running() == 0 and searches.searches == 1
    with searches.slots.hold("b", 0), pytest.raises(Busy):
        searches.attempt("a", lambda: "slice", 0.01)  # no slot came in time
    searches.slots.acquire("b", 0)
    results = []
    waiting = threading.Thread(target=lambda: results.append(searches.attempt("a", str, 30)))
    waiting.start()  # it waits its turn, though the queue has no room for requests
    assert wait_until(lambda: len(searches.slots._waiting) == 1, 5)
    searches.slots.release("b")
    waiting.join(5)
    assert results == [""]
    searches.budget.charge("a", 100)
    ran = []
    with pytest.raises(OverBudget):
        searches.attempt("a", lambda: ran.append(1), 0)
    assert ran == [] and searches.attempt("b", lambda: "slice", 0) == "slice"
