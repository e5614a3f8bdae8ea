"""The articles' programs as orderings (issue 24): nodes to their first tour, and time.

Each row: the nodes the ordering enters (the root included) on the article's own
board and start, with its backtracks and the median time of ``solve`` in the note.
The issue quotes 720, 64, 47, 5,422 and 781,815.  The Python article as written
enters 1,085,581,236 nodes before its first success, a real tour (counted by a C
transcription of its greedyDFS, whose counts equal our engine's on 5x5 and 6x6
from other starts); at about 1.7 M nodes/s that is over ten minutes, too long
for a benchmark: its row shows the budget it runs out of.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import row, standalone
from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.search import solve

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


def run(repeat: int = 3) -> list[dict]:
    rows = []
    for label, ordering, home, goal in CASES:
        article = ARTICLES[home]
        board = Board(article.rows, article.cols)
        start = board.square(*article.start)
        budget = PYTHON_BUDGET if ordering == "a001-python" else None
        times = []
        for _ in range(1 if budget else max(1, repeat)):
            began = time.perf_counter()
            result = solve(board, start, ordering=ordering, node_budget=budget)
            times.append(time.perf_counter() - began)
        if goal == "budget":
            goal = f"no success within {budget:,}"
        note = (
            f"{ordering}: {result.status}, {result.backtracks:,} backtracks, "
            f"{statistics.median(times):.3g} s"
        )
        rows.append(row(f"articles: {label}", result.nodes, "nodes", goal, note))
    return rows


if __name__ == "__main__":
    sys.exit(standalone(run, __doc__))
