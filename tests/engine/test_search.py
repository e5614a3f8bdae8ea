"""The depth-first search: its event stream, its fast path, pruning and budgets.

Verdicts are checked against ``tests/engine/exhaustive.py`` (full boards) and a
tiny brute force written here (boards with blocked squares); every tour found
goes through ``tests/tourcheck.py``.  No timing assertions: speed lives in
``benchmarks/bench_search.py``.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine.articles import ARTICLES
from server.engine.board import Board, BoardError
from server.engine.events import Backtrack, Budget, Declared, Exhausted, Found, Move
from server.engine.search import (
    BASE_ORDERINGS,
    ORDERINGS,
    PRUNINGS,
    Resume,
    SearchResult,
    search_events,
    solve,
    summarize,
)
from server.stream.encode import encode_batch
from tests.engine.exhaustive import completion
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.usefixtures("engine")  # each test runs on both engines

PRUNING_SETS = [(), ("dead-ends",), ("parity",), ("connectivity",), PRUNINGS]
DELTAS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


# -- independent helpers ---------------------------------------------------------------


def knight_neighbours(rows, cols, blocked, sq):
    r, c = divmod(sq, cols)
    out = set()
    for dr, dc in DELTAS:
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            v = (r + dr) * cols + c + dc
            if v not in blocked:
                out.add(v)
    return out


def brute_exists(rows, cols, blocked, path, closed):
    """Plain recursive search written from the definition (tiny boards only)."""
    blocked = set(blocked)
    size = rows * cols - len(blocked)
    nb = {sq: knight_neighbours(rows, cols, blocked, sq) for sq in range(rows * cols)}
    seen = set(path)

    def go(cur):
        if len(seen) == size:
            return not closed or path[0] in nb[cur]
        for v in nb[cur]:
            if v not in seen:
                seen.add(v)
                if go(v):
                    return True
                seen.discard(v)
        return False

    return go(path[-1])


def replay(board, start, events, prefix=()):
    """Check the stream's invariants event by event; return (final event, path)."""
    blocked = set(board.blocked)
    path = list(prefix[:-1])
    visited = set(path)
    nodes = backtracks = 0
    final = None
    for ev in events:
        assert final is None, f"{ev} came after the final event"
        if ev.kind == "move":
            assert type(ev) is Move
            assert ev.depth == len(path), "depth must grow by one per move"
            assert ev.square not in visited and ev.square not in blocked
            if nodes == 0:
                assert ev.square == (prefix[-1] if prefix else start)
                assert ev.candidates == () and ev.onward is None
            else:
                here = path[-1]
                free = knight_neighbours(board.rows, board.cols, blocked, here) - visited
                assert set(ev.candidates) == free and len(ev.candidates) == len(free)
                assert ev.square in ev.candidates
                order = board.neighbours[here]
                if ev.onward is None:
                    assert list(ev.candidates) == sorted(ev.candidates, key=order.index)
                else:
                    onward = [
                        len(knight_neighbours(board.rows, board.cols, blocked, c) - visited - {c})
                        for c in ev.candidates
                    ]
                    assert list(ev.onward) == onward
                    keys = [(n, order.index(c)) for n, c in zip(onward, ev.candidates, strict=True)]
                    assert keys == sorted(keys), "fewest onward first, ties in the articles' order"
            path.append(ev.square)
            visited.add(ev.square)
            nodes += 1
        elif ev.kind == "backtrack":
            assert type(ev) is Backtrack
            assert path and ev.square == path[-1], "a backtrack pops the last square"
            assert ev.depth == len(path) - 1
            visited.discard(path.pop())
            backtracks += 1
        else:
            assert type(ev) in (Found, Exhausted, Budget)
            final = ev
    assert final is not None, "the stream must end with a final event"
    assert (final.nodes, final.backtracks) == (nodes, backtracks)
    if final.kind == "found":
        assert list(final.tour) == path
    elif final.kind == "exhausted":
        assert path == list(prefix[:-1]) and nodes == backtracks
    return final, path


def run_both(board, start, *, check_tour=True, **kw):
    """solve() and the replayed stream must agree exactly; returns the SearchResult."""
    result = solve(board, start, **kw)
    final, _ = replay(board, start, search_events(board, start, **kw), kw.get("prefix", ()))
    assert final.kind == result.status
    assert (final.nodes, final.backtracks) == (result.nodes, result.backtracks)
    if result.status == "found":
        assert list(final.tour) == result.tour
        if check_tour:
            assert_tour(
                board.rows,
                board.cols,
                result.tour,
                closed=kw.get("closed", False),
                start=start,
                blocked=board.blocked,
            )
    else:
        assert result.tour is None
    if result.status == "budget":
        assert final.limit == result.limit
    return result


