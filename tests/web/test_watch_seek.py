"""/watch ``seek`` end to end (docs/protocol.md): a python-socketio client over a real
server, websocket transport (a bare websocket viewer where the server's order matters).

A seek makes the run's task compute forward with the engine, report ``progress``, send
a ``snapshot`` at the wanted index (the end when asked) and stream on from there.  The
snapshots are held to the pure-Python engine replaying the whole stream.
"""

from __future__ import annotations

import json

import pytest

from server.db import db
from server.engine import native
from server.engine.board import Board
from server.engine.search import search_events, solve
from server.engine.walker import Walker
from server.game.models import Game
from server.game.service import create_game
from server.i18n import text
from server.stream.encode import DecodedMove, count_events, decode
from server.stream.spec import MAX_SEEK_INDEX
from server.web.watch_socket import registry
from tests.engine.conftest import require_core
from tests.support.waiting import wait_until
from tests.support.watch import WatchClient, start_payload
from tests.tourcheck import assert_tour

SIX = {"rows": 6, "cols": 6, "start": [0, 0], "algorithm": "seed"}


class SeekClient(WatchClient):
    """A viewer that also records ``progress`` and ``snapshot`` messages."""

    def __init__(self, url: str, **kwargs) -> None:
        self.progress: list[dict] = []
        self.snapshots: list[dict] = []
        super().__init__(url, **kwargs)
        self.sio.on("progress", self._on_progress, namespace="/watch")
        self.sio.on("snapshot", self._on_snapshot, namespace="/watch")

    def _on_progress(self, data):
        with self.lock:
            self.progress.append(data)
            self.messages.append(("progress", data))

    def _on_snapshot(self, data):
        with self.lock:
            self.snapshots.append(data)
            self.messages.append(("snapshot", data))


@pytest.fixture
def client_class():
    """``clients`` opens SeekClients: they record progress and snapshots too."""
    return SeekClient


def python_replay(board: Board) -> tuple[list, object]:
    """The whole seed stream from square 0 on ``board`` and the walker's state at its end,
    by the pure-Python engine."""
    with native.use("python"):
        events = list(search_events(board, 0, ordering="seed"))
        walker = Walker(board, 0, algorithm="seed")
        walker.advance(10**9)
        return events, walker.state()


@pytest.fixture(scope="module")
def six_replay():
    """The whole 6x6 seed stream from a corner, replayed by the pure-Python engine:
    the state after every event index that a test asks for, and the end."""
    board = Board(6, 6)
    return (board, *python_replay(board))


def replay_state(board: Board, events: list, index: int) -> dict:
    """Path, counters and heat after ``index`` events, counted here from the raw events."""
    path: list[int] = []
    heat = [0] * board.area
    nodes = backtracks = 0
    for event in events[:index]:
        if event.kind == "move":
            path.append(event.square)
            heat[event.square] += 1
            nodes += 1
        else:
            path.pop()
            backtracks += 1
    return {"path": path, "heat": heat, "nodes": nodes, "backtracks": backtracks}


def stand_at(snapshot: dict, counts: bool = False) -> dict:
    """Where a viewer stands after taking a snapshot's events (``at`` + ``count``)."""
    path, heat = list(snapshot["path"]), list(snapshot["heat"])
    nodes, backtracks = snapshot["nodes"], snapshot["backtracks"]
    for event in decode(snapshot["events"], counts):
        if isinstance(event, DecodedMove):
            path.append(event.square)
            heat[event.square] += 1
            nodes += 1
        else:
            assert path.pop() == event.square
            backtracks += 1
    return {"path": path, "heat": heat, "nodes": nodes, "backtracks": backtracks}


def test_seek_to_the_end_gives_the_final_state_of_the_whole_stream(wires, six_replay):
    board, events, final = six_replay
    viewer = wires()
    assert viewer.call("start", start_payload("a1", window=10, **SIX))["ok"]
    assert viewer.call("seek", {"run": "a1", "index": None}) == {"ok": True, "run": "a1"}
    viewer.read_until(lambda: viewer.done("a1") is not None)
    [snapshot] = [frame.data for frame in viewer.frames if frame.name == "snapshot"]
    total = len(events) - 1  # the last event is Found
    assert snapshot["index"] == total == final.index == 354_060
    assert snapshot["count"] == total - snapshot["at"] == 100  # the tail to step back through
    assert snapshot["end"]["status"] == "found"
    assert (snapshot["end"]["nodes"], snapshot["end"]["backtracks"]) == (177_048, 177_012)
    shown = stand_at(snapshot)
    assert shown == replay_state(board, events, total)
    assert (shown["nodes"], shown["backtracks"]) == (final.nodes, final.backtracks)
    assert shown["path"] == list(final.path) and shown["heat"] == list(final.heat)
    assert snapshot["max_depth"] <= final.max_depth == 36
    assert_tour(6, 6, shown["path"], start=0)
    done = viewer.done("a1")
    assert (done["status"], done["nodes"], done["backtracks"]) == ("found", 177_048, 177_012)
    assert done["tour"] == shown["path"]
    # nothing of the run streamed after the snapshot (in the server's order): it stood
    # at the end, and the ack of a later message on the connection follows its done
    assert viewer.call("credit", {"run": "a1", "events": 10})["ok"]
    names = [frame.name for frame in viewer.of("a1")]
    assert names[names.index("snapshot") :] == ["snapshot", "done", "ack"]


