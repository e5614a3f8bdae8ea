"""A level's difficulty (server/levels/difficulty.py) checked by means of its own.

The stored figures were written by ``measure()`` and tests/levels/test_catalogue.py
compares them with ``measure()``: a fault in the measure at build time would pass.  Here
the smallest levels are measured again with an exhaustive search written in this file
(sharing nothing with server.engine) as the judge of dead and live moves, and the measure
is run on shapes whose figures are worked out by hand.
"""

from __future__ import annotations

import functools
import random

import pytest

from server.engine.shape import Puzzle, parse_puzzle
from server.levels.catalogue import catalogue
from server.levels.difficulty import Undecided, measure
from tests.levels.test_catalogue import RAW

# The articles' move order as (drow, dcol): a playout draws among the live moves in this
# order (server/engine/board.py keeps it), so the seeded choices here are the measure's.
MOVES = ((-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2))
# the levels an exhaustive search settles in a second or two: free and fixed starts, a hole
SMALL_LEVELS = (
    "step-3x4",
    "step-3x7",
    "step-4x5",
    "fix-4x5-a1",
    "fix-3x8-d2",
    "fix-5x5-c3",
    "hole-donut",
)


def measured_by_search(puzzle: Puzzle, playouts: int, seed: str) -> tuple[float, float]:
    """(warnings, trap share) as docs/levels.md defines them, every move judged by an
    exhaustive search over the squares left (remembering the positions it settled)."""
    shape = puzzle.shape
    rows, cols = shape.rows, shape.cols
    squares = [sq for sq in range(rows * cols) if sq not in shape.holes]
    bit = {sq: 1 << i for i, sq in enumerate(squares)}
    near = {}
    for sq in squares:
        r, c = divmod(sq, cols)
        targets = (
            (r + dr) * cols + c + dc
            for dr, dc in MOVES
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        near[sq] = [t for t in targets if t in bit]
    everything = (1 << len(squares)) - 1

    @functools.cache
    def completes(seen: int, here: int, first: int) -> bool:
        if seen == everything:
            return not puzzle.closed or first in near[here]
        return any(completes(seen | bit[n], n, first) for n in near[here] if not seen & bit[n])

    rng = random.Random(f"{seed}:{puzzle.code}")
    total, dead, legal = 0.0, 0, 0
    for _ in range(playouts):
        path, seen = [], 0
        while len(path) < len(squares):
            if path:
                choices = [n for n in near[path[-1]] if not seen & bit[n]]
            else:
                choices = [puzzle.start] if puzzle.start is not None else squares
            live = [sq for sq in choices if completes(seen | bit[sq], sq, (path or [sq])[0])]
            total += (len(choices) - len(live)) / len(choices)
            dead, legal = dead + len(choices) - len(live), legal + len(choices)
            path.append(rng.choice(live))
            seen |= bit[path[-1]]
    return round(total / playouts, 3), round(dead / legal, 3)


@pytest.mark.parametrize("level_id", SMALL_LEVELS)
def test_the_stored_difficulty_is_what_an_exhaustive_search_measures(level_id):
    level = catalogue().get(level_id)
    found = measured_by_search(level.puzzle, RAW["measure"]["playouts"], RAW["measure"]["seed"])
    assert found == (level.difficulty, level.trap_share)


# 3x3 without its centre is one knight's loop of 8 squares; without a corner (a3) too it is
# a path of 7: c2 - a1 - b3 - c1 - a2 - c3 - b1, with ends c2 and b1.
PATH_OF_SEVEN = "3x3:b2,a3.o"


def test_a_path_of_seven_squares_traps_the_first_choice_only():
    """Placing the knight, 5 of the 7 squares are traps (only the two ends start a tour);
    after that each position has one move, a live one: 5/7 warnings per tour, and 5 dead
    moves among the 7 + 6 legal ones."""
    found = measure(parse_puzzle(PATH_OF_SEVEN), playouts=6, seed="by hand")
    assert (found.warnings, found.trap_share, found.positions) == (0.714, 0.385, 6 * 7)


@pytest.mark.parametrize("code", ["3x3:b2.o", "3x3:b2.c", "3x3:b2,a3.o.c2"])
def test_no_trap_on_a_loop_or_from_the_end_of_a_path(code):
    """On the 8-square loop every start and every move keeps a tour possible; from an end
    of the path of seven there is one move each time."""
    found = measure(parse_puzzle(code), playouts=4, seed="by hand")
    assert (found.warnings, found.trap_share) == (0.0, 0.0)


def test_a_start_with_no_tour_is_refused():
    """From c1, the middle of the path of seven, no tour exists: no playout can finish."""
    with pytest.raises(Undecided, match="dead position"):
        measure(parse_puzzle("3x3:b2,a3.o.c1"), playouts=1)


def test_the_search_agrees_with_the_hand_on_the_path_of_seven():
    assert measured_by_search(parse_puzzle(PATH_OF_SEVEN), 6, "by hand") == (0.714, 0.385)
