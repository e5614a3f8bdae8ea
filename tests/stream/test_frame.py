"""The frame a page first draws, computed on the server from a snapshot.

Each frame is checked against the plain event stream (``search_events``) replayed here:
the path and counters after ``index`` events, and every square's state and number worked
out from the last event as the board marks a search's choice.  The browser's own drawing
of the same frame is compared square by square in tests/browser/test_class_opening.py.
"""

from __future__ import annotations

import itertools

import pytest

from server.engine.board import Board
from server.engine.search import search_events
from server.stream.frame import file_name, format_number, frame_at, narration
from server.stream.timeline import Demo, Timeline


def demo(rows=6, cols=6, start=0, algorithm="seed", closed=False, holes=frozenset()):
    return Demo(rows, cols, start, algorithm, closed, False, 5_000_000, 600.0, frozenset(holes))


def stream(d: Demo, limit: int) -> list:
    board = Board(d.rows, d.cols, d.holes)
    events = search_events(board, d.start, closed=d.closed, ordering=d.algorithm)
    return [e for e in itertools.islice(events, limit) if e.kind in ("move", "backtrack")]


def expected_cells(d: Demo, events: list, index: int, *, ended=False) -> list[tuple[str, int]]:
    """(state, number) of every square after ``index`` events, worked out from the stream."""
    board = Board(d.rows, d.cols, d.holes)
    path = []  # the first event is the move onto the start square
    for event in events[:index]:
        if event.kind == "move":
            path.append(event.square)
        else:
            assert path.pop() == event.square
    order = {sq: i + 1 for i, sq in enumerate(path)}
    cells = [("empty", 0)] * (d.rows * d.cols)
    for sq in d.holes:
        cells[sq] = ("hole", 0)
    for sq, n in order.items():
        cells[sq] = ("visited", n)
    if path:
        cells[path[-1]] = ("current", len(path))
    last = events[index - 1] if index > 0 else None
    if last is None or ended:
        return cells
    if last.kind == "backtrack":
        if last.square not in order:
            cells[last.square] = ("dead", 0)
        return cells
    tried = list(last.candidates).index(last.square) if last.candidates else 0
    for i, sq in enumerate(last.candidates):
        if sq in order:
            continue
        free = [t for t in board.neighbours[sq] if t not in order]
        onward = last.onward[i] if d.counts else len(free)
        cells[sq] = ("tried" if i < tried else "candidate", onward)
    return cells


def drawn(frame) -> list[tuple[str, int]]:
    return [(cell.state, cell.number) for line in frame.cells() for cell in line]


def frame_of(line: Timeline, d: Demo, index: int, end=None):
    return frame_at(line.snapshot(index), d, end=end)


@pytest.mark.parametrize(
    "d",
    [
        demo(),
        demo(5, 5, algorithm="warnsdorff", closed=True, start=12),
        demo(6, 6, start=7, holes={14, 21}),
    ],
    ids=["plain", "warnsdorff-counts", "holes"],
)
def test_the_frame_at_any_index_is_the_streams_position(d):
    events = stream(d, 12_000)
    line = Timeline(d)
    line.extend(len(events))
    backs = [i + 1 for i, e in enumerate(events) if e.kind == "backtrack"][:3]
    for index in [0, 1, 2, 99, 100, 101, 2_345, len(events), *backs]:
        frame = frame_of(line, d, index)
        moves = sum(e.kind == "move" for e in events[:index])
        assert frame.pos == index
        assert (frame.nodes, frame.backtracks) == (moves, index - moves)
        assert frame.path == tuple(line.snapshot(index, tail=0)["path"])
        assert drawn(frame) == expected_cells(d, events, index), index
        assert frame.line_points().count(" ") == max(0, frame.depth - 1)
    assert backs, "the run backtracked"


def test_a_frame_after_a_backtrack_marks_the_square_backed_out_of():
    d = demo()
    events = stream(d, 5_000)
    line = Timeline(d)
    line.extend(len(events))
    index = next(i + 1 for i, e in enumerate(events) if e.kind == "backtrack")
    frame = frame_of(line, d, index)
    assert frame.last.back == events[index - 1].square
    states = [cell.state for row in frame.cells() for cell in row]
    assert states[events[index - 1].square] == "dead"


def test_the_frame_on_the_last_event_shows_the_outcome_and_no_marks():
    d = demo(5, 5, algorithm="warnsdorff", start=0)
    line = Timeline(d)
    line.extend(10**6)
    assert line.end is not None and line.end["status"] == "found"
    total = line.end["total"]
    events = stream(d, total + 5)
    frame = frame_of(line, d, total, end=line.end)
    assert frame.status == "found" and frame.depth == 25
    assert drawn(frame) == expected_cells(d, events, total, ended=True)
    before = frame_of(line, d, total - 1, end=line.end)  # one event short: still searching
    assert before.status == "" and before.end is None


def test_a_snapshot_whose_events_do_not_fit_its_path_is_refused():
    d = demo()
    line = Timeline(d)
    line.extend(1_000)
    snapshot = dict(line.snapshot(500))
    with pytest.raises(ValueError):
        frame_at({**snapshot, "path": snapshot["path"][:-1]}, d)
    with pytest.raises(ValueError):
        frame_at({**snapshot, "events": snapshot["events"][:3]}, d)


def words(key: str, **params) -> str:
    return f"{key}|" + ",".join(f"{k}={v}" for k, v in sorted(params.items()))


def test_the_narration_says_what_the_last_event_did():
    d = demo(5, 5, algorithm="warnsdorff", closed=True, start=12)
    events = stream(d, 3_000)
    line = Timeline(d)
    line.extend(len(events))
    assert narration(frame_of(line, d, 0), words) is None  # nothing happened yet
    first = frame_of(line, d, 1)  # the move onto the start square
    assert narration(first, words) == "watch.ui.narr.start|square=c3"
    second = frame_of(line, d, 2)
    move = events[1]
    n = move.onward[list(move.candidates).index(move.square)]
    key = "watch.ui.narr.try.one" if n == 1 else "watch.ui.narr.try"
    assert narration(second, words) == f"{key}|n={n},square={second.name(move.square)}"
    index = next(i + 1 for i, e in enumerate(events) if e.kind == "backtrack")
    back = frame_of(line, d, index)
    assert narration(back, words) == (
        f"watch.ui.narr.back|square={back.name(events[index - 1].square)},"
        f"to={back.name(back.path[-1])}"
    )


def test_names_and_numbers_are_written_as_the_pages_write_them():
    assert [file_name(c) for c in (0, 25, 26, 27, 51, 52)] == ["a", "z", "aa", "ab", "az", "ba"]
    assert format_number(1234567) == "1,234,567" and format_number(12) == "12"
