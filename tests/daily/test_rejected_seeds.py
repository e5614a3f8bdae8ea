"""The daily generator's seeds, decided without the engine.

The generator keeps the first seed whose puzzle the engine's ``decide()`` proves
solvable, so asking ``decide()`` about the seeds it skipped proves nothing.  Here a
plain exhaustive search and counting arguments, written here and sharing nothing with
server.engine, decide them: on small boards every seed the generator tried, and on the
real boards every seed it skipped in the first two weeks.
"""

from __future__ import annotations

import functools
from datetime import date, timedelta

import pytest

from server.daily import generator
from server.engine.shape import Puzzle, parse_puzzle
from tests.witness import assert_puzzle_tour

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
FIRST = date(2025, 3, 1)
TWO_WEEKS = [(FIRST + timedelta(days=i)).isoformat() for i in range(14)]
# Boards small enough to search exhaustively, one per weekday (Monday first), the
# generator's holes (5 to 15 % of the squares) and fixed starts (open puzzles) unchanged.
SMALL_WEEKDAYS = (
    (3, 4, False),
    (4, 4, False),
    (3, 5, False),
    (4, 5, False),
    (3, 6, False),
    (5, 5, True),
    (4, 5, True),
)


class Graph:
    """The open squares of a puzzle as (row, col), each with its knight neighbours."""

    def __init__(self, puzzle: Puzzle) -> None:
        shape = puzzle.shape
        self.closed, self.cols = puzzle.closed, shape.cols
        self.start = None if puzzle.start is None else divmod(puzzle.start, shape.cols)
        self.squares = [
            (r, c)
            for r in range(shape.rows)
            for c in range(shape.cols)
            if r * shape.cols + c not in shape.holes
        ]
        present = set(self.squares)
        self.near = {
            (r, c): [(r + dr, c + dc) for dr, dc in KNIGHT if (r + dr, c + dc) in present]
            for r, c in self.squares
        }

    def colours(self) -> tuple[int, int]:
        """How many squares of each colour, (row + col) odd and even: a knight move changes
        colour, so a tour alternates them."""
        odd = sum((r + c) % 2 for r, c in self.squares)
        return odd, len(self.squares) - odd


def counting_proof(puzzle: Puzzle) -> str | None:
    """A reason by counting that the puzzle has no tour, or None when none applies."""
    graph = Graph(puzzle)
    degree = {sq: len(graph.near[sq]) for sq in graph.squares}
    if len(graph.squares) > 1 and 0 in degree.values():
        return "a square no knight move reaches"
    reached, todo = {graph.squares[0]}, [graph.squares[0]]
    while todo:
        for nxt in graph.near[todo.pop()]:
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    if len(reached) < len(graph.squares):
        return "squares in pieces no knight move joins"
    # a square with one neighbour can only be an end of the tour: a closed tour has none
    ends = [sq for sq in graph.squares if degree[sq] == 1]
    if graph.closed:
        allowed = 0
    elif graph.start is None:
        allowed = 2
    else:
        allowed = 1 + (graph.start in ends)
    if len(ends) > allowed:
        return "more dead ends than a tour has ends"
    odd, even = graph.colours()
    if odd != even and (graph.closed or abs(odd - even) > 1):
        return "colours out of balance"
    if graph.start is not None and odd != even:
        larger = 1 if odd > even else 0
        if sum(graph.start) % 2 != larger:  # an odd count starts and ends on the larger colour
            return "the start on the smaller colour"
    return None


def has_tour(puzzle: Puzzle, *, prune: bool = True) -> bool:
    """Exhaustive search over every path from the start (any square when it is free; one
    square for a closed tour, which passes them all), remembering positions that failed.

    ``prune`` gives up a position where some square left could no longer get its two tour
    neighbours (one, for the end of an open tour), or where two squares could only be ends.
    """
    graph = Graph(puzzle)
    odd, even = graph.colours()
    if abs(odd - even) > (0 if graph.closed else 1):
        return False
    bit = {sq: 1 << i for i, sq in enumerate(graph.squares)}
    ways = {sq: sum(bit[n] for n in graph.near[sq]) for sq in graph.squares}
    everything = (1 << len(graph.squares)) - 1

    def hopeless(seen: int, here: tuple, first: tuple) -> bool:
        reachable = (everything & ~seen) | bit[here] | (bit[first] if graph.closed else 0)
        ends = 0
        for sq in graph.squares:
            if not seen & bit[sq] and (ways[sq] & reachable).bit_count() < 2:
                ends += 1
                if graph.closed or ends > 1 or not ways[sq] & reachable:
                    return True
        return False

    @functools.cache
    def completes(seen: int, here: tuple, first: tuple) -> bool:
        if seen == everything:
            return not graph.closed or first in graph.near[here]
        if prune and hopeless(seen, here, first):
            return False
        return any(
            completes(seen | bit[nxt], nxt, first)
            for nxt in graph.near[here]
            if not seen & bit[nxt]
        )

    if graph.start is not None:
        firsts = [graph.start]
    else:
        firsts = graph.squares[:1] if graph.closed else graph.squares
    return any(completes(bit[sq], sq, sq) for sq in firsts)


