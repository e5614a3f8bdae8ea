"""The code lab (/lab) in headless chromium: a student's Python under Pyodide, recorded.

The real app is served on a free port.  Rows:

* steps per second recorded: a step is one board write of the program (a move or a
  backtrack, one event of the lane), over the run's time in the worker (the program with
  its recorder, from the call to its return; the page's replay is not counted).  The
  starting program on 6x6 from a1 (10,808 steps) and from the corner a6 (354,060) and on
  7x7 from a7 (265,983);
* the time of a run of the Warnsdorff example on 8x8 (64 steps): the recorder's fixed
  cost (the program's rewrite and compile, the board's tables), and its 64 steps over that
  time, the steps/s row issue 25 names (a rate of the fixed cost, not of the recording);
* the time from opening the page to the end of the first run of the starting program
  (5x5), cold (a fresh browser profile: Pyodide's 13 MB fetched and compiled) and warm (the
  same profile again: its files from the HTTP cache).

Standalone: ``python benchmarks/bench_lab.py [--repeat N]``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import listed, shared_machine, standalone
from benchmarks.bench_browser_stream import serve
from server.lab import program
from tests.support.chromium import launch_options

GOAL = 1_000_000  # steps per second of the student's program (issue 25)
LONG_RUN = 100_000  # steps: a run this long measures the recording's rate, not its set-up
LOAD_MS = 180_000
RUNS = (  # (name, program, rows, cols, start, steps, measured: "rate" | "time")
    ("the starting program, 6x6 from a1", "start", 6, 6, (5, 0), 10_808, "rate"),
    ("the starting program, 6x6 from a6", "start", 6, 6, (0, 0), 354_060, "rate"),
    ("the Warnsdorff example, 8x8 from a8", "warnsdorff", 8, 8, (0, 0), 64, "time"),
    ("the starting program, 7x7 from a7", "start", 7, 7, (0, 0), 265_983, "rate"),
)


def open_lab(page, base: str) -> None:
    page.goto(f"{base}/lab?test&lang=en")
    page.wait_for_selector("#lab[data-python=ready]", timeout=LOAD_MS)


def record(page, source: str, rows: int, cols: int, start) -> tuple[int, float]:
    """(steps, ms in the worker) of one run of ``source``, driven through the page's runner."""
    result = page.evaluate(
        """async ([source, rows, cols, start]) => {
            const recording = await window.testHook.runner.run({ source, rows, cols, start });
            return [recording.length, recording.result.ms, recording.result.status];
        }""",
        [source, rows, cols, list(start)],
    )
    steps, ms, status = result
    if status not in ("found", "ended"):
        raise RuntimeError(f"the run ended {status}")
    return steps, ms


def first_run_seconds(browser_type, base: str, profile: str) -> float:
    """Seconds from opening /lab in ``profile`` to the end of its first Run (5x5)."""
    context = browser_type.launch_persistent_context(profile, **launch_options())
    try:
        page = context.new_page()
        began = time.perf_counter()
        page.goto(f"{base}/lab?lang=en")
        page.wait_for_selector("#lab[data-ready=true]")
        page.click("#lab-run")
        page.wait_for_selector("#lab[data-run-status=found]", timeout=LOAD_MS)
        return time.perf_counter() - began
    finally:
        context.close()


def run(repeat: int = 3) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    measured: dict[str, list[float]] = {name: [] for name, *_ in RUNS}
    cold, warm = [], []
    with serve() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(**launch_options())
        try:
            page = browser.new_page()
            open_lab(page, base)
            for _ in range(repeat):
                for name, source, r, c, start, expected, kind in RUNS:
                    steps, ms = record(page, program(source), r, c, start)
                    if steps != expected:
                        raise RuntimeError(f"{name}: {steps:,} steps, not {expected:,}")
                    measured[name].append(steps / (ms / 1000) if kind == "rate" else ms)
        finally:
            browser.close()
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as profile:
                cold.append(first_run_seconds(pw.chromium, base, profile))
                warm.append(first_run_seconds(pw.chromium, base, profile))
    for name, *_, expected, kind in RUNS:
        values = measured[name]
        if kind == "time":
            rows.append(
                {
                    "benchmark": f"code lab, {name}: time per run in chromium",
                    "median": round(statistics.median(values), 1),
                    "unit": "ms",
                    "note": f"{expected:,} steps: a fixed cost; runs {listed(values, '.1f')}; "
                    + shared_machine(),
                }
            )
            rates = [expected / (ms / 1000) for ms in values]  # the row issue 25 names
            rows.append(
                {
                    "benchmark": f"code lab, {name}: steps recorded per second in chromium",
                    "median": round(statistics.median(rates)),
                    "unit": "steps/s",
                    "note": f"{expected:,} steps a run: the rate of the fixed cost above, not"
                    f" of the recording; runs {listed(rates, ',.0f')}; {shared_machine()}",
                }
            )
            continue
        short = expected < LONG_RUN  # a few ms: the fixed cost is a good part of its time
        rows.append(
            {
                "benchmark": f"code lab, {name}: steps recorded per second in chromium",
                "median": round(statistics.median(values)),
                "unit": "steps/s",
                "goal": "" if short else f">= {GOAL:,}",
                "note": f"{expected:,} steps"
                + (", a short run: the Warnsdorff row's fixed cost is in it" if short else "")
                + f"; runs {listed(values, ',.0f')}; {shared_machine()}",
            }
        )
    for label, values in (("cold", cold), ("warm", warm)):
        rows.append(
            {
                "benchmark": f"code lab, open the page to the first run's end, {label}",
                "median": round(statistics.median(values), 2),
                "unit": "s",
                "note": (
                    "a fresh profile: Pyodide fetched and compiled"
                    if label == "cold"
                    else "the same profile again: Pyodide from the HTTP cache"
                )
                + f"; runs {listed(values, '.2f')}; {shared_machine()}",
            }
        )
    return rows


if __name__ == "__main__":
    sys.exit(standalone(run, __doc__))
