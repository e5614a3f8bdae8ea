"""Tour theory against exhaustive search, square by square, and verify() against its definition.

Every board of up to 30 squares (both orientations, every start, open and
closed) plus a few cheap boards of up to 36 squares is solved by
``tests/engine/exhaustive.py``, which shares no code with the engine.
"""

from __future__ import annotations

import itertools
import re
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import server.engine
from server.engine.board import Board, BoardError
from server.engine.theory import (
    REASONS,
    TourCheck,
    Verdict,
    closed_tour_verdict,
    open_start_squares,
    open_tour_verdict,
    tour_verdict,
    verify,
)
from tests.engine.exhaustive import completion, count_completions, tour_exists
from tests.tourcheck import assert_tour

SMALL = [(r, c) for r in range(1, 31) for c in range(1, 31) if r * c <= 30]
EXTRA = [(3, 11), (11, 3), (3, 12), (12, 3), (5, 7), (7, 5), (6, 6), (4, 8)]


@cache
def open_starts_by_search(rows: int, cols: int) -> frozenset[int]:
    return frozenset(s for s in range(rows * cols) if tour_exists(rows, cols, s))


def sq(cols: int, row: int, col: int) -> int:
    return row * cols + col


# -- theory == exhaustive search --------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), SMALL + EXTRA)
def test_open_theory_matches_search_per_start(rows, cols):
    found = open_starts_by_search(rows, cols)
    assert open_start_squares(rows, cols) == found
    assert bool(open_tour_verdict(rows, cols)) == bool(found)
    assert bool(tour_verdict(rows, cols, closed=False)) == bool(found)
    for start in range(rows * cols):
        verdict = open_tour_verdict(rows, cols, start)
        assert verdict.possible == (start in found), (rows, cols, start, verdict)
        assert tour_verdict(rows, cols, closed=False, start=start) == verdict
        check_verdict_shape(verdict, rows, cols)


@pytest.mark.parametrize(("rows", "cols"), SMALL + EXTRA)
def test_closed_theory_matches_search_per_start(rows, cols):
    verdict = closed_tour_verdict(rows, cols)
    check_verdict_shape(verdict, rows, cols)
    for start in range(rows * cols):
        assert tour_exists(rows, cols, start, closed=True) == verdict.possible, (rows, cols, start)
        assert tour_verdict(rows, cols, closed=True, start=start) == verdict


def check_verdict_shape(verdict: Verdict, rows: int, cols: int) -> None:
    assert verdict.params["rows"] == rows and verdict.params["cols"] == cols
    if verdict:
        assert verdict.code is None and verdict.reason is None
    else:
        assert verdict.code in REASONS
        assert verdict.reason == REASONS[verdict.code].format(**verdict.params)
        assert "\n" not in verdict.reason and "{" not in verdict.reason


def test_search_finds_real_tours():
    for rows, cols in [(3, 4), (5, 5), (4, 7), (7, 3), (3, 10)]:
        for start in open_start_squares(rows, cols):
            tour = [start, *completion(rows, cols, [start])]
            assert_tour(rows, cols, tour, start=start)
    for rows, cols in [(5, 6), (6, 5), (3, 10), (10, 3), (6, 6)]:
        tour = [7, *completion(rows, cols, [7], closed=True)]
        assert_tour(rows, cols, tour, closed=True, start=7)


# -- the derived start-square sets, written out ----------------------------------------------


def test_derived_start_sets():
    assert open_start_squares(3, 4) == {0, 3, 4, 7, 8, 11}  # the two end columns
    majority_3x7 = {s for s in range(21) if sum(divmod(s, 7)) % 2 == 0}
    assert open_start_squares(3, 7) == majority_3x7 - {sq(7, 1, 3)}
    assert open_start_squares(3, 8) == set(range(24)) - {sq(8, 1, 2), sq(8, 1, 5)}
    assert open_start_squares(3, 9) == set(range(0, 27, 2))
    assert open_start_squares(3, 10) == set(range(30))
    assert open_start_squares(4, 5) == set(range(5)) | set(range(15, 20))
    assert open_start_squares(5, 5) == set(range(0, 25, 2))
    assert open_start_squares(5, 6) == set(range(30))
    # transposed: 4x3's end "columns" are its top and bottom rows; 7x3's centre is (3, 1)
    assert open_start_squares(4, 3) == {0, 1, 2, 9, 10, 11}
    assert sq(3, 3, 1) not in open_start_squares(7, 3)
    assert open_start_squares(8, 3) == set(range(24)) - {sq(3, 2, 1), sq(3, 5, 1)}
    assert open_start_squares(6, 4) == {r * 4 + c for r in range(6) for c in (0, 3)}
    assert open_start_squares(1, 1) == {0}
    for rows, cols in [(1, 2), (2, 8), (3, 3), (3, 5), (6, 3), (4, 4)]:
        assert open_start_squares(rows, cols) == frozenset()


