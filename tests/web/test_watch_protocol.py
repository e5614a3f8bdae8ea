"""The /watch protocol (docs/protocol.md) end to end: a python-socketio client over a real
server, websocket transport (a bare websocket viewer where the server's order matters).

Most tests run the app in this process under werkzeug's threaded server on a free
port, so they can look into the run registry (live tasks, node counts); the 5 M-event
memory test runs it in a child process so its RSS is the server's alone.
"""

from __future__ import annotations

import json
import time

import psutil
import pytest

from server.config import origins as cors_origins
from server.engine.board import Board
from server.engine.search import PRUNINGS, search_events, solve
from server.engine.theory import verify
from server.stream.encode import DecodedBacktrack, DecodedMove, count_events, decode
from server.web.watch_socket import registry
from tests.support.waiting import wait_until
from tests.support.watch import (
    WatchClient,
    WireViewer,
    spawn_server,
    start_payload,
    stop_server,
    stream_run,
)
from tests.tourcheck import assert_tour

GONE = 30  # seconds: how long a test waits for a run's task to end (a hang, not a speed)


def small(run="a1", **changes) -> dict:
    return start_payload(run, **{"rows": 5, "cols": 5, **changes})


def the_run(app, run_id: str):
    return next(run for run in registry(app).live_runs() if run.id == run_id)


def engine_steps(board, start, **kwargs):
    out = []
    for event in search_events(board, start, **kwargs):
        if event.kind == "move":
            onward = tuple(event.onward or ()) if kwargs.get("ordering") == "warnsdorff" else None
            out.append(DecodedMove(event.square, tuple(event.candidates), onward))
        elif event.kind == "backtrack":
            out.append(DecodedBacktrack(event.square))
    return out


def streamed(client: WatchClient, run: str, counts: bool) -> list:
    return [ev for batch in client.batches[run] for ev in decode(batch["events"], counts)]


def finish(client: WatchClient, run: str, timeout: float = 30) -> dict:
    assert client.wait(lambda: run in client.dones, timeout), f"no done for {run}"
    assert client.wait(lambda: client.has_all_batches(run), timeout), f"batches of {run}"
    return client.dones[run]


# -- the whole stream ---------------------------------------------------------------------


def test_replay_equals_the_engine_stream_and_solve(clients):
    client = clients(keep=True)
    ack = client.start(small())
    assert ack == {
        "ok": True,
        "run": "a1",
        "rows": 5,
        "cols": 5,
        "start": 0,
        "holes": [],
        "prefix": [],
        "algorithm": "seed",
        "closed": False,
        "pruning": False,
        "counts": False,
        "node_budget": 50_000_000,
        "time_limit": 600.0,
    }
    done = finish(client, "a1")
    board = Board(5, 5)
    expected = solve(board, 0)
    events = streamed(client, "a1", False)
    assert events == engine_steps(board, 0)
    moves = sum(1 for e in events if isinstance(e, DecodedMove))
    assert (moves, len(events) - moves) == (expected.nodes, expected.backtracks)
    assert done == {
        "run": "a1",
        "status": "found",
        "tour": expected.tour,
        "limit": None,
        "nodes": expected.nodes,
        "backtracks": expected.backtracks,
        "seconds": done["seconds"],
    }
    # replaying the moves and backtracks walks to the tour
    path = list(ack["prefix"])
    for event in events:
        if isinstance(event, DecodedMove):
            path.append(event.square)
        else:
            path.pop()
    assert path == expected.tour
    # one done, after the last batch (the client handles each message in a thread of its
    # own, so arrival order is read from the counts); batches in order and within size
    names = [name for name, _ in client.messages]
    assert names.count("done") == 1
    batches = client.batches["a1"]
    assert (batches[-1]["nodes"], batches[-1]["backtracks"]) == (
        client.dones["a1"]["nodes"],
        client.dones["a1"]["backtracks"],
    )
    assert [b["seq"] for b in batches] == list(range(len(batches)))
    assert all(len(list(decode(b["events"], False))) <= 1000 for b in batches)
    assert batches[-1]["nodes"] == expected.nodes


