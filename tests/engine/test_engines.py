"""The compiled core against the Python reference: the same events, counts, tours and hints.

Every board up to 6x6, from every start, in every shape of the search (seed and
Warnsdorff, open and closed, with and without pruning) is compared event by event,
the first ``EVENTS`` events of each stream (most streams end well before: those are
compared whole); ``solve`` is compared on the same cases within a node budget.
Larger boards are compared by counts and tours.  The walker is compared state by
state, and its checkpoints are exchanged between the engines.  Every tour goes
through ``tests/tourcheck.py``.  No timing assertions.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import native
from server.engine.board import Board
from server.engine.hints import hint
from server.engine.search import BASE_ORDERINGS, PRUNINGS, search_events, solve
from tests.engine.conftest import ENGINES, require_core
from tests.engine.test_hints import SMALL, drawn_path, walk
from tests.engine.test_search import state_after
from tests.engine.test_walker import make
from tests.tourcheck import assert_tour

EVENTS = 1000  # events compared per stream on the small boards
SOLVE_BUDGET = 1000  # nodes per solve() on the small boards
SHAPES = [
    dict(ordering=ordering, closed=closed, pruning=pruning)
    for ordering, closed, pruning in itertools.product(
        BASE_ORDERINGS, (False, True), ((), PRUNINGS)
    )
]


@pytest.fixture(autouse=True)
def _core():
    require_core()


def on(engine: str, fn, *args, **kw):
    with native.use(engine):
        return fn(*args, **kw)


def stream(board, start, limit, **kw):
    return list(itertools.islice(search_events(board, start, **kw), limit))


def check_found(board, start, final, closed):
    if final.kind == "found":
        assert_tour(
            board.rows,
            board.cols,
            list(final.tour),
            closed=closed,
            start=start,
            blocked=board.blocked,
        )


def same_result(board, start, **kw):
    """solve() on both engines: the same outcome; returns the compiled one."""
    ref = on("python", solve, board, start, **kw)
    got = on("compiled", solve, board, start, **kw)
    assert (got.status, got.tour, got.nodes, got.backtracks, got.limit) == (
        ref.status,
        ref.tour,
        ref.nodes,
        ref.backtracks,
        ref.limit,
    ), (board, start, kw)
    if got.status == "found":
        closed = kw.get("closed", False)
        assert_tour(
            board.rows, board.cols, got.tour, closed=closed, start=start, blocked=board.blocked
        )
    return got


# -- the search, event by event ------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), list(itertools.product(range(1, 7), range(1, 7))))
def test_every_small_board_from_every_start_gives_the_same_events(rows, cols):
    board = Board(rows, cols)
    for start, shape in itertools.product(range(board.area), SHAPES):
        ref = on("python", stream, board, start, EVENTS, **shape)
        got = on("compiled", stream, board, start, EVENTS, **shape)
        assert got == ref, (rows, cols, start, shape)
        assert list(map(type, got)) == list(map(type, ref))
        if len(got) < EVENTS:  # the whole stream: it ended with its final event
            check_found(board, start, got[-1], shape["closed"])
        same_result(board, start, node_budget=SOLVE_BUDGET, **shape)


@pytest.mark.parametrize(
    "shape", SHAPES, ids=lambda s: f"{s['ordering']}-{s['closed']}-{bool(s['pruning'])}"
)
def test_budgets_prefixes_and_resumes_agree(shape):
    board = Board(5, 6)
    for start in (0, 7, 14):
        for budget in (0, 1, 2, 50, 777):
            ref = on("python", stream, board, start, 10**6, node_budget=budget, **shape)
            assert on("compiled", stream, board, start, 10**6, node_budget=budget, **shape) == ref
            same_result(board, start, node_budget=budget, **shape)
        events = on("python", stream, board, start, 3000, **shape)
        path = [start]  # a prefix along the stream, as a game would have played it
        for event in events[1:40]:
            if event.kind == "move":
                path.append(event.square)
            else:
                path.pop()
        kw = dict(prefix=path, node_budget=5000, **shape)
        ref = on("python", stream, board, start, 3000, **kw)
        assert on("compiled", stream, board, start, 3000, **kw) == ref
        same_result(board, start, **kw)
        for cut in range(1, len(events) - 1, 211):  # resumed from states along the stream
            resume = state_after(events, cut, start)
            ref = on("python", stream, board, start, 1000, resume=resume, **shape)
            assert on("compiled", stream, board, start, 1000, resume=resume, **shape) == ref


def test_time_limits_end_both_engines_alike():
    board = Board(8, 8)
    for engine in ENGINES:
        with native.use(engine):
            assert list(search_events(board, 0, time_limit=0))[-1].limit == "time"
            assert solve(board, 0, time_limit=0).limit == "time"
            assert solve(board, 0, ordering="warnsdorff", pruning=PRUNINGS, time_limit=0).nodes == 0
            slow = solve(board, 0, time_limit=0.02)  # 250 M nodes to go
            assert (slow.status, slow.limit) == ("budget", "time")


# -- larger boards: counts and tours -------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "kw"),
    [
        (7, 7, dict(ordering="warnsdorff", node_budget=20_000)),
        (8, 8, dict(ordering="warnsdorff", node_budget=20_000)),
        (8, 8, dict(ordering="warnsdorff", closed=True, node_budget=20_000)),
        (7, 8, dict(ordering="warnsdorff", pruning=PRUNINGS, node_budget=20_000)),
        (10, 10, dict(ordering="warnsdorff", closed=True, node_budget=20_000)),
        (7, 7, dict(node_budget=60_000)),
        (8, 8, dict(node_budget=60_000, closed=True)),
        (6, 7, dict(pruning=("dead-ends",), node_budget=30_000)),
        (7, 6, dict(pruning=("connectivity", "parity"), closed=True, node_budget=5_000)),
    ],
)
def test_larger_boards_give_the_same_counts_and_tours(rows, cols, kw):
    board = Board(rows, cols)
    starts = range(board.area) if kw.get("ordering") == "warnsdorff" else (0, 1, board.area // 2)
    for start in starts:
        same_result(board, start, **kw)


def test_the_lessons_6x6_stream_is_the_same_to_its_end():
    board = Board(6, 6)
    ref = on("python", stream, board, 0, 10**6)
    got = on("compiled", stream, board, 0, 10**6)
    assert len(got) == 354_061 and got == ref


def test_blocked_squares_and_deep_boards():
    holes = Board(5, 5, blocked={12, 3})
    for start in holes.squares():
        for shape in SHAPES:
            ref = on("python", stream, holes, start, 2000, **shape)
            assert on("compiled", stream, holes, start, 2000, **shape) == ref
    same_result(Board(40, 40), 0, ordering="warnsdorff", node_budget=5_000)
    same_result(Board(3, 40), 0, ordering="warnsdorff", pruning=PRUNINGS, node_budget=5_000)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 7),
    st.integers(1, 7),
    st.sets(st.integers(0, 48), max_size=6),
    st.sampled_from(SHAPES),
    st.integers(0, 48),
    st.integers(0, 3000),
)
def test_property_any_board_any_budget(rows, cols, blocked, shape, start, budget):
    blocked = {sq for sq in blocked if sq < rows * cols}
    start %= rows * cols
    blocked.discard(start)
    board = Board(rows, cols, blocked)
    ref = on("python", stream, board, start, 5000, node_budget=budget, **shape)
    assert on("compiled", stream, board, start, 5000, node_budget=budget, **shape) == ref
    same_result(board, start, node_budget=budget, **shape)


# -- the walker ----------------------------------------------------------------------------

WALKS = [
    (6, 6, 0, "seed", False, ()),
    (5, 5, 1, "seed", False, ()),
    (6, 6, 3, "seed", True, ()),
    (5, 6, 0, "warnsdorff", True, ()),
    (6, 5, 7, "seed", False, PRUNINGS),
    (5, 5, 12, "warnsdorff", False, ("dead-ends",)),
    (8, 8, 0, "seed", False, ()),
    (3, 3, 4, "seed", False, PRUNINGS),
]


def walker(engine, case, state=None):
    with native.use(engine):
        return make(*case, state=state)


def views(w):
    """Everything a viewer reads off a walker."""
    return (w.index, w.nodes, w.backtracks, w.max_depth, w.after, list(w.path), list(w.heat),
            w.chart.freeze(), w.end)  # fmt: skip


@pytest.mark.parametrize("case", WALKS, ids=str)
def test_walkers_keep_the_same_state_encoding_or_skipping(case):
    rng = random.Random(str(case))
    ref, got = walker("python", case), walker("compiled", case)
    steps = 0
    while ref.end is None and steps < 60:
        n = rng.choice([1, 2, 7, 300, 5000, 20_000])
        out_ref: list[int] | None = [] if rng.random() < 0.5 else None
        out_got = None if out_ref is None else []
        assert got.advance(n, out_got) == ref.advance(n, out_ref)
        assert out_got == out_ref
        assert views(got) == views(ref)
        assert got.state() == ref.state()
        steps += 1
    if ref.end is not None and ref.end.kind == "found":
        assert_tour(case[0], case[1], list(ref.end.tour), closed=case[4], start=case[2])


@pytest.mark.parametrize("case", WALKS, ids=str)
def test_checkpoints_cross_from_one_engine_to_the_other(case):
    whole = walker("python", case)
    whole.advance(40_000)
    for cut in (0, 1, 2, 3, 17, 999, 12_345, 39_999):
        first = walker("python", case)
        first.advance(cut)
        for there, back in (("compiled", "python"), ("python", "compiled")):
            half = (40_000 - cut) // 2
            moved = walker(there, case, state=first.state())
            moved.advance(half)  # skipped on one side...
            home = walker(back, case, state=moved.state())
            out: list[int] = []
            home.advance(40_000 - cut - half, out)  # ...and encoded on the other
            assert home.state() == whole.state(), (cut, there)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.sampled_from(BASE_ORDERINGS),
    st.booleans(),
    st.sampled_from([(), ("dead-ends",), PRUNINGS]),
    st.lists(st.tuples(st.integers(0, 3000), st.booleans()), min_size=1, max_size=8),
    st.data(),
)
def test_property_walkers_agree_under_any_batches(
    rows, cols, algorithm, closed, pruning, steps, data
):
    start = data.draw(st.integers(0, rows * cols - 1))
    case = (rows, cols, start, algorithm, closed, pruning)
    ref, got = walker("python", case), walker("compiled", case)
    for n, encode in steps:
        out_ref = [] if encode else None
        out_got = [] if encode else None
        assert got.advance(n, out_got) == ref.advance(n, out_ref)
        assert out_got == out_ref
    assert views(got) == views(ref)


def test_the_compiled_walker_skips_to_the_end_of_the_lesson_on_6x6():
    case = (6, 6, 0, "seed", False, ())
    got = walker("compiled", case)
    assert got.advance(10**9) == 354_060
    ref = walker("python", case)
    ref.advance(10**9)
    assert views(got) == views(ref)


# -- the stream's batches ------------------------------------------------------------------


def test_batches_encode_the_same_ints():
    from server.stream.encode import encode_batch

    board = Board(6, 6)
    for kw in (dict(), dict(ordering="warnsdorff", closed=True), dict(prefix=[0, 13, 24])):
        counts = kw.get("ordering") == "warnsdorff"
        batches = {}
        for engine in ENGINES:
            with native.use(engine):
                events = search_events(board, 0, node_budget=30_000, **kw)
                out, taken, moves = [], [], 0
                while True:
                    got, nodes, terminal = encode_batch(events, 997, out, counts)
                    taken.append(got)
                    moves += nodes
                    if terminal is not None:
                        break
                batches[engine] = (out, taken, moves, terminal)
        assert batches["compiled"] == batches["python"]


# -- hints ---------------------------------------------------------------------------------


def same_hint(board, path, closed):
    ref = on("python", hint, board, path, closed=closed, time_limit=60)
    got = on("compiled", hint, board, path, closed=closed, time_limit=60)
    assert got == ref, (board, path, closed)
    if got.verdict == "completable" and got.witness:
        assert_tour(board.rows, board.cols, path + list(got.witness), closed=closed)
    return got


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_hints_agree_with_every_check_on(strong_checks, closed):
    """The costly in-search tests and tiny restarts on from the first node."""
    rng = random.Random(40 + closed)
    for _ in range(120):
        board = Board(*rng.choice(SMALL))
        same_hint(board, walk(board, rng, greedy=0.4), closed)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_hints_agree_on_larger_boards(closed):
    rng = random.Random(60 + closed)
    for _ in range(60):
        board = Board(*rng.choice([(8, 8), (10, 10), (7, 12), (12, 12)]))
        same_hint(board, walk(board, rng), closed)


def test_hints_on_boards_too_wide_for_the_core_fall_back():
    from server.engine.hints import _core_grid

    board = Board(3, 201)  # 3 x 203 padded bits: more than the core's sets hold
    with native.use("compiled"):
        assert _core_grid(board) is None
    for path, closed in (([1], False), ([0], True)):  # settled by the colour count
        assert same_hint(board, path, closed).code == "parity"


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([(5, 5), (6, 6), (5, 7), (8, 8), (7, 10)]),
    st.integers(0, 99),
    st.lists(st.integers(0, 7), max_size=40),
    st.booleans(),
)
def test_property_degree_and_forced_checks_agree(dims, start, choices, closed):
    from server.engine.hint_forced import open_end
    from server.engine.hints import _core_grid, _degrees_ok, _forced, _grid

    board = Board(*dims)
    path = drawn_path(board, start, choices)
    g = _grid(board)
    free = g.valid
    for sq in path:
        free &= ~(1 << g.to_bit[sq])
    cur, first = g.to_bit[path[-1]], g.to_bit[path[0]]
    end = first if closed else open_end(g.nbm, free, cur)
    forced = end is not None and end != cur and free and g.components(free) == 1

    def checks():
        degrees = _degrees_ok(board, g, free, cur, first, closed)
        return degrees, forced and _forced(board, g, free, cur, end, closed)

    with native.use("compiled"):
        assert _core_grid(board) is not None
        got = checks()
    with native.use("python"):
        ref = checks()
    assert got == ref
    same_hint(board, path, closed)


@pytest.mark.parametrize(
    "index, closed", [(23, False), (60, False), (61, False), (23, True), (632, False)]
)
def test_hints_agree_on_20x20_positions_that_backtrack(index, closed):
    """Backjumps and restarts on the bench's corpus: the same witness and node count."""
    from tests.support.positions import corpus

    board = Board(20, 20)
    got = same_hint(board, corpus(20, 20, size=index + 1)[index], closed)
    assert got.verdict == "completable"
    assert got.nodes > len(got.witness) + 100  # the search did backtrack
