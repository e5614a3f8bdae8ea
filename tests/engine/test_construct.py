"""The fast constructions: every tour they return is checked independently.

Existence is restated here from the published results (tour-theory notes), so
the tests do not trust the engine's own verdicts.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.board import BoardError
from server.engine.construct import NoTourError, construct_tour
from server.engine.theory import tour_verdict
from tests.tourcheck import assert_tour


def closed_exists(rows, cols):
    m, n = sorted((rows, cols))
    return not (m % 2 and n % 2) and m not in (1, 2, 4) and not (m == 3 and n in (4, 6, 8))


def open_from(rows, cols, start):
    """Whether an open tour starts at ``start`` (Conrad et al.; exhaustive on small boards)."""
    r, c = divmod(start, cols)
    m, n = rows, cols
    if m > n:
        m, n, r, c = n, m, c, r
    if m == 1:
        return n == 1
    if m == 2 or (m == 3 and n in (3, 5, 6)) or (m, n) == (4, 4):
        return False
    if m == 3 and n == 4:
        return c in (0, 3)
    if m == 3 and n == 7:
        return (r + c) % 2 == 0 and (r, c) != (1, 3)
    if m == 3 and n == 8:
        return (r, c) not in ((1, 2), (1, 5))
    if m == 4:
        return r in (0, 3)
    if m % 2 and n % 2:
        return (r + c) % 2 == 0
    return True


def check(rows, cols, start, closed=False):
    """The construction's answer agrees with theory, and any tour is a tour."""
    exists = closed_exists(rows, cols) if closed else open_from(rows, cols, start)
    if not exists:
        with pytest.raises(NoTourError) as info:
            construct_tour(rows, cols, start, closed=closed)
        assert "\n" not in str(info.value) and str(info.value)
        return None
    tour = construct_tour(rows, cols, start, closed=closed)
    assert_tour(rows, cols, tour, closed=closed, start=start)
    return tour


def some_starts(rows, cols, rng):
    corners = {0, cols - 1, (rows - 1) * cols, rows * cols - 1}
    majority = [s for s in range(rows * cols) if sum(divmod(s, cols)) % 2 == 0]
    centre = (rows // 2) * cols + cols // 2
    return sorted(corners | {rng.choice(majority), rng.randrange(rows * cols), centre})


@pytest.mark.parametrize("rows", range(1, 21))
def test_every_size_up_to_20_closed_and_open(rows):
    rng = random.Random(rows)
    for cols in range(1, 21):
        check(rows, cols, 0, closed=True)
        check(rows, cols, rng.randrange(rows * cols), closed=True)
        for start in some_starts(rows, cols, rng):
            check(rows, cols, start)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        *[(3, 4), (3, 7), (3, 8), (3, 9), (3, 10), (3, 11), (3, 13), (4, 5), (4, 6), (4, 9)],
        *[(5, 5), (5, 7), (7, 7), (9, 3), (7, 4), (5, 6), (6, 6), (7, 9)],
    ],
)
def test_every_start_on_small_exceptional_boards(rows, cols):
    for start in range(rows * cols):
        check(rows, cols, start)


@pytest.mark.parametrize("rows", [3, 4])
def test_every_start_on_thin_boards(rows):
    """The lane construction, over lengths that cover every window layout."""
    for cols in range(10, 34):
        for start in range(rows * cols):
            check(rows, cols, start)
        check(rows, cols, 0, closed=True)


def test_every_majority_start_on_odd_boards():
    """The cycle-minus-the-start construction, one block shape after another."""
    for rows, cols in [(9, 9), (9, 11), (11, 13), (13, 13), (5, 15), (15, 7), (17, 19)]:
        for start in range(0, rows * cols, 2 if cols % 2 else 1):
            check(rows, cols, start)


@pytest.mark.parametrize(
    ("rows", "cols", "start", "closed"),
    [
        (100, 101, 0, True),
        (100, 101, 5_050, False),
        (99, 99, 0, False),
        (99, 99, 49 * 99 + 49, False),
        (99, 99, 98 * 99 + 2, False),
        (3, 1000, 0, True),
        (3, 1000, 1_500, False),
        (3, 999, 500, False),
        (999, 3, 1_500, False),
        (4, 999, 3 * 999 + 500, False),
        (4, 1000, 617, False),
        (1000, 4, 2, False),
        (1000, 5, 2_501, True),
        (1000, 5, 2_501, False),
        (5, 999, 998, False),
        (7, 333, 3 * 333 + 101, False),
    ],
)
def test_large_boards(rows, cols, start, closed):
    check(rows, cols, start, closed=closed)


def test_a_1000x1000_closed_tour():
    tour = construct_tour(1000, 1000, 123_456, closed=True)
    assert_tour(1000, 1000, tour, closed=True, start=123_456)


@st.composite
def boards_and_starts(draw):
    rows = draw(st.integers(1, 60))
    cols = draw(st.integers(1, 60))
    start = draw(st.integers(0, rows * cols - 1))
    return rows, cols, start, draw(st.booleans())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(boards_and_starts())
def test_random_sizes_and_starts(case):
    rows, cols, start, closed = case
    check(rows, cols, start, closed=closed)


def test_impossible_requests_say_why():
    for rows, cols, start, closed in [
        (1, 1, 0, True),
        (2, 50, 0, False),
        (1, 7, 0, False),
        (3, 3, 0, False),
        (3, 5, 0, False),
        (6, 3, 0, False),
        (4, 4, 0, False),
        (4, 40, 40, False),
        (5, 5, 1, False),
        (3, 7, 10, False),
        (3, 8, 10, False),
        (4, 200, 0, True),
        (7, 7, 0, True),
        (3, 8, 0, True),
        (999, 999, 1, False),
    ]:
        with pytest.raises(NoTourError) as caught:
            construct_tour(rows, cols, start, closed=closed)
        reason = tour_verdict(rows, cols, closed=closed, start=start).reason
        assert reason and str(caught.value) == reason
    assert issubclass(NoTourError, ValueError)


@pytest.mark.parametrize(
    ("rows", "cols", "start"),
    [(0, 5, 0), (5, 1001, 0), (True, 5, 0), (5, 5, 25), (5, 5, -1), (8, 8, 1.5)],
)
def test_bad_boards_and_starts_raise_board_error(rows, cols, start):
    with pytest.raises(BoardError):
        construct_tour(rows, cols, start)


def test_output_is_deterministic():
    for rows, cols, start in [(8, 8, 0), (99, 99, 4_900), (4, 50, 27), (3, 51, 52)]:
        assert construct_tour(rows, cols, start) == construct_tour(rows, cols, start)


def test_one_square_board():
    assert construct_tour(1, 1) == [0]
