"""Depth-first search speed: the fast path, the event stream and the lesson's figures.

Each figure is the median of ``repeat`` runs on the same input (searches are
deterministic, so only the clock varies).  Times are CPU seconds of this process
(``time.process_time``), so other work on a shared machine disturbs them less
than it would wall-clock times.  Run alone with
``python -m benchmarks.bench_search`` or through ``benchmarks/bench.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import row
from server.engine.board import Board
from server.engine.search import PRUNINGS, SearchResult, search_events, solve


def _consume(board: Board, start: int, **kw) -> tuple[int, float, object]:
    """(events, CPU seconds, final event), touching every event as a consumer would."""
    began = time.process_time()
    count = 0
    event = None
    for event in search_events(board, start, **kw):  # noqa: B007 - the last one is kept
        count += 1
    return count, time.process_time() - began, event


def _solve(board: Board, start: int, **kw) -> SearchResult:
    """solve(), with ``seconds`` replaced by the CPU time it took."""
    began = time.process_time()
    result = solve(board, start, **kw)
    result.seconds = time.process_time() - began
    return result


def run(repeat: int = 5) -> list[dict]:
    rows = []
    six, eight = Board(6, 6), Board(8, 8)

    # The lesson's plain search: 6x6 from the top-left corner.
    fast = [_solve(six, 0) for _ in range(repeat)]
    nodes = fast[0].nodes
    fast_s = statistics.median(r.seconds for r in fast)
    rows.append(
        row(
            "search: seed fast path",
            nodes / fast_s,
            "nodes/s",
            ">= 3 M",
            "solve(), 6x6 from a corner, no events",
        )
    )
    streams = [_consume(six, 0) for _ in range(repeat)]
    events = streams[0][0]
    stream_s = statistics.median(s for _, s, _ in streams)
    rows.append(
        row(
            "search: event stream",
            events / stream_s,
            "events/s",
            ">= 1 M",
            f"same search, {events:,} events ({events / nodes:.2f} per node), all consumed",
        )
    )
    rows.append(
        row(
            "search: event stream / fast path",
            stream_s / fast_s,
            "x time",
            "",
            "what watching the search costs over solving it",
        )
    )
    rows.append(row("search: seed 6x6 corner", nodes, "nodes", "", "lesson: about 177 k"))
    rows.append(row("search: seed 6x6 corner", fast_s, "s", "", "fast path"))
    pruned = [_solve(six, 0, pruning=PRUNINGS) for _ in range(repeat)]
    rows.append(
        row(
            "search: seed 6x6 corner, all pruning",
            pruned[0].nodes,
            "nodes",
            "",
            f"same tour; median {statistics.median(r.seconds for r in pruned) * 1e3:.1f} ms",
        )
    )

    # Warnsdorff, open, 8x8 from every start.
    totals, nodes_all, failures = [], 0, 0
    for _ in range(repeat):
        began = time.process_time()
        nodes_all, failures = 0, 0
        for start in range(64):
            result = solve(eight, start, ordering="warnsdorff", node_budget=1_000_000)
            nodes_all += result.nodes
            failures += result.status != "found"
        totals.append(time.process_time() - began)
    rows.append(
        row(
            "search: Warnsdorff open 8x8, all 64 starts",
            statistics.median(totals),
            "s",
            "",
            f"{nodes_all:,} nodes in all, {failures} without a tour",
        )
    )

    # Warnsdorff, closed, with the start-neighbour rule.
    for board, lesson in ((six, "about 1.4 k"), (eight, "about 64")):
        runs = [_solve(board, 0, closed=True, ordering="warnsdorff") for _ in range(repeat)]
        rows.append(
            row(
                f"search: closed Warnsdorff {board.dims} corner",
                runs[0].nodes,
                "nodes",
                "",
                f"lesson: {lesson}; {runs[0].status}, "
                f"median {statistics.median(r.seconds for r in runs) * 1e3:.2f} ms",
            )
        )

    # The Warnsdorff stream (sorting and onward counts) on a proof of no tour.
    five = Board(5, 5)
    kw = dict(ordering="warnsdorff", pruning=("dead-ends",))
    proof = [_consume(five, 1, **kw) for _ in range(repeat)]
    count, _, final = proof[0]
    rows.append(
        row(
            "search: Warnsdorff stream, dead-ends",
            count / statistics.median(s for _, s, _ in proof),
            "events/s",
            "",
            f"5x5 from b5 (no tour): {final.nodes:,} nodes",
        )
    )
    plain = [_solve(five, 1) for _ in range(repeat)]
    rows.append(
        row(
            "search: seed 5x5 proof of no tour",
            plain[0].nodes,
            "nodes",
            "",
            f"from b5, no pruning; median {statistics.median(r.seconds for r in plain):.2f} s",
        )
    )
    return rows


if __name__ == "__main__":
    for line in run():
        print(
            f"{line['benchmark']:<44} {line['median']:>14,.3f} {line['unit']:<9} "
            f"{line['goal']:<8} {line['note']}"
        )
