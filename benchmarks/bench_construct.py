"""Speed and memory of the fast tour constructions on 1000x1000-sized boards.

Medians over ``repeat`` runs with warm caches (the base blocks are found by
search at first use and cached); the first-call cost is reported separately.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.engine import construct_blocks
from server.engine.construct import construct_tour

SEED = 20240601


def _median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def _majority_start(rows: int, cols: int, rng: random.Random) -> int:
    while True:
        r, c = rng.randrange(rows), rng.randrange(cols)
        if (r + c) % 2 == 0:
            return r * cols + c


def _cold_seconds(fn) -> float:
    """One call with every construction cache emptied first."""
    construct_blocks.block_cycle.cache_clear()
    construct_blocks._plan.cache_clear()
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def run(repeat: int = 5) -> list[dict]:
    rng = random.Random(SEED)
    n = 1000
    open_start = rng.randrange(n * n)
    odd_start = _majority_start(999, 999, rng)

    def closed() -> None:
        construct_tour(n, n, 0, closed=True)

    def open_even() -> None:
        construct_tour(n, n, open_start)

    def open_odd() -> None:
        construct_tour(999, 999, odd_start)

    cold = _cold_seconds(closed)
    cold_odd = _cold_seconds(open_odd)
    rows = [
        {
            "benchmark": "construct closed 1000x1000",
            "median": _median_seconds(closed, repeat),
            "unit": "s",
            "goal": "<= 0.3",
            "note": f"first call with empty caches {cold:.2f} s",
        },
        {
            "benchmark": "construct open 1000x1000, random start",
            "median": _median_seconds(open_even, repeat),
            "unit": "s",
            "goal": "",
            "note": f"start {divmod(open_start, n)}; a closed tour rotated",
        },
        {
            "benchmark": "construct open 999x999, random majority start",
            "median": _median_seconds(open_odd, repeat),
            "unit": "s",
            "goal": "",
            "note": f"start {divmod(odd_start, 999)}; first call {cold_odd:.2f} s",
        },
    ]
    peaks = []
    for _ in range(max(1, min(repeat, 3))):
        tracemalloc.start()
        tour = construct_tour(n, n, open_start)
        peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
        tracemalloc.stop()
        del tour
    rows.append(
        {
            "benchmark": "construct 1000x1000 peak memory",
            "median": statistics.median(peaks),
            "unit": "MB",
            "goal": "<= 200",
            "note": "tracemalloc peak of one open tour, result included",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
