"""The articles' orderings in the compiled core, held to the Python engine's events.

For every article ordering, on its own board and start and on boards of other
shapes (a 3x7 board and a 3x4 one, where open tours exist, 5x6 and 6x5, and 4x4,
where none does), the core's stream equals ``_walk``'s event by event: every Move
with its candidates and onward counts, every Backtrack, the final event with its
counts.  Streams are capped by a node budget of ``BUDGET``: the programs' own
first successes lie far out (the Python article's after about 10^9 nodes), and
the Python reference, at a few million events a second, is the slow side; the C
article's own stream is compared whole once.  ``solve`` is compared on the same
cases, resuming in C from states along the stream gives the rest of the stream,
walkers' checkpoints cross between the engines, and every tour goes through
``tests/tourcheck.py``.  No timing assertions.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import native
from server.engine.article_orders import RULES
from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.events import Backtrack, Declared, Exhausted, Found, Move
from server.engine.search import search_events, solve
from server.engine.walker import Walker
from tests.engine.conftest import ENGINES, require_core
from tests.engine.test_search import state_after
from tests.tourcheck import assert_tour

BUDGET = 200_000  # nodes per compared stream: see the module docstring

ORDERINGS = sorted(RULES)

# (rows, cols, start) beside each article's own board
OTHER_BOARDS = [
    (3, 7, 0),  # open tours exist; a001-python declares a false tour first
    (3, 4, 0),  # open tours exist, every article finds one in 12 nodes
    (4, 4, 0),  # no open tour: every stream is exhausted
    (5, 6, 7),
    (6, 5, 3),  # the C article's first tour lies beyond the budget
]


@pytest.fixture(autouse=True)
def _core():
    require_core()


def own(ordering: str) -> tuple[int, int, int]:
    article = ARTICLES[ordering]
    return article.rows, article.cols, article.start[0] * article.cols + article.start[1]


CASES = [(ordering, *own(ordering)) for ordering in ORDERINGS] + [
    (ordering, *board) for ordering in ORDERINGS for board in OTHER_BOARDS
]


def events(engine: str, board: Board, start: int, **kw):
    """The stream of one engine, made while that engine is the active one."""
    with native.use(engine):
        return search_events(board, start, **kw)


def assert_same_stream(board: Board, start: int, **kw):
    """Both engines' streams, in lockstep (nothing stored): the final event of both."""
    ref = events("python", board, start, **kw)
    got = events("compiled", board, start, **kw)
    last = None
    for index, (want, have) in enumerate(itertools.zip_longest(ref, got)):
        assert have == want, (index, kw)
        assert type(have) is type(want), (index, kw)
        last = have
    return last


def check_tour(board: Board, start: int, final) -> None:
    if isinstance(final, Found):
        assert_tour(board.rows, board.cols, list(final.tour), start=start)


@pytest.mark.parametrize(("ordering", "rows", "cols", "start"), CASES, ids=str)
def test_the_core_gives_the_python_engines_events(ordering, rows, cols, start):
    board = Board(rows, cols)
    final = assert_same_stream(board, start, ordering=ordering, node_budget=BUDGET)
    assert isinstance(final, Found | Exhausted | Declared) or final.limit == "nodes"
    check_tour(board, start, final)


@pytest.mark.parametrize(("ordering", "rows", "cols", "start"), CASES, ids=str)
def test_solve_gives_the_same_counts_on_both_engines(ordering, rows, cols, start):
    board = Board(rows, cols)
    results = {}
    for engine in ENGINES:
        with native.use(engine):
            got = solve(board, start, ordering=ordering, node_budget=BUDGET)
        results[engine] = (got.status, got.tour, got.nodes, got.backtracks, got.limit)
    assert results["compiled"] == results["python"]
    status, tour, nodes, backtracks, _ = results["compiled"]
    with native.use("compiled"):  # and the core's own stream ends with those counts
        final = list(search_events(board, start, ordering=ordering, node_budget=BUDGET))[-1]
    assert (final.nodes, final.backtracks) == (nodes, backtracks)
    if status == "found":
        assert_tour(rows, cols, tour, start=start)


