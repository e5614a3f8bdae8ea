"""The first steps of a search, as the question tests take their positions from them."""

from __future__ import annotations

from server.engine.board import Board
from server.engine.search import search_events


def first_steps(board: Board, start: int, limit: int, **options) -> tuple[list, bool]:
    """The search's first ``limit`` moves and backtracks (``options`` go to
    ``search_events``), and whether the search ended within them."""
    steps = []
    for event in search_events(board, start, **options):
        if event.kind not in ("move", "backtrack"):
            return steps, True
        steps.append(event)
        if len(steps) >= limit:
            break
    return steps, False
