"""One entry point for "give me a tour": theory first, then the chosen algorithm.

The CLI and the web layer call :func:`solve_tour`; it never searches a board on
which theory already proves there is no tour, and it reports why.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .board import Board, BoardError
from .construct import construct_tour
from .search import PRUNINGS, solve
from .theory import tour_verdict

ALGORITHMS = ("auto", "seed", "warnsdorff", "construct")

# "auto" tries the Warnsdorff search on boards up to this many squares (its
# stats are the lesson's), and the linear-time construction above it or when
# the search runs out of this many nodes.
AUTO_SEARCH_MAX_SQUARES = 400
AUTO_SEARCH_NODES = 50_000


@dataclass(frozen=True)
class SolveOutcome:
    status: str  # "found" | "impossible" | "exhausted" | "budget"
    algorithm: str  # the algorithm that produced the outcome
    tour: list[int] | None
    reason: str | None
    nodes: int
    backtracks: int
    seconds: float


def solve_tour(
    board: Board,
    start: int,
    *,
    closed: bool = False,
    algorithm: str = "auto",
    node_budget: int | None = None,
    time_limit: float | None = None,
) -> SolveOutcome:
    """Find a tour of ``board`` from ``start`` or say precisely why not."""
    if algorithm not in ALGORITHMS:
        raise BoardError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if node_budget is not None and node_budget < 0:
        raise BoardError(f"the node budget must not be negative, got {node_budget}")
    if time_limit is not None and time_limit <= 0:
        raise BoardError(f"the time limit must be positive, got {time_limit}")
    board.row_col(start)  # validates the square
    if board.blocked:
        raise BoardError("solve_tour handles full boards; search boards with holes directly")

    verdict = tour_verdict(board.rows, board.cols, closed=closed, start=start)
    if not verdict:
        return SolveOutcome("impossible", algorithm, None, verdict.reason, 0, 0, 0.0)

    if algorithm == "auto":
        if board.size <= AUTO_SEARCH_MAX_SQUARES:
            budget = min(node_budget or AUTO_SEARCH_NODES, AUTO_SEARCH_NODES)
            outcome = _search(board, start, closed, "warnsdorff", budget, time_limit)
            if outcome.status == "found":
                return outcome
        algorithm = "construct"

    if algorithm == "construct":
        began = time.perf_counter()
        tour = construct_tour(board.rows, board.cols, start, closed=closed)
        return SolveOutcome("found", "construct", tour, None, 0, 0, time.perf_counter() - began)
    return _search(board, start, closed, algorithm, node_budget, time_limit)


def _search(board, start, closed, ordering, node_budget, time_limit) -> SolveOutcome:
    # The lesson's plain backtracking stays plain; Warnsdorff gets every provably
    # safe pruning, which never changes the tour it finds, only how fast it gives up.
    result = solve(
        board,
        start,
        closed=closed,
        ordering=ordering,
        pruning=PRUNINGS if ordering == "warnsdorff" else (),
        node_budget=node_budget,
        time_limit=time_limit,
    )
    reason = None
    if result.status == "exhausted":
        reason = f"the {ordering} search tried every path: no tour from this start"
    elif result.status == "budget":
        reason = f"the {result.limit} budget ran out after {result.nodes} nodes"
    return SolveOutcome(
        result.status,
        ordering,
        result.tour,
        reason,
        result.nodes,
        result.backtracks,
        result.seconds,
    )
