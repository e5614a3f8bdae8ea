"""Kept /watch runs within their memory budget, measured on a real ``knights-tour serve``.

The pile-up of issue 22: connections each keep two ended runs (30×30 closed, 2.5 M
nodes, sought to the end twice), about 4 MB of timeline each.  With
``TIMELINE_MEMORY`` at 8 MB the server keeps at most that many megabytes of them, so the
process's RSS grows by a bounded amount however many come (without the budget the 40
kept runs here grow it by about 150 MB), and once the connections close the memory goes
back to the system (server/limits/memory.py trims glibc's heap).  Bounds, not timings: the
growth allowed covers the runs being computed, the connections and the allocator.
"""

from __future__ import annotations

import threading

import pytest

from tests.support.servers import start_servers, tracebacks
from tests.support.waiting import wait_until
from tests.support.watch import PILE_RUN, WatchClient

MB = 1024 * 1024
KEPT_MB = 8
CONNECTIONS = 20
GROWTH_MB = 80  # kept runs (8) + a run computing + 20 connections + the allocator's slack
BACK_WITHIN_MB = 20


@pytest.fixture
def server(tmp_path):
    env = {"TIMELINE_MEMORY": str(KEPT_MB), "TIMELINE_MEMORY_PER_ADDRESS": str(KEPT_MB)}
    [process] = start_servers(tmp_path, 1, env=env)
    yield process
    process.stop()


def keep_two_runs(client: WatchClient) -> None:
    """Two runs sought to their end twice: both kept by the connection."""
    for run in ("a", "b"):
        assert client.start({"run": run, **PILE_RUN})["ok"]
        for _ in range(2):
            client.dones.pop(run, None)
            assert client.call("seek", {"run": run, "index": None})["ok"]
            assert client.wait(lambda r=run: r in client.dones, 60), run


def test_kept_runs_stay_within_the_budget_and_the_memory_comes_back(server):
    process = server.process
    warm = WatchClient(server.url)
    keep_two_runs(warm)  # the first runs load the engine and warm the allocator
    warm.close()
    baseline = process.memory_info().rss
    peak = [baseline]
    done = threading.Event()

    def sample():
        while not done.wait(0.05):
            peak[0] = max(peak[0], process.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    clients = []
    try:
        for _ in range(CONNECTIONS):
            clients.append(WatchClient(server.url))
            keep_two_runs(clients[-1])
    finally:
        done.set()
        sampler.join(5)
        for client in clients:
            client.close()
    grown = (peak[0] - baseline) / MB
    assert grown < GROWTH_MB, f"RSS grew by {grown:.0f} MB under {CONNECTIONS * 2} kept runs"
    assert wait_until(
        lambda: process.memory_info().rss < baseline + BACK_WITHIN_MB * MB, 60, 0.5
    ), f"RSS {process.memory_info().rss / MB:.0f} MB, {baseline / MB:.0f} MB before"
    assert not tracebacks(server.stderr())
