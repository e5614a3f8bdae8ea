"""The engine's witness for a puzzle, passed by the independent checker: the squares a test
plays to win it. Beside tests/tourcheck.py (which shares no code with the engine), since
tests/support may not import tests."""

from __future__ import annotations

from server.engine.shape import Puzzle, parse_puzzle
from server.engine.verdict import decide
from tests.tourcheck import assert_tour


def assert_puzzle_tour(puzzle: Puzzle, squares) -> None:
    """``squares`` is a tour of ``puzzle`` (its shape, holes, mode and fixed start), by the
    independent checker."""
    shape = puzzle.shape
    assert_tour(
        shape.rows,
        shape.cols,
        list(squares),
        closed=puzzle.closed,
        start=puzzle.start,
        blocked=shape.holes,
    )


def checked_witness(code: str) -> tuple[Puzzle, list[int]]:
    """A puzzle and the engine's verdict witness for it, passed by the independent checker
    (tests/tourcheck.py): the squares a test plays to win it."""
    puzzle = parse_puzzle(code)
    verdict = decide(puzzle, time_limit=5.0)
    assert verdict.tour, verdict
    assert_puzzle_tour(puzzle, verdict.witness)
    return puzzle, list(verdict.witness)
