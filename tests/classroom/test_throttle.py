"""server.classroom.throttle: the latest state, at most so often (on a clock the test
turns by hand; the late send runs when the test says)."""

from __future__ import annotations

import logging

from server.classroom.throttle import PURGE_EVERY, Throttle


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Later:
    """``start_task`` that keeps the background tasks for the test to run."""

    def __init__(self) -> None:
        self.tasks: list[tuple] = []

    def __call__(self, fn, *args) -> None:
        self.tasks.append((fn, args))

    def run_all(self) -> None:
        tasks, self.tasks = self.tasks, []
        for fn, args in tasks:
            fn(*args)


def throttle(clock: Clock, later: Later, slept: list[float], **options) -> Throttle:
    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    return Throttle(1.0, later, clock=clock, sleep=sleep, **options)


def test_the_first_goes_at_once_the_rest_of_the_interval_as_one_late_send_of_the_latest():
    clock, later, slept, sent = Clock(), Later(), [], []
    gate = throttle(clock, later, slept)
    gate.request("scores", lambda: sent.append("first"))
    assert sent == ["first"] and not later.tasks
    clock.now += 0.25
    gate.request("scores", lambda: sent.append("second"))
    gate.request("scores", lambda: sent.append("third"))  # folded into the one due
    assert sent == ["first"] and len(later.tasks) == 1
    later.run_all()
    assert slept == [0.75]  # until the interval's end
    assert sent == ["first", "third"]  # the latest
    clock.now += 1.0  # an interval after the late send: at once again
    gate.request("scores", lambda: sent.append("fourth"))
    assert sent == ["first", "third", "fourth"] and not later.tasks


def test_each_key_has_its_own_interval():
    clock, later, sent = Clock(), Later(), []
    gate = throttle(clock, later, [])
    gate.request(("A", "scores"), lambda: sent.append("A scores"))
    gate.request(("A", "presence"), lambda: sent.append("A presence"))
    gate.request(("B", "scores"), lambda: sent.append("B scores"))
    assert sent == ["A scores", "A presence", "B scores"] and not later.tasks


def test_a_late_send_reads_the_state_when_it_goes():
    clock, later, sent = Clock(), Later(), []
    state = {"students": 1}
    gate = throttle(clock, later, [])
    gate.request("presence", lambda: sent.append(dict(state)))
    state["students"] = 2
    gate.request("presence", lambda: sent.append(dict(state)))
    state["students"] = 3  # changed after the request: the send reads it then
    later.run_all()
    assert sent == [{"students": 1}, {"students": 3}]


def test_a_late_send_runs_through_run_and_a_failure_is_logged_not_raised(caplog):
    clock, later, ran = Clock(), Later(), []

    def run(send):
        ran.append(send)
        send()

    def fails():
        raise RuntimeError("the room went away")

    gate = throttle(clock, later, [], run=run)
    gate.request("scores", lambda: None)
    gate.request("scores", fails)
    with caplog.at_level(logging.ERROR, logger="server.classroom.throttle"):
        later.run_all()
    assert ran == [fails]  # the first went directly, the late one through ``run``
    assert "a throttled send of 'scores' failed" in caplog.text


def test_idle_keys_are_forgotten_but_never_a_pending_send():
    clock, later, sent = Clock(), Later(), []
    gate = throttle(clock, later, [])
    gate.request(("A", "scores"), lambda: sent.append("A"))
    gate.request(("B", "scores"), lambda: sent.append("B"))
    gate.request(("B", "scores"), lambda: sent.append("B late"))  # pending
    gate.forget(lambda key: True)
    assert set(gate._slots) == {("B", "scores")}
    later.run_all()
    assert sent == ["A", "B", "B late"]
    gate.request(("A", "scores"), lambda: sent.append("A again"))  # forgotten: at once
    assert sent[-1] == "A again"
    # keys idle for ten intervals are swept now and then
    clock.now += 11
    for n in range(PURGE_EVERY):
        gate.request(("C", n), lambda: None)
    assert ("A", "scores") not in gate._slots and ("B", "scores") not in gate._slots
