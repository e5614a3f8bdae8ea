"""⏭ to the end of the lesson's 8x8 plain search on the Watch page, in headless chromium.

The real app (Flask + Socket.IO, threading mode) is served on a free port; the page at
/watch starts the articles' plain backtracking on 8x8 from a corner (251,825,408 nodes
before its tour) at a readable speed, then ⏭ is clicked: the server computes the end
with its engine (the compiled core when built) while the page shows its progress, then
sends the snapshot.  The figure is the time from the click to the final board drawn
(the lane's status ``found`` with the node counter at 251,825,408).

A second row times the server alone (a python-socketio client's ``seek`` to the
``snapshot``, no browser): its wall time and the CPU time of the process (the server's
threads, nearly all of it the engine), the figure a loaded machine distorts least.
Standalone: ``python benchmarks/bench_browser_jump.py [--repeat N]``.
"""

from __future__ import annotations

import resource
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import listed, load_average, shared_machine
from benchmarks.bench_browser_stream import serve
from tests.support.chromium import launch_options
from tests.support.watch import WatchClient, start_payload

QUERY = "rows=8&cols=8&start=0,0&algorithm=seed&speed=10&go=1&lang=en"
NODES = 251_825_408
GOAL = 10.0


def measure(browser, base: str) -> float:
    """Seconds from the click on ⏭ to the final board, in a fresh page."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/watch?{QUERY}")
        page.wait_for_function(
            "() => document.querySelector('[data-side=a] [data-stat=received]').textContent !== '0'"
        )
        began = time.perf_counter()
        page.locator("[data-action=end]").click()
        page.wait_for_selector("[data-side=a][data-status=found]", timeout=300_000)
        seconds = time.perf_counter() - began
        nodes = page.evaluate(
            "() => +document.querySelector('[data-side=a] [data-stat=nodes]')"
            ".textContent.replace(/\\D/g, '')"
        )
        if nodes != NODES:
            raise RuntimeError(f"the final board shows {nodes:,} nodes, not {NODES:,}")
        return seconds
    finally:
        page.close()


class JumpClient(WatchClient):
    """A viewer that waits for a seek's snapshot."""

    def __init__(self, url: str) -> None:
        self.landed = threading.Event()
        self.snapshot: dict | None = None
        super().__init__(url, auto_credit=False)
        self.sio.on("snapshot", self._on_snapshot, namespace="/watch")

    def _on_snapshot(self, data) -> None:
        self.snapshot = data
        self.landed.set()


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def measure_server(base: str) -> tuple[float, float]:
    """(wall, CPU) seconds from a seek to the end to its snapshot, over a real socket."""
    client = JumpClient(base)
    try:
        assert client.start(start_payload("end", window=100, node_budget=300_000_000))["ok"]
        began, cpu = time.perf_counter(), cpu_seconds()
        assert client.call("seek", {"run": "end", "index": None})["ok"]
        if not client.landed.wait(600):
            raise RuntimeError("no snapshot within 10 minutes")
        wall, used = time.perf_counter() - began, cpu_seconds() - cpu
        end = client.snapshot["end"]
        if end is None or end["nodes"] != NODES:
            raise RuntimeError(f"the snapshot is not the end: {end}")
        return wall, used
    finally:
        client.close()


def run(repeat: int = 3) -> list[dict]:
    from playwright.sync_api import sync_playwright

    from server.engine import native

    times, server_times = [], []
    with serve() as base, sync_playwright() as pw:
        for _ in range(repeat):
            server_times.append(measure_server(base))
        with pw.chromium.launch(**launch_options()) as browser:
            for _ in range(repeat):
                times.append(measure(browser, base))
    walls = [wall for wall, _ in server_times]
    cpus = [cpu for _, cpu in server_times]
    return [
        {
            "benchmark": "⏭ to the end of 8x8 plain from a corner, the server alone: CPU",
            "median": round(statistics.median(cpus), 2),
            "unit": "s",
            "note": (
                f"seek to snapshot over a socket; CPU {listed(cpus, '.2f')}; "
                f"wall {listed(walls, '.2f')}; load {load_average():.1f}"
            ),
        },
        {
            "benchmark": (
                "⏭ to the end of 8x8 plain from a corner, in chromium: click to final board"
            ),
            "median": round(statistics.median(times), 2),
            "unit": "s",
            "goal": f"<= {GOAL:g}",
            "note": (
                f"{NODES:,} nodes; runs {listed(times, '.2f')}; {native.describe()}; "
                f"{shared_machine()}"
            ),
        },
    ]


if __name__ == "__main__":
    from benchmarks.bench import standalone

    sys.exit(standalone(run, __doc__))