def test_warnsdorff_with_pruning_carries_counts(clients):
    client = clients(keep=True)
    payload = start_payload("w", rows=8, cols=8, closed=True, pruning=True, algorithm="warnsdorff")
    ack = client.start(payload)
    assert ack["ok"] and ack["counts"] is True
    done = finish(client, "w")
    board = Board(8, 8)
    events = streamed(client, "w", True)
    assert events == engine_steps(board, 0, closed=True, ordering="warnsdorff", pruning=PRUNINGS)
    assert done["status"] == "found" and verify(board, done["tour"], closed=True)


def test_node_budget_ends_the_run(clients):
    client = clients()
    client.start(start_payload("nb", node_budget=1234))
    done = finish(client, "nb")
    assert (done["status"], done["limit"], done["nodes"]) == ("budget", "nodes", 1234)
    assert client.received("nb") == done["nodes"] + done["backtracks"]


def test_construction_streams_its_tour(clients):
    client = clients(keep=True)
    ack = client.start(start_payload("c", rows=60, cols=70, start=[5, 9], algorithm="construct"))
    assert ack["ok"] and ack["start"] == 5 * 70 + 9
    done = finish(client, "c")
    board = Board(60, 70)
    assert done["status"] == "found" and verify(board, done["tour"])
    assert [e.square for e in streamed(client, "c", False)] == done["tour"]
    assert done["backtracks"] == 0 and done["nodes"] == 60 * 70


def test_show_me_continues_a_game(live, clients):
    app = live[1]
    from server.db import db
    from server.game.models import Game
    from server.game.service import create_game

    with app.app_context():
        game_id = create_game(5, 5, False).id
        game = db.session.get(Game, game_id)
        game.path = json.dumps([0, 7, 4])
        db.session.commit()
    client = clients(keep=True)
    payload = {k: v for k, v in small("g").items() if k not in ("rows", "cols", "start")}
    ack = client.start({**payload, "game": game_id})
    assert ack["ok"] and (ack["rows"], ack["cols"], ack["start"]) == (5, 5, 0)
    assert ack["prefix"] == [0, 7]  # the first event re-enters 4, the game's last square
    done = finish(client, "g")
    board = Board(5, 5)
    events = streamed(client, "g", False)
    assert events[0] == DecodedMove(4, (), None)
    assert events == engine_steps(board, 0, prefix=[0, 7, 4])
    expected = solve(board, 0, prefix=[0, 7, 4])
    assert (done["status"], done["nodes"]) == (expected.status, expected.nodes)
    assert done["tour"] == expected.tour

    err = client.start({**payload, "run": "g2", "game": "no-such-game"})
    assert not err["ok"] and err["error"]["code"] == "unknown-game"

    with app.app_context():  # a stored path the engine refuses (not knight moves)
        broken = create_game(5, 5, False).id
        db.session.get(Game, broken).path = json.dumps([0, 1])
        db.session.commit()
    err = client.start({**payload, "run": "g3", "game": broken})
    assert not err["ok"] and err["error"]["code"] == "unknown-game"
    assert registry(app).live_count() == 0


def test_show_me_on_a_game_with_holes(live, clients):
    app = live[1]
    from server.game.rules import move
    from server.game.service import change, create_game

    holes = frozenset({12})  # 5x5 without c3
    with app.app_context():
        game_id = create_game(5, 5, False, holes=holes).id
        for row, col in ((0, 0), (1, 2), (0, 4)):
            change(game_id, lambda s, row=row, col=col: move(s, row, col, 0.0, check=0.0))
    client = clients(keep=True)
    payload = {k: v for k, v in small("gh").items() if k not in ("rows", "cols", "start")}
    ack = client.start({**payload, "game": game_id, "algorithm": "warnsdorff"})
    assert ack["ok"] and ack["holes"] == [12] and ack["prefix"] == [0, 7]
    done = finish(client, "gh")
    board = Board(5, 5, holes)
    events = streamed(client, "gh", True)
    assert events == engine_steps(board, 0, prefix=[0, 7, 4], ordering="warnsdorff")
    assert all(e.square != 12 for e in events)
    assert done["status"] == "found"
    assert_tour(5, 5, done["tour"], blocked=holes)
    assert done["tour"][:3] == [0, 7, 4]


