"""A student's program run as the lab runs it (static/py/lab_recorder.py), under CPython:
its board writes are the engine's events, and a bad program gets its message and line."""

from __future__ import annotations

import pytest

from server.lab import PROGRAMS, program
from tests.lab.recorder import engine_steps, lines, record, recorder, steps

FIXED_SORT = ("key=cmp_to_key(lambda x,y: x.wayout < y.wayout)", "key=lambda n: n.wayout")


@pytest.mark.parametrize(
    ("rows", "cols", "start"), [(5, 5, (0, 0)), (6, 6, (0, 0)), (5, 6, (2, 3))]
)
def test_the_starting_program_makes_the_seed_ordering_s_events(rows, cols, start):
    result, events = record(program("start"), rows, cols, start)
    expected = engine_steps(rows, cols, start, "seed")
    assert steps(events) == expected
    assert result["status"] == ("found" if expected[-1][1] is False else "ended")


def test_each_event_carries_the_line_that_wrote_it():
    source = program("start")
    marks = [n for n, text in enumerate(source.splitlines(), 1) if "board[x][y] =" in text]
    _, events = record(source, 5, 5, (0, 0))
    pairs = list(zip(steps(events), lines(events), strict=True))
    moves = {line for (_, back), line in pairs if not back}
    backs = {line for (_, back), line in pairs if back}
    assert moves == {marks[0]} and backs == {marks[1]}


def test_warnsdorff_in_the_lab_is_the_engine_s_warnsdorff():
    result, events = record(program("warnsdorff"), 8, 8, (0, 0))
    assert result["status"] == "found"
    assert steps(events) == engine_steps(8, 8, (0, 0), "warnsdorff")


@pytest.mark.parametrize(("rows", "cols"), [(30, 30), (23, 29)])
def test_the_largest_boards_a_search_takes_are_recorded_square_for_square(rows, cols):
    # squares past 512 and 1023: an event's square bits hold a 30 x 30 board
    result, events = record(program("warnsdorff"), rows, cols, (0, 0))
    assert result["status"] == "found"
    assert steps(events) == engine_steps(rows, cols, (0, 0), "warnsdorff")


def test_the_python_article_as_written_runs_out_of_budget_on_the_engine_s_events():
    # its sort sorts nothing: a billion nodes to its first success on 6x6
    result, events = record(program("article-001"), 6, 6, (4, 3), budget=200_000)
    assert result["status"] == "budget"
    assert steps(events) == engine_steps(6, 6, (4, 3), "a001-python", limit=len(events))


def test_fixing_the_python_article_s_sort_gives_its_corrected_twin():
    source = program("article-001").replace(*FIXED_SORT)
    result, events = record(source, 6, 6, (4, 3))
    assert result["status"] == "found"
    assert steps(events) == engine_steps(6, 6, (4, 3), "a001-python-fixed")
    assert "36" in result["output"]  # the article's success() printed the board


def run_bad(source, rows=5, cols=5, start=(0, 0)):
    result, events = record(source, rows, cols, start)
    assert result["status"] == "error"
    return result, events


def test_a_syntax_error_says_its_line():
    result, _ = run_bad("board = [[0] * COLS for _ in range(ROWS)]\nif True\n    pass\n")
    assert (result["code"], result["line"]) == ("syntax", 2)


def test_a_blocked_import_says_the_module_and_its_line():
    result, _ = run_bad("import math\nimport os\n")
    assert (result["code"], result["line"]) == ("import", 2)
    assert result["params"]["module"] == "os" and "math" in result["params"]["allowed"]


def test_a_write_off_the_board_is_refused_not_wrapped_round():
    source = "board = [[0] * COLS for _ in range(ROWS)]\nboard[0][0] = 1\nboard[-1][1] = 2\n"
    result, events = run_bad(source)
    assert (result["code"], result["line"]) == ("range", 3)
    assert result["params"] == {"row": -1, "col": 1, "rows": 5, "cols": 5}
    assert steps(events) == [(0, False)]  # what came before the error is kept


