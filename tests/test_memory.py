"""server/limits/memory.py: kept things count against per-address and server-wide byte limits."""

from __future__ import annotations

from server.limits import memory
from server.limits.memory import MemoryBudget


def keep(budget: MemoryBudget, address: str, nbytes: int, freed: list):
    item, evicted = budget.keep(address, nbytes, lambda: freed.append((address, nbytes)))
    budget.evict(evicted)
    return item


def test_an_address_over_its_limit_loses_its_oldest_first():
    budget = MemoryBudget(per_address=100, total=1000)
    freed: list = []
    first = keep(budget, "a", 40, freed)
    keep(budget, "b", 90, freed)
    keep(budget, "a", 40, freed)
    budget.touch(first)  # used again: the other one of "a" is now the oldest
    keep(budget, "a", 40, freed)
    assert freed == [("a", 40)]
    assert budget.used("a") == 80 and budget.used("b") == 90 and budget.used() == 170
    assert len(budget) == 3


def test_the_server_wide_limit_evicts_the_oldest_of_anybody():
    budget = MemoryBudget(per_address=100, total=200)
    freed: list = []
    for address in ("a", "b", "c", "d"):
        keep(budget, address, 60, freed)
    assert freed == [("a", 60)] and budget.used() == 180


def test_something_bigger_than_the_limit_is_not_kept_at_all():
    budget = MemoryBudget(per_address=50, total=None)
    freed: list = []
    keep(budget, "a", 80, freed)
    assert freed == [("a", 80)] and budget.used() == 0


def test_a_forgotten_item_frees_its_bytes_once():
    budget = MemoryBudget(per_address=None, total=None)
    item = keep(budget, "a", 30, [])
    assert budget.forget(item) and not budget.forget(item) and not budget.forget(None)
    assert budget.used() == 0 and budget.used("a") == 0


def test_pinned_things_count_but_push_kept_ones_out_instead_of_going():
    budget = MemoryBudget(per_address=100, total=200)
    freed: list = []
    old = keep(budget, "a", 50, freed)
    keep(budget, "b", 90, freed)
    room, evicted = budget.pin("a", 30)  # a class room's timeline, in use
    assert evicted == [] and budget.used("a") == 80
    budget.evict(budget.resize(room, 60))  # it grew: a's kept run makes way
    assert freed == [("a", 50)] and budget.used("a") == 60 and not budget.forget(old)
    budget.evict(budget.resize(room, 150))  # over a's share alone: nothing of it is evicted
    assert budget.used("a") == 150 and not budget.has_room("a") and budget.has_room("b")
    assert freed == [("a", 50), ("b", 90)]  # the whole server's limit took b's kept run
    budget.evict(budget.pin("c", 10)[1])
    assert budget.used() == 160  # pinned things alone: nothing left to evict
    assert budget.forget(room) and budget.used() == 10 and budget.has_room("a")
    assert budget.resize(room, 500) == [] and budget.used() == 10  # forgotten: not counted again


def test_released_memory_is_trimmed_once_enough_was_freed(monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda pad: calls.append(pad) or 1)
    monkeypatch.setattr(memory, "TRIM_DELAY", 0.0)
    monkeypatch.setattr(memory, "_released", 0)
    memory.release(memory.TRIM_AFTER // 2)
    assert memory._timer is None  # not yet worth it
    memory.release(memory.TRIM_AFTER // 2)
    timer = memory._timer
    assert timer is not None
    timer.join(5)
    assert calls == [0] and memory._timer is None
