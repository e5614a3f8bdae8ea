"""The run registry under its budgets: kept runs within a memory limit, runs charged for CPU.

A kept (parked) run's timeline counts against the per-address and server-wide limits of
server/limits/memory.py; when they overflow, the least recently kept timeline is freed, the
run stays, and a seek into it computes the same events again.  A run's computing is a
search of its client address (server/limits/budget.py): charged, and refused at ``start``
while the address has no search time left or the search queue is full.
"""

from __future__ import annotations

import threading

import pytest

from server.limits.budget import SearchBudget, Searches, SearchSlots
from server.limits.memory import MemoryBudget
from server.stream.runs import RunRegistry
from server.stream.spec import ProtocolError, RunSpec, SeekMessage
from server.stream.timeline import Demo, Timeline
from tests.stream.test_runs import Sink

SPEC = {
    "rows": 6,
    "cols": 6,
    "start": 0,
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
    "window": 20_000,
    "node_budget": 30_000,  # about 60,000 events: a few checkpoints
    "time_limit": 60.0,
}


def timeline_of(spec: RunSpec) -> Timeline:
    return Timeline(
        Demo(
            spec.rows,
            spec.cols,
            spec.start,
            spec.algorithm,
            spec.closed,
            spec.pruning,
            spec.node_budget,
            spec.time_limit,
        )
    )


def ended_timeline() -> Timeline:
    line = timeline_of(RunSpec(run="x", **SPEC))
    line.extend(10**9)
    line.shed()
    return line


def start_thread(fn):
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


def park(registry: RunRegistry, conn, run_id: str):
    """Start a fresh run, seek it to its end and wait until it is kept."""
    sink = Sink()
    spec = RunSpec(run=run_id, **SPEC)
    run = registry.start(conn, spec, None, sink, timeline=lambda: timeline_of(spec))
    registry.seek(conn, SeekMessage(run=run_id, index=None))
    assert sink.wait(lambda: sink.done() is not None, 30)
    assert sink.wait(lambda: run_id in conn.parked, 5)
    return run


@pytest.fixture
def registries():
    made = []

    def make(**kwargs) -> RunRegistry:
        registry = RunRegistry(start_thread, **kwargs)
        made.append(registry)
        return registry

    yield make
    for registry in made:
        for run in registry.live_runs():
            run.stop(silent=True)


def test_kept_runs_count_against_the_address_limit_and_the_oldest_is_freed(registries):
    one = ended_timeline().nbytes
    memory = MemoryBudget(per_address=one * 3 // 2, total=None)  # one kept run an address
    registry = registries(memory=memory)
    first_conn = registry.connect("s1", "10.0.0.1", "en")
    second_conn = registry.connect("s2", "10.0.0.1", "en")
    elsewhere = registry.connect("s3", "10.0.0.2", "en")
    first = park(registry, first_conn, "a")
    assert first.kept is not None and memory.used("10.0.0.1") == first.kept.nbytes
    second = park(registry, second_conn, "b")
    other = park(registry, elsewhere, "c")
    assert first.timeline is None and first_conn.parked["a"] is first  # freed, still kept
    assert second.timeline is not None and other.timeline is not None
    assert memory.used("10.0.0.1") <= memory.per_address and len(memory) == 2

    # a seek into the freed run computes the same timeline again
    sink = Sink()
    first._emit = sink
    registry.seek(first_conn, SeekMessage(run="a", index=1_000))
    assert sink.wait(lambda: any(name == "snapshot" for name in sink.names()), 30)
    snapshot = next(data for name, data in sink.messages if name == "snapshot")
    expected = ended_timeline().snapshot(1_000)
    assert {k: v for k, v in snapshot.items() if k not in ("run", "end")} == expected


def test_the_server_wide_limit_holds_over_every_address(registries):
    one = ended_timeline().nbytes
    memory = MemoryBudget(per_address=None, total=one * 5 // 2)
    registry = registries(memory=memory)
    runs = [park(registry, registry.connect(f"s{i}", f"10.0.0.{i}", "en"), "r") for i in range(4)]
    assert [run.timeline is None for run in runs] == [True, True, False, False]
    assert memory.used() <= memory.total


def test_leaving_frees_what_a_connection_kept(registries):
    memory = MemoryBudget(per_address=None, total=None)
    registry = registries(memory=memory)
    conn = registry.connect("s1", "10.0.0.1", "en")
    kept = [park(registry, conn, run_id) for run_id in ("a", "b", "c")]  # 2 kept at most
    assert len(conn.parked) == 2 and kept[0].closed and len(memory) == 2
    registry.stop(conn, "b")
    assert len(memory) == 1
    registry.disconnect("s1")
    assert memory.used() == 0 and len(memory) == 0
    assert all(run.closed for run in kept)


def test_a_runs_computing_is_charged_to_its_address(registries):
    searches = Searches(SearchBudget(100, 1, clock=lambda: 0.0), SearchSlots(2, wait=1))
    registry = registries(searches=searches)
    conn = registry.connect("s1", "10.0.0.1", "en")
    park(registry, conn, "a")
    assert searches.searches > 0 and searches.seconds > 0
    assert searches.budget.level("10.0.0.1") < 100 and searches.budget.level("10.0.0.2") == 100


def test_a_start_is_refused_while_the_address_has_no_search_time_left(registries):
    searches = Searches(SearchBudget(10, 0.5, clock=lambda: 0.0), SearchSlots(2, wait=1))
    registry = registries(searches=searches)
    spent = registry.connect("s1", "10.0.0.1", "en")
    searches.budget.charge("10.0.0.1", 20)
    spec = RunSpec(run="a", **SPEC)
    with pytest.raises(ProtocolError) as refused:
        registry.start(spent, spec, None, Sink(), timeline=lambda: timeline_of(spec))
    assert refused.value.code == "rate-limited"
    assert refused.value.key == "watch.error.rate-limited.searches"
    assert refused.value.params["seconds"] == 20  # 10 s of debt at 0.5 a second
    assert registry.live_count() == 0
    park(registry, registry.connect("s2", "10.0.0.2", "en"), "a")  # another address runs


def test_a_start_is_refused_busy_while_the_search_queue_is_full(registries):
    searches = Searches(None, SearchSlots(1, wait=1, queue=0))  # a queue with no room
    registry = registries(searches=searches)
    conn = registry.connect("s1", "10.0.0.1", "en")
    spec = RunSpec(run="a", **SPEC)
    with pytest.raises(ProtocolError) as refused:
        registry.start(conn, spec, None, Sink(), timeline=lambda: timeline_of(spec))
    assert refused.value.code == "busy" and refused.value.params["seconds"] >= 1
