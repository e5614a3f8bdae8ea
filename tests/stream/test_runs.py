"""The run registry: credit pacing, stop, limits, budgets, and `done` always last."""

from __future__ import annotations

import threading

import pytest

from server.engine.board import Board
from server.engine.events import Backtrack, Budget, Exhausted, Found, Move
from server.engine.search import search_events, solve
from server.stream.admission import Limits
from server.stream.encode import decode
from server.stream.run import ClientGone
from server.stream.runs import RunRegistry
from server.stream.spec import ProtocolError, RunSpec
from tests.support.waiting import wait_until

GONE = 30  # seconds: how long a test waits for a run's task to end (a hang, not a speed)


def spec(run="r", window=1000, time_limit=60.0, algorithm="seed", **kw) -> RunSpec:
    base = dict(
        rows=5,
        cols=5,
        start=0,
        algorithm=algorithm,
        closed=False,
        pruning=False,
        window=window,
        node_budget=1_000_000,
        time_limit=time_limit,
    )
    base.update(kw)
    return RunSpec(run=run, **base)


def endless():
    """Move, Backtrack, Move, ... forever (until closed)."""
    depth = 0
    while True:
        yield Move(1, depth, (1, 2), None)
        yield Backtrack(1, depth)


class Sink:
    """Collects a run's messages; ``wait`` polls with a deadline."""

    def __init__(self):
        self.messages: list[tuple[str, dict]] = []
        self.lock = threading.Lock()

    def __call__(self, event, data):
        with self.lock:
            self.messages.append((event, data))

    def names(self):
        with self.lock:
            return [name for name, _ in self.messages]

    def batches(self):
        with self.lock:
            return [data for name, data in self.messages if name == "batch"]

    def events(self):
        return sum(len(list(decode(b["events"], False))) for b in self.batches())

    def done(self):
        with self.lock:
            return next((data for name, data in self.messages if name == "done"), None)

    def wait(self, predicate, timeout=5.0):
        return wait_until(predicate, timeout, 0.005)