# -- API --------------------------------------------------------------------------------


def test_event_kinds_and_names():
    assert ORDERINGS[:2] == ("seed", "warnsdorff")
    assert set(ORDERINGS[2:]) == set(ARTICLES)  # the articles' programs (issue 24)
    assert set(PRUNINGS) == {"dead-ends", "parity", "connectivity"}
    assert Move(3, 1, (3, 5), None).kind == "move"
    assert Backtrack(3, 1).kind == "backtrack"
    assert Found((0,)).kind == "found"
    assert Exhausted().kind == "exhausted"
    assert Budget("nodes").kind == "budget"
    assert Declared((0, 1, 0)).kind == "declared"
    assert Move._fields == ("square", "depth", "candidates", "onward")
    assert Backtrack._fields == ("square", "depth")


def test_summarize_matches_solve():
    board = Board(5, 5)
    events = summarize(search_events(board, 0, ordering="warnsdorff"))
    fast = solve(board, 0, ordering="warnsdorff")
    assert isinstance(events, SearchResult)
    assert (events.status, events.tour, events.nodes, events.backtracks) == (
        fast.status,
        fast.tour,
        fast.nodes,
        fast.backtracks,
    )


# -- the lesson's figures ----------------------------------------------------------------


def test_seed_6x6_from_the_corner_matches_the_lesson():
    # Nodes count squares entered, the start included (251,825,408 on 8x8).
    result = run_both(Board(6, 6), 0)
    assert result.status == "found"
    assert result.nodes == 177_048
    assert result.backtracks == 177_048 - 36


def test_closed_warnsdorff_matches_the_lesson():
    small = run_both(Board(6, 6), 0, closed=True, ordering="warnsdorff")
    assert small.status == "found" and small.nodes == 1_360  # the notes: about 1.4 k
    big = run_both(Board(8, 8), 0, closed=True, ordering="warnsdorff")
    assert big.status == "found" and (big.nodes, big.backtracks) == (64, 0)


def test_open_warnsdorff_8x8_from_every_start():
    board = Board(8, 8)
    for start in range(64):
        result = solve(board, start, ordering="warnsdorff", node_budget=100_000)
        assert result.status == "found", start
        assert_tour(8, 8, result.tour, start=start)


def test_deep_boards_need_no_recursion():
    board = Board(40, 40)
    result = run_both(board, 0, ordering="warnsdorff", node_budget=20_000)
    assert result.status == "found"
    assert_tour(40, 40, result.tour, start=0)


# -- verdicts against ground truth --------------------------------------------------------

OPEN_BOARDS = [(3, 4), (4, 3), (3, 5), (4, 4), (4, 5), (3, 6)]
CLOSED_BOARDS = [(3, 4), (4, 4), (3, 6), (4, 5), (2, 5)]


@pytest.mark.parametrize("ordering", BASE_ORDERINGS)
@pytest.mark.parametrize(
    ("rows", "cols", "closed"),
    [(r, c, False) for r, c in OPEN_BOARDS] + [(r, c, True) for r, c in CLOSED_BOARDS],
)
def test_verdicts_match_exhaustive_with_every_pruning(rows, cols, closed, ordering):
    board = Board(rows, cols)
    for start in range(rows * cols):
        truth = completion(rows, cols, [start], closed=closed) is not None
        plain = solve(board, start, closed=closed, ordering=ordering)
        assert (plain.status == "found") == truth, (start, plain.status)
        for pruning in PRUNING_SETS[1:]:
            cut = solve(board, start, closed=closed, ordering=ordering, pruning=pruning)
            assert cut.status == plain.status, (start, pruning)
            assert cut.tour == plain.tour, "pruning must not change the tour found"
            assert cut.nodes <= plain.nodes and cut.backtracks <= plain.backtracks
        if truth:
            assert_tour(rows, cols, plain.tour, closed=closed, start=start)


@pytest.mark.parametrize("ordering", BASE_ORDERINGS)
@pytest.mark.parametrize(("rows", "cols", "closed"), [(3, 4, False), (4, 4, False), (3, 4, True)])
def test_stream_and_solve_agree_everywhere(rows, cols, closed, ordering):
    board = Board(rows, cols)
    for start, pruning in itertools.product(range(rows * cols), PRUNING_SETS):
        run_both(board, start, closed=closed, ordering=ordering, pruning=pruning)


