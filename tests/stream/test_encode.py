"""The batch encoding round-trips the engine's own event streams exactly."""

from __future__ import annotations

import itertools

import pytest

from server.engine import native
from server.engine.board import Board
from server.engine.events import END_OF_STREAM, Backtrack, Found, Move
from server.engine.search import PRUNINGS, search_events
from server.stream.encode import (
    DecodedBacktrack,
    DecodedMove,
    count_events,
    decode,
    encode,
    encode_backtrack,
    encode_batch,
    encode_into,
    encode_move,
)
from tests.engine.conftest import require_core


def steps(events):
    return [e for e in events if e.kind in ("move", "backtrack")]


def as_decoded(event, counts=False):
    if event.kind == "move":
        onward = tuple(event.onward or ()) if counts else None
        return DecodedMove(event.square, tuple(event.candidates), onward)
    return DecodedBacktrack(event.square)


def test_the_documented_examples():
    out: list[int] = []
    encode_move(out, 7, (7, 11), None, False)
    encode_backtrack(out, 7)
    encode_backtrack(out, 0)
    assert out == [7, 2, 7, 11, -8, -1]
    assert list(decode(out, False)) == [
        DecodedMove(7, (7, 11), None),
        DecodedBacktrack(7),
        DecodedBacktrack(0),
    ]
    counted: list[int] = []
    encode_move(counted, 12, (12, 3), (1, 4), True)
    assert counted == [12, 2, 12, 3, 1, 4]
    assert list(decode(counted, True)) == [DecodedMove(12, (12, 3), (1, 4))]


def test_root_move_has_no_candidates():
    out: list[int] = []
    assert encode_into(out, Move(0, 0, (), None), False)
    assert out == [0, 0]
    assert list(decode(out, False)) == [DecodedMove(0, (), None)]
    counted: list[int] = []
    encode_into(counted, Move(0, 0, (), None), True)  # the warnsdorff root: no counts either
    assert counted == [0, 0]
    assert list(decode(counted, True)) == [DecodedMove(0, (), ())]


def test_final_events_are_not_batched():
    out: list[int] = []
    assert not encode_into(out, Found((0,), 1, 0), False)
    assert out == []
    with pytest.raises(ValueError):
        encode([Found((0,), 1, 0)], False)


def test_counted_move_needs_a_count_per_candidate():
    with pytest.raises(ValueError):
        encode_move([], 3, (3, 4), None, True)
    with pytest.raises(ValueError):
        encode_move([], 3, (3, 4), (1,), True)


@pytest.mark.parametrize(
    ("rows", "cols", "start", "ordering", "pruning", "closed"),
    [
        (5, 5, 0, "seed", (), False),
        (6, 6, 0, "warnsdorff", (), False),
        (5, 6, 7, "seed", PRUNINGS, False),
        (6, 6, 0, "warnsdorff", PRUNINGS, True),
        (3, 4, 1, "seed", (), False),  # exhausts: ends with a backtrack off the root
    ],
)
def test_round_trip_of_engine_streams(rows, cols, start, ordering, pruning, closed):
    board = Board(rows, cols)
    counts = ordering == "warnsdorff"
    events = steps(
        itertools.islice(
            search_events(board, start, closed=closed, ordering=ordering, pruning=pruning),
            200_000,
        )
    )
    assert events
    flat = encode(events, counts)
    assert all(isinstance(x, int) for x in flat)
    assert list(decode(flat, counts)) == [as_decoded(e, counts) for e in events]


def test_batches_split_anywhere_between_events():
    board = Board(5, 5)
    events = steps(search_events(board, 0))
    chunks = [events[i : i + 7] for i in range(0, len(events), 7)]
    decoded = [d for chunk in chunks for d in decode(encode(chunk, False), False)]
    assert decoded == [as_decoded(e) for e in events]


@pytest.mark.parametrize(
    ("ints", "counts"),
    [([5], False), ([5, 2, 1], False), ([5, 1, 2], True), ([5, -3], False)],
)
def test_malformed_batches_are_refused(ints, counts):
    with pytest.raises(ValueError):
        list(decode(ints, counts))


def test_backtrack_is_negative_for_every_square():
    for sq in range(0, 900, 37):
        out: list[int] = []
        encode_into(out, Backtrack(sq, 3), False)
        assert out == [-1 - sq] and out[0] < 0
        assert list(decode(out, False)) == [DecodedBacktrack(sq)]


@pytest.mark.parametrize("counts", [False, True])
def test_count_events(counts):
    board = Board(6, 6)
    ordering = "warnsdorff" if counts else "seed"
    events = steps(itertools.islice(search_events(board, 0, ordering=ordering), 5000))
    assert count_events(encode(events, counts), counts) == len(events)
    assert count_events([], counts) == 0
    with pytest.raises(ValueError):
        count_events([3, 2, 1], counts)


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("kw", [dict(), dict(ordering="warnsdorff", closed=True)])
def test_batches_are_the_events_encoded_in_order(engine, kw):
    if engine == "compiled":
        require_core()
    board = Board(5, 5)
    counts = kw.get("ordering") == "warnsdorff"
    with native.use("python"):
        events = list(search_events(board, 0, node_budget=3000, **kw))
    with native.use(engine):
        stream = search_events(board, 0, node_budget=3000, **kw)
    out: list[int] = []
    batches = []
    while True:
        taken, moves, terminal = encode_batch(stream, 250, out, counts)
        batches.append((taken, moves))
        if terminal is not None:
            break
    assert terminal == events[-1]
    assert out == encode(events[:-1], counts)
    assert sum(t for t, _ in batches) == len(events) - 1
    assert sum(m for _, m in batches) == sum(e.kind == "move" for e in events)
    assert all(t == 250 for t, _ in batches[:-1])
    assert encode_batch(stream, 250, out, counts)[2] is END_OF_STREAM


def test_a_stream_without_a_final_event_ends_the_batch():
    out: list[int] = []
    moves = [Move(0, 0, (), None), Move(7, 1, (7,), None)]
    assert encode_batch(iter(moves), 10, out, False) == (2, 2, END_OF_STREAM)
    assert encode_batch(iter(moves), 0, out, False) == (0, 0, None)
    assert out == [0, 0, 7, 1, 7]
