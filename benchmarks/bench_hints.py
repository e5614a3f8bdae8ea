"""Hint latency on a fixed corpus of random-play positions (8x8, 10x10, 20x20; open, closed).

Each position: a random start square, then uniformly random legal moves until
the walk gets stuck; the position is that walk cut after a uniformly random
number of moves between 1 and the walk's length.  The RNG seed is fixed, so the
corpus never changes between runs.  Every hint gets a 1 s budget.

Rows per board and mode: p50 and p99 latency in ms (for the p99 row the
"median" column holds the p99: the median over ``repeat`` passes of each
pass's 99th percentile; a CPU-time p99 row as well), the share of
``unknown`` answers (the largest over the passes) and the slowest hint.
Goals: p99 <= 100 ms (<= 50 ms on 20x20) and no ``unknown``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.engine.board import Board
from server.engine.hints import hint
from tests.support.positions import CORPUS_SIZE, corpus
from tests.support.stats import percentile

TIME_LIMIT = 1.0
CONFIGS = (
    (8, 8, False),
    (8, 8, True),
    (10, 10, False),
    (10, 10, True),
    (20, 20, False),
    (20, 20, True),
)
P99_GOAL = {8: "<= 100", 10: "<= 100", 20: "<= 50"}  # ms; 20x20's from the compiled core's issue


def measure(rows: int, cols: int, closed: bool, positions: list[list[int]]) -> dict:
    """Time every position once: latencies in ms, unknown count and verdict counts."""
    board = Board(rows, cols)
    times = []
    cpu = []
    nodes = 0
    unknown = 0
    verdicts: dict[str, int] = {}
    for path in positions:
        began, began_cpu = time.perf_counter(), time.process_time()
        h = hint(board, path, closed=closed, time_limit=TIME_LIMIT)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        nodes = max(nodes, h.nodes)
        verdicts[h.verdict] = verdicts.get(h.verdict, 0) + 1
        unknown += h.verdict == "unknown"
    times.sort()
    cpu.sort()
    return {
        "cpu p99": percentile(cpu, 0.99),
        "nodes": nodes,
        "p50": times[len(times) // 2],
        "p99": percentile(times, 0.99),
        "max": times[-1],
        "unknown": unknown / len(times),
        "verdicts": verdicts,
    }


def run(repeat: int = 1, size: int = CORPUS_SIZE) -> list[dict]:
    """Benchmark rows for ``benchmarks/bench.py``: medians over ``repeat`` passes."""
    rows_out = []
    for rows, cols, closed in CONFIGS:
        positions = corpus(rows, cols, size)
        passes = [measure(rows, cols, closed, positions) for _ in range(max(1, repeat))]
        mode = "closed" if closed else "open"
        label = f"hints {rows}x{cols} {mode}"
        v = passes[0]["verdicts"]
        mix = ", ".join(f"{k} {v[k]}" for k in sorted(v))
        note = f"{len(positions)} random-play positions, 1 s budget; {mix}"
        rows_out += [
            {
                "benchmark": f"{label} p50",
                "median": statistics.median(p["p50"] for p in passes),
                "unit": "ms",
                "goal": "",
                "note": note,
            },
            {
                "benchmark": f"{label} p99",
                "median": statistics.median(p["p99"] for p in passes),
                "unit": "ms",
                "goal": P99_GOAL[rows],
                "note": "median column holds the 99th percentile",
            },
            {
                "benchmark": f"{label} unknown share",
                "median": max(p["unknown"] for p in passes),
                "unit": "fraction",
                "goal": "0",
                "note": "largest over the passes",
            },
            {
                "benchmark": f"{label} p99 CPU",
                "median": statistics.median(p["cpu p99"] for p in passes),
                "unit": "ms",
                "goal": "",
                "note": "process CPU time: steadier than wall time on a shared machine",
            },
            {
                "benchmark": f"{label} slowest",
                "median": statistics.median(p["max"] for p in passes),
                "unit": "ms",
                "goal": "",
                "note": f"the slowest single hint; most nodes {passes[0]['nodes']}",
            },
        ]
    return rows_out


if __name__ == "__main__":
    for row in run():
        print(
            f"{row['benchmark']:34} {row['median']:10.3f} {row['unit']:8} {row['goal']:7} "
            f"{row['note']}"
        )
