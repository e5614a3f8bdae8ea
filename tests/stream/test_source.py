"""The event stream a spec opens: the engine's own, or the construction replayed."""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import PRUNINGS, search_events
from server.engine.theory import verify
from server.stream.source import open_events, root_prefix
from server.stream.spec import RunSpec


def spec(**kw) -> RunSpec:
    base = dict(
        run="r",
        rows=6,
        cols=6,
        start=0,
        algorithm="seed",
        closed=False,
        pruning=False,
        window=1000,
        node_budget=5000,
        time_limit=60.0,
    )
    base.update(kw)
    return RunSpec(**base)


@pytest.mark.parametrize(
    ("changes", "kwargs"),
    [
        ({}, {}),
        ({"algorithm": "warnsdorff", "closed": True}, {"ordering": "warnsdorff", "closed": True}),
        ({"pruning": True}, {"pruning": PRUNINGS}),
        ({"prefix": (0, 13, 2)}, {"prefix": (0, 13, 2)}),
    ],
)
def test_searches_are_the_engine_stream(changes, kwargs):
    s = spec(**changes)
    ours = list(open_events(s))
    theirs = list(search_events(Board(6, 6), 0, node_budget=5000, **kwargs))
    assert ours == theirs
    assert ours[0].kind == "move" and ours[0].candidates == ()
    assert ours[0].square == (s.prefix[-1] if s.prefix else s.start)


def test_root_prefix():
    assert root_prefix(spec()) == []
    assert root_prefix(spec(prefix=(0, 13, 2))) == [0, 13]


def test_the_construction_is_replayed_as_moves():
    events = list(open_events(spec(algorithm="construct", rows=12, cols=9, start=20)))
    *moves, found = events
    assert found.kind == "found" and [m.square for m in moves] == list(found.tour)
    assert all(m.kind == "move" and m.candidates == () for m in moves)
    assert [m.depth for m in moves] == list(range(12 * 9))
    assert found.tour[0] == 20 and verify(Board(12, 9), found.tour)


@pytest.mark.parametrize(("rows", "cols", "start", "closed"), [(5, 5, 0, False), (6, 6, 7, True)])
def test_onward_counts_are_the_candidates_unvisited_neighbours(rows, cols, start, closed):
    """docs/protocol.md: ``ni`` is how many unvisited neighbours ``ci`` has, the square the
    knight moves from counting as visited (as a viewer replays the stream)."""
    from server.stream.encode import DecodedMove, decode, encode

    run = spec(rows=rows, cols=cols, start=start, algorithm="warnsdorff", closed=closed)
    events = list(open_events(run))[:-1]  # the last one is the outcome
    neighbours = Board(rows, cols).neighbours
    path: list[int] = []
    checked = 0
    for event in decode(encode(events, True), True):
        if isinstance(event, DecodedMove):
            if event.candidates:  # the root move has none
                visited = set(path)  # the square moved from included
                expected = [sum(n not in visited for n in neighbours[c]) for c in event.candidates]
                assert list(event.onward) == expected, (path, event)
                checked += 1
            path.append(event.square)
        else:
            assert path.pop() == event.square
    assert checked > rows * cols // 2
