"""The timeline: one demo's events computed once, served at any index.

Snapshots and event ranges are checked against the plain event stream replayed here
(``search_events`` and ``encode``), at indices all over the run, after thinning the
checkpoints, and on a timeline restored from another's checkpoints (a takeover).
"""

from __future__ import annotations

import itertools

import pytest

from server.engine.board import Board
from server.engine.search import search_events
from server.stream import timeline as timeline_module
from server.stream.encode import encode
from server.stream.timeline import (
    MAX_CHECKPOINTS,
    Demo,
    Timeline,
    state_from_json,
    state_to_json,
)
from tests.engine.test_walker import chart_of, replay
from tests.tourcheck import assert_tour


def demo(rows=6, cols=6, start=0, algorithm="seed", closed=False, budget=5_000_000, time=600.0):
    return Demo(rows, cols, start, algorithm, closed, False, budget, time)


def stream(d: Demo, limit: int):
    events = list(
        itertools.islice(
            search_events(Board(d.rows, d.cols), d.start, closed=d.closed, ordering=d.algorithm),
            limit,
        )
    )
    return [e for e in events if e.kind in ("move", "backtrack")]


@pytest.fixture
def small_spacing(monkeypatch):
    monkeypatch.setattr(timeline_module, "FIRST_SPACING", 500)


def check_snapshot(snapshot, events, counts, area):
    index, at = snapshot["index"], snapshot["at"]
    path, heat, max_depth, depths = replay(events, at, area)
    assert snapshot["path"] == path
    assert snapshot["heat"] == heat
    assert snapshot["max_depth"] == max_depth
    assert snapshot["nodes"] == sum(e.kind == "move" for e in events[:at])
    assert snapshot["backtracks"] == at - snapshot["nodes"]
    span, length, fill, count, mins, maxs = chart_of(depths)
    expected = {"span": span, "length": length, "fill": fill, "events": count}
    assert snapshot["chart"] == {**expected, "min": list(mins), "max": list(maxs)}
    assert snapshot["events"] == encode(events[at:index], counts)


def test_snapshots_anywhere_match_the_stream(small_spacing):
    d = demo(algorithm="warnsdorff", closed=True)  # a long closed search with counts
    events = stream(d, 20_000)
    line = Timeline(d)
    line.extend(len(events))
    assert line.frontier == len(events)
    for index in [0, 1, 2, 99, 100, 101, 499, 500, 501, 7_777, 12_345, len(events)]:
        check_snapshot(line.snapshot(index), events, True, 36)
    assert line.snapshot(10**9)["index"] == len(events)  # clamped to what is computed


def test_event_ranges_match_the_stream(small_spacing):
    d = demo()
    events = stream(d, 30_000)
    line = Timeline(d)
    line.extend(30_000)
    for start, stop in [(0, 10), (10, 2_000), (2_000, 2_001), (29_000, 30_000), (25, 26_000)]:
        assert line.events(start, stop) == encode(events[start:stop], False)
    assert line.events(29_990, 40_000) == encode(events[29_990:], False)  # clamped


def test_checkpoints_thin_out_and_stay_bounded(small_spacing):
    d = demo()
    line = Timeline(d)
    line.extend(MAX_CHECKPOINTS * 500 * 3)
    states = line.checkpoints()
    assert line.latest_checkpoint == states[-1].index
    assert len(states) <= MAX_CHECKPOINTS
    assert line.spacing >= 1000
    assert all(s.index % line.spacing == 0 for s in states)
    events = stream(d, line.frontier)
    check_snapshot(line.snapshot(line.frontier - 3), events, False, 36)


def test_a_restored_timeline_serves_and_continues_identically(small_spacing):
    d = demo(algorithm="warnsdorff", closed=True)
    events = stream(d, 12_000)
    first = Timeline(d)
    first.extend(6_000)
    saved = [state_from_json(state_to_json(s)) for s in first.checkpoints()]
    assert saved == first.checkpoints()
    second = Timeline(d, saved)  # another process takes the room over
    assert second.frontier == saved[-1].index
    second.extend(12_000)
    check_snapshot(second.snapshot(3_210), events, True, 36)
    assert second.events(5_990, 6_100) == encode(events[5_990:6_100], True)
    assert second.events(11_000, 12_000) == encode(events[11_000:12_000], True)


def test_the_end_is_known_with_the_outcome():
    d = demo(rows=5, cols=5)
    line = Timeline(d)
    line.extend(10**9)
    end = line.end
    assert end["status"] == "found" and end["total"] == line.frontier
    assert end["nodes"] + end["backtracks"] == end["total"]
    assert_tour(5, 5, end["tour"])
    assert line.snapshot(10**9, tail=0)["path"] == end["tour"]
    assert line.extend(10**9 + 5) == [] and line.frontier == end["total"]


def test_budget_and_time_limits_end_the_search():
    line = Timeline(demo(budget=1_000))
    line.extend(10**9)
    assert line.end["status"] == "budget" and line.end["limit"] == "nodes"
    assert line.end["nodes"] == 1_000
    slow = Timeline(demo(time=0.0))
    slow.extend(10**9)
    assert slow.end["status"] == "budget" and slow.end["limit"] == "time"


def test_extending_by_time_slices_stops_early():
    line = Timeline(demo(rows=8, cols=8))  # 500 M events: never reached in a slice
    line.extend(10**9, seconds=0.01)
    assert 0 < line.frontier < 10**9 and line.end is None


def test_the_construction_is_a_timeline_too():
    line = Timeline(demo(rows=10, cols=10, algorithm="construct", closed=True))
    line.extend(10**6)
    assert line.end["status"] == "found" and line.end["total"] == 100
    assert_tour(10, 10, line.end["tour"], closed=True)
    snap = line.snapshot(60, tail=5)
    assert snap["path"] == line.end["tour"][:55] and len(snap["events"]) == 5 * 2
