"""The editor's verdict against an independent brute force, and each named obstacle."""

from __future__ import annotations

import random

import pytest

from server.engine.shape import Puzzle, Shape, parse_puzzle
from server.engine.verdict import decide
from tests.support.bruteforce import brute_force
from tests.support.shapes import random_puzzles
from tests.tourcheck import assert_tour
from tests.witness import assert_puzzle_tour


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
            assert_puzzle_tour(puzzle, verdict.witness)
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


def test_the_bench_sample_is_decided_and_its_small_shapes_agree_with_brute_force():
    """`make bench`'s 1,000 shapes up to 12x12: every one decided (no ``time`` given a
    generous limit), every witness a tour, and those of up to 16 open squares (exhaustive
    search's reach) exactly as the brute force says."""
    checked = 0
    for puzzle in random_puzzles():
        shape = puzzle.shape
        verdict = decide(puzzle, time_limit=60)
        assert verdict.tour is not None, puzzle.code
        if verdict.tour:
            assert_puzzle_tour(puzzle, verdict.witness)
        else:
            assert verdict.code and verdict.reason, puzzle.code
        if shape.size <= 16:
            checked += 1
            truth = brute_force(shape.rows, shape.cols, shape.holes, puzzle.closed, puzzle.start)
            assert verdict.tour is truth, (puzzle.code, verdict)
    assert checked >= 10  # the sample holds small shapes