def test_seek_back_gives_the_state_at_that_index_and_streams_on(clients, six_replay):
    board, events, _ = six_replay
    client = clients(auto_credit=False, keep=True)
    assert client.start(start_payload("a1", window=10, **SIX))["ok"]
    assert client.call("seek", {"run": "a1", "index": None})["ok"]
    assert client.wait(lambda: "a1" in client.dones, 30)
    # the stream has ended: the run is parked, and a seek back restarts its task
    for index in (123_457, 7, 0):
        with client.lock:
            client.snapshots.clear()
            client.batches.clear()
        assert client.call("seek", {"run": "a1", "index": index, "window": 50})["ok"]
        assert client.wait(lambda: client.snapshots, 10)
        [snapshot] = client.snapshots
        assert snapshot["index"] == index
        assert snapshot["at"] == max(0, index - 100)
        assert stand_at(snapshot) == replay_state(board, events, index)
        # then the stream goes on from the index, as far as the seek's window allows
        assert client.wait(lambda: streamed(client, "a1") >= 50, 5)
        assert streamed(client, "a1") == 50
        expected = replay_state(board, events, index + 50)
        batch = client.batches["a1"][-1]
        assert (batch["nodes"], batch["backtracks"]) == (expected["nodes"], expected["backtracks"])
        replayed = list(decode(snapshot["events"], False))
        for b in client.batches["a1"]:
            replayed.extend(decode(b["events"], False))
        assert stand_at({**snapshot, "events": []}) == replay_state(board, events, snapshot["at"])
        assert len(replayed) == index + 50 - snapshot["at"]


def streamed(client: SeekClient, run: str) -> int:
    with client.lock:
        return sum(count_events(b["events"], False) for b in client.batches.get(run, []))


def test_a_seek_while_streaming_lands_exactly_and_streams_to_the_end(wires, six_replay):
    board, events, _ = six_replay
    viewer = wires()
    assert viewer.call("start", start_payload("a1", window=2000, **SIX))["ok"]
    viewer.read_until(lambda: viewer.received("a1") == 2000)  # paused: no more credit
    viewer.auto_credit = True  # from now on every batch is granted back
    assert viewer.call("seek", {"run": "a1", "index": 300_000})["ok"]
    viewer.read_until(lambda: viewer.done("a1") is not None)
    frames = viewer.of("a1")
    [at] = [i for i, frame in enumerate(frames) if frame.name == "snapshot"]
    snapshot = frames[at].data
    assert stand_at(snapshot) == replay_state(board, events, 300_000)
    after = [frame.data for frame in frames[at:] if frame.name == "batch"]
    assert sum(count_events(b["events"], False) for b in after) == len(events) - 1 - 300_000
    assert (after[-1]["nodes"], after[-1]["backtracks"]) == (177_048, 177_012)
    assert viewer.done("a1")["status"] == "found"


def test_progress_then_disconnect_cancels_the_computing_task(live, clients):
    _, app = live
    client = clients(auto_credit=False)
    # 8x8 plain from a corner: seconds of computing even with the core, minutes without
    assert client.start(start_payload("big", window=10, node_budget=300_000_000))["ok"]
    assert client.call("seek", {"run": "big", "index": None})["ok"]
    assert client.wait(lambda: client.progress, 30), "no progress while computing"
    first = client.progress[0]
    assert first["run"] == "big" and first["target"] is None
    assert 0 < first["nodes"] <= first["index"]
    [run] = [r for r in registry(app).live_runs() if r.id == "big"]
    assert run.seeking
    client.close()
    assert wait_until(lambda: registry(app).live_count() == 0, 5)
    assert run.timeline is not None and run.timeline.end is None  # it never got there
    assert not client.snapshots


def test_stop_cancels_the_computing_task(live, clients):
    _, app = live
    client = clients(auto_credit=False)
    assert client.start(start_payload("big", window=10, node_budget=300_000_000))["ok"]
    assert client.call("seek", {"run": "big", "index": None})["ok"]
    assert client.wait(lambda: client.progress, 30)
    assert client.call("stop", {"run": "big"})["ok"]
    assert client.wait(lambda: "big" in client.dones, 5)
    assert client.dones["big"]["status"] == "stopped"
    assert wait_until(lambda: registry(app).live_count() == 0, 5)
    assert not client.snapshots


