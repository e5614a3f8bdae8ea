"""The articles' own programs and our orderings enter and leave the same squares (issue 24).

Each program in ``programs/`` is the article's code with print statements added
(``run.py`` says how it is built and read).  For every article ordering, on the
article's own board and start and on other boards or starts, the squares the
program enters and leaves, in order, must equal our stream's ``Move`` and
``Backtrack`` events, event by event; and where the program ends by itself the
stream ends the same way (the same tour, or no tour).

Long runs are compared on a prefix (``cap``): the Python article never stops
before its first success and its own 6x6 search runs for millions of nodes in a
Python interpreter (about 50,000 nodes a second for the port), so its run is cut at
200,000 events.  A prefix that long goes through thousands of backtracks, which is
where an ordering's move order, sort and stopping rule show.  The other runs are
compared whole (the C article's 781,815 nodes are 1,563,605 events).

A missing JDK or gcc fails the test with the make target that installs it: nothing
is skipped.
"""

from __future__ import annotations

import difflib
import functools
import itertools
from dataclasses import dataclass
from functools import cmp_to_key

import pytest

from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.events import Backtrack, Declared, Exhausted, Found, Move
from server.engine.search import search_events
from tests.articles import run as programs
from tests.tourcheck import assert_tour

WHOLE = 2_000_000  # events: more than any run compared whole
PREFIX = 200_000


@dataclass(frozen=True)
class Case:
    ordering: str
    program: str
    rows: int
    cols: int
    start: tuple[int, int]
    cap: int = WHOLE

    def __str__(self) -> str:
        r, c = self.start
        return f"{self.ordering}-{self.rows}x{self.cols}-r{r}c{c}"


def _own(ordering: str, program: str, cap: int = WHOLE) -> Case:
    article = ARTICLES[ordering]
    return Case(ordering, program, article.rows, article.cols, article.start, cap)


CASES = [
    # 000, Java: 720 nodes on its own board; square boards only (visit is [X][Y]).
    _own("a000-java", "a000"),
    Case("a000-java", "a000", 8, 8, (0, 0)),
    Case("a000-java", "a000", 7, 7, (3, 3)),
    Case("a000-java", "a000", 6, 6, (0, 0)),
    Case("a000-java", "a000", 4, 4, (0, 0)),  # no tour: it clears its start at the end
    _own("a000-java-fixed", "a000-fixed"),
    Case("a000-java-fixed", "a000-fixed", 8, 8, (0, 0)),
    Case("a000-java-fixed", "a000-fixed", 6, 6, (2, 3)),
    # 001, Python 2 through the port: its first success, a tour or a landing on the start.
    _own("a001-python", "a001", PREFIX),
    Case("a001-python", "a001", 5, 5, (0, 0)),  # a tour after 77,684 nodes
    Case("a001-python", "a001", 5, 5, (2, 2)),  # lands on its start after 3,501 nodes
    Case("a001-python", "a001", 5, 5, (0, 1)),  # lands on its start after 57,073 nodes
    Case("a001-python", "a001", 4, 4, (0, 0)),  # no tour, no landing: it runs out
    _own("a001-python-fixed", "a001-fixed"),
    Case("a001-python-fixed", "a001-fixed", 5, 5, (0, 0)),
    Case("a001-python-fixed", "a001-fixed", 8, 8, (0, 0)),
    # 002, Java: 47 nodes with its sort from its first listing's start, row 6 column 1.
    _own("a002-java", "a002"),
    Case("a002-java", "a002", 6, 6, (1, 1)),  # its final listing's row 2, column 2
    Case("a002-java", "a002", 5, 6, (0, 0)),
    Case("a002-java", "a002", 8, 8, (0, 0)),
    Case("a002-java", "a002", 3, 3, (0, 0)),
    _own("a002-java-fixed", "a002-fixed"),
    Case("a002-java-fixed", "a002-fixed", 5, 6, (0, 0)),
    Case("a002-java-fixed", "a002-fixed", 8, 8, (7, 7)),
    # 002's first listing has no sort: the plain search in the articles' order, 5,422 nodes.
    Case("seed", "a002-unsorted", 6, 6, (5, 0)),
    Case("seed", "a002-unsorted", 5, 5, (2, 0)),
    Case("seed", "a002-unsorted", 3, 4, (0, 0)),
    # Corrected, the Java programs are our Warnsdorff (the same order, a stable sort).
    Case("warnsdorff", "a000-fixed", 8, 8, (2, 0)),
    Case("warnsdorff", "a002-fixed", 6, 6, (5, 0)),
    # 003, C: 781,815 nodes; 4x4 has no tour, so the search runs out: traverse (and
    # the stack version) never clear the start, which main marked; traverse_chess does.
    _own("a003-c", "a003"),
    Case("a003-c", "a003", 5, 5, (0, 0)),
    Case("a003-c", "a003", 5, 6, (0, 0)),
    Case("a003-c", "a003", 4, 4, (0, 0)),
    _own("a003-c-loop", "a003-loop"),
    Case("a003-c-loop", "a003-loop", 5, 5, (0, 0)),
    Case("a003-c-loop", "a003-loop", 4, 4, (0, 0)),
    _own("a003-c-stack", "a003-stack"),
    Case("a003-c-stack", "a003-stack", 5, 6, (0, 0)),
    Case("a003-c-stack", "a003-stack", 4, 4, (0, 0)),
]