def test_reason_codes():
    cases = {
        (1, 1, True, None): "one-square",
        (1, 7, False, None): "one-row",
        (9, 1, True, None): "one-row",
        (2, 2, False, None): "two-rows",
        (8, 2, True, None): "two-rows",
        (3, 3, False, None): "isolated-centre",
        (5, 3, False, None): "no-open-tour",
        (3, 6, False, 0): "no-open-tour",
        (4, 4, False, None): "no-open-tour",
        (3, 3, True, None): "both-odd",
        (999, 1000, False, 0): None,
        (7, 9, True, None): "both-odd",
        (4, 4, True, None): "schwenk-4xn",
        (1000, 4, True, None): "schwenk-4xn",
        (8, 3, True, None): "schwenk-3xn",
        (3, 10, True, None): None,
        (5, 5, False, 1): "colour",
        (999, 999, False, 1): "colour",
        (4, 9, False, 9): "inner-4xn",
        (9, 4, False, 1): "inner-4xn",
        (3, 4, False, 1): "start-square",
        (3, 7, False, sq(7, 1, 3)): "start-square",
        (7, 3, False, sq(3, 3, 1)): "start-square",
        (3, 8, False, sq(8, 1, 5)): "start-square",
        (1, 1, False, 0): None,
    }
    for (rows, cols, closed, start), code in cases.items():
        verdict = tour_verdict(rows, cols, closed=closed, start=start)
        assert verdict.code == code, (rows, cols, closed, start, verdict)
        assert bool(verdict) == (code is None)
    assert closed_tour_verdict(5, 5).reason == (
        "a closed tour alternates colours, so it needs an even number of squares; 5x5 has 25"
    )
    assert closed_tour_verdict(5, 5).params == {"rows": 5, "cols": 5, "squares": 25}
    colour = open_tour_verdict(5, 5, 1)
    assert colour.params == {"rows": 5, "cols": 5, "square": "b5", "row": 0, "col": 1}
    assert "b5 is the other colour" in colour.reason
    assert open_tour_verdict(27, 27, 1).params["square"] == "0,1"  # beyond 26 files


@pytest.mark.parametrize(
    ("rows", "cols"), [(0, 5), (5, 0), (1001, 3), (3, 1001), (-1, 4), (True, 5)]
)
def test_bad_sizes_raise_board_error(rows, cols):
    with pytest.raises(BoardError):
        closed_tour_verdict(rows, cols)
    with pytest.raises(BoardError):
        open_tour_verdict(rows, cols)
    with pytest.raises(BoardError):
        tour_verdict(rows, cols, closed=True)
    with pytest.raises(BoardError):
        open_start_squares(rows, cols)


@pytest.mark.parametrize("start", [-1, 25, True, 2.0])
def test_bad_starts_raise_board_error(start):
    with pytest.raises(BoardError):
        open_tour_verdict(5, 5, start)
    with pytest.raises(BoardError):
        tour_verdict(5, 5, closed=True, start=start)
    with pytest.raises(BoardError):
        open_tour_verdict(3, 3, start)  # even where no tour exists at all


ENGINE = str(Path(server.engine.__file__).parent)


def lines_run(call) -> int:
    """How many lines of the engine's code ``call()`` runs: its work, counted without a
    clock (the lines of whatever else runs meanwhile, a finalizer say, are not its)."""
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        count += event == "line" and frame.f_code.co_filename.startswith(ENGINE)
        return trace

    before = sys.gettrace()  # a coverage tool's, say: put back after
    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(before)
    return count