def test_5x5_minority_squares_are_exhausted():
    board = Board(5, 5)
    minority = [sq for sq in range(25) if board.colour(sq) == 1]
    for start in minority:
        assert completion(5, 5, [start]) is None
        for ordering, pruning in itertools.product(
            BASE_ORDERINGS, ["dead-ends", "parity", PRUNINGS]
        ):
            assert solve(board, start, ordering=ordering, pruning=pruning).status == "exhausted"
    # the full plain tree once (about a million nodes), in the fast path and the stream
    fast, stream = solve(board, 7), summarize(search_events(board, 7))
    assert fast.status == stream.status == "exhausted"
    assert fast.nodes == stream.nodes == fast.backtracks == stream.backtracks > 1_000_000
    for start in [0, 2, 6, 12]:  # majority squares do have tours
        assert run_both(board, start, ordering="warnsdorff").status == "found"


def test_parity_cuts_at_the_root():
    board = Board(5, 5)
    result = run_both(board, 1, pruning=("parity",))
    assert (result.status, result.nodes, result.backtracks) == ("exhausted", 1, 1)
    closed = run_both(board, 0, closed=True, ordering="warnsdorff", pruning=("parity",))
    assert (closed.status, closed.nodes) == ("exhausted", 1)


def test_closed_search_ends_next_to_the_start():
    for rows, cols in [(3, 10), (5, 6), (6, 6)]:
        board = Board(rows, cols)
        result = run_both(board, 0, closed=True, ordering="warnsdorff", pruning=("dead-ends",))
        assert result.status == "found"
        assert_tour(rows, cols, result.tour, closed=True, start=0)


# -- determinism, budgets, prefixes ---------------------------------------------------


def test_deterministic():
    board = Board(6, 6)
    for kw in [dict(closed=True, ordering="warnsdorff"), dict(node_budget=5_000)]:
        assert list(search_events(board, 8, **kw)) == list(search_events(board, 8, **kw))
        first, second = solve(board, 8, **kw), solve(board, 8, **kw)
        assert (first.status, first.tour, first.nodes) == (second.status, second.tour, second.nodes)


@pytest.mark.parametrize("ordering", BASE_ORDERINGS)
@pytest.mark.parametrize("budget", [0, 1, 2, 37, 1_000, 10_000])
def test_node_budget_stops_exactly(budget, ordering):
    board = Board(5, 5)  # no tour from square 1: both searches need about 1.8 M nodes
    kw = dict(ordering=ordering, node_budget=budget)
    result = run_both(board, 1, **kw)
    assert (result.status, result.limit, result.nodes) == ("budget", "nodes", budget)
    events = list(search_events(board, 1, **kw))
    assert events[-1] == Budget("nodes", budget, result.backtracks)
    assert sum(ev.kind == "move" for ev in events) == budget


def test_budget_of_exactly_the_nodes_needed_still_finds():
    board = Board(5, 5)
    need = solve(board, 0).nodes
    assert run_both(board, 0, node_budget=need).status == "found"
    assert run_both(board, 0, node_budget=need - 1).status == "budget"


def test_time_limit():
    board = Board(8, 8)
    for ordering in BASE_ORDERINGS:
        result = solve(board, 0, ordering=ordering, closed=True, time_limit=0)
        assert (result.status, result.limit, result.nodes) == ("budget", "time", 0)
        events = list(search_events(board, 0, ordering=ordering, time_limit=0))
        assert events == [Budget("time", 0, 0)]
    slow = solve(board, 0, time_limit=0.05)  # the plain 8x8 search needs 251,825,408 nodes
    assert (slow.status, slow.limit) == ("budget", "time")
    assert 0 < slow.nodes < 251_825_408  # stopped by the clock, long before its end
    assert solve(board, 0, ordering="warnsdorff", time_limit=60).status == "found"


def test_prefix_continues_a_game():
    board = Board(5, 5)
    tour = completion(5, 5, [0])
    prefix = [0, *tour[:6]]
    result = run_both(board, 0, prefix=prefix, ordering="warnsdorff")
    assert result.status == "found" and result.tour[:7] == prefix
    complete = run_both(board, 0, prefix=[0, *tour])
    assert (complete.status, complete.nodes, complete.tour) == ("found", 1, [0, *tour])
    # prefixes that may strand a square: every search agrees with ground truth
    for first, steps in itertools.product([0, 2, 12, 16], [4, 7]):
        prefix = [first]
        for _ in range(steps):  # always the first free neighbour: a blind walk
            prefix.append(next(v for v in board.neighbours[prefix[-1]] if v not in prefix))
        truth = completion(5, 5, prefix) is not None
        for pruning in PRUNING_SETS:
            result = run_both(board, prefix[0], prefix=prefix, pruning=pruning)
            assert (result.status == "found") == truth, (prefix, pruning)