def test_every_article_ordering_is_checked_on_three_boards_or_more():
    counts = {ordering: 0 for ordering in ARTICLES}
    for case in CASES:
        if case.ordering in counts:  # seed and warnsdorff are checked besides
            counts[case.ordering] += 1
    assert {ordering: n for ordering, n in counts.items() if n < 3} == {}


@functools.cache
def _ran(program: str, rows: int, cols: int, start: tuple[int, int], cap: int = WHOLE):
    """One run of a program (cached: several tests read the same run)."""
    try:
        return programs.run(programs.PROGRAMS_BY_NAME[program], rows, cols, start, max_events=cap)
    except programs.ToolMissing as missing:
        pytest.fail(str(missing))


def _program_run(case: Case) -> programs.Run:
    return _ran(case.program, case.rows, case.cols, case.start, case.cap)


def _engine(case: Case, count: int):
    """Our first ``count`` steps as (kind, square), and the final event if it came first."""
    board = Board(case.rows, case.cols)
    stream = search_events(board, board.square(*case.start), ordering=case.ordering)
    steps: list[tuple[str, int]] = []
    for event in itertools.islice(stream, count + 1):  # one more: the end, or a step more
        if isinstance(event, Move):
            steps.append(("enter", event.square))
        elif isinstance(event, Backtrack):
            steps.append(("leave", event.square))
        else:
            return steps, event
    return steps, None


def _first_difference(ours, theirs, cols: int) -> str:
    def name(step):
        if step is None:
            return "nothing"
        kind, square = step
        return f"{kind} {divmod(square, cols)}"

    for i, (a, b) in enumerate(itertools.zip_longest(ours, theirs)):
        if a != b:
            before = ", ".join(name(s) for s in theirs[max(0, i - 4) : i])
            return (
                f"event {i}: the program does {name(b)}, our stream {name(a)} "
                f"(the program before it: {before})"
            )
    return "no difference"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_program_and_our_stream_enter_and_leave_the_same_squares(case):
    program = programs.PROGRAMS_BY_NAME[case.program]
    ran = _program_run(case)
    assert ran.ended in ("exit", "events", "success"), f"{case.program} {ran.ended}"
    assert ran.events, f"{case.program} printed no events: {ran.output[:5]}"

    steps, final = _engine(case, len(ran.events))
    assert steps[: len(ran.events)] == ran.events, _first_difference(steps, ran.events, case.cols)
    if ran.ended == "events":  # cut at the cap: our stream goes on too
        assert final is None, f"our stream ends at the cap: {final}"
        return
    # The program ended (or showed its first success): our stream ends there too.
    extra = [(kind, divmod(square, case.cols)) for kind, square in steps[len(ran.events) :]]
    assert extra == [], f"the program stops ({ran.output[-1:]}), our stream goes on: {extra}"
    dump = programs.board_dump(program, ran.output, case.rows)
    area = case.rows * case.cols
    if dump is not None and all(dump):  # the program printed a tour
        assert isinstance(final, Found), f"the program found a tour, our stream says {final}"
        order = sorted(range(area), key=dump.__getitem__)
        assert list(final.tour) == order
        assert_tour(case.rows, case.cols, final.tour, start=case.start)
        assert final.nodes == ran.nodes
    elif ran.ended == "success":  # the Python article's last move landed on its start
        assert isinstance(final, Declared), f"the program declared success, our stream: {final}"
        assert final.path == _path(ran.events)
        assert final.path[-1] == final.path[0] and final.nodes == ran.nodes
    else:
        assert isinstance(final, Exhausted), f"the program found no tour, our stream: {final}"
        assert final.nodes == ran.nodes


def _path(events: list[tuple[str, int]]) -> tuple[int, ...]:
    """The squares on the program's path after its events (enter pushes, leave pops)."""
    path: list[int] = []
    for kind, square in events:
        if kind == "enter":
            path.append(square)
        else:
            path.pop()
    return tuple(path)


@pytest.mark.parametrize(
    ("program", "rows", "cols", "start"),
    [
        ("a000", 8, 8, (2, 0)),
        ("a001-fixed", 6, 6, (4, 3)),
        ("a001", 5, 5, (2, 2)),  # its board when it lands on its start
        ("a002", 6, 6, (5, 0)),
        ("a003", 5, 5, (0, 0)),
        ("a003-stack", 3, 4, (0, 0)),
    ],
)
def test_the_events_read_rebuild_the_board_the_program_prints(program, rows, cols, start):
    """The parser checked against the programs' own final board dumps."""
    ran = _ran(program, rows, cols, start)
    dump = programs.board_dump(programs.PROGRAMS_BY_NAME[program], ran.output, rows)
    assert dump is not None, ran.output[-10:]
    assert programs.replay(ran.events, rows * cols) == dump


