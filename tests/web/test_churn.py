"""Connection churn against a real ``knights-tour serve`` process: 500 connect/disconnect
cycles over websockets, half of them mid-run (a watch run started, then the client
hangs up), leave nothing behind.

What "nothing" means, observed from outside the server (no debug endpoint):

* the server's thread count (psutil) returns to its baseline: every run is one thread
  (``watch-run-*``) and every websocket two more, so a task or connection that
  outlived its client shows up here.  Threads not sleeping in ``time.sleep`` must be
  back at once; all threads within one engine.io ping interval (25 s): the one thread
  that pings every session (server/web/socket_limits.py) holds the closed ones' next
  pings until then;
* its open file descriptors return to baseline (no socket left half-open);
* the run registry is empty: every run came from 127.0.0.1, whose limit is 4 live
  runs, and afterwards 4 new runs from that address are all accepted (one left
  behind would make the 4th ``too-many-runs``);
* the server is alive and its stderr holds no traceback.
"""

from __future__ import annotations

import threading
import time

import pytest
import socketio

from tests.support.servers import PING_INTERVAL, start_servers, tracebacks
from tests.support.watch import WatchClient, start_payload

NAMESPACE = "/watch"
CYCLES = 500
WORKERS = 4  # concurrent clients; at most 4 live runs per address, so no refusals

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def server(tmp_path):
    (proc,) = start_servers(tmp_path, 1)
    yield proc
    proc.stop()


def cycle(url: str, index: int) -> str:
    """One connection; every other one starts a run and hangs up mid-stream."""
    first_batch = threading.Event()
    sio = socketio.Client(reconnection=False)
    sio.on("batch", lambda data: first_batch.set(), namespace=NAMESPACE)
    sio.connect(url, namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5)
    try:
        if index % 2 == 0:
            return "plain"
        # a run with plenty to do: 8x8 seed search, budget far beyond the test
        ack = sio.call("start", start_payload(f"c{index % 7}"), namespace=NAMESPACE, timeout=5)
        assert ack["ok"], ack
        if index % 4 == 1:  # hang up once it streams; else right after the ack
            assert first_batch.wait(5), "no batch"
            return "mid-run"
        return "after-ack"
    finally:
        sio.disconnect()


def test_churn_leaves_no_task_thread_or_socket_behind(server):
    url = server.url
    process = server.process
    for i in range(3):  # warm up: the engine.io service thread, imports, a first run
        cycle(url, i)
    # the baseline: what stays once every connection and run of the warm-up has ended
    # (the engine.io keeper thread with it, holding the warm-up's next pings)
    baseline = server.steady_busy_threads()
    baseline_fds = process.num_fds()

    kinds: dict[str, int] = {}
    errors: list[BaseException] = []
    peak_threads = 0
    lock = threading.Lock()
    counter = iter(range(CYCLES))

    def worker():
        nonlocal peak_threads
        for index in counter:  # a shared iterator: each cycle once
            try:
                kind = cycle(url, index)
            except BaseException as err:  # collected and reported below
                with lock:
                    errors.append(err)
                return
            with lock:
                kinds[kind] = kinds.get(kind, 0) + 1
                if index % 50 == 0:
                    peak_threads = max(peak_threads, server.threads())

    began = time.monotonic()
    workers = [threading.Thread(target=worker) for _ in range(WORKERS)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(200)
    seconds = time.monotonic() - began
    assert not errors, repr(errors[:3])
    assert sum(kinds.values()) == CYCLES
    assert kinds["mid-run"] + kinds["after-ack"] == CYCLES // 2

    # every websocket and run thread ends at once ...
    server.assert_settled(baseline, timeout=10, busy=True)
    deadline = time.monotonic() + 5
    while process.num_fds() > baseline_fds and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.num_fds() <= baseline_fds
    # ... and every thread within one ping interval
    threads = server.settle_threads(baseline, timeout=PING_INTERVAL + 10)
    assert threads <= baseline, f"{threads} threads after churn, baseline {baseline}"

    # no live run left in the registry: the address's 4 run slots are all free
    clients = [WatchClient(url, auto_credit=False), WatchClient(url, auto_credit=False)]
    try:
        for client in clients:
            for run in ("x1", "x2"):
                ack = client.start(start_payload(run, window=10))
                assert ack["ok"], ack
    finally:
        for client in clients:
            client.close()
    server.assert_settled(baseline, timeout=10, busy=True)

    assert server.alive()
    found = tracebacks(server.stderr())
    assert not found, found[0]
    print(f"{CYCLES} cycles in {seconds:.1f} s; threads {baseline} -> peak {peak_threads}")