def test_prefix_for_a_closed_tour_that_used_every_way_home():
    board = Board(6, 6)
    # 0's neighbours are 8 and 13; a path through both leaves no way home
    result = run_both(board, 0, prefix=[0, 8, 21, 13], closed=True)
    assert (result.status, result.nodes) == ("exhausted", 1)


# -- edge boards and blocked squares --------------------------------------------------------


def test_tiny_boards():
    assert run_both(Board(1, 1), 0).tour == [0]
    assert run_both(Board(1, 1), 0, closed=True).status == "exhausted"
    centre = run_both(Board(3, 3), 4, pruning=PRUNINGS)
    assert (centre.status, centre.nodes) == ("exhausted", 1)
    assert run_both(Board(2, 5), 0, ordering="warnsdorff").status == "exhausted"


def test_blocked_squares():
    # 5x5 without its centre: tours avoid the hole
    board = Board(5, 5, blocked={12})
    for ordering in BASE_ORDERINGS:
        result = run_both(board, 0, ordering=ordering, pruning=("dead-ends",))
        assert result.status == "found"
        assert 12 not in result.tour
        assert brute_exists(5, 5, {12}, [0], False)
    # 4x4 minus two corners has no room for a knight's path: agree with the brute force
    board = Board(4, 4, blocked={0, 15})
    for start in board.squares():
        truth = brute_exists(4, 4, {0, 15}, [start], False)
        for pruning in PRUNING_SETS:
            result = run_both(board, start, ordering="warnsdorff", pruning=pruning)
            assert (result.status == "found") == truth


@st.composite
def small_cases(draw):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 5))
    area = rows * cols
    start = draw(st.integers(0, area - 1))
    others = [sq for sq in range(area) if sq != start]
    blocked = draw(st.sets(st.sampled_from(others), max_size=len(others))) if others else set()
    if area > 15:  # keep the brute force small (the start stays open)
        blocked |= set(draw(st.permutations(others))[: area - 15])
    closed = draw(st.booleans())
    ordering = draw(st.sampled_from(BASE_ORDERINGS))
    pruning = draw(st.sampled_from(PRUNING_SETS))
    return rows, cols, frozenset(blocked), start, closed, ordering, pruning


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_property_small_boards(case):
    rows, cols, blocked, start, closed, ordering, pruning = case
    board = Board(rows, cols, blocked)
    result = run_both(board, start, closed=closed, ordering=ordering, pruning=pruning)
    truth = brute_exists(rows, cols, blocked, [start], closed)
    assert (result.status == "found") == truth
    plain = solve(board, start, closed=closed, ordering=ordering)
    assert (plain.status, plain.tour) == (result.status, result.tour)
    assert result.nodes <= plain.nodes and result.backtracks <= plain.backtracks
    if not blocked and rows * cols <= 20:
        assert truth == (completion(rows, cols, [start], closed=closed) is not None)


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [
        dict(ordering="random"),
        dict(pruning=("dead-ends", "magic")),
        dict(node_budget=-1),
        dict(node_budget=2.5),
        dict(time_limit=-1.0),
        dict(prefix=[1, 12]),
        dict(prefix=[0, 1]),
        dict(prefix=[0, 7, 0]),
        dict(prefix=[0, 7, 99]),
        dict(start=25),
        dict(start=-1),
        dict(start=12),
        dict(prefix=[0, 11, 8]),
    ],
)
def test_invalid_input_is_a_one_line_board_error(kw):
    board = Board(5, 5, blocked={12, 8})
    kw = dict(kw)  # the parameter is shared by both engines' runs
    start = kw.pop("start", 0)
    for run in (solve, search_events):
        with pytest.raises(BoardError) as info:
            run(board, start, **kw)
        assert "\n" not in str(info.value)
        assert isinstance(info.value, ValueError)


def test_a_single_pruning_name_may_be_a_string():
    board = Board(5, 5)
    assert solve(board, 1, pruning="parity").nodes == 1


# -- resuming a search from any point of its stream ------------------------------------


def state_after(events, count, start):
    """The Resume state after the first ``count`` events, rebuilt from the events alone."""
    path, after, nodes, backtracks = [start], None, 0, 0
    for event in events[:count]:
        if event.kind == "move":
            if nodes:  # the root move re-enters the start
                path.append(event.square)
            nodes += 1
            after = None
        else:
            after = path.pop()
            backtracks += 1
    return Resume(tuple(path), after, nodes, backtracks)