def constant_time_pairs():
    """(a board, the same kind of board 988 squares longer): the same parities, both past
    the small boards theory names one by one."""
    grow = 988
    narrow = [((r, c), (r, c + grow)) for r in (1, 2, 3, 4) for c in (9, 10, 11, 12)]
    narrow += [((c, r), (bc, br)) for (r, c), (br, bc) in narrow]
    return narrow + [((r, c), (r + grow, c + grow)) for r in (5, 6, 7, 8) for c in (5, 6, 7, 8)]


@pytest.mark.parametrize(("small", "big"), constant_time_pairs(), ids=str)
def test_verdicts_are_constant_time_on_huge_boards(small, big):
    """A verdict runs the same lines on a board up to 1000x1000 as on its small cousin,
    from the corners, the centre and the other corners: the work does not grow."""

    def work(rows, cols, closed):
        starts = (0, rows * cols - 1, (rows // 2) * cols + cols // 2, cols - 1, (rows - 1) * cols)
        return [
            lines_run(lambda s=s: tour_verdict(rows, cols, closed=closed, start=s)) for s in starts
        ]

    for closed in (False, True):
        assert work(*small, closed) == work(*big, closed)


def test_start_squares_of_huge_boards():
    assert len(open_start_squares(1000, 1000)) == 1_000_000
    assert len(open_start_squares(999, 999)) == (999 * 999 + 1) // 2
    assert len(open_start_squares(4, 1000)) == 2000


# -- symmetry ---------------------------------------------------------------------------------


def symmetries(rows, cols, row, col):
    """(rows', cols', row', col') under the 8 symmetries of the rectangle (with transposes)."""
    for r, c in [(row, col), (rows - 1 - row, col), (row, cols - 1 - col)]:
        yield rows, cols, r, c
        yield cols, rows, c, r
    yield rows, cols, rows - 1 - row, cols - 1 - col
    yield cols, rows, cols - 1 - col, rows - 1 - row


sides = st.one_of(st.integers(1, 12), st.integers(1, 1000))


@given(sides, sides, st.data())
@example(3, 7, None)
@settings(max_examples=300, deadline=None)
def test_theory_is_symmetric(rows, cols, data):
    if data is None:
        row, col = 1, 3
    else:
        row = data.draw(st.integers(0, rows - 1))
        col = data.draw(st.integers(0, cols - 1))
    base_open = open_tour_verdict(rows, cols, row * cols + col)
    base_closed = closed_tour_verdict(rows, cols)
    for r2, c2, row2, col2 in symmetries(rows, cols, row, col):
        other = open_tour_verdict(r2, c2, row2 * c2 + col2)
        assert (other.possible, other.code) == (base_open.possible, base_open.code)
        assert closed_tour_verdict(r2, c2).code == base_closed.code
        assert bool(open_tour_verdict(r2, c2)) == bool(open_tour_verdict(rows, cols))


def test_start_sets_are_symmetric_on_small_boards():
    for rows, cols in SMALL + EXTRA:
        starts = open_start_squares(rows, cols)
        for row, col in itertools.product(range(rows), range(cols)):
            for r2, c2, row2, col2 in symmetries(rows, cols, row, col):
                inside = row2 * c2 + col2 in open_start_squares(r2, c2)
                assert inside == (row * cols + col in starts)


# -- counts from the notes ---------------------------------------------------------------------


def test_documented_counts():
    five = {s: count_completions(5, 5, [s]) for s in range(25)}
    assert five[0] == five[4] == five[20] == five[24] == 304
    assert five[sq(5, 0, 2)] == five[sq(5, 1, 1)] == five[sq(5, 2, 0)] == 56
    assert five[12] == 64
    assert sum(five.values()) == 1728
    assert {s for s, n in five.items() if n} == open_start_squares(5, 5)

    def undirected_open(rows, cols):
        return sum(count_completions(rows, cols, [s]) for s in range(rows * cols)) // 2

    assert undirected_open(3, 4) == 8
    assert undirected_open(3, 7) == 52
    assert undirected_open(8, 3) == 396
    assert undirected_open(4, 5) == 82
    assert undirected_open(4, 6) == 744
    assert count_completions(5, 6, [0], closed=True) // 2 == 8
    assert count_completions(3, 10, [0], closed=True) // 2 == 16
    assert count_completions(6, 6, [0], closed=True) // 2 == 9862


def naive_count(rows, cols, path, closed):
    """Plain memoised DFS without pruning: checks exhaustive.py's pruning is exact."""
    nb = [
        [
            (r + dr) * cols + c + dc
            for dr, dc in itertools.product((-2, -1, 1, 2), repeat=2)
            if abs(dr) != abs(dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        for r in range(rows)
        for c in range(cols)
    ]
    full = (1 << rows * cols) - 1
    memo = {}

    def go(mask, cur):
        if mask == full:
            return int(not closed or path[0] in nb[cur])
        if (mask, cur) not in memo:
            memo[mask, cur] = sum(go(mask | 1 << n, n) for n in nb[cur] if not mask >> n & 1)
        return memo[mask, cur]

    return go(sum(1 << s for s in path), path[-1])


@given(st.sampled_from([(3, 4), (4, 3), (3, 7), (4, 5), (5, 5), (5, 4)]), st.data())
@settings(max_examples=60, deadline=None)
def test_exhaustive_pruning_is_exact(dims, data):
    rows, cols = dims
    path = [data.draw(st.integers(0, rows * cols - 1))]
    for _ in range(data.draw(st.integers(3, 7) if rows * cols > 20 else st.integers(0, 3))):
        options = [
            s
            for s in range(rows * cols)
            if s not in path and Board(rows, cols).is_knight_move(path[-1], s)
        ]
        if not options:
            break
        path.append(data.draw(st.sampled_from(options)))
    for closed in (False, True):
        expected = naive_count(rows, cols, path, closed)
        assert count_completions(rows, cols, path, closed=closed) == expected
        assert (completion(rows, cols, path, closed=closed) is not None) == bool(expected)


@given(st.sampled_from([(5, 6), (6, 5), (3, 10), (10, 3)]), st.integers(8, 14), st.data())
@settings(max_examples=30, deadline=None)
def test_exhaustive_pruning_is_exact_where_closed_tours_exist(dims, length, data):
    rows, cols = dims
    start = data.draw(st.integers(0, rows * cols - 1))
    path = list(found_tour(rows, cols, start, closed=True)[:length])
    if data.draw(st.booleans()):  # leave the known tour for a random knight step
        options = [s for s in range(rows * cols) if s not in path[:-1]]
        options = [s for s in options if Board(rows, cols).is_knight_move(path[-2], s)]
        path[-1] = data.draw(st.sampled_from(options))
    for closed in (False, True):
        expected = naive_count(rows, cols, path, closed)
        assert count_completions(rows, cols, path, closed=closed) == expected


def test_exhaustive_rejects_invalid_paths():
    assert completion(5, 5, [0, 1]) is None  # not a knight move
    assert completion(5, 5, [0, 7, 0]) is None  # repeat
    assert completion(5, 5, [25]) is None  # off the board
    assert completion(1, 1, [0]) == []
    assert completion(1, 1, [0], closed=True) is None
    assert count_completions(1, 1, [0]) == 1


# -- verify() ----------------------------------------------------------------------------------

TOUR_BOARDS = [(3, 4), (4, 3), (3, 7), (5, 5), (4, 5), (5, 4), (3, 8), (5, 6), (6, 5), (3, 10)]


@cache
def found_tour(rows, cols, start, closed=False):
    rest = completion(rows, cols, [start], closed=closed)
    return None if rest is None else (start, *rest)


@st.composite
def tours(draw, closed=False):
    if closed:
        rows, cols = draw(st.sampled_from([(5, 6), (6, 5), (3, 10), (10, 3)]))
        start = draw(st.integers(0, rows * cols - 1))
    else:
        rows, cols = draw(st.sampled_from(TOUR_BOARDS))
        start = draw(st.sampled_from(sorted(open_start_squares(rows, cols))))
    return Board(rows, cols), list(found_tour(rows, cols, start, closed))


def oracle(board, tour, closed):
    try:
        assert_tour(board.rows, board.cols, tour, closed=closed, blocked=board.blocked)
    except AssertionError:
        return False
    return True


PROBLEM = re.compile(
    r"step \d+ \(\w+\) repeats step \d+"
    r"|move \d+ \(\w+ -> \w+\) is not a knight move"
    r"|the tour visits \d+ of \d+ squares; \w+ is never visited"
    r"|the closing move \(\w+ -> \w+\) is not a knight move"
    r"|step \d+ \(\w+\) is a blocked square"
)


def check(board, tour, closed=False):
    result = verify(board, tour, closed=closed)
    assert isinstance(result, TourCheck)
    assert result.ok == oracle(board, tour, closed), (tour, result)
    assert bool(result) == result.ok
    if result.ok:
        assert result.problem is None
    else:
        assert PROBLEM.fullmatch(result.problem), result.problem
    return result


@given(tours())
@settings(max_examples=60, deadline=None)
def test_verify_accepts_found_tours(case):
    board, tour = case
    assert check(board, tour)
    assert check(board, tour[::-1])
    closes = board.is_knight_move(tour[-1], tour[0])
    assert bool(check(board, tour, closed=True)) == closes


@given(tours(closed=True), st.data())
@settings(max_examples=30, deadline=None)
def test_verify_closed_tours(case, data):
    board, tour = case
    assert check(board, tour, closed=True)
    k = data.draw(st.integers(1, len(tour) - 1))
    assert check(board, tour[k:] + tour[:k], closed=True)  # any rotation of a cycle


@given(tours(), st.data())
@settings(max_examples=150, deadline=None)
def test_verify_rejects_mutations(case, data):
    board, tour = case
    n = len(tour)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1).filter(lambda x: x != i))
    swapped = tour.copy()
    swapped[i], swapped[j] = swapped[j], swapped[i]
    check(board, swapped)  # occasionally still a tour; check() asks the oracle

    dropped = tour[:i] + tour[i + 1 :]
    assert not check(board, dropped)

    repeated = tour.copy()
    repeated[i] = tour[j]
    assert not check(board, repeated)

    extended = [*tour, tour[i]]
    assert not check(board, extended)

    if i > 0:
        prev = tour[i - 1]
        bad = [s for s in range(n) if s != tour[i] and not board.is_knight_move(prev, s)]
        wrong = tour.copy()
        wrong[i] = data.draw(st.sampled_from(bad))
        result = check(board, wrong)
        assert result.index == i
        assert result.problem == (
            f"move {i} ({board.name(prev)} -> {board.name(wrong[i])}) is not a knight move"
        )


@given(tours(), st.data())
@settings(max_examples=40, deadline=None)
def test_verify_with_blocked_squares(case, data):
    board, tour = case
    k = data.draw(st.integers(1, len(tour) - 1))
    holed = Board(board.rows, board.cols, blocked=tour[k:])
    assert check(holed, tour[:k])
    result = check(holed, tour)
    assert result.index == k
    assert result.problem == f"step {k + 1} ({holed.name(tour[k])}) is a blocked square"


def test_verify_messages():
    board = Board(5, 5)
    tour = list(found_tour(5, 5, 0))
    assert verify(board, []) == TourCheck(False, "the tour is empty", None)
    assert verify(board, [0, 1]).problem == "move 1 (a5 -> b5) is not a knight move"
    assert verify(board, [0, 7, 0]).problem == "step 3 (a5) repeats step 1"
    assert verify(board, [0, 25]).problem == "step 2 (square 25) is off the 5x5 board"
    assert verify(board, [0, "b4"]).problem == "step 2 ('b4') is not a square number"
    assert verify(board, [0, True]).problem == "step 2 (True) is not a square number"
    assert verify(board, tour[:-1]).problem == (
        f"the tour visits 24 of 25 squares; {board.name(tour[-1])} is never visited"
    )
    assert verify(board, tour, closed=True).problem.startswith("the closing move (")
    assert verify(Board(1, 1), [0])
    assert verify(Board(1, 1), [0], closed=True).problem == (
        "a closed tour needs a move back to the start; one square has none"
    )
    wide = Board(3, 30)
    assert verify(wide, [0, 1]).problem == "move 1 (0,0 -> 0,1) is not a knight move"
