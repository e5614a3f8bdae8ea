"""The editor's verdict against an independent brute force, and each named obstacle."""

from __future__ import annotations

import functools
import random

import pytest

from server.engine.shape import Puzzle, Shape, parse_puzzle
from server.engine.verdict import decide
from tests.tourcheck import assert_tour

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def brute_force(rows, cols, holes, closed, start):
    """Whether a tour exists: plain DFS over every start and move, memo of failed states.

    Shares nothing with server.engine; meant for up to about 16 open squares.
    """
    open_sq = [s for s in range(rows * cols) if s not in holes]
    index = {s: i for i, s in enumerate(open_sq)}
    nbrs = []
    for s in open_sq:
        r, c = divmod(s, cols)
        mask = 0
        for dr, dc in KNIGHT:
            t = (r + dr) * cols + (c + dc)
            if 0 <= r + dr < rows and 0 <= c + dc < cols and t in index:
                mask |= 1 << index[t]
        nbrs.append(mask)
    full = (1 << len(open_sq)) - 1

    @functools.cache
    def go(seen, cur, first):
        if seen == full:
            return not closed or bool(nbrs[cur] >> first & 1)
        free = nbrs[cur] & ~seen
        while free:
            low = free & -free
            nxt = low.bit_length() - 1
            if go(seen | low, nxt, first):
                return True
            free ^= low
        return False

    if closed and len(open_sq) < 3:
        return False
    starts = [index[start]] if start is not None else range(len(open_sq))
    return any(go(1 << i, i, i) for i in starts)


def _random_puzzles(count, seed):
    rng = random.Random(seed)
    made = 0
    while made < count:
        rows, cols = rng.randint(3, 5), rng.randint(3, 5)
        area = rows * cols
        holes = frozenset(rng.sample(range(area), area - rng.randint(min(6, area), min(16, area))))
        shape = Shape(rows, cols, holes)
        free = sorted(set(range(area)) - holes)
        start = rng.choice([None, rng.choice(free)])
        made += 1
        yield Puzzle(shape, rng.random() < 0.4, start)


@pytest.mark.parametrize("seed", range(4))
def test_verdicts_agree_with_brute_force_and_witnesses_are_tours(seed):
    tours = 0
    for puzzle in _random_puzzles(150, seed):
        shape = puzzle.shape
        verdict = decide(puzzle, time_limit=30)
        truth = brute_force(shape.rows, shape.cols, shape.holes, puzzle.closed, puzzle.start)
        assert verdict.tour is truth, (puzzle.code, verdict)
        if truth:
            tours += 1
            assert_tour(
                shape.rows,
                shape.cols,
                list(verdict.witness),
                closed=puzzle.closed,
                start=puzzle.start,
                blocked=shape.holes,
            )
        else:
            assert verdict.code and verdict.reason
    assert 0 < tours < 150  # the sample holds both answers


@pytest.mark.parametrize(
    ("text", "code", "names"),
    [
        ("3x3.o", "unreachable", ["b2"]),
        ("3x3:b2.c", None, []),
        ("4x10:e1,e2,e3,e4,f1,f2,f3,f4.o", "split", None),
        ("5x5.c", "colour", None),
        ("5x5.o.b1", "start-colour", ["b1"]),
        ("4x4.o", "theory", []),
        ("6x6:a1,f6.o", "colour", None),
        ("3x4:a1.c", "dead-ends", None),
    ],
)
def test_named_obstacles(text, code, names):
    puzzle = parse_puzzle(text)
    verdict = decide(puzzle)
    assert verdict.code == code, verdict
    if puzzle.shape.size <= 16:
        truth = brute_force(
            puzzle.shape.rows, puzzle.shape.cols, puzzle.shape.holes, puzzle.closed, puzzle.start
        )
        assert verdict.tour is truth
    else:
        assert verdict.tour is (code is None)
    if names is not None:
        assert verdict.as_json(puzzle.shape.board)["names"] == names


def test_a_big_shape_with_a_tour_gets_a_checked_witness():
    rng = random.Random(7)
    holes = frozenset(rng.sample(range(144), 14))
    puzzle = Puzzle(Shape(12, 12, holes), False, None)
    verdict = decide(puzzle, time_limit=30)
    if verdict.tour:
        assert_tour(12, 12, list(verdict.witness), blocked=holes)
    else:
        assert verdict.code in ("unreachable", "split", "dead-ends", "colour", "exhausted")
