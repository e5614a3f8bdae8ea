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