RESUME_CASES = [
    (5, 5, 0, "seed", False, ()),
    (5, 5, 1, "seed", False, ()),  # no tour: the stream ends exhausted
    (5, 5, 12, "warnsdorff", False, ()),
    (6, 6, 0, "warnsdorff", True, ()),
    (5, 6, 0, "seed", True, PRUNINGS),
    (5, 5, 0, "seed", False, ("dead-ends",)),
    (5, 5, 2, "warnsdorff", False, ("connectivity",)),
    (4, 5, 0, "seed", False, PRUNINGS),
]


@pytest.mark.parametrize(("rows", "cols", "start", "ordering", "closed", "pruning"), RESUME_CASES)
def test_a_resumed_search_yields_exactly_the_rest_of_the_stream(
    rows, cols, start, ordering, closed, pruning
):
    board = Board(rows, cols)
    kw = {"closed": closed, "ordering": ordering, "pruning": pruning}
    events = list(itertools.islice(search_events(board, start, **kw), 4000))
    full = len(events) < 4000
    cut_points = sorted({1, 2, 3, len(events) // 2, len(events) - 2, *range(5, len(events), 97)})
    for count in cut_points:
        if not 1 <= count < len(events):
            continue
        if events[count - 1].kind not in ("move", "backtrack"):
            continue
        resumed = search_events(board, start, resume=state_after(events, count, start), **kw)
        tail = list(itertools.islice(resumed, len(events) - count))
        assert tail == events[count:], (count, tail[:3], events[count : count + 3])
        if full:  # the resumed search ends where the whole one did, with the same counts
            assert next(resumed, None) is None


def test_resume_keeps_the_node_budget_of_the_whole_search():
    board = Board(6, 6)
    events = list(search_events(board, 0, node_budget=500))
    assert events[-1] == Budget("nodes", 500, events[-1].backtracks)
    count = len(events) // 2
    resumed = list(search_events(board, 0, node_budget=500, resume=state_after(events, count, 0)))
    assert resumed == events[count:]


@pytest.mark.parametrize(
    ("start", "ordering", "budget"),
    [
        (10, "a003-c", 30_000),  # the budget is reached while backtracks are pending
        (10, "seed", 777),
        (0, "seed", 288),  # the budget is the node that completes the tour
    ],
)
def test_a_search_resumed_at_its_budget_ends_as_the_whole_one(start, ordering, budget):
    """The limits are read before the next move: what the whole search yields after its
    last move (backtracks, or the Found) comes first on a resumed search too."""
    board = Board(5, 5)
    kw = {"ordering": ordering, "node_budget": budget}
    events = list(search_events(board, start, **kw))
    assert events[-1].nodes == budget
    for count in range(max(1, len(events) - 8), len(events)):
        resumed = search_events(board, start, resume=state_after(events, count, start), **kw)
        assert list(resumed) == events[count:], count


def test_resume_refuses_a_path_that_is_not_the_searchs():
    board = Board(5, 5)
    with pytest.raises(BoardError):
        search_events(board, 0, resume=Resume((1, 2), None, 2, 0))  # not from the start
    with pytest.raises(BoardError):
        search_events(board, 0, resume=Resume((0, 3), None, 2, 0))  # not a knight move
    with pytest.raises(BoardError):
        search_events(board, 0, resume=Resume((0, 7, 0), None, 3, 0))  # a square twice


def test_resume_refuses_a_square_left_that_is_not_a_candidate():
    """Checked when the search starts (the compiled core: in C, raised by its bindings),
    whether its events are taken one by one or as a batch."""
    board = Board(5, 5)
    bad = Resume((0, 7), 3, 2, 0)  # c4 (7) and d5 (3) are not a knight's move apart
    message = "the resumed square 3 is not a candidate of 7"
    with pytest.raises(BoardError, match=message):
        next(search_events(board, 0, resume=bad))
    with pytest.raises(BoardError, match=message):
        encode_batch(search_events(board, 0, resume=bad), 10, [], False)


def test_a_search_resumed_after_its_root_was_left_only_ends():
    board = Board(3, 3)  # the centre has no move: the root is entered and left at once
    events = list(search_events(board, 4, pruning=PRUNINGS))
    assert [e.kind for e in events] == ["move", "backtrack", "exhausted"]
    resumed = list(search_events(board, 4, pruning=PRUNINGS, resume=state_after(events, 2, 4)))
    assert resumed == events[2:]
