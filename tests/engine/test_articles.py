"""The articles' programs as orderings (issue 24): the issue's figures, from our engine.

The event-by-event comparison with the programs themselves lives in
``tests/articles/``; here: the counts the issue quotes, every tour checked
independently, the stream and ``solve`` agreeing, and resuming from a state.
"""

from __future__ import annotations

import pytest

from server.engine.article_orders import RULES
from server.engine.articles import ARTICLES
from server.engine.board import Board, BoardError
from server.engine.events import Backtrack, Declared, Found, Move
from server.engine.search import Resume, search_events, solve, summarize
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.usefixtures("engine")  # each test runs on both engines


def own(ordering: str) -> tuple[Board, int]:
    """The article's own board and start square."""
    article = ARTICLES[ordering]
    board = Board(article.rows, article.cols)
    return board, board.square(*article.start)


@pytest.mark.parametrize(
    ("ordering", "nodes"),
    [
        ("a000-java", 720),  # the static-degree sort on 8x8
        ("a000-java-fixed", 64),  # Warnsdorff: no backtrack at all
        ("a002-java", 47),
        ("a002-java-fixed", 36),
        ("a001-python-fixed", 36),  # "the rule it meant finds one in 36"
        ("a003-c", 781_815),
        ("a003-c-loop", 781_815),
        ("a003-c-stack", 781_815),
    ],
)
def test_the_issues_figures(ordering, nodes):
    board, start = own(ordering)
    result = solve(board, start, ordering=ordering)
    assert (result.status, result.nodes) == ("found", nodes)
    assert result.backtracks == nodes - board.size
    assert_tour(board.rows, board.cols, result.tour, start=start)


def test_java_002_without_its_sort_is_the_seed_search():
    # 002's first listing has no sort(): next()'s order is the lesson's seed order.
    board, start = own("a002-java")
    assert solve(board, start, ordering="seed").nodes == 5_422


def test_warnsdorff_is_the_fixed_java():
    board, start = own("a000-java")
    fixed = list(search_events(board, start, ordering="a000-java-fixed"))
    assert fixed == list(search_events(board, start, ordering="warnsdorff"))


def test_the_java_sort_counts_visited_squares():
    """Each Move's ``onward`` is the static degree the Java comparator sorts by."""
    board, start = own("a000-java")
    for event in search_events(board, start, ordering="a000-java", node_budget=300):
        if isinstance(event, Move) and event.candidates:
            assert event.onward == tuple(board.degrees[c] for c in event.candidates)
            assert list(event.onward) == sorted(event.onward)


def replayed_candidates(board, ordering, moves, budget):
    """(candidates the stream gave, candidates ``moves`` order gives) for every Move."""
    path: list[int] = []
    for event in search_events(
        board, path_start(ordering, board), ordering=ordering, node_budget=budget
    ):
        if isinstance(event, Move):
            if path:
                row, col = board.row_col(path[-1])
                expected = tuple(
                    board.square(row + dr, col + dc)
                    for dr, dc in moves
                    if 0 <= row + dr < board.rows
                    and 0 <= col + dc < board.cols
                    and board.square(row + dr, col + dc) not in path
                )
                yield event.candidates, expected
            path.append(event.square)
        elif isinstance(event, Backtrack):
            path.pop()


def path_start(ordering, board):
    return board.square(*ARTICLES[ordering].start)


def test_the_python_sort_sorts_nothing():
    """Candidates come in the article's offset order, never by their way-outs."""
    board, _ = own("a001-python")
    moves = RULES["a001-python"].moves
    pairs = list(replayed_candidates(board, "a001-python", moves, 5_000))
    assert len(pairs) == 4_999
    assert all(got == expected for got, expected in pairs)


def test_the_c_order_is_nexts_switch():
    board, _ = own("a003-c")
    moves = ((-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1))
    pairs = list(replayed_candidates(board, "a003-c", moves, 5_000))
    assert all(got == expected for got, expected in pairs)
    assert len(pairs) == 4_999


