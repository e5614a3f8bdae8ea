"""Events per second the Watch page draws in a headless chromium, viewer at full speed.

The real app (Flask + Socket.IO, threading mode) is served on a free port; the page at
/watch runs the articles' plain backtracking on 6x6 from a corner (177,048 nodes,
354,060 events) with the speed slider at its last step. The figure is the number of
events drawn divided by the time from the run's acknowledgement to the last event
drawn (the lane's ``data-run-ms``), so it includes the search, the encoding, the
websocket, decoding, the credit round trips and the drawing, all on one machine.

Standalone: ``python benchmarks/bench_browser_stream.py [--repeat N]``.
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import listed, shared_machine
from tests.support.chromium import launch_options

QUERY = "rows=6&cols=6&start=0,0&algorithm=seed&speed=max&go=1&lang=en"
GOAL = 150_000


@contextmanager
def serve():
    """The real app on a free port, served from a background thread."""
    from server.app import create_app
    from server.http_server import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance})
        server = make_server("127.0.0.1", 0, app)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)


def measure(browser, base: str) -> tuple[int, float]:
    """(events drawn, seconds) for one full-speed run in a fresh page."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/watch?{QUERY}")
        page.wait_for_function(
            "() => document.querySelector('[data-side=a]').dataset.runMs", timeout=180_000
        )
        events, ms, status = page.evaluate(
            """() => { const lane = document.querySelector('[data-side=a]');
                       const shown = lane.querySelector('[data-stat=shown]').textContent;
                       return [+shown.replace(/\\D/g, ''), +lane.dataset.runMs,
                               lane.dataset.status]; }"""
        )
        if status != "found":
            raise RuntimeError(f"the run ended with status {status!r}")
        return events, ms / 1000
    finally:
        page.close()


def run(repeat: int = 3) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rates = []
    events = 0
    with (
        serve() as base,
        sync_playwright() as pw,
        pw.chromium.launch(**launch_options()) as browser,
    ):
        measure(browser, base)  # warm-up: imports, neighbour tables, JIT
        for _ in range(repeat):
            events, seconds = measure(browser, base)
            rates.append(events / seconds)
    return [
        {
            "benchmark": "watch page: events drawn per second (6x6 seed, full speed)",
            "median": round(statistics.median(rates)),
            "unit": "events/s",
            "goal": f">= {GOAL:,}",
            "note": f"{events:,} events per run; runs {listed(rates, ',.0f')}; {shared_machine()}",
        }
    ]


if __name__ == "__main__":
    from benchmarks.bench import standalone

    sys.exit(standalone(run, __doc__))
