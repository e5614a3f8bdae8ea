"""What the handler threads hand a run's task (server/stream/flow.py), and the one race it
settles for the registry: a seek that comes while the task is ending restarts the run."""

from __future__ import annotations

import threading

from server.stream.flow import Flow
from server.stream.runs import RunRegistry
from server.stream.spec import RunSpec, SeekMessage
from server.stream.timeline import Demo, Timeline
from tests.stream.test_runs import GONE, Sink, start_thread


def flow(window=10, **limits) -> Flow:
    settings = {"max_credit": 100, "batch_size": 4, "max_pause": 600.0, **limits}
    return Flow(window, clock=lambda: 0.0, **settings)


def test_credit_is_taken_a_batch_at_most_and_capped_when_granted():
    shared = flow(window=10)
    assert shared.room() == (4, 0.0)  # a batch at most
    shared.spend(4)
    shared.spend(4)
    assert shared.room() == (2, 0.0)
    assert shared.grant(500) == 100 - 2  # capped: says how much it added
    assert shared.credit == 100


def test_a_stop_or_a_waiting_seek_leaves_no_room():
    shared = flow()
    shared.offer(SeekMessage(run="r", index=5))
    assert shared.room() == (0, 0.0)
    assert shared.take_seek() == SeekMessage(run="r", index=5) and shared.seek is None
    assert shared.room() == (4, 0.0)
    shared.stop()
    assert shared.stopped and shared.room() == (0, 0.0)


def test_a_seek_for_an_ending_task_waits_for_the_restart():
    shared = flow()
    gate = threading.current_thread()
    assert shared.offer(SeekMessage(run="r", index=1), gate) is True
    assert shared.take_gate() is gate and shared.take_gate() is None
    assert shared.close_unless_seeking() is False  # a seek waits: the stream goes on
    shared.take_seek()
    assert shared.close_unless_seeking() is True  # the task takes no seek from now on
    later = SeekMessage(run="r", index=7)
    assert shared.offer(later, gate) is False
    assert shared.restart_wanted and shared.seek == later and shared.gate is None
    shared.reopen(None)
    assert shared.accepting and not shared.restart_wanted and shared.seek == later


def test_a_seek_while_the_task_sends_done_restarts_the_run():
    """The task has ended its stream and is sending ``done`` when the seek comes: the run
    must not be parked with the seek forgotten, but run again for it."""
    registry = RunRegistry(start_thread)
    conn = registry.connect("s1", "10.0.0.1", "en")
    spec = RunSpec("r", 5, 5, 0, "seed", False, False, 20_000, 100_000, 60.0)
    sending_done, release = threading.Event(), threading.Event()

    class HeldDone(Sink):
        def __call__(self, event, data):
            if event == "done" and not release.is_set():
                sending_done.set()
                release.wait(GONE)
            super().__call__(event, data)

    sink = HeldDone()
    demo = Demo(5, 5, 0, "seed", False, False, 100_000, 60.0)
    run = registry.start(conn, spec, None, sink, timeline=lambda: Timeline(demo))
    assert sending_done.wait(GONE)  # the whole stream is out, done is on its way
    assert registry.seek(conn, SeekMessage(run="r", index=5)) is run
    release.set()
    assert sink.wait(lambda: "snapshot" in sink.names(), GONE)
    names = sink.names()
    assert names[names.index("done") :][:2] == ["done", "snapshot"]
    snapshot = next(data for name, data in sink.messages if name == "snapshot")
    assert snapshot["index"] == 5
    assert sink.wait(lambda: sink.names().count("done") == 2, GONE)  # streamed on to the end
    assert registry.live_count() == 0 and "r" in conn.parked