def test_a_fresh_run_with_holes(clients):
    client = clients(keep=True)
    ack = client.start(small("fh", holes=[12], algorithm="warnsdorff"))
    assert ack["ok"] and ack["holes"] == [12]
    done = finish(client, "fh")
    events = streamed(client, "fh", True)
    assert events == engine_steps(Board(5, 5, {12}), 0, ordering="warnsdorff")
    assert done["status"] == "found"
    assert_tour(5, 5, done["tour"], blocked={12})
    err = client.start(small("fh2", holes=[0]))
    assert not err["ok"] and err["error"]["code"] == "bad-holes"


def test_ack_arrives_before_the_first_batch(wires):
    """In the order the server sent them: the start's acknowledgement, the batches, done."""
    viewer = wires()
    for run in (f"o{i}" for i in range(10)):
        viewer.send("start", small(run))
        viewer.read_until(lambda run=run: viewer.done(run) is not None)
        names = [frame.name for frame in viewer.of(run)]
        assert names[0] == "ack" and names[-1] == "done" and "batch" in names, names
        assert viewer.of(run)[0].data["ok"]


# -- flow control, stop, disconnect --------------------------------------------------------


def batches_of(viewer: WireViewer, run: str) -> list[dict]:
    return [frame.data for frame in viewer.of(run) if frame.name == "batch"]


def moves_in(batch: dict) -> int:
    return sum(isinstance(e, DecodedMove) for e in decode(batch["events"], False))


def test_pause_and_resume(live, wires):
    """Without credit the run sends nothing and searches nothing: the batches that follow
    the next credit go on from exactly where the search stood while paused."""
    app = live[1]
    viewer = wires()
    assert viewer.call("start", start_payload("p", window=3000))["ok"]
    viewer.read_until(lambda: viewer.received("p") == 3000)
    run = the_run(app, "p")
    assert wait_until(lambda: run.credit == 0)  # the task has taken all of its credit
    nodes = run.nodes  # the search's count, read on the server while it is paused
    viewer.send("credit", {"run": "p", "events": 2500}, ack=False)
    viewer.read_until(lambda: viewer.received("p") == 5500)
    batches = batches_of(viewer, "p")
    assert [b["seq"] for b in batches] == list(range(6))  # the server's order, no gap
    assert [count_events(b["events"], False) for b in batches] == [1000] * 5 + [500]
    assert batches[2]["nodes"] == nodes  # the last batch before the pause...
    assert batches[3]["nodes"] - moves_in(batches[3]) == nodes  # ...and the next go on
    assert run.nodes > nodes
    ack = viewer.call("credit", {"run": "p", "events": 20_000})
    assert ack == {"ok": True, "run": "p"}
    viewer.read_until(lambda: viewer.received("p") == 25_500)
    assert viewer.call("stop", {"run": "p"}) == {"ok": True, "run": "p"}
    viewer.read_until(lambda: viewer.done("p") is not None)
    assert viewer.done("p")["status"] == "stopped"
    assert viewer.received("p") == 25_500  # not one event past the credit


def test_a_flood_gets_every_acknowledgement_but_few_error_events(clients):
    """docs/protocol.md: a rate-limited message is still acknowledged; its ``error`` event
    comes at most once a second."""
    client = clients()

    def rate_errors() -> list:
        return [m for name, m in client.messages if name == "error" and m["code"] == "rate-limited"]

    began = time.monotonic()
    acks = [client.call("start", {"run": f"f{n}", "algorithm": 3}) for n in range(60)]
    elapsed = time.monotonic() - began
    codes = [ack["error"]["code"] for ack in acks]  # every message answered
    assert codes[0] == "bad-request" and "rate-limited" in codes  # the bucket of 10 ran out
    assert client.wait(lambda: rate_errors(), 5)
    assert len(rate_errors()) <= int(elapsed) + 1  # at most one error event a second


