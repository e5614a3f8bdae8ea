"""The articles' programs as orderings (issue 24): nodes to their first tour, and time.

Each row: the nodes the ordering enters (the root included) on the article's own
board and start, with its backtracks and, in the note, the median time of
``solve`` on each engine (the compiled core and the Python reference) with its
nodes per second.  Both engines must give the same counts; a row says so when
they do not.  The issue quotes 720, 64, 47, 5,422 and 781,815.

The Python article as written enters 1,085,581,236 nodes before its first
success, a real tour.  The Python engine, at about 1.9 M nodes/s, would need ten
minutes: its row shows the budget it runs out of on both engines, and one more
row runs the compiled core (about 65 M nodes/s, some 17 s) to that first success,
once, when the core is built.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import row, standalone
from server.engine import native
from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.search import SearchResult, solve

PYTHON_BUDGET = 5_000_000

# (label, ordering, the article whose board and start it uses, issue's figure)
CASES = (
    ("000 Java as written, 8x8 from (2, 0)", "a000-java", "a000-java", "= 720"),
    ("000 Java fixed (Warnsdorff)", "a000-java-fixed", "a000-java-fixed", "= 64"),
    ("002 Java as written, 6x6 from (5, 0)", "a002-java", "a002-java", "= 47"),
    ("002 Java without its sort (seed)", "seed", "a002-java", "= 5,422"),
    ("002 Java fixed", "a002-java-fixed", "a002-java-fixed", ""),
    ("001 Python as written, 6x6 from (4, 3)", "a001-python", "a001-python", "budget"),
    ("001 Python fixed", "a001-python-fixed", "a001-python-fixed", "= 36"),
    ("003 C traverse, 5x5 from (2, 0)", "a003-c", "a003-c", "= 781,815"),
    ("003 C traverse_chess (loop)", "a003-c-loop", "a003-c-loop", "= 781,815"),
    ("003 C explicit stack", "a003-c-stack", "a003-c-stack", "= 781,815"),
)
PYTHON_FIRST_SUCCESS = "= 1,085,581,236"


def engines() -> tuple[str, ...]:
    return ("compiled", "python") if native.available() else ("python",)


def timed(engine: str, board: Board, start: int, ordering: str, budget, repeat: int):
    """(the last result, the median seconds) of ``repeat`` solves on ``engine``."""
    times = []
    result: SearchResult | None = None
    with native.use(engine):
        solve(board, start, ordering=ordering, node_budget=1)  # the tables, built once a board
        for _ in range(max(1, repeat)):
            began = time.perf_counter()
            result = solve(board, start, ordering=ordering, node_budget=budget)
            times.append(time.perf_counter() - began)
    return result, statistics.median(times)


def speed(engine: str, result: SearchResult, seconds: float) -> str:
    name = "C" if engine == "compiled" else "Python"
    rate = result.nodes / seconds if seconds > 0 else float("inf")
    return f"{name} {seconds:.3g} s ({rate / 1e6:.3g} M nodes/s)"


def run(repeat: int = 3) -> list[dict]:
    rows = []
    for label, ordering, home, goal in CASES:
        article = ARTICLES[home]
        board = Board(article.rows, article.cols)
        start = board.square(*article.start)
        budget = PYTHON_BUDGET if ordering == "a001-python" else None
        timings = [
            (engine, *timed(engine, board, start, ordering, budget, 1 if budget else repeat))
            for engine in engines()
        ]
        result = timings[-1][1]  # the Python engine's: the reference
        counts = {(r.status, r.nodes, r.backtracks) for _, r, _ in timings}
        if goal == "budget":
            goal = f"no success within {budget:,}"
        note = f"{ordering}: {result.status}, {result.backtracks:,} backtracks; " + ", ".join(
            speed(engine, r, seconds) for engine, r, seconds in timings
        )
        if len(counts) > 1:
            note += "; THE ENGINES DISAGREE: " + ", ".join(
                f"{engine} {r.status} {r.nodes:,}" for engine, r, _ in timings
            )
        rows.append(row(f"articles: {label}", result.nodes, "nodes", goal, note))
    if native.available():
        article = ARTICLES["a001-python"]
        board = Board(article.rows, article.cols)
        start = board.square(*article.start)
        result, seconds = timed("compiled", board, start, "a001-python", None, 1)
        note = (
            f"a001-python: {result.status}, {result.backtracks:,} backtracks; "
            f"{speed('compiled', result, seconds)}; too long for the Python engine"
        )
        rows.append(
            row(
                "articles: 001 Python as written, to its first success",
                result.nodes,
                "nodes",
                PYTHON_FIRST_SUCCESS,
                note,
            )
        )
    return rows


if __name__ == "__main__":
    sys.exit(standalone(run, __doc__))
