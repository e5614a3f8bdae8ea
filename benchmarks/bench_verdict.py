"""The board editor's verdict on 1,000 random shapes up to 12x12 (tests/support/shapes.py:
sides 3..12, 0-25 % holes, open or closed, free or fixed start, seeded).

Each shape is asked of ``POST /api/verdict`` through the app's test client (body parsed,
verdict decided with the editor's ``VERDICT_SECONDS`` budget, answer worded and encoded;
no network), once per pass.  Rows: p50, p95 and the slowest answer in ms (medians over
the passes), the 95th percentile in process CPU time (steadier on a shared machine) and
among the shapes only the search could decide (no named obstacle), and
the most ``unknown`` answers (``tour`` null) of any pass.  Goals: p95 <= 200 ms, no
unknown.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import row
from server.app import create_app
from tests.support.shapes import SAMPLE_SIZE, random_puzzles
from tests.support.stats import percentile


def measure(client, codes: list[str]) -> dict:
    wall, cpu, searched = [], [], []
    answers: Counter = Counter()
    for code in codes:
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.post("/api/verdict", json={"puzzle": code})
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{code}: {response.status_code} {response.get_json()}")
        code = response.get_json()["code"]
        answers[code or "tour"] += 1
        if code in (None, "exhausted", "time"):  # no obstacle: the search decided
            searched.append(wall[-1])
    return {
        "p50": percentile(wall, 0.5),
        "p95": percentile(wall, 0.95),
        "max": max(wall),
        "searched p95": percentile(searched, 0.95),
        "searched": len(searched),
        "cpu p95": percentile(cpu, 0.95),
        "unknown": answers["time"],
        "answers": answers,
    }


def run(repeat: int = 1, size: int = SAMPLE_SIZE) -> list[dict]:
    """Benchmark rows for ``benchmarks/bench.py``: medians over ``repeat`` passes."""
    codes = [puzzle.code for puzzle in random_puzzles(size)]
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "RATE_LIMIT_VERDICTS": "0"})
        client = app.test_client()
        budget = app.config["VERDICT_SECONDS"]
        passes = [measure(client, codes) for _ in range(max(1, repeat))]
    mix = ", ".join(f"{k} {v}" for k, v in sorted(passes[0]["answers"].items()))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    label = f"editor verdict, {size} random shapes up to 12x12"
    searched = passes[0]["searched"]
    times = [  # (row, key of measure()'s, goal, note): milliseconds, medians over the passes
        ("p50", "p50", "", f"POST /api/verdict, {budget:g} s budget; {mix}"),
        ("p95", "p95", "<= 200", f"median column holds the 95th percentile; load average {load}"),
        ("p95 CPU", "cpu p95", "", "process CPU time: steadier than wall time on a shared machine"),
        (
            "p95 of those searched",
            "searched p95",
            "",
            f"the {searched} shapes no named obstacle rules out",
        ),
        ("slowest", "max", "", "the slowest single answer"),
    ]
    rows = [
        row(f"{label} {name}", statistics.median(p[key] for p in passes), "ms", goal, note)
        for name, key, goal, note in times
    ]
    unknown = max(p["unknown"] for p in passes)
    note = "most over the passes (`tour` null: out of time)"
    return [*rows, row(f"{label} unknown", unknown, "answers", "0", note)]


if __name__ == "__main__":
    from benchmarks.bench import standalone

    sys.exit(standalone(run, __doc__))
