"""server.engine.questions: every kind at 1,000 positions, each answer computed again apart.

The positions are points of real searches (the compiled core's streams, on boards 5x5 to
8x8, the lesson's orderings and the articles', open and closed), replayed here by this
module's own path keeping.  Each answer is checked against something the question
module does not use: the Python engine's search replayed (next, backtrack, frame, and
Warnsdorff's own first choice for pick), counts over this module's knight table (onward,
pick), the exhaustive search of tests/engine/exhaustive.py with the witness through
tests/tourcheck.py (possible), and for obstacle a brute force that finds no tour plus
this module's own test of the named obstacle and of every obstacle checked before it.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from server.engine import native
from server.engine.board import Board
from server.engine.questions import KINDS, MORE, OBSTACLES, first
from server.engine.search import search_events
from tests.engine import exhaustive
from tests.engine.steps import first_steps
from tests.support.bruteforce import brute_force
from tests.support.shapes import random_puzzles
from tests.tourcheck import assert_tour

POSITIONS = 1000  # questions per kind
EVENTS = 6000  # events of each search the positions are taken from
WINDOW = 120  # events a question may read past its position
# the articles' move order (drow, dcol), written out here rather than read from the engine
SEED_ORDER = ((-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2))
SEARCHES = [
    # rows, cols, ordering, closed, start (row, col)
    (5, 5, "seed", False, (0, 0)),
    (5, 5, "warnsdorff", False, (2, 2)),
    (5, 6, "seed", False, (4, 5)),
    (6, 6, "seed", False, (0, 0)),
    (6, 6, "seed", True, (0, 0)),
    (6, 6, "warnsdorff", True, (1, 2)),
    (6, 6, "a000-java", False, (0, 0)),
    (6, 6, "a001-python-fixed", False, (2, 3)),
    (7, 7, "seed", False, (3, 3)),
    (8, 8, "seed", False, (0, 0)),
    (8, 8, "warnsdorff", False, (7, 7)),
    (8, 8, "seed", True, (0, 0)),
]
SMALL = [s for s in SEARCHES if s[0] * s[1] <= 36]  # the exhaustive search's reach


def neighbours(rows: int, cols: int, square: int) -> list[int]:
    """This module's knight moves, in the articles' order."""
    r, c = divmod(square, cols)
    return [
        (r + dr) * cols + c + dc
        for dr, dc in SEED_ORDER
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


@cache
def stream(search) -> tuple[list, list[tuple[int, ...]], bool]:
    """The search's first steps (moves and backtracks), the path before each index
    (replayed here), and whether the steps run to the search's end."""
    rows, cols, ordering, closed, (r, c) = search
    board = Board(rows, cols)
    steps, ended = first_steps(board, r * cols + c, EVENTS, ordering=ordering, closed=closed)
    paths, path = [], []
    for event in steps:
        paths.append(tuple(path))
        if event.kind == "move":
            path.append(event.square)
        else:
            assert path[-1] == event.square
            path.pop()
    paths.append(tuple(path))
    return steps, paths, ended


@cache
def replayed(search) -> list[tuple[str, int]]:
    """The same search again on the Python engine: (kind, square) per step."""
    rows, cols, ordering, closed, (r, c) = search
    with native.use("python"):
        board = Board(rows, cols)
        steps, _ = first_steps(board, r * cols + c, EVENTS, ordering=ordering, closed=closed)
    return [(event.kind, event.square) for event in steps]


def positions(kind: str, searches=SEARCHES):
    """(search, index, placed) for POSITIONS questions of ``kind`` at random points."""
    rng = random.Random(f"questions:{kind}")
    made = tries = 0
    while made < POSITIONS:
        tries += 1
        assert tries < 4 * POSITIONS, f"{kind}: too few positions take the question"
        search = searches[tries % len(searches)]
        rows, cols, _ordering, closed, _start = search
        steps, paths, ended = stream(search)
        index = rng.randrange(len(steps))
        window = steps[index : index + WINDOW]
        placed = first(
            kind,
            Board(rows, cols),
            paths[index],
            window,
            closed=closed,
            ended=ended and index + WINDOW >= len(steps),
            rng=rng,
        )
        if placed is None or placed is MORE:
            continue
        made += 1
        assert placed.path == paths[index + placed.offset]
        assert 0 <= placed.question.answer < placed.question.values
        assert placed.question.kind == kind
        yield search, index + placed.offset, placed


