"""Hints are exact: they agree with a plain exhaustive search and their witnesses are tours."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import server.engine.hints as hints_module
from server.engine.board import Board, BoardError
from server.engine.hints import Hint, hint, start_candidates
from tests.engine.exhaustive import completion
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.usefixtures("engine")  # each test runs on both engines

CODES = {
    "parity",
    "stuck",
    "no-return",
    "unreachable",
    "dead-end",
    "trap",
    "two-ends",
    "split",
    "degrees",
    "loop",
    "forced",
    "exhausted",
}
SMALL = [(5, 5), (5, 6), (6, 6), (4, 5), (3, 4), (3, 7), (4, 6), (3, 8), (4, 7)]


def walk(board: Board, rng: random.Random, greedy: float = 0.6) -> list[int]:
    """A random partial tour; ``greedy`` of the moves follow Warnsdorff, so many can finish."""
    path = [rng.randrange(board.area)]
    seen = set(path)
    for _ in range(rng.randint(0, board.area)):
        moves = [n for n in board.neighbours[path[-1]] if n not in seen]
        if not moves:
            break
        if rng.random() < greedy:
            onward = lambda n: sum(m not in seen for m in board.neighbours[n])  # noqa: E731
            best = min(map(onward, moves))
            moves = [n for n in moves if onward(n) == best]
        path.append(rng.choice(moves))
        seen.add(path[-1])
    return path


def drawn_path(board: Board, start: int, choices: list[int]) -> list[int]:
    """A partial tour drawn by hypothesis: each choice picks one of the unvisited moves, until
    the choices or the moves run out."""
    path = [start % board.area]
    for c in choices:
        moves = [n for n in board.neighbours[path[-1]] if n not in path]
        if not moves:
            break
        path.append(moves[c % len(moves)])
    return path


def check(board: Board, path: list[int], closed: bool, h: Hint) -> None:
    """The hint against the exhaustive ground truth (boards without blocked squares)."""
    truth = completion(board.rows, board.cols, path, closed=closed)
    assert h.verdict in ("completable", "dead"), h
    assert (h.verdict == "completable") == (truth is not None), (path, closed, h)
    if h.verdict == "completable":
        assert h.next == (h.witness[0] if h.witness else (path[0] if closed else None))
        assert_tour(board.rows, board.cols, path + list(h.witness), closed=closed)
        assert h.code is None
    else:
        assert h.next is None and h.witness is None
        assert h.code in CODES and h.reason


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("seed", range(3))
def test_agrees_with_exhaustive_search(seed, closed):
    rng = random.Random(seed * 2 + closed)
    for _ in range(150):
        board = Board(*rng.choice(SMALL))
        path = walk(board, rng)
        check(board, path, closed, hint(board, path, closed=closed, time_limit=30))


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_strong_checks_inside_the_search_stay_exact(strong_checks, closed):
    """Force the costly in-search tests and tiny restarts on, so they run on small boards."""
    rng = random.Random(100 + closed)
    for _ in range(250):
        board = Board(*rng.choice(SMALL))
        path = walk(board, rng)
        check(board, path, closed, hint(board, path, closed=closed, time_limit=30))


@settings(max_examples=60, deadline=None)
@given(
    dims=st.sampled_from([(5, 5), (5, 6), (6, 6), (4, 5)]),
    start=st.integers(0, 35),
    choices=st.lists(st.integers(0, 7), max_size=30),
    closed=st.booleans(),
)
def test_property_matches_ground_truth(dims, start, choices, closed):
    board = Board(*dims)
    path = drawn_path(board, start, choices)
    check(board, path, closed, hint(board, path, closed=closed, time_limit=30))


@pytest.mark.parametrize(
    "dims, start, closed",
    [((6, 6), "b1", True), ((6, 6), "a1", False), ((8, 8), "d4", False), ((8, 8), "b1", True)],
)
def test_following_hints_always_finishes_the_tour(dims, start, closed):
    board = Board(*dims)
    path = [board.parse_name(start)]
    while True:
        h = hint(board, path, closed=closed, time_limit=30)
        assert h.verdict == "completable", (path, h)
        if len(path) == board.size:
            assert h.witness == ()
            assert h.next == (path[0] if closed else None)
            break
        path.append(h.next)
    assert_tour(*dims, path, closed=closed, start=board.parse_name(start))


def test_finished_paths():
    board = Board(5, 6)
    tour = [0, *completion(5, 6, [0], closed=True)]
    assert hint(board, tour, closed=True) == Hint("completable", 0, (), None)
    assert hint(board, tour) == Hint("completable", None, (), None)
    open_tour = [0, *completion(5, 6, [0])]
    if not board.is_knight_move(open_tour[-1], 0):
        h = hint(board, open_tour, closed=True)
        assert (h.verdict, h.code) == ("dead", "no-return")
        assert h.params == {"start": "a5"}


@pytest.mark.parametrize(
    "dims, closed, verdict",
    [
        ((8, 8), False, "completable"),
        ((6, 6), True, "completable"),
        ((5, 5), False, "completable"),
        ((3, 4), False, "completable"),
        ((4, 4), False, "dead"),
        ((5, 5), True, "dead"),
        ((1, 1), False, "completable"),
        ((1, 1), True, "dead"),
    ],
)
def test_empty_path_recommends_a_start(dims, closed, verdict):
    board = Board(*dims)
    h = hint(board, [], closed=closed, time_limit=30)
    assert h.verdict == verdict
    if verdict == "completable":
        assert h.next == h.witness[0]
        assert h.next == next(s for s in start_candidates(board) if h.next == s)
        assert_tour(*dims, list(h.witness), closed=closed)
        r, c = divmod(h.next, board.cols)
        assert min(r, board.rows - 1 - r) + min(c, board.cols - 1 - c) <= 1  # corner-ish
    else:
        assert h.code == "no-tour"


def brute(board: Board, path: list[int], closed: bool) -> bool:
    """Plain DFS with a memo, for small boards with blocked squares."""
    return _brute(board, tuple(path), closed)


@functools.cache
def _brute(board: Board, path: tuple[int, ...], closed: bool) -> bool:
    """Cached: each test runs once per engine."""
    memo: dict = {}
    full = sum(1 << sq for sq in board.squares())

    def go(cur: int, seen: int) -> bool:
        if seen == full:
            return not closed or board.is_knight_move(cur, path[0])
        key = (cur, seen)
        if key not in memo:
            memo[key] = any(
                go(n, seen | 1 << n) for n in board.neighbours[cur] if not seen >> n & 1
            )
        return memo[key]

    return go(path[-1], sum(1 << sq for sq in path))


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_blocked_squares(closed):
    rng = random.Random(7 + closed)
    for _ in range(50):
        rows, cols = rng.choice([(4, 5), (5, 5), (4, 6), (3, 7)])
        blocked = rng.sample(range(rows * cols), rng.randint(1, 3))
        board = Board(rows, cols, blocked)
        free = list(board.squares())
        path = [rng.choice(free)]
        for _ in range(rng.randint(0, 10)):
            moves = [n for n in board.neighbours[path[-1]] if n not in path]
            if not moves:
                break
            path.append(rng.choice(moves))
        h = hint(board, path, closed=closed, time_limit=30)
        assert (h.verdict == "completable") == brute(board, path, closed), (board, path, h)
        if h.verdict == "completable":
            full = path + list(h.witness)
            assert_tour(rows, cols, full, closed=closed, blocked=board.blocked)


def test_bad_paths_raise_board_error():
    board = Board(8, 8, blocked=[63])
    a1 = board.parse_name("a1")
    for path, words in [
        ([a1, 64], "off"),
        ([a1, -1], "off"),
        ([True], "off"),
        ([63], "blocked"),
        ([a1, board.parse_name("b3"), a1], "twice"),
        ([a1, board.parse_name("a2")], "not a knight move"),
    ]:
        with pytest.raises(BoardError, match=words):
            hint(board, path)


def test_no_budget_gives_unknown_not_a_wrong_verdict():
    board = Board(8, 8)
    h = hint(board, [board.parse_name("d4")], time_limit=0)
    assert (h.verdict, h.code, h.next, h.witness) == ("unknown", "time", None, None)
    assert h.reason
    h = hint(board, [], closed=True, time_limit=0)
    assert h.verdict == "unknown"


def test_reasons_name_the_squares():
    board = Board(8, 8)
    n = board.parse_name
    # into the corner and out again: fine
    h = hint(board, [n("c2"), n("a1"), n("b3")])
    assert h.verdict == "completable"
    # both ways into a1 used up
    h = hint(board, [n("c2"), n("a3"), n("b1"), n("d2"), n("b3"), n("c5")], time_limit=10)
    assert (h.code, h.params) == ("unreachable", {"square": "a1"}), h
    assert h.reason == "a1 can no longer be reached"
    h = hint(board, [n("a1"), n("b3")], closed=True)
    assert h.verdict == "completable"
    path = [n(x) for x in ["a1", "c2", "e3", "d1", "b2", "d3", "c1", "b3", "a5"]]
    h = hint(board, path, closed=True)
    assert (h.code, h.params) == ("no-return", {"start": "a1"})
    assert h.reason == "no move back to the start (a1) is left"
    h = hint(Board(3, 3), [0])
    assert (h.code, h.params) == ("unreachable", {"square": "b2"})
    h = hint(Board(4, 4, blocked=[5]), [0])
    assert h.verdict == "dead"


def test_codes_cover_random_play():
    """Random play reaches many codes; each comes with a readable reason and params."""
    seen = set()
    rng = random.Random(3)
    for _ in range(300):
        board = Board(8, 8)
        path = walk(board, rng, greedy=0.2)
        for closed in (False, True):
            h = hint(board, path, closed=closed, time_limit=5)
            assert h.verdict != "unknown"
            if h.verdict == "dead":
                assert h.code in CODES and h.reason
                seen.add(h.code)
                for value in h.params.values():
                    if isinstance(value, str) and value[:1].isalpha():
                        assert value in h.reason
    assert {"unreachable", "two-ends", "stuck", "dead-end"} <= seen


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_backjump_drops_only_dead_states(closed):
    """Every frame the search jumps back over has no completion (the exhaustive truth)."""
    rng = random.Random(500 + closed)
    jumped = 0
    for _ in range(100):
        board = Board(*rng.choice([(5, 5), (5, 6), (4, 6), (4, 5)]))
        path = walk(board, rng, greedy=0.3)
        if len(path) < 3:
            continue
        g = hints_module._grid(board)
        start = g.to_bit[path[0]]
        search = hints_module._Search(g, start, closed, float("inf"))
        stack, free = [], g.valid
        for sq in path:
            free &= ~(1 << g.to_bit[sq])
            stack.append((free, g.to_bit[sq], iter(())))
        keep = search.backjump(stack)
        assert 1 <= keep <= len(stack)
        jumped += keep < len(stack)
        for i in range(keep, len(stack)):
            assert completion(board.rows, board.cols, path[: i + 1], closed=closed) is None
    assert jumped  # the test sees jumps at all


# Random-play positions of benchmarks/bench_hints.py's 20x20 corpus on which the
# completion search used to flounder for 0.1-1 s (an early slip, then a retreat
# through hundreds of squares, or many restarts' worth of thrashing near the end);
# on 632 a backjump's forced-move propagation once looped for ever (a square that
# gained a third forced edge after its check, then a chain walked round a cycle).
SLOW_20x20 = [(23, False), (60, False), (61, False), (23, True), (632, False)]


@pytest.mark.parametrize("index, closed", SLOW_20x20)
def test_formerly_slow_20x20_positions_get_a_witness(index, closed):
    from tests.support.positions import corpus

    board = Board(20, 20)
    path = corpus(20, 20, size=index + 1)[index]  # a prefix of the bench's corpus
    h = hint(board, path, closed=closed, time_limit=120)
    assert h.verdict == "completable", h
    assert h.next == h.witness[0]
    assert_tour(20, 20, path + list(h.witness), closed=closed)