@pytest.mark.parametrize(
    ("writes", "code", "params"),
    [
        ("board[1][1] = 1", "start", {"square": "b4", "start": "a5"}),
        ("board[0][0] = 1\nboard[0][1] = 2", "jump", {"square": "b5", "head": "a5"}),
        ("board[0][0] = 1\nboard[1][2] = 2\nboard[0][0] = 3", "again", {"square": "a5"}),
        ("board[0][0] = 1\nboard[1][2] = 2\nboard[0][0] = 0", "clear", {"square": "a5"}),
    ],
)
def test_a_move_the_knight_cannot_make_is_named(writes, code, params):
    source = "board = [[0] * COLS for _ in range(ROWS)]\n" + writes + "\n"
    result, _ = run_bad(source)
    assert (result["code"], result["line"], result["params"]) == (
        code,
        len(source.splitlines()),
        params,
    )


def test_a_program_that_never_writes_the_board_is_told_so():
    result, _ = run_bad("visited = [[False] * COLS for _ in range(ROWS)]\nvisited[0][0] = True\n")
    assert result["code"] == "no-board"


def test_a_runaway_recursion_points_at_the_call():
    result, _ = run_bad("def f(n):\n    return f(n + 1)\n\nf(0)\n")
    assert (result["code"], result["line"]) == ("recursion", 2)


def test_an_exception_is_said_as_python_says_it_on_its_line():
    result, _ = run_bad("x = 1\ny = x // 0\n")
    assert (result["code"], result["line"]) == ("exception", 2)
    assert result["message"] == "ZeroDivisionError: integer division or modulo by zero"


def test_clearing_the_board_before_the_search_is_no_event():
    source = program("start").replace(
        "board = [[0] * COLS for _ in range(ROWS)]",
        "board = [[0] * COLS for _ in range(ROWS)]\n"
        "for i in range(ROWS):\n    for j in range(COLS):\n        board[i][j] = 0",
    )
    _, events = record(source, 5, 5, (0, 0))
    assert steps(events) == engine_steps(5, 5, (0, 0), "seed")


def test_the_budget_stops_a_search_at_a_chunk_s_end():
    result, events = record(program("start"), 7, 7, (0, 0), budget=10_000, chunk=4096)
    assert result["status"] == "budget" and len(events) == 12_288


def test_every_program_offered_runs():
    for name in PROGRAMS:
        result, _ = record(program(name), 6, 6, (4, 3), budget=100_000)
        assert result["status"] in ("found", "budget"), name


