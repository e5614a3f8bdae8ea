"""/watch on boards with holes (docs/protocol.md, ``start``'s ``holes``), over real websockets.

The streamed events must be the engine's own search on ``Board(rows, cols, holes)``;
a seek on such a run must give the same snapshots on both engines; bad holes are
refused with ``bad-holes`` before any task starts.
"""

from __future__ import annotations

import json

import pytest

from server.db import db
from server.engine import native
from server.engine.board import Board
from server.engine.search import solve
from server.game.models import Game
from server.game.service import create_game
from server.stream.encode import DecodedMove
from server.web.watch_socket import registry
from tests.engine.conftest import require_core
from tests.support.watch import start_payload
from tests.tourcheck import assert_tour
from tests.web.test_watch_protocol import engine_steps, finish, streamed
from tests.web.test_watch_seek import (
    SeekClient,
    python_replay,
    replay_state,
    seek_snapshots,
    stand_at,
)

# 6x6 without its top-right corner: the seed search from a1's opposite corner (square 0)
# finds a tour after 52,104 nodes, a stream long enough to seek in
HOLED = {"rows": 6, "cols": 6, "start": [0, 0], "algorithm": "seed", "holes": [5]}


@pytest.fixture
def client_class():
    """``clients`` opens SeekClients: they record progress and snapshots too."""
    return SeekClient


def test_a_run_on_a_board_with_holes_streams_the_engines_search(clients):
    client = clients(keep=True)
    ack = client.start(start_payload("h", **HOLED))
    assert ack["ok"] and ack["holes"] == [5] and ack["start"] == 0
    done = finish(client, "h")
    board = Board(6, 6, {5})
    events = streamed(client, "h", False)
    assert events == engine_steps(board, 0)
    assert all(e.square != 5 for e in events)
    expected = solve(board, 0)
    assert (done["status"], done["nodes"], done["tour"]) == ("found", expected.nodes, expected.tour)
    assert_tour(6, 6, done["tour"], start=0, blocked={5})


def test_a_shape_without_a_tour_is_searched_not_refused(clients):
    """Theory's up-front verdict is for plain rectangles: a holed board runs to exhaustion."""
    client = clients()
    payload = start_payload("x", rows=5, cols=5, start=[0, 0], holes=[6, 18], window=20_000)
    assert client.start(payload)["ok"]
    done = finish(client, "x", timeout=60)
    expected = solve(Board(5, 5, {6, 18}), 0)
    assert (done["status"], done["tour"]) == ("exhausted", None)
    assert (done["nodes"], done["backtracks"]) == (expected.nodes, expected.backtracks)


def test_seeks_on_holes_agree_between_the_engines_and_with_the_stream(live, clients):
    require_core()
    board = Board(6, 6, {5})
    events, final = python_replay(board)
    with native.use("python"):  # the server runs in this process: its runs too
        by_python = seek_snapshots(clients(auto_credit=False), "py", HOLED, 12_345)
    with native.use("compiled"):
        by_core = seek_snapshots(clients(auto_credit=False), "c", HOLED, 12_345)
    assert by_python == by_core
    end, back = by_python
    assert end["index"] == final.index == len(events) - 1
    assert end["end"]["status"] == "found"
    shown = stand_at(end)
    assert shown["path"] == list(final.path) and shown["heat"][5] == 0
    assert_tour(6, 6, shown["path"], start=0, blocked={5})
    assert stand_at(back) == replay_state(board, events, 12_345)


def test_show_me_continues_a_game_with_holes(live, clients):
    app = live[1]
    with app.app_context():
        game_id = create_game(5, 5, False, holes=frozenset({12})).id
        db.session.get(Game, game_id).path = json.dumps([0, 7])
        db.session.commit()
    client = clients(keep=True)
    payload = {k: v for k, v in start_payload("g").items() if k not in ("rows", "cols", "start")}
    ack = client.start({**payload, "game": game_id, "holes": [1, 2]})  # the game's holes win
    assert ack["ok"] and ack["holes"] == [12] and ack["prefix"] == [0]
    done = finish(client, "g")
    board = Board(5, 5, {12})
    events = streamed(client, "g", False)
    assert events[0] == DecodedMove(7, (), None)
    assert events == engine_steps(board, 0, prefix=[0, 7])
    assert done["status"] == solve(board, 0, prefix=[0, 7]).status


BAD_HOLES = [
    ("off the board", [25], "bad-holes"),
    ("negative", [-1], "bad-holes"),
    ("twice", [3, 3], "bad-holes"),
    ("on the start", [0], "bad-holes"),
    ("every square", list(range(25)), "bad-holes"),
    ("not a list", "a1,b2", "bad-holes"),
    ("a name", ["c3"], "bad-holes"),
    ("a bool", [True], "bad-holes"),
    ("a float", [3.0], "bad-holes"),
    ("a pair", [[1, 2]], "bad-holes"),
]


@pytest.mark.parametrize(("label", "holes", "code"), BAD_HOLES, ids=[b[0] for b in BAD_HOLES])
def test_bad_holes_are_refused_with_an_error_ack(live, clients, label, holes, code):
    client = clients()
    ack = client.start(start_payload("b", rows=5, cols=5, holes=holes))
    assert ack["ok"] is False and ack["error"]["code"] == code, ack
    assert ack["error"]["message"] and ack["error"]["run"] == "b"
    assert registry(live[1]).live_count() == 0


def test_the_construction_refuses_holes_in_both_languages(clients):
    payload = start_payload("c", rows=8, cols=8, algorithm="construct", holes=[9])
    english = clients().start(payload)["error"]
    chinese = clients(lang="zh").start(payload)["error"]
    assert english["code"] == chinese["code"] == "bad-holes"
    assert "rectangle" in english["message"] and "矩形" in chinese["message"]