def test_stop_ends_the_task_and_done_is_the_runs_last_message(live, wires):
    app = live[1]
    viewer = wires(auto_credit=True)
    assert viewer.call("start", start_payload("s"))["ok"]
    viewer.read_until(lambda: viewer.received("s") > 100_000)
    thread = the_run(app, "s").thread
    assert viewer.call("stop", {"run": "s"}) == {"ok": True, "run": "s"}
    viewer.read_until(lambda: viewer.done("s") is not None)
    thread.join(GONE)
    assert not thread.is_alive()
    done = viewer.done("s")
    assert done["status"] == "stopped" and done["tour"] is None
    # a later message on the same connection: nothing of the run came between
    assert viewer.call("stop", {"run": "s"}) == {"ok": True, "run": "s"}  # it has ended
    names = [frame.name for frame in viewer.of("s")]
    assert names.count("done") == 1 and names[names.index("done") :] == ["done", "ack"]
    assert done["nodes"] + done["backtracks"] == viewer.received("s")


def test_disconnect_mid_run_ends_its_tasks(live, clients):
    app = live[1]
    runs = registry(app)
    client = clients()
    client.start(start_payload("d1"))
    client.start(start_payload("d2", algorithm="warnsdorff", rows=30, cols=30, window=5))
    assert client.wait(lambda: client.received("d1") > 50_000, 10)
    threads = [run.thread for run in runs.live_runs()]
    assert len(threads) == 2 and all(t.is_alive() for t in threads)
    client.close()
    for thread in threads:
        thread.join(GONE)
        assert not thread.is_alive()
    assert runs.live_count() == 0


# -- refusals ------------------------------------------------------------------------------

BAD_STARTS = [
    ("unknown algorithm", small(algorithm="quantum"), "unknown-algorithm"),
    ("huge board", small(rows=1000, cols=1000), "bad-board"),
    ("too small", small(rows=2), "bad-board"),
    ("start off board", small(start=[5, 5]), "bad-board"),
    ("no tour to construct", small(algorithm="construct", rows=4, cols=4), "bad-board"),
    ("negative budget", small(node_budget=-1), "bad-budget"),
    ("budget too big", small(node_budget=10**12), "bad-budget"),
    ("negative time", small(time_limit=-5), "bad-budget"),
    ("rows as text", small(rows="5"), "bad-request"),
    ("float rows", small(rows=5.5), "bad-request"),
    ("start as text", small(start="a1"), "bad-request"),
    ("closed as int", small(closed=1), "bad-request"),
    ("window zero", small(window=0), "bad-request"),
    ("bad run id", small(run="no spaces!"), "bad-request"),
    ("missing run", {k: v for k, v in small().items() if k != "run"}, "bad-request"),
    ("missing algorithm", {k: v for k, v in small().items() if k != "algorithm"}, "bad-request"),
    ("missing rows", {k: v for k, v in small().items() if k != "rows"}, "bad-request"),
    ("not an object", ["a1", 5, 5], "bad-request"),
    ("a string", "start please", "bad-request"),
    ("null", None, "bad-request"),
]


@pytest.mark.parametrize(("label", "payload", "code"), BAD_STARTS, ids=[b[0] for b in BAD_STARTS])
def test_bad_start_payloads(live, clients, label, payload, code):
    app = live[1]
    client = clients()
    ack = client.start(payload)
    assert ack["ok"] is False and ack["error"]["code"] == code, ack
    assert client.errors == [ack["error"]]  # the error event, with the same body
    body = ack["error"]
    assert set(body) == {"run", "code", "message"} and body["message"]
    expected_run = payload.get("run") if isinstance(payload, dict) else None
    assert body["run"] == (expected_run if expected_run != "no spaces!" else None)
    assert registry(app).live_count() == 0  # a bad payload never starts a task


@pytest.mark.parametrize(
    ("event", "payload", "code"),
    [
        ("credit", {"run": "nope", "events": 10}, "unknown-run"),
        ("stop", {"run": "nope"}, "unknown-run"),
        ("credit", {"run": "nope", "events": -10}, "bad-request"),
        ("credit", {"run": "nope", "events": "10"}, "bad-request"),
        ("credit", {"run": "nope"}, "bad-request"),
        ("credit", None, "bad-request"),
        ("stop", {}, "bad-request"),
        ("stop", [1, 2], "bad-request"),
    ],
)
def test_bad_credit_and_stop(clients, event, payload, code):
    client = clients()
    ack = client.call(event, payload)
    assert ack["ok"] is False and ack["error"]["code"] == code
    assert client.errors == [ack["error"]]