def test_the_c_articles_own_stream_is_the_same_to_its_first_tour():
    rows, cols, start = own("a003-c")
    final = assert_same_stream(Board(rows, cols), start, ordering="a003-c")
    assert isinstance(final, Found) and final.nodes == 781_815
    check_tour(Board(rows, cols), start, final)


@pytest.mark.parametrize("ordering", ORDERINGS)
@pytest.mark.parametrize(("rows", "cols", "start"), [(5, 5, 10), (3, 7, 0), (4, 4, 0)])
def test_resuming_in_the_core_continues_its_stream(ordering, rows, cols, start):
    board = Board(rows, cols)
    kw = dict(ordering=ordering, node_budget=30_000)
    with native.use("compiled"):
        whole = list(search_events(board, start, **kw))
        n = len(whole)
        for cut in sorted({1, 2, 3, 17, n // 3, n // 2 + 1, n - 2, n - 1}):
            resumed = list(search_events(board, start, resume=state_after(whole, cut, start), **kw))
            assert resumed == whole[cut:], cut


def test_the_python_articles_false_tour_is_declared_alike():
    """5x5 from (2, 0): its last move lands on the start; both engines say so."""
    board = Board(5, 5)
    start = board.square(2, 0)
    final = assert_same_stream(board, start, ordering="a001-python")
    assert isinstance(final, Declared)
    assert final.path[0] == final.path[-1] == start and len(final.path) == board.size
    for engine in ENGINES:
        with native.use(engine):
            stream = list(search_events(board, start, ordering="a001-python"))
            assert stream[-1] == final
            assert stream[-2] == Move(start, board.size - 1, stream[-2].candidates, None)
            after = state_after(stream, len(stream) - 1, start)  # just after the landing
            assert after.path[-1] == start
            resumed = list(search_events(board, start, ordering="a001-python", resume=after))
            assert resumed == [final]
            result = solve(board, start, ordering="a001-python")
            assert (result.status, result.tour, result.nodes, result.backtracks) == (
                "declared", None, final.nodes, final.backtracks
            )  # fmt: skip


def test_the_c_article_never_leaves_its_start_in_the_core():
    """4x4 has no tour: traverse runs out without clearing its start, traverse_chess clears it."""
    board = Board(4, 4)
    ends = {}
    for ordering in ("a003-c", "a003-c-stack", "a003-c-loop"):
        with native.use("compiled"):
            stream = list(search_events(board, 0, ordering=ordering))
        moves = sum(isinstance(e, Move) for e in stream)
        backs = sum(isinstance(e, Backtrack) for e in stream)
        assert stream[-1] == Exhausted(moves, backs)
        ends[ordering] = (stream[-2], moves, backs)
    kept, moves, backs = ends["a003-c"]
    assert kept != Backtrack(0, 0)
    assert ends["a003-c-stack"] == ends["a003-c"]
    assert ends["a003-c-loop"] == (Backtrack(0, 0), moves, backs + 1)


def test_onward_counts_are_the_sorts_keys_in_the_core():
    """The Java sort's keys are static degrees; the corrected sort's, unvisited neighbours."""
    board = Board(8, 8)
    start = board.square(2, 0)
    with native.use("compiled"):
        path: list[int] = []
        for event in search_events(board, start, ordering="a000-java", node_budget=300):
            if isinstance(event, Move) and event.candidates:
                assert event.onward == tuple(board.degrees[c] for c in event.candidates)
        for event in search_events(board, start, ordering="a000-java-fixed"):
            if isinstance(event, Move):
                if event.candidates:
                    seen = {*path}
                    unvisited = tuple(
                        sum(n not in seen for n in board.neighbours[c]) for c in event.candidates
                    )
                    assert event.onward == unvisited
                    assert list(event.onward) == sorted(event.onward)
                path.append(event.square)
            elif isinstance(event, Backtrack):
                path.pop()
        for ordering in ("a001-python", "a003-c"):
            first = next(
                e
                for e in search_events(board, start, ordering=ordering, node_budget=50)
                if isinstance(e, Move) and e.candidates
            )
            assert first.onward is None


def test_time_limits_end_the_article_orderings_on_both_engines():
    rows, cols, start = own("a001-python")  # about 10^9 nodes to its first success
    board = Board(rows, cols)
    for engine in ENGINES:
        with native.use(engine):
            for ordering in ("a001-python", "a003-c", "a000-java"):
                final = list(search_events(board, start, ordering=ordering, time_limit=0))[-1]
                assert (final.kind, final.limit, final.nodes) == ("budget", "time", 0)
            slow = solve(board, start, ordering="a001-python", time_limit=0.02)
            assert (slow.status, slow.limit) == ("budget", "time")


# -- the walker and the stream's batches --------------------------------------------------

WALKS = [
    (5, 5, 10, "a003-c"),
    (5, 5, 10, "a003-c-loop"),
    (5, 5, 10, "a001-python"),  # ends Declared
    (6, 6, 33, "a002-java"),
    (8, 8, 16, "a000-java"),
    (4, 4, 0, "a003-c-stack"),  # ends Exhausted, its start kept
    (3, 7, 0, "a001-python-fixed"),
]


def walker(engine, case, state=None):
    rows, cols, start, algorithm = case
    with native.use(engine):
        return Walker(Board(rows, cols), start, algorithm=algorithm, state=state)


def views(w):
    return (w.index, w.nodes, w.backtracks, w.max_depth, w.after, list(w.path), list(w.heat),
            w.chart.freeze(), w.end)  # fmt: skip


@pytest.mark.parametrize("case", WALKS, ids=str)
def test_walkers_agree_encoding_or_skipping(case):
    rng = random.Random(str(case))
    ref, got = walker("python", case), walker("compiled", case)
    assert got.engine == "compiled"
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
    if isinstance(ref.end, Found):
        assert_tour(case[0], case[1], list(ref.end.tour), start=case[2])


@pytest.mark.parametrize("case", WALKS, ids=str)
def test_checkpoints_cross_between_the_engines(case):
    whole = walker("python", case)
    total = whole.advance(40_000)
    for cut in sorted({0, 1, 2, 17, total // 2, total - 1}):
        first = walker("python", case)
        first.advance(cut)
        for there, back in (("compiled", "python"), ("python", "compiled")):
            half = (total - cut) // 2
            moved = walker(there, case, state=first.state())
            moved.advance(half)
            home = walker(back, case, state=moved.state())
            home.advance(total - cut - half, [])
            assert home.state() == whole.state(), (cut, there)
            if whole.end is not None:  # the stream ended within the walk
                assert home.advance(1) == 0
                assert home.end == whole.end


def test_batches_encode_the_same_ints():
    from server.stream.encode import encode_batch

    for ordering in ORDERINGS:
        rows, cols, start = own(ordering)
        board = Board(rows, cols)
        counts = RULES[ordering].sort is not None
        batches = {}
        for engine in ENGINES:
            with native.use(engine):
                stream = search_events(board, start, ordering=ordering, node_budget=20_000)
                out, taken, moves = [], [], 0
                while True:
                    got, nodes, terminal = encode_batch(stream, 997, out, counts)
                    taken.append(got)
                    moves += nodes
                    if terminal is not None:
                        break
                batches[engine] = (out, taken, moves, terminal)
        assert batches["compiled"] == batches["python"], ordering


# -- any small board -----------------------------------------------------------------------


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, 35),
    st.sampled_from(ORDERINGS),
    st.integers(0, 3000),
)
def test_property_any_small_board_any_ordering(rows, cols, start, ordering, budget):
    board = Board(rows, cols)
    start %= board.area
    final = assert_same_stream(board, start, ordering=ordering, node_budget=budget)
    check_tour(board, start, final)
    results = {}
    for engine in ENGINES:
        with native.use(engine):
            got = solve(board, start, ordering=ordering, node_budget=budget)
        results[engine] = (got.status, got.tour, got.nodes, got.backtracks)
    assert results["compiled"] == results["python"]