def test_next_is_the_move_the_replayed_search_makes():
    for search, at, placed in positions("next"):
        kind, square = replayed(search)[at]
        assert kind == "move" and square == placed.question.answer
        why = placed.question.why
        assert why["candidates"][why["tried"]] == square
        assert why["from"] == placed.path[-1]
        rows, cols = search[:2]
        assert set(why["candidates"]) <= set(neighbours(rows, cols, placed.path[-1]))


def test_onward_counts_the_unvisited_neighbours_of_its_square():
    for search, _at, placed in positions("onward"):
        rows, cols = search[:2]
        square = placed.question.subject["square"]
        path = set(placed.path)
        assert square in neighbours(rows, cols, placed.path[-1]) and square not in path
        onward = [n for n in neighbours(rows, cols, square) if n not in path]
        assert placed.question.answer == len(onward)
        assert sorted(placed.question.why["onward"]) == sorted(onward)


def test_pick_is_warnsdorffs_choice_as_counted_here_and_as_the_engine_makes_it():
    ties = 0
    for search, _at, placed in positions("pick"):
        rows, cols = search[:2]
        path = set(placed.path)
        candidates = [n for n in neighbours(rows, cols, placed.path[-1]) if n not in path]
        counts = [len([m for m in neighbours(rows, cols, c) if m not in path]) for c in candidates]
        best = min(counts)
        pick = candidates[counts.index(best)]  # ties: the first in the move order
        assert placed.question.answer == pick
        tied = [c for c, n in zip(candidates, counts, strict=True) if n == best]
        assert placed.question.why["tied"] == tied
        ties += counts.count(best) > 1
        # the engine's own Warnsdorff search from this path tries the same square first
        board = Board(rows, cols)
        events = search_events(
            board, placed.path[0], ordering="warnsdorff", prefix=placed.path, node_budget=3
        )
        move = next(e for e in events if e.kind == "move" and e.candidates)
        assert move.candidates[0] == pick
    assert ties > POSITIONS // 2, "a pick is asked where a tie is broken when one is near"


def backtracks_after(search, at: int) -> tuple[int, str | None, int | None]:
    """The replayed search from step ``at``: backtracks before its next move, and that move."""
    steps = replayed(search)
    k = 0
    while at + k < len(steps) and steps[at + k][0] == "backtrack":
        k += 1
    nxt = steps[at + k] if at + k < len(steps) else (None, None)
    return k, *nxt


def test_backtrack_counts_the_steps_back_of_the_replayed_search():
    backs = 0
    for search, at, placed in positions("backtrack"):
        steps, kind, square = backtracks_after(search, at)
        assert placed.question.answer == steps
        assert placed.question.why["left"] == list(reversed(placed.path))[:steps]
        if kind is not None:
            assert placed.question.why["next"] == square
        backs += steps > 0
    assert backs > POSITIONS // 10, "some positions step back"


def test_frame_is_the_square_the_replayed_search_moves_on_from():
    for search, at, placed in positions("frame"):
        rows, cols = search[:2]
        steps, kind, square = backtracks_after(search, at)
        assert steps >= 1 and kind == "move"
        frame = placed.path[len(placed.path) - 1 - steps]
        assert placed.question.answer == frame
        assert square in neighbours(rows, cols, frame)
        assert placed.question.why["depth"] == len(placed.path) - steps


def test_possible_agrees_with_the_exhaustive_search_and_its_witness_is_a_tour():
    answers = {0: 0, 1: 0}
    for search, _at, placed in positions("possible", SMALL):
        rows, cols, _ordering, closed, _start = search
        rest = exhaustive.completion(rows, cols, list(placed.path), closed=closed)
        assert placed.question.answer == (rest is not None), placed.path
        answers[placed.question.answer] += 1
        witness = placed.question.why["witness"]
        if placed.question.answer:
            tour = list(placed.path) + witness
            if closed and len(tour) > rows * cols:
                tour = tour[:-1]  # the jump back onto the start
            assert_tour(rows, cols, tour, closed=closed, start=placed.path[0])
        else:
            assert witness is None and placed.question.why["code"]
    assert min(answers.values()) > POSITIONS // 10, answers


