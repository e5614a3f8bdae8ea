"""The articles' programs on /watch (issue 24): every ordering of server/engine/articles.py
streams the engine's own events over a real socket, a seek to the end lands where the
stream ends, and the Python article's false "tour" ends its run as ``declared``."""

from __future__ import annotations

import pytest

from server.engine.article_orders import carries_onward
from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.search import search_events
from server.stream.encode import DecodedBacktrack, DecodedMove, decode
from tests.tourcheck import assert_tour
from tests.web.test_watch_seek import SeekClient

# 5x5 from row 1, column 0: the Python article as written lands its last move on the start
# after 749 nodes; the others find a tour, run out, or reach the budget within it.
BOARD = {"rows": 5, "cols": 5, "start": [1, 0]}
BUDGET = 3_000


@pytest.fixture
def client_class():
    return SeekClient


def engine_steps(ordering: str, rows: int, cols: int, start: int, budget: int):
    """The engine's events as the wire decodes them, and its final event."""
    steps = []
    counts = carries_onward(ordering)
    for event in search_events(Board(rows, cols), start, ordering=ordering, node_budget=budget):
        if event.kind == "move":
            onward = tuple(event.onward or ()) if counts else None  # the root has none
            steps.append(DecodedMove(event.square, tuple(event.candidates), onward))
        elif event.kind == "backtrack":
            steps.append(DecodedBacktrack(event.square))
        else:
            return steps, event
    raise AssertionError("the stream had no final event")


def finish(client, run: str, timeout: float = 30) -> dict:
    assert client.wait(lambda: run in client.dones, timeout), f"no done for {run}"
    assert client.wait(lambda: client.has_all_batches(run), timeout), f"batches of {run}"
    return client.dones[run]


@pytest.mark.parametrize("ordering", list(ARTICLES))
def test_each_article_streams_the_engines_events(clients, ordering):
    client = clients(keep=True)
    payload = {"run": "p", "algorithm": ordering, "node_budget": BUDGET, "window": 20_000}
    ack = client.start({**client_payload(), **payload})
    assert ack["ok"], ack
    counts = carries_onward(ordering)
    assert ack["counts"] is counts and ack["algorithm"] == ordering
    done = finish(client, "p")
    expected, final = engine_steps(ordering, 5, 5, 5, BUDGET)
    streamed = [e for batch in client.batches["p"] for e in decode(batch["events"], counts)]
    assert streamed == expected
    assert done["status"] == final.kind
    assert (done["nodes"], done["backtracks"]) == (final.nodes, final.backtracks)
    if final.kind == "found":
        assert_tour(Board(5, 5), done["tour"], start=5)


def client_payload() -> dict:
    return {"closed": False, "pruning": False, "time_limit": 600, **BOARD}


def test_the_python_articles_false_tour_ends_declared_live_and_after_a_seek(clients):
    client = clients(keep=True)
    ack = client.start({**client_payload(), "run": "py", "algorithm": "a001-python", "window": 50})
    assert ack["ok"], ack
    assert client.call("seek", {"run": "py", "index": None})["ok"]
    assert client.wait(lambda: "py" in client.dones and client.snapshots, 30)
    done = client.dones["py"]
    claimed = done["tour"]
    # every square of the board but one, and the start again at the end: no tour
    assert done["status"] == "declared" and claimed[0] == claimed[-1] == 5
    assert len(claimed) == 25 and len(set(claimed)) == 24
    _, final = engine_steps("a001-python", 5, 5, 5, 50_000_000)
    assert final.kind == "declared" and list(final.path) == claimed
    assert (done["nodes"], done["backtracks"]) == (final.nodes, final.backtracks)
    [snapshot] = client.snapshots
    end = snapshot["end"]
    assert end["status"] == "declared" and snapshot["index"] == end["total"]
    assert end["nodes"] == final.nodes


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"closed": True}, "bad-board"),
        ({"holes": [24]}, "bad-board"),
        ({"pruning": True}, "bad-request"),
    ],
    ids=["closed", "holes", "pruning"],
)
def test_an_article_runs_only_as_written(clients, changes, code):
    client = clients()
    payload = {**client_payload(), "run": "x", "algorithm": "a000-java", "window": 10, **changes}
    ack = client.start(payload)
    assert ack["ok"] is False and ack["error"]["code"] == code, ack
    assert "article" in ack["error"]["message"] or "文章" in ack["error"]["message"]