def start_thread(fn):
    thread = threading.Thread(target=fn, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def registry():
    reg = RunRegistry(start_thread)
    yield reg
    for run in reg.live_runs():
        run.stop(silent=True)


def test_a_whole_search_streams_and_ends_with_done(registry):
    conn = registry.connect("s1", "10.0.0.1", "en")
    sink = Sink()
    board = Board(5, 5)
    run = registry.start(conn, spec(window=20_000), lambda: search_events(board, 0), sink)
    assert sink.wait(lambda: sink.done() is not None)
    run.thread.join(GONE)
    assert not run.thread.is_alive() and registry.live_count() == 0
    expected = solve(board, 0)
    done = sink.done()
    assert sink.names()[-1] == "done"
    assert done["status"] == "found" and done["tour"] == expected.tour
    assert (done["nodes"], done["backtracks"]) == (expected.nodes, expected.backtracks)
    batches = sink.batches()
    assert [b["seq"] for b in batches] == list(range(len(batches)))
    assert all(len(list(decode(b["events"], False))) <= 1000 for b in batches)
    assert sink.events() == expected.nodes + expected.backtracks
    assert batches[-1]["nodes"] == expected.nodes


def test_credit_paces_the_search(registry):
    """Without credit nothing is sent and nothing is pulled from the engine: what follows
    the next grant (the same ordered stream of messages) goes on from where it stood."""
    conn = registry.connect("s1", "a", "en")
    sink = Sink()
    pulled = []

    def counting():
        for event in endless():
            pulled.append(1)
            yield event

    run = registry.start(conn, spec(window=2500), counting, sink)
    assert sink.wait(lambda: sink.events() == 2500)
    assert sink.wait(lambda: run.credit == 0)  # the task has taken all of its credit
    nodes, seen = run.nodes, len(pulled)
    assert seen <= 2501  # the generator itself is paused, not just the sending
    assert registry.grant(conn, "r", 700) == 700  # granted in full
    assert sink.wait(lambda: sink.events() == 3200)
    assert sink.wait(lambda: run.credit == 0)
    batches = sink.batches()
    sizes = [len(list(decode(b["events"], False))) for b in batches]
    assert sizes == [1000, 1000, 500, 700]  # nothing in between, nothing after
    assert [b["seq"] for b in batches] == [0, 1, 2, 3]
    assert batches[2]["nodes"] == nodes and batches[3]["nodes"] == nodes + 350
    assert len(pulled) <= seen + 700  # the pause pulled nothing ahead
    granted = registry.grant(conn, "r", 10**9)  # capped: says how much it added
    assert run.credit <= Limits().max_credit
    assert granted == Limits().max_credit  # the run was paused: no credit outstanding
    registry.stop(conn, "r")
    assert sink.wait(lambda: sink.done() is not None, 1.0)
    assert sink.done()["status"] == "stopped"
    assert sink.names()[-1] == "done"


def test_stop_while_paused_ends_the_task(registry):
    conn = registry.connect("s1", "a", "en")
    sink = Sink()
    run = registry.start(conn, spec(window=10), endless, sink)
    assert sink.wait(lambda: sink.events() == 10)
    assert sink.wait(lambda: run.credit == 0)  # paused: waiting for credit
    registry.stop(conn, "r")
    run.thread.join(GONE)
    assert not run.thread.is_alive()
    assert sink.done()["status"] == "stopped"
    assert sink.names() == ["batch", "done"]


def test_disconnect_stops_every_run_silently(registry):
    conn = registry.connect("s1", "a", "en")
    sinks = [Sink(), Sink()]
    runs = [
        registry.start(conn, spec(run=f"r{i}", window=20_000), endless, sinks[i]) for i in (0, 1)
    ]
    assert all(s.wait(lambda s=s: s.events() > 0) for s in sinks)
    assert registry.live_count() == 2
    registry.disconnect("s1")
    for run in runs:
        run.thread.join(GONE)
        assert not run.thread.is_alive()
    assert registry.live_count() == 0
    assert all(s.done() is None for s in sinks)  # nobody to tell
    assert registry.connection("s1") is None


@pytest.mark.parametrize(
    ("final", "status", "limit"),
    [
        (Exhausted(1, 1), "exhausted", None),
        (Budget("nodes", 1, 0), "budget", "nodes"),
        (Found((1, 2), 1, 0), "found", None),
    ],
)
def test_final_events(registry, final, status, limit):
    conn = registry.connect("s1", "a", "en")
    sink = Sink()

    def events():
        yield Move(1, 0, (), None)
        yield final

    registry.start(conn, spec(), events, sink)
    assert sink.wait(lambda: sink.done() is not None)
    done = sink.done()
    assert (done["status"], done["limit"]) == (status, limit)
    assert sink.names() == ["batch", "done"]


def test_a_failing_source_still_ends_with_done(registry):
    conn = registry.connect("s1", "a", "en")
    sink = Sink()

    def broken():
        yield Move(1, 0, (), None)
        raise RuntimeError("boom")

    registry.start(conn, spec(), broken, sink)
    assert sink.wait(lambda: sink.done() is not None)
    assert sink.done()["status"] == "stopped"
    assert registry.live_count() == 0


def test_a_viewer_gone_mid_batch_stops_the_run_quietly(registry, caplog):
    conn = registry.connect("s1", "a", "en")
    sent = []

    def closed_socket(event, data):
        sent.append(event)
        raise ClientGone("s1")

    run = registry.start(conn, spec(), endless, closed_socket)
    assert run.finished.wait(GONE)
    run.thread.join(GONE)
    assert run.status == "stopped" and registry.live_count() == 0
    assert sent == ["batch", "done"]
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_time_limit_does_not_count_pauses():
    clock = FakeClock()
    registry = RunRegistry(start_thread, clock=clock)
    conn = registry.connect("s1", "a", "en")
    sink = Sink()

    def slow():
        for event in endless():
            clock.now += 0.001  # every event costs a millisecond of search
            yield event

    run = registry.start(conn, spec(window=1000, time_limit=5.0), slow, sink)
    assert sink.wait(lambda: sink.events() == 1000)  # one second of search, then paused
    assert sink.wait(lambda: run.credit == 0)
    clock.now += 100.0  # a long pause
    registry.grant(conn, "r", 2000)
    assert sink.wait(lambda: sink.events() == 3000)
    assert sink.done() is None  # 3 s of search so far: within the limit
    registry.grant(conn, "r", 20_000)
    assert sink.wait(lambda: sink.done() is not None)
    done = sink.done()
    assert (done["status"], done["limit"]) == ("budget", "time")
    assert 5.0 <= done["seconds"] < 6.1
    assert 5000 <= sink.events() <= 6001


def test_a_run_paused_too_long_is_stopped():
    clock = FakeClock()
    limits = Limits(max_pause=30.0)
    registry = RunRegistry(start_thread, limits, clock=clock)
    conn = registry.connect("s1", "a", "en")
    sink = Sink()
    run = registry.start(conn, spec(window=5), endless, sink)
    assert sink.wait(lambda: sink.events() == 5)
    clock.now += 31.0
    run.thread.join(GONE)  # it re-checks the clock at least once a second
    assert not run.thread.is_alive()
    assert sink.done()["status"] == "stopped"


def test_run_limits(registry):
    a = registry.connect("s1", "1.2.3.4", "en")
    b = registry.connect("s2", "1.2.3.4", "en")
    c = registry.connect("s3", "1.2.3.4", "en")
    other = registry.connect("s4", "5.6.7.8", "en")
    registry.start(a, spec("x"), endless, Sink())
    with pytest.raises(ProtocolError) as info:
        registry.start(a, spec("x"), endless, Sink())
    assert info.value.key == "watch.error.bad-request.duplicate-run"
    registry.start(a, spec("y"), endless, Sink())
    with pytest.raises(ProtocolError) as info:
        registry.start(a, spec("z"), endless, Sink())
    assert info.value.code == "too-many-runs" and info.value.key == "watch.error.too-many-runs"
    registry.start(b, spec("x"), endless, Sink())
    registry.start(b, spec("y"), endless, Sink())
    with pytest.raises(ProtocolError) as info:
        registry.start(c, spec("x"), endless, Sink())
    assert info.value.key == "watch.error.too-many-runs.address"
    registry.start(other, spec("x"), endless, Sink())  # another address is not affected
    registry.stop(a, "x")
    assert Sink().wait(lambda: registry.live_count() == 4)
    registry.start(c, spec("x"), endless, Sink())  # a slot is free again


def test_global_limit():
    registry = RunRegistry(start_thread, Limits(total=2))
    for i in range(2):
        registry.start(registry.connect(f"s{i}", f"a{i}", "en"), spec(), endless, Sink())
    with pytest.raises(ProtocolError) as info:
        registry.start(registry.connect("s9", "a9", "en"), spec(), endless, Sink())
    assert info.value.key == "watch.error.too-many-runs.server"
    for run in registry.live_runs():
        run.stop(silent=True)


def test_unknown_runs_and_late_messages(registry):
    conn = registry.connect("s1", "a", "en")
    with pytest.raises(ProtocolError) as info:
        registry.grant(conn, "never", 10)
    assert info.value.code == "unknown-run" and info.value.run == "never"
    with pytest.raises(ProtocolError):
        registry.stop(conn, "never")
    sink = Sink()
    run = registry.start(conn, spec("r", window=20_000), lambda: iter([Exhausted(0, 0)]), sink)
    run.thread.join(GONE)
    assert sink.names() == ["done"]
    # credit or stop racing the end of a run is not an error
    assert registry.grant(conn, "r", 10) is None
    assert registry.stop(conn, "r") is None
    # ...but another connection cannot touch it
    with pytest.raises(ProtocolError):
        registry.grant(registry.connect("s2", "a", "en"), "r", 10)


def test_message_rate_limits():
    clock = FakeClock()
    registry = RunRegistry(
        start_thread,
        Limits(message_burst=5, message_rate=1.0, start_burst=2, start_rate=0.5),
        clock=clock,
    )
    conn = registry.connect("s1", "a", "en")
    registry.admit(conn, start=True)
    registry.admit(conn, start=True)
    with pytest.raises(ProtocolError) as info:
        registry.admit(conn, start=True)
    assert info.value.code == "rate-limited"
    registry.admit(conn)
    registry.admit(conn)  # five messages so far, the refused start included
    with pytest.raises(ProtocolError):
        registry.admit(conn)
    clock.now += 2.0
    registry.admit(conn, start=True)  # refilled


def test_the_first_batch_waits_for_the_gate(registry):
    """The gate is the start handler's thread: it sends the acknowledgement as it ends.
    Here it lingers until the run has sent something (or half a second has passed), then
    records its "ack" in the same ordered list as the run's messages."""
    conn = registry.connect("s1", "a", "en")
    sent = threading.Event()

    class Watched(Sink):
        def __call__(self, event, data):
            super().__call__(event, data)
            sent.set()

    sink = Watched()

    def handler():
        sent.wait(0.5)
        sink("ack", {})

    gate = threading.Thread(target=handler, daemon=True)
    gate.start()
    registry.start(conn, spec(window=10), endless, sink, gate=gate)
    assert sink.wait(lambda: sink.events() == 10)
    assert sink.names() == ["ack", "batch"]