def test_a_new_seek_replaces_the_one_computing(clients):
    client = clients(auto_credit=False)
    assert client.start(start_payload("big", window=10, node_budget=300_000_000))["ok"]
    assert client.call("seek", {"run": "big", "index": None})["ok"]
    assert client.wait(lambda: client.progress, 30)
    assert client.call("seek", {"run": "big", "index": 1_000})["ok"]
    assert client.wait(lambda: client.snapshots, 10)
    [snapshot] = client.snapshots
    assert snapshot["index"] == 1_000  # the first seek's end never came
    assert snapshot["end"] is None


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"run": "a1"}, "bad-request"),  # no index
        ({"run": "a1", "index": -1}, "bad-request"),
        ({"run": "a1", "index": MAX_SEEK_INDEX + 1}, "bad-request"),
        ({"run": "a1", "index": 5.0}, "bad-request"),
        ({"run": "a1", "index": "5"}, "bad-request"),
        ({"run": "a1", "index": True}, "bad-request"),
        ({"run": "a1", "index": 5, "window": 0}, "bad-request"),
        ({"run": "a1", "index": 5, "window": 20_001}, "bad-request"),
        ({"run": "a1", "index": 5, "window": "5"}, "bad-request"),
        ({"run": "a1 b", "index": 5}, "bad-request"),
        (["a1", 5], "bad-request"),
        ({"run": "zz", "index": 5}, "unknown-run"),
    ],
)
def test_bad_seeks_are_answered_with_an_error_ack(live, clients, payload, code):
    client = clients(auto_credit=False)
    assert client.start(start_payload("a1", window=10, **SIX))["ok"]
    ack = client.call("seek", payload)
    assert ack["ok"] is False and ack["error"]["code"] == code, ack
    assert ack["error"]["message"]
    assert client.wait(lambda: client.errors, 5)
    assert not client.snapshots
    _, app = live
    [run] = [r for r in registry(app).live_runs() if r.id == "a1"]
    assert not run.seeking


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_that_continues_a_game_cannot_seek_and_plays_on(live, clients, lang):
    """A game run (the Play page's "show me") has no timeline: its seek is refused with
    words in the viewer's language, and the run streams on to its end untouched."""
    _, app = live
    with app.app_context():
        game_id = create_game(5, 5, False).id
        db.session.get(Game, game_id).path = json.dumps([0, 7, 4])
        db.session.commit()
    client = clients(auto_credit=False, keep=True, lang=lang)
    payload = start_payload("g", window=10)
    for board_field in ("rows", "cols", "start"):  # the game's
        del payload[board_field]
    ack = client.start({**payload, "game": game_id})
    assert ack["ok"] and ack["prefix"] == [0, 7], ack
    answer = client.call("seek", {"run": "g", "index": None})
    assert answer["ok"] is False and answer["error"]["code"] == "bad-request", answer
    assert answer["error"]["message"] == text("watch.error.bad-request.seek-game", lang)
    assert client.wait(lambda: client.errors, 5)
    client.auto_credit = True
    assert client.call("credit", {"run": "g", "events": 2000})["ok"]
    assert client.wait(lambda: "g" in client.dones, 30)
    expected = solve(Board(5, 5), 0, prefix=[0, 7, 4])
    done = client.dones["g"]
    assert (done["status"], done["nodes"]) == (expected.status, expected.nodes)
    assert not client.snapshots and not client.progress


def seek_snapshots(client: SeekClient, run: str, board: dict, back_to: int) -> list[dict]:
    """The snapshots of a seek to the end of a run on ``board``, then of a seek back to
    ``back_to`` (``run`` left out)."""
    assert client.start(start_payload(run, window=10, **board))["ok"]
    assert client.call("seek", {"run": run, "index": None})["ok"]
    assert client.wait(lambda: run in client.dones and len(client.snapshots) == 1, 120)
    assert client.call("seek", {"run": run, "index": back_to, "window": 10})["ok"]
    assert client.wait(lambda: len(client.snapshots) == 2, 30)
    return [{k: v for k, v in s.items() if k != "run"} for s in client.snapshots]


def engine_of(app, run_id: str) -> str:
    [run] = [r for r in registry(app).live_runs() if r.id == run_id]
    return run.timeline.engine


def test_the_python_engine_seeks_to_the_same_snapshots_as_the_compiled_core(
    live, clients, six_replay
):
    require_core()
    _, app = live
    board, events, final = six_replay
    with native.use("python"):  # the server runs in this process: its runs too
        slow = clients(auto_credit=False, keep=True)
        by_python = seek_snapshots(slow, "py", SIX, 123_457)
        assert engine_of(app, "py") == "python"
    with native.use("compiled"):
        fast = clients(auto_credit=False, keep=True)
        by_core = seek_snapshots(fast, "c", SIX, 123_457)
        assert engine_of(app, "c") == "compiled"
    assert by_python == by_core
    end, back = by_python
    assert end["index"] == final.index and end["end"]["status"] == "found"
    assert stand_at(end)["path"] == list(final.path)
    assert stand_at(back) == replay_state(board, events, 123_457)