def test_the_python_last_move_lands_on_the_start():
    """On 5x5 from (2, 0) the Python program's first success is no tour."""
    board = Board(5, 5)
    start = board.square(2, 0)
    events = list(search_events(board, start, ordering="a001-python"))
    last_move, end = events[-2:]
    assert isinstance(end, Declared)
    assert last_move == Move(start, board.size - 1, last_move.candidates, None)
    assert start in last_move.candidates
    claimed = end.path
    assert len(claimed) == board.size and claimed[0] == claimed[-1] == start
    assert len(set(claimed)) == board.size - 1  # one square never entered
    moves = sum(isinstance(e, Move) for e in events)
    backs = sum(isinstance(e, Backtrack) for e in events)
    assert (end.nodes, end.backtracks) == (moves, backs)
    result = solve(board, start, ordering="a001-python")
    assert (result.status, result.tour, result.nodes) == ("declared", None, end.nodes)


def test_the_python_programs_first_success_can_be_a_tour():
    board = Board(5, 5)
    result = solve(board, 0, ordering="a001-python")
    assert result.status == "found"
    assert_tour(5, 5, result.tour, start=0)


def test_the_python_article_within_a_budget():
    board, start = own("a001-python")
    result = solve(board, start, ordering="a001-python", node_budget=200_000)
    assert (result.status, result.nodes) == ("budget", 200_000)


@pytest.mark.parametrize("ordering", sorted(ARTICLES))
@pytest.mark.parametrize(("rows", "cols", "start"), [(5, 5, 0), (5, 6, 7), (6, 6, 14)])
def test_stream_and_solve_agree(ordering, rows, cols, start):
    board = Board(rows, cols)
    streamed = summarize(search_events(board, start, ordering=ordering, node_budget=60_000))
    solved = solve(board, start, ordering=ordering, node_budget=60_000)
    assert (streamed.status, streamed.tour, streamed.nodes, streamed.backtracks) == (
        solved.status, solved.tour, solved.nodes, solved.backtracks
    )  # fmt: skip
    if solved.status == "found":
        assert_tour(rows, cols, solved.tour, start=start)


def resume_at(events, index):
    """The Resume after the first ``index`` events, replayed as a viewer would."""
    path: list[int] = []
    after = None
    nodes = backtracks = 0
    for event in events[:index]:
        if isinstance(event, Move):
            path.append(event.square)
            after = None
            nodes += 1
        else:
            after = path.pop()
            backtracks += 1
    return Resume(tuple(path), after, nodes, backtracks)


@pytest.mark.parametrize("ordering", sorted(ARTICLES))
def test_resume_continues_with_the_same_events(ordering):
    board = Board(5, 5)
    start = board.square(2, 0)
    events = list(search_events(board, start, ordering=ordering, node_budget=40_000))
    for index in (
        1,
        2,
        17,
        len(events) // 3,
        len(events) // 2 + 1,
        len(events) - 2,
        len(events) - 1,
    ):
        resumed = search_events(
            board, start, ordering=ordering, node_budget=40_000, resume=resume_at(events, index)
        )
        assert list(resumed) == events[index:], index


@pytest.mark.parametrize("ordering", sorted(ARTICLES))
def test_no_closed_pruned_or_blocked_search(ordering):
    board, start = own(ordering)
    with pytest.raises(BoardError, match="closed"):
        solve(board, start, ordering=ordering, closed=True)
    with pytest.raises(BoardError, match="pruning"):
        list(search_events(board, start, ordering=ordering, pruning=("parity",)))
    holed = Board(board.rows, board.cols, blocked={0 if start else 1})
    with pytest.raises(BoardError, match="blocked"):
        solve(holed, start, ordering=ordering)


def test_a_found_stream_ends_on_its_tour():
    board, start = own("a002-java")
    events = list(search_events(board, start, ordering="a002-java"))
    path: list[int] = []
    for event in events[:-1]:
        path.append(event.square) if isinstance(event, Move) else path.pop()
    assert isinstance(events[-1], Found) and tuple(path) == events[-1].tour