@pytest.fixture
def small_boards(monkeypatch):
    """The generator drawing on SMALL_WEEKDAYS; its cache of days emptied before and after."""
    monkeypatch.setattr(generator, "WEEKDAYS", SMALL_WEEKDAYS)
    generator.daily.cache_clear()
    yield
    generator.daily.cache_clear()


@pytest.mark.usefixtures("small_boards")
def test_on_small_boards_the_chosen_seed_is_the_first_with_a_tour():
    skipped = []
    for day in TWO_WEEKS:
        found = generator.daily(day)
        for attempt in range(found.attempt):
            puzzle = generator.candidate(day, attempt)
            assert not has_tour(puzzle), (day, attempt, puzzle.code)
            skipped.append(puzzle)
        assert has_tour(found.puzzle), (day, found.code)
        assert_puzzle_tour(found.puzzle, found.witness)
    # not a vacuous check: many seeds were skipped, and some only a search rules out
    assert len(skipped) > 100
    assert any(counting_proof(puzzle) is None for puzzle in skipped)


@pytest.mark.usefixtures("small_boards")
def test_the_search_prunes_no_tour_away():
    """The pruned search answers as the plain one on every small seed of a week."""
    for day in TWO_WEEKS[:7]:
        for attempt in range(generator.daily(day).attempt + 1):
            puzzle = generator.candidate(day, attempt)
            assert has_tour(puzzle) == has_tour(puzzle, prune=False), puzzle.code


@pytest.mark.parametrize("day", TWO_WEEKS)
def test_every_seed_skipped_on_the_real_boards_has_no_tour(day):
    found = generator.daily(day)
    for attempt in range(found.attempt):
        puzzle = generator.candidate(day, attempt)
        assert counting_proof(puzzle) or not has_tour(puzzle), (day, attempt, puzzle.code)


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("3x3.o", "a square no knight move reaches"),  # the centre
        ("4x4:a1,b1,c1,d1,a4,b4,c4,d4.o", "squares in pieces no knight move joins"),  # 2x4
        ("3x4:c2.c", "more dead ends than a tour has ends"),  # a3 keeps only b1
        ("5x6:a1.c", "colours out of balance"),  # 29 squares cannot alternate round a loop
        ("3x5.o.b3", "the start on the smaller colour"),  # 8 even squares, 7 odd ones
        ("3x4.o", None),
        ("3x4.c", None),  # no closed tour, but no count says so
    ],
)
def test_the_counting_arguments(code, reason):
    """Each argument on a puzzle worked out by hand."""
    assert counting_proof(parse_puzzle(code)) == reason


@pytest.mark.parametrize(
    ("code", "tour"),
    [
        # open: 3xn boards have tours for n = 4 and n >= 7 only; 4x4 has none
        ("3x3.o", False),
        ("3x4.o", True),
        ("3x5.o", False),
        ("3x6.o", False),
        ("3x7.o", True),
        ("4x4.o", False),
        ("4x5.o", True),
        ("5x5.o", True),
        # closed (Schwenk, 1991): none when both sides are odd, a side is 1, 2 or 4, or the
        # board is 3x4, 3x6 or 3x8
        ("3x4.c", False),
        ("3x8.c", False),
        ("4x5.c", False),
        ("5x5.c", False),
        ("3x10.c", True),
        ("5x6.c", True),
        ("6x6.c", True),
    ],
)
def test_the_search_agrees_with_the_theorems(code, tour):
    assert has_tour(parse_puzzle(code)) is tour
