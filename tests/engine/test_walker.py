"""The walker: a search's events with the viewer's state, resumable from any checkpoint.

Everything is checked against the plain event stream (``search_events``) replayed here
independently: the encoding, the path, the counts, the heat map and the depth chart
(a direct transcription of the browser's DepthChart).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.board import Board, BoardError
from server.engine.construct import construct_tour
from server.engine.events import Found, Move
from server.engine.search import PRUNINGS, search_events
from server.engine.walker import CHART_COLUMNS, Walker
from server.stream.encode import encode
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.usefixtures("engine")  # each test runs on both engines

CASES = [
    # rows, cols, start, algorithm, closed, pruning
    (5, 5, 0, "seed", False, ()),
    (5, 5, 1, "seed", False, ()),  # no tour from b5-ish squares: ends exhausted
    (5, 5, 12, "warnsdorff", False, ()),
    (6, 6, 0, "warnsdorff", True, ()),
    (5, 6, 3, "seed", True, PRUNINGS),
    (4, 5, 0, "seed", False, ("dead-ends",)),
    (3, 3, 0, "seed", False, PRUNINGS),  # a dead root: a move onto it, then back
    (6, 6, 0, "construct", True, ()),
    (7, 7, 0, "construct", False, ()),
]


def reference(rows, cols, start, algorithm, closed, pruning, limit=6000):
    """(events, final) of the run, from the plain event stream or the construction."""
    if algorithm == "construct":
        tour = construct_tour(rows, cols, start, closed=closed)
        moves = [Move(sq, d, (), None) for d, sq in enumerate(tour)]
        return moves, Found(tuple(tour), len(tour), 0)
    stream = search_events(
        Board(rows, cols), start, closed=closed, ordering=algorithm, pruning=pruning
    )
    events = list(itertools.islice(stream, limit))
    final = None
    if events and events[-1].kind not in ("move", "backtrack"):
        final = events.pop()
    return events, final


def chart_of(depths, capacity=CHART_COLUMNS):
    """static/js/lanes/stats.js DepthChart.push, transcribed line by line."""
    mins, maxs = [0] * capacity, [0] * capacity
    span = length = fill = 0
    span = 1
    for depth in depths:
        i = length
        if fill == 0:
            mins[i] = maxs[i] = depth
        else:
            mins[i] = min(mins[i], depth)
            maxs[i] = max(maxs[i], depth)
        fill += 1
        if fill == span:
            fill = 0
            length += 1
            if length == capacity:
                half = capacity >> 1
                for j in range(half):
                    mins[j] = min(mins[2 * j], mins[2 * j + 1])
                    maxs[j] = max(maxs[2 * j], maxs[2 * j + 1])
                length = half
                span *= 2
    n = length + (1 if fill else 0)
    return span, length, fill, len(depths), tuple(mins[:n]), tuple(maxs[:n])


def replay(events, count, area):
    """Path, heat, max depth and depths after the first ``count`` events."""
    path, heat, depths, max_depth = [], [0] * area, [], 0
    for event in events[:count]:
        if event.kind == "move":
            path.append(event.square)
            heat[event.square] += 1
            max_depth = max(max_depth, len(path))
        else:
            assert path.pop() == event.square
        depths.append(len(path))
    return path, heat, max_depth, depths


def make(rows, cols, start, algorithm, closed, pruning, state=None):
    return Walker(
        Board(rows, cols),
        start,
        algorithm=algorithm,
        closed=closed,
        pruning=pruning,
        state=state,
    )


@pytest.mark.parametrize(("rows", "cols", "start", "algorithm", "closed", "pruning"), CASES)
def test_the_walker_encodes_the_stream_and_keeps_the_viewers_state(
    rows, cols, start, algorithm, closed, pruning
):
    events, final = reference(rows, cols, start, algorithm, closed, pruning)
    walker = make(rows, cols, start, algorithm, closed, pruning)
    out: list[int] = []
    taken = 0
    for size in itertools.cycle([1, 7, 250, 1000]):  # batches of every size
        got = walker.advance(min(size, len(events) - taken), out)
        taken += got
        if got == 0 or taken >= len(events):
            break
    assert taken == len(events)
    assert out == encode(events, algorithm == "warnsdorff")
    path, heat, max_depth, depths = replay(events, taken, rows * cols)
    state = walker.state()
    assert (state.index, list(state.path), list(state.heat)) == (taken, path, heat)
    assert state.max_depth == max_depth
    assert state.nodes == sum(e.kind == "move" for e in events)
    assert state.backtracks == taken - state.nodes
    assert state.chart == chart_of(depths)
    if final is not None:
        assert walker.advance(1) == 0
        assert walker.end == final
        if final.kind == "found":
            assert_tour(rows, cols, list(final.tour), closed=closed)
            assert list(final.tour) == path


@pytest.mark.parametrize(("rows", "cols", "start", "algorithm", "closed", "pruning"), CASES)
def test_a_walker_from_any_state_continues_the_same_events(
    rows, cols, start, algorithm, closed, pruning
):
    events, _final = reference(rows, cols, start, algorithm, closed, pruning)
    counts = algorithm == "warnsdorff"
    whole = make(rows, cols, start, algorithm, closed, pruning)
    states = []
    for _ in range(len(events)):
        states.append(whole.state())
        whole.advance(1)
    for state in states[:: max(1, len(states) // 40)] + states[-2:]:
        walker = make(rows, cols, start, algorithm, closed, pruning, state=state)
        out: list[int] = []
        walker.advance(len(events) - state.index, out)
        assert out == encode(events[state.index :], counts), state.index
        assert walker.state() == whole.state()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.sampled_from(["seed", "warnsdorff"]),
    st.booleans(),
    st.sampled_from([(), PRUNINGS]),
    st.data(),
)
def test_checkpoints_anywhere_resume_exactly(rows, cols, algorithm, closed, pruning, data):
    start = data.draw(st.integers(0, rows * cols - 1))
    limit = 3000
    whole = make(rows, cols, start, algorithm, closed, pruning)
    out_whole: list[int] = []
    whole.advance(limit, out_whole)
    cut = data.draw(st.integers(0, whole.index))
    first = make(rows, cols, start, algorithm, closed, pruning)
    out: list[int] = []
    first.advance(cut, out)
    second = make(rows, cols, start, algorithm, closed, pruning, state=first.state())
    second.advance(limit - cut, out)
    assert out == out_whole
    assert second.state() == whole.state()


def test_a_state_of_another_board_is_refused():
    walker = make(5, 5, 0, "seed", False, ())
    walker.advance(10)
    with pytest.raises(BoardError):
        make(6, 6, 0, "seed", False, (), state=walker.state())


def test_the_chart_merges_columns_when_full():
    walker = make(6, 6, 0, "seed", False, ())
    walker.advance(100_000)
    span, length, _fill, events, mins, maxs = walker.state().chart
    assert events == 100_000
    assert span >= 256 and length <= CHART_COLUMNS
    assert all(1 <= lo <= hi <= 36 for lo, hi in zip(mins, maxs, strict=True))


def test_a_walker_resumed_after_the_root_was_left_only_ends():
    walker = make(3, 3, 4, "seed", False, PRUNINGS)  # the centre: no move, no tour
    assert walker.advance(5) == 2
    again = make(3, 3, 4, "seed", False, PRUNINGS, state=walker.state())
    assert again.advance(5) == 0
    assert again.end == walker.end