# -- obstacle: this module's own tests of each named obstacle, in the verdict's order ----


def _open_squares(puzzle):
    shape = puzzle.shape
    return [s for s in range(shape.rows * shape.cols) if s not in shape.holes]


def _degree(puzzle, square) -> int:
    shape = puzzle.shape
    return len([n for n in neighbours(shape.rows, shape.cols, square) if n not in shape.holes])


def _pieces(puzzle) -> int:
    shape = puzzle.shape
    todo, pieces = set(_open_squares(puzzle)), 0
    while todo:
        pieces += 1
        stack = [todo.pop()]
        while stack:
            for n in neighbours(shape.rows, shape.cols, stack.pop()):
                if n in todo:
                    todo.remove(n)
                    stack.append(n)
    return pieces


def _colours(puzzle) -> tuple[int, int]:
    """(light, dark) open squares; a1 (bottom left) is dark."""
    cols, rows = puzzle.shape.cols, puzzle.shape.rows
    dark = [s for s in _open_squares(puzzle) if (s // cols + s % cols) % 2 == (rows - 1) % 2]
    return len(_open_squares(puzzle)) - len(dark), len(dark)


def obstacle_holds(code: str, puzzle) -> bool:
    """Whether the named obstacle is true of the puzzle, by this module's own counting."""
    squares = _open_squares(puzzle)
    if code == "unreachable":
        return any(_degree(puzzle, s) == 0 for s in squares)
    if code == "split":
        return _pieces(puzzle) > 1
    if code == "dead-ends":
        ones = [s for s in squares if _degree(puzzle, s) == 1]
        ends = 2 if puzzle.start is None else 1 + (puzzle.start in ones)
        allowed = 0 if puzzle.closed else ends
        return len(ones) > allowed
    light, dark = _colours(puzzle)
    if code == "colour":
        return (puzzle.closed and light != dark) or abs(light - dark) > 1
    if code == "start-colour":
        if light == dark:
            return False
        cols, rows = puzzle.shape.cols, puzzle.shape.rows
        start_dark = (puzzle.start // cols + puzzle.start % cols) % 2 == (rows - 1) % 2
        return start_dark != (dark > light)
    if code == "theory":
        return not puzzle.shape.holes  # a plain rectangle: theory is its only verdict
    return True  # exhausted: proved by the search, and by brute force below


def test_obstacle_is_the_first_named_reason_and_no_tour_exists():
    made, seen = 0, set()
    for puzzle in random_puzzles(40 * POSITIONS, seed="questions", min_side=3, max_side=5):
        if puzzle.start is None or len(_open_squares(puzzle)) > 20:
            continue
        shape = puzzle.shape
        board = Board(shape.rows, shape.cols, shape.holes)
        placed = first("obstacle", board, [puzzle.start], [], closed=puzzle.closed)
        tour = brute_force(shape.rows, shape.cols, shape.holes, puzzle.closed, puzzle.start)
        if placed is None:
            continue  # a tour exists (or a one-square board): checked by the verdict's tests
        assert not tour, puzzle
        code = OBSTACLES[placed.question.answer]
        assert placed.question.why["code"] == code
        assert obstacle_holds(code, puzzle), (puzzle, code)
        for earlier in OBSTACLES[: OBSTACLES.index(code)]:
            assert not obstacle_holds(earlier, puzzle), (puzzle, code, earlier)
        seen.add(code)
        made += 1
        if made == POSITIONS:
            break
    assert made == POSITIONS
    assert seen >= {"unreachable", "split", "dead-ends", "colour", "exhausted"}, seen


@pytest.mark.parametrize("kind", KINDS)
def test_no_question_without_a_knight_but_the_boards_own(kind):
    board = Board(5, 5)
    events = list(search_events(board, 0))[:10]
    placed = first(kind, board, [], events, ended=False)
    if kind == "obstacle":
        assert placed is None  # 5x5 from its corner has a tour
    elif placed is not None and placed is not MORE:
        assert placed.offset >= 1 and placed.path