@pytest.mark.parametrize(
    ("budget", "chunk"), [(1, 1), (50, 7), (1_000, 64), (10_000, 4096), (5_000, 1 << 16)]
)
def test_the_budget_stops_at_the_exact_end_of_the_chunk_it_falls_in(budget, chunk):
    # the setter counts no chunk on a move: the stop still falls on the chunk's last event
    result, events = record(program("start"), 7, 7, (0, 0), budget=budget, chunk=chunk)
    stop = chunk * -(-budget // chunk)
    assert result["status"] == "budget" and len(events) == stop
    assert steps(events) == engine_steps(7, 7, (0, 0), "seed", limit=stop)


def test_a_tour_on_the_budget_s_last_event_is_found():
    _, events = record(program("start"), 5, 5, (0, 0))
    result, again = record(program("start"), 5, 5, (0, 0), budget=len(events), chunk=len(events))
    assert result["status"] == "found" and again == events


def test_a_run_past_its_tour_stops_at_its_next_write_with_the_tour_printed_once():
    # the article never sets its `found`: it prints the board, then backtracks on
    source = program("article-001").replace(*FIXED_SORT)
    result, events = record(source, 6, 6, (4, 3))
    assert result["status"] == "found"
    assert steps(events) == engine_steps(6, 6, (4, 3), "a001-python-fixed")
    assert result["output"].count("=" * 21 + "\n") == 2  # the empty board, then the tour


def test_the_python_article_as_written_declares_its_landing_on_the_start():
    result, events = record(program("article-001"), 5, 5, (2, 2))
    assert result["status"] == "declared"
    assert steps(events) == engine_steps(5, 5, (2, 2), "a001-python")
    assert steps(events)[-1] == (12, False)  # its last move lands on the start, c3


@pytest.mark.parametrize(
    ("row", "col"),
    [(-1, 0), (-5, 0), (-6, 0), (-10, 0), (-11, 0), (5, 0), (9, 0), (0, -6), (0, 10)],
)
@pytest.mark.parametrize("value", [1, 0])
def test_a_write_off_the_board_is_refused_however_far_off(row, col, value):
    # a negative index lands on the lookup's padding, or past it where the write fails
    source = "board = [[0] * COLS for _ in range(ROWS)]\nboard[0][0] = 1\n"
    source += f"board[{row}][{col}] = {value}\n"
    result, events = run_bad(source)
    assert (result["code"], result["line"]) == ("range", 3)
    assert result["params"] == {"row": row, "col": col, "rows": 5, "cols": 5}
    assert steps(events) == [(0, False)]


def test_an_index_python_takes_is_taken_and_one_it_refuses_is_python_s_error():
    source = (
        "class At:\n"
        "    def __init__(self, n):\n"
        "        self.n = n\n"
        "    def __index__(self):\n"
        "        return self.n\n"
        "board = [[0] * COLS for _ in range(ROWS)]\n"
        "board[At(0)][At(0)] = 1\n"
        "board[True][2] = 2\n"
        "board[1][2.0] = 0\n"
    )
    result, events = run_bad(source)
    assert steps(events) == [(0, False), (7, False)]
    assert (result["code"], result["line"]) == ("exception", 9)
    assert result["message"].startswith("TypeError: list indices must be integers")


def test_a_visited_grid_beside_the_board_is_written_and_not_recorded():
    source = program("start").replace(
        "    board[x][y] = step  #", "    visited[x][y] = True\n    board[x][y] = step  #"
    )
    source = source.replace(
        "    board[x][y] = 0  #", "    visited[x][y] = False\n    board[x][y] = 0  #"
    )
    source = "visited = [[False] * COLS for _ in range(ROWS)]\n" + source
    result, events = record(source, 5, 5, (0, 0))
    assert "visited[x][y] = False" in source and result["status"] == "found"
    assert steps(events) == engine_steps(5, 5, (0, 0), "seed")


def chunks_of(source, rows=5, cols=5):
    """The sizes of an event in each chunk ``source``'s run hands over, and its lines."""
    seen = []
    recorder.run(source, rows, cols, 0, 0, 10**6, 1 << 16, lambda *chunk: seen.append(chunk))
    return {(size, lines) for _, size, lines in seen}


def test_an_event_takes_16_bits_up_to_32_writing_lines_and_32_bits_past_them():
    narrow = program("start")
    marks = tuple(n for n, text in enumerate(narrow.splitlines(), 1) if "board[x][y] =" in text)
    assert chunks_of(narrow) == {(2, marks)}
    _, events = record(narrow, 5, 5, (0, 0))
    for more, size in ((recorder.NARROW_LINES - 2, 2), (recorder.NARROW_LINES - 1, 4)):
        # `more` lines writing another grid (2 rows: not the board) before the program
        grids = "".join(f"g[0][{n % 5}] = {n + 1}\n" for n in range(more))
        wide = "g = [[0] * 5 for _ in range(2)]\n" + grids + narrow
        ((got, lines),) = chunks_of(wide)
        assert (got, len(lines)) == (size, more + 2)
        # the same events either way, each on its own line
        _, shifted = record(wide, 5, 5, (0, 0))
        assert shifted == [code + (more + 1) * recorder.LINE for code in events]
