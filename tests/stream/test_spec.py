"""Strict validation of start / credit / stop payloads: every refusal has its code.

The models refuse with a ValidationError; the web layer's adapter words it
(server/web/refusals.py), as every client sees it.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from server.stream.spec import (
    DEFAULT_NODE_BUDGET,
    DEFAULT_TIME_LIMIT,
    MAX_SEEK_INDEX,
    CreditMessage,
    GameInfo,
    ProtocolError,
    SeekMessage,
    StopMessage,
    parse_start,
    run_of,
)
from server.web.refusals import WATCH, refusal_of
from server.web.sockets import error_body


def parse_credit(payload) -> tuple[str, int]:
    message = CreditMessage.model_validate(payload)
    return message.run, message.events


def parse_stop(payload) -> str:
    return StopMessage.model_validate(payload).run


GOOD = {
    "run": "a1",
    "rows": 5,
    "cols": 6,
    "start": [1, 2],
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
    "window": 4000,
}


def payload_with(**changes) -> dict:
    payload = {**GOOD, **changes}
    for key, value in changes.items():
        if value is ...:
            del payload[key]
    return payload


def start(**changes):
    return parse_start(payload_with(**changes))


def refused(code, fn, payload, *args) -> ProtocolError:
    """The refusal as the client gets it; its ``run`` is the label of the error event."""
    with pytest.raises(ValidationError) as info:
        fn(payload, *args)
    refusal = refusal_of(info.value, WATCH)
    err = ProtocolError(refusal.code, refusal.key, **refusal.params)
    assert err.code == code, err
    assert err.key.startswith(f"watch.error.{code}") or err.key.startswith(
        "watch.error.bad-request"
    )
    err.run = error_body(err, "en", payload)["run"]
    return err


def test_a_good_start():
    spec = start()
    assert (spec.run, spec.rows, spec.cols, spec.start) == ("a1", 5, 6, 8)
    assert spec.algorithm == "seed" and not spec.counts and spec.prefix == ()
    assert spec.node_budget == DEFAULT_NODE_BUDGET and spec.time_limit == DEFAULT_TIME_LIMIT
    assert start(algorithm="warnsdorff").counts
    spec = start(node_budget=1, time_limit=600, pruning=True, closed=True)
    assert (spec.node_budget, spec.time_limit, spec.pruning, spec.closed) == (1, 600.0, True, True)
    assert start(time_limit=0.5).time_limit == 0.5
    assert start(node_budget=None, time_limit=None).node_budget == DEFAULT_NODE_BUDGET
    assert start(extra="ignored").run == "a1"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"algorithm": "bogo"}, "unknown-algorithm"),
        ({"algorithm": "Seed"}, "unknown-algorithm"),
        ({"rows": 31}, "bad-board"),
        ({"cols": 2}, "bad-board"),
        ({"rows": 10**9, "cols": 10**9}, "bad-board"),
        ({"rows": 101, "algorithm": "construct"}, "bad-board"),
        ({"start": [5, 0]}, "bad-board"),
        ({"start": [0, -1]}, "bad-board"),
        ({"node_budget": -1}, "bad-budget"),
        ({"node_budget": 0}, "bad-budget"),
        ({"node_budget": 300_000_001}, "bad-budget"),
        ({"time_limit": 0}, "bad-budget"),
        ({"time_limit": -3}, "bad-budget"),
        ({"time_limit": 601}, "bad-budget"),
        ({"time_limit": float("nan")}, "bad-budget"),
        ({"time_limit": float("inf")}, "bad-budget"),
        ({"rows": "5"}, "bad-request"),
        ({"rows": 5.0}, "bad-request"),
        ({"rows": True}, "bad-request"),
        ({"start": "0,0"}, "bad-request"),
        ({"start": [0]}, "bad-request"),
        ({"start": [0, 0, 0]}, "bad-request"),
        ({"start": [0.0, 0]}, "bad-request"),
        ({"start": [True, 0]}, "bad-request"),
        ({"closed": 0}, "bad-request"),
        ({"pruning": "yes"}, "bad-request"),
        ({"algorithm": 3}, "bad-request"),
        ({"window": 0}, "bad-request"),
        ({"window": 20_001}, "bad-request"),
        ({"window": "4000"}, "bad-request"),
        ({"node_budget": "1000"}, "bad-request"),
        ({"node_budget": 1e6}, "bad-request"),
        ({"time_limit": "60"}, "bad-request"),
        ({"time_limit": True}, "bad-request"),
        ({"run": ""}, "bad-request"),
        ({"run": "x" * 17}, "bad-request"),
        ({"run": "a b"}, "bad-request"),
        ({"run": 7}, "bad-request"),
        ({"game": 7}, "bad-request"),
        ({"game": ""}, "bad-request"),
        ({"game": "g" * 65}, "bad-request"),
        ({"game": "nope"}, "unknown-game"),
    ]
    + [({field: ...}, "bad-request") for field in GOOD],
)
def test_refusals(changes, code):
    err = refused(code, parse_start, payload_with(**changes))
    if "run" not in changes:
        assert err.run == "a1"  # the error names the run it refuses


def test_payload_must_be_an_object():
    for payload in (None, [], "start", 3, ["a1"]):
        err = refused("bad-request", parse_start, payload)
        assert err.run is None
        refused("bad-request", parse_credit, payload)
        refused("bad-request", parse_stop, payload)


def test_construction_limits():
    assert start(algorithm="construct", rows=100, cols=100, start=[99, 99]).rows == 100
    err = refused("bad-board", parse_start, payload_with(algorithm="construct", rows=4, cols=4))
    assert err.key == "watch.error.bad-board.no-tour" and err.params["reason_code"]
    # a search on the same board is allowed: watching it fail is the lesson
    assert start(rows=4, cols=4, start=[0, 0]).rows == 4


def test_credit_and_stop():
    assert parse_credit({"run": "r-1_", "events": 1000}) == ("r-1_", 1000)
    assert parse_stop({"run": "Z"}) == "Z"
    for bad in (0, -5, 20_001, 1.5, "10", True, None):
        err = refused("bad-request", parse_credit, {"run": "a1", "events": bad})
        assert err.run == "a1"
    refused("bad-request", parse_credit, {"run": "a1"})
    refused("bad-request", parse_stop, {})
    assert run_of({"run": "ok"}) == "ok" and run_of({"run": "no way"}) is None
    assert run_of("junk") is None


def test_game_supplies_board_and_path():
    games = {
        "g1": GameInfo(6, 6, True, (0, 13, 2)),
        "g0": GameInfo(5, 5, False, ()),
        "bad": GameInfo(5, 5, False, (0, 99)),
    }
    payload = {k: v for k, v in GOOD.items() if k not in ("rows", "cols", "start", "closed")}
    spec = parse_start({**payload, "game": "g1"}, games.get)
    assert (spec.rows, spec.cols, spec.closed, spec.start) == (6, 6, True, 0)
    assert spec.prefix == (0, 13, 2)
    assert spec.game == "g1"
    # an empty game needs the payload's start square
    refused("bad-request", parse_start, {**payload, "game": "g0"}, games.get)
    assert parse_start({**payload, "game": "g0", "start": [2, 2]}, games.get).start == 12
    refused("unknown-game", parse_start, {**payload, "game": "nope"}, games.get)
    refused("unknown-game", parse_start, {**payload, "game": "bad"}, games.get)
    construct = {**payload, "game": "g1", "algorithm": "construct"}
    refused("bad-request", parse_start, construct, games.get)


def test_holes_of_a_fresh_run():
    assert start().holes == frozenset()
    spec = start(holes=[0, 29, 13])
    assert spec.holes == {0, 13, 29} and spec.start == 8
    assert start(holes=[], algorithm="construct", rows=6, cols=6).holes == frozenset()
    for holes, key in (
        ([30], "watch.error.bad-holes.off-board"),  # off the 5x6 board
        ([-1], "watch.error.bad-holes.off-board"),
        ([8], "watch.error.bad-holes.start"),  # the start
        ([3, 3], "watch.error.bad-holes.twice"),
    ):
        assert refused("bad-holes", parse_start, payload_with(holes=holes)).key == key
    construct = payload_with(holes=[0], algorithm="construct", rows=6, cols=6)
    assert refused("bad-holes", parse_start, construct).key == "watch.error.bad-holes.construct"
    for bad in ("0", [0.0], [True], [[0, 1]], 3):
        refused("bad-holes", parse_start, payload_with(holes=bad))


def test_a_game_brings_its_holes():
    games = {
        "h": GameInfo(5, 5, False, (1, 10), frozenset({12})),
        "h0": GameInfo(5, 5, False, (), frozenset({12})),
    }
    payload = {k: v for k, v in GOOD.items() if k not in ("rows", "cols", "start", "closed")}
    spec = parse_start({**payload, "game": "h", "holes": [3]}, games.get)  # the payload's: ignored
    assert spec.holes == {12} and spec.prefix == (1, 10)
    assert parse_start({**payload, "game": "h0", "start": [0, 0]}, games.get).holes == {12}
    err = refused("bad-holes", parse_start, {**payload, "game": "h0", "start": [2, 2]}, games.get)
    assert err.key == "watch.error.bad-holes.start"


def test_seek():
    def seek(payload):
        return SeekMessage.model_validate(payload)

    assert seek({"run": "a1", "index": 0}).window is None
    assert seek({"run": "a1", "index": None, "window": 50}).index is None  # null: the end
    assert seek({"run": "a1", "index": MAX_SEEK_INDEX}).index == MAX_SEEK_INDEX
    for bad in (-1, MAX_SEEK_INDEX + 1):
        err = refused("bad-request", seek, {"run": "a1", "index": bad})
        assert err.key == "watch.error.bad-request.seek" and err.run == "a1"
    for bad in ("5", 5.0, True):
        assert refused("bad-request", seek, {"run": "a1", "index": bad}).params == {
            "field": "index"
        }
    assert refused("bad-request", seek, {"run": "a1"}).key == "watch.error.bad-request.missing"
    err = refused("bad-request", seek, {"run": "a1", "index": 3, "window": 0})
    assert err.key == "watch.error.bad-request.window"