def test_errors_without_an_ack_still_arrive(clients):
    client = clients()
    client.emit("start", small(algorithm="nope"))
    client.emit("stop", {"run": "ghost"})
    assert client.wait(lambda: len(client.errors) == 2, 5)
    assert [e["code"] for e in sorted(client.errors, key=lambda e: e["code"])] == [
        "unknown-algorithm",
        "unknown-run",
    ]


def test_messages_speak_the_connection_language(clients):
    zh = clients(lang="zh").start(small(node_budget=-1))["error"]["message"]
    en = clients(lang="en").start(small(node_budget=-1))["error"]["message"]
    assert "节点预算" in zh and "node budget" in en


def test_too_many_concurrent_runs(live, clients):
    first = clients(auto_credit=False)
    assert first.start(start_payload("r1", window=10))["ok"]
    assert first.start(start_payload("r2", window=10))["ok"]
    again = first.start(start_payload("r1", window=10))
    assert again["error"]["code"] == "bad-request"  # a live run id is not reused
    third = first.start(start_payload("r3", window=10))
    assert third["error"]["code"] == "too-many-runs" and "2" in third["error"]["message"]
    second = clients(auto_credit=False)
    assert second.start(start_payload("r1", window=10))["ok"]
    assert second.start(start_payload("r2", window=10))["ok"]
    # four runs from this address: a new connection is refused too
    refused = clients(auto_credit=False).start(start_payload("r1", window=10))
    assert refused["error"]["code"] == "too-many-runs" and "4" in refused["error"]["message"]
    # stopping one frees a slot
    assert first.call("stop", {"run": "r1"})["ok"]
    finish(first, "r1", 2)
    assert first.wait(lambda: registry(live[1]).live_count() == 3, 2)
    assert first.start(start_payload("r3", window=10))["ok"]


def test_oversized_payloads_are_refused_by_the_transport(live, clients):
    app = live[1]
    client = clients()
    client.emit("start", small(padding="x" * 20_000))
    assert client.wait(lambda: not client.sio.connected, 5)
    assert registry(app).live_count() == 0


def test_only_same_origin_by_default(live):
    url = live[0]
    import socketio

    foreign = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        foreign.connect(
            url,
            namespaces=["/watch"],
            transports=["websocket"],
            headers={"Origin": "https://evil.example"},
            wait_timeout=5,
        )


# -- memory -------------------------------------------------------------------------------


@pytest.mark.slow
def test_five_million_events_with_flat_server_memory(tmp_path):
    """A 5 M-event run at full speed: the server's RSS stays within 20 MB after warm-up."""
    proc, url = spawn_server(tmp_path / "instance")
    try:
        result = stream_run(url, proc.pid, 5_000_000)
        assert psutil.Process(proc.pid).is_running()
    finally:
        stop_server(proc)
    done = result["done"]
    assert (done["status"], done["limit"], done["nodes"]) == ("budget", "nodes", 2_500_000)
    assert result["events"] == done["nodes"] + done["backtracks"] >= 4_999_000
    assert result["samples"] >= 10
    assert result["rss_growth_mb"] < 20, result


def test_cors_origins_setting():
    assert cors_origins(None) is None and cors_origins("") is None
    assert cors_origins("https://a.example, https://b.example") == [
        "https://a.example",
        "https://b.example",
    ]
    assert cors_origins(["https://a.example"]) == ["https://a.example"]
    with pytest.raises(ValueError):
        cors_origins("*")
    with pytest.raises(ValueError):
        cors_origins(["https://a.example", "*"])


def test_every_watch_message_is_in_both_languages():
    import re
    from pathlib import Path

    from server.i18n import MESSAGES

    root = Path(__file__).resolve().parents[2] / "server"
    sources = [root / "web" / "watch_socket.py", *sorted((root / "stream").glob("*.py"))]
    keys = {k for f in sources for k in re.findall(r'"(watch\.error\.[a-z.-]+)"', f.read_text())}
    codes = ["bad-request", "unknown-algorithm", "bad-board", "bad-budget", "too-many-runs"]
    codes += ["unknown-run", "unknown-game", "rate-limited"]
    keys |= {f"watch.error.{code}" for code in codes}
    assert len(keys) > 15
    for key in keys:
        assert set(MESSAGES[key]) == {"en", "zh"}, key