def test_the_stack_version_prints_exactly_what_traverse_prints():
    """Item 5: the explicit stack gives the recursive traverse's events, the ending included."""
    for rows, cols, start in ((5, 5, (2, 0)), (4, 4, (0, 0)), (3, 4, (0, 0))):
        recursive = _ran("a003", rows, cols, start)
        stacked = _ran("a003-stack", rows, cols, start)
        assert stacked.events == recursive.events
        assert stacked.ended == recursive.ended == "exit"


def test_the_article_figures_from_the_programs_themselves():
    """The issue's figures, counted from what the programs print (nodes = squares entered)."""
    figures = {
        ("a000", 8, 8, (2, 0)): 720,
        ("a000-fixed", 8, 8, (2, 0)): 64,
        ("a002", 6, 6, (5, 0)): 47,
        ("a002-unsorted", 6, 6, (5, 0)): 5_422,
        ("a003", 5, 5, (2, 0)): 781_815,
        ("a001-fixed", 6, 6, (4, 3)): 36,
    }
    counted = {key: _ran(*key).nodes for key in figures}
    assert counted == figures


class _Node:
    def __init__(self, wayout: int) -> None:
        self.wayout = wayout


@pytest.mark.parametrize("wayouts", [[5, 3, 1], [2, 0, 3, 1], [1, 1, 0], [4, 2, 6, 0, 3, 1, 5, 2]])
def test_the_ported_bool_comparator_sorts_nothing(wayouts):
    """Why the port is faithful: cmp_to_key of the article's bool lambda keeps the order.

    Python 2's sorted(v, cmp) and Python 3's sorted(v, key=cmp_to_key(cmp)) both ask
    only whether cmp(a, b) < 0; a bool never is.  The lists are out of order, so a
    comparator that works does reorder them (checked too).
    """
    nodes = [_Node(w) for w in wayouts]
    article = sorted(nodes, key=cmp_to_key(lambda x, y: x.wayout < y.wayout))
    meant = sorted(nodes, key=cmp_to_key(lambda x, y: x.wayout - y.wayout))
    assert article == nodes
    assert [n.wayout for n in meant] == sorted(wayouts) != wayouts
    assert any(x.wayout < y.wayout for x, y in itertools.permutations(nodes, 2))


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("a000/HorseChessboard.java", "a000_fixed/HorseChessboard.java"),
        ("a002/HorseChessBoard.java", "a002_fixed/HorseChessBoard.java"),
        ("a001_port.py", "a001_fixed.py"),
    ],
)
def test_a_corrected_program_changes_only_its_fixed_lines(written, fixed):
    """ "The bug fixed and nothing else": every line the copy adds is marked [fixed],
    and it takes out no more lines than it adds (each one replaced)."""

    def code(path: str) -> list[str]:
        lines = (programs.PROGRAMS / path).read_text(encoding="utf-8").splitlines()
        header = ("#", "//")  # the explanation at the top of each file
        return list(itertools.dropwhile(lambda line: line.startswith(header) or not line, lines))

    diff = list(difflib.ndiff(code(written), code(fixed)))
    added = [line[2:] for line in diff if line.startswith("+ ")]
    removed = [line[2:] for line in diff if line.startswith("- ")]
    assert added, "the corrected copy changes nothing"
    assert [line for line in added if "[fixed]" not in line] == []
    assert len(removed) <= len(added)


@pytest.mark.parametrize(
    "path",
    [
        "a000/HorseChessboard.java",
        "a000_fixed/HorseChessboard.java",
        "a002/HorseChessBoard.java",
        "a002_unsorted/HorseChessBoard.java",
        "a002_fixed/HorseChessBoard.java",
        "a001_port.py",
        "a001_fixed.py",
        "a003_horse.c",
        "a003_stack.c",
    ],
)
def test_the_instrumentation_is_print_statements_only(path):
    traced = [
        line.strip()
        for line in (programs.PROGRAMS / path).read_text(encoding="utf-8").splitlines()
        if line.rstrip().endswith("[trace]")
    ]
    assert traced
    prints = ('System.out.println("', 'printf("', 'print("')
    assert [line for line in traced if not line.startswith(prints)] == []


@pytest.mark.parametrize(("program", "target"), [("a002", "make jdk"), ("a003", "make core")])
def test_a_missing_compiler_says_which_make_target_installs_it(
    program, target, monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))  # no javac, java or gcc on it
    monkeypatch.setattr(programs, "_BUILDS", {})  # nothing built yet
    with pytest.raises(programs.ToolMissing, match=target):
        programs.build(programs.PROGRAMS_BY_NAME[program], 3, 3, (0, 0))
