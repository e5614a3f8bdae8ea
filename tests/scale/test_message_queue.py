"""Scale-out: several ``knights-tour serve --message-queue redis://...`` processes.

Each test starts real server processes (the console script, threading mode) that share
one Redis message queue, one SQLite database and one SECRET_KEY, and connects
python-socketio clients to them over websockets.
"""

from __future__ import annotations

import functools
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
import socketio
from flask_socketio import SocketIO

from benchmarks.bench_stream import WatchClient, start_payload
from server.engine.board import Board
from server.engine.search import solve
from tests.waiting import wait_until

from .servers import open_class_room, start_redis, start_servers, tracebacks

NAMESPACE = "/watch"
CHANNEL = "flask-socketio"  # Flask-SocketIO's default channel on the queue

pytestmark = pytest.mark.timeout(120)


class Listener:
    """A bare /watch client that records every ``event`` it receives."""

    def __init__(self, url: str, event: str = "notice"):
        self.received: list = []
        self.lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on(event, self._record, namespace=NAMESPACE)
        self.sio.connect(url, namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5)

    def _record(self, data):
        with self.lock:
            self.received.append(data)

    @property
    def sid(self) -> str:
        return self.sio.get_sid(NAMESPACE)

    def wait_for(self, count: int, timeout: float = 5) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()


def external_emitter(url: str) -> SocketIO:
    """Flask-SocketIO's "emit from an external process": a write-only queue client."""
    return SocketIO(message_queue=url, channel=CHANNEL)


def assert_clean(*servers) -> None:
    for server in servers:
        assert server.alive(), server.stderr()[-2000:]
        found = tracebacks(server.stderr())
        assert not found, found[0]


def http_json(method: str, url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_every_process_delivers_what_the_queue_carries(server_processes, redis_server):
    """A broadcast on the queue reaches the clients of every process; an emit to one
    client's sid reaches that client only, whichever process holds it."""
    a, b, c = server_processes(3)
    listeners = [Listener(server.url) for server in (a, b, c, b)]
    try:
        emitter = external_emitter(redis_server.url)
        emitter.emit("notice", {"to": "all", "text": "马踏棋盘"}, namespace=NAMESPACE)
        for listener in listeners:
            assert listener.wait_for(1), "a process did not deliver the broadcast"
            assert listener.received == [{"to": "all", "text": "马踏棋盘"}]
        target = listeners[3]  # the second client on process b
        emitter.emit("notice", {"to": "one"}, to=target.sid, namespace=NAMESPACE)
        assert target.wait_for(2)
        time.sleep(0.3)
        assert [len(listener.received) for listener in listeners] == [1, 1, 1, 2]
    finally:
        for listener in listeners:
            listener.close()
    assert_clean(a, b, c)


def test_watch_runs_stream_normally_on_every_process(server_processes):
    """With a message queue every emit is also published: runs on all processes at once
    still stream exactly the engine's search, the acknowledgement first."""
    servers = server_processes(3)
    board = Board(5, 5)
    expected = solve(board, 0)
    clients = [WatchClient(server.url) for server in servers]
    try:
        for client in clients:

            def on_ack(ack, client=client):
                with client.lock:
                    client.messages.append(("ack", ack))

            client.sio.emit(
                "start", start_payload("q", rows=5, cols=5), namespace=NAMESPACE, callback=on_ack
            )
        for client in clients:
            assert client.done_event.wait(30)
            done = client.dones["q"]
            assert (done["status"], done["tour"]) == ("found", expected.tour)
            assert client.received("q") == expected.nodes + expected.backtracks
            names = [name for name, _ in client.messages]
            assert names[0] == "ack" and names[-1] == "done" and "batch" in names, names
            assert client.messages[0][1]["ok"]
            assert not client.errors
    finally:
        for client in clients:
            client.close()
    assert_clean(*servers)


def test_processes_share_the_database(server_processes):
    """A game created through process a is played on b and watched ("show me") on c."""
    a, b, c = server_processes(3)
    game = http_json("POST", f"{a.url}/api/games", {"rows": 5, "cols": 5, "closed": False})
    state = http_json("POST", f"{b.url}/api/games/{game['id']}/moves", {"row": 0, "col": 0})
    assert state["path"] == [[0, 0]]
    http_json("POST", f"{b.url}/api/games/{game['id']}/moves", {"row": 1, "col": 2})
    assert http_json("GET", f"{c.url}/api/games/{game['id']}")["path"] == [[0, 0], [1, 2]]
    client = WatchClient(c.url)
    try:
        payload = {k: v for k, v in start_payload("g").items() if k not in ("rows", "cols")}
        ack = client.start({**payload, "game": game["id"]})
        assert ack["ok"] and ack["prefix"] == [0], ack
        assert client.done_event.wait(30)
        assert client.dones["g"]["status"] == "found"
        assert client.dones["g"]["tour"][:2] == [0, 7]
    finally:
        client.close()
    assert_clean(a, b, c)


def test_redis_outage_degrades_and_recovers(server_processes, tmp_path):
    """Redis going away costs only cross-process delivery: each process keeps serving
    its own clients, and once Redis is back the queue works again (python-socketio's
    listener reconnects with a 1, 2, 4 ... s backoff)."""
    own = start_redis(tmp_path / "own-redis")
    url, port = own.url, own.port
    try:
        a, b = start_servers(tmp_path / "servers", 2, url)
        try:
            listeners = [Listener(a.url), Listener(b.url)]
            external_emitter(url).emit("notice", 1, namespace=NAMESPACE)
            assert all(listener.wait_for(1) for listener in listeners)

            own.stop()
            # the shared rate-limit store is gone too: new games are let through, not 500s
            assert create_status(a.url) == 201
            client = WatchClient(a.url)
            try:  # a run on a still streams to its own client
                client.start(start_payload("o", rows=5, cols=5))
                assert client.done_event.wait(30)
                assert client.dones["o"]["status"] == "found"
            finally:
                client.close()

            own = start_redis(tmp_path / "own-redis-2", port)
            delivered = False
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not delivered:
                external_emitter(url).emit("notice", 2, namespace=NAMESPACE)
                delivered = all(2 in listener.received for listener in listeners)
                time.sleep(0.5)
            assert delivered, "the processes did not resubscribe after Redis came back"
            for listener in listeners:
                listener.close()
            for server in (a, b):
                assert server.alive()
                assert not tracebacks(server.stderr())
        finally:
            a.stop()
            b.stop()
    finally:
        own.stop()


# -- rate limits across processes ----------------------------------------------------------------


def create_status(url: str) -> int:
    """The status of ``POST /api/games`` (a 429 is an answer here, not an error)."""
    try:
        http_json("POST", f"{url}/api/games", {"rows": 5, "cols": 5})
    except urllib.error.HTTPError as err:
        assert err.code == 429 and json.loads(err.read())["code"] == "rate-limited"
        return err.code
    return 201


def take_turns(directory, queue: str, env: dict, rounds: int) -> list[int]:
    """Two processes on ``queue``: one client creates games on each in turn."""
    servers = start_servers(directory, 2, queue, env)
    try:
        statuses = [create_status(server.url) for server in servers * rounds]
        assert_clean(*servers)
        return statuses
    finally:
        for server in servers:
            server.stop()


def test_rate_limits_count_across_processes(tmp_path):
    """With the Redis queue the processes count one client together: taking turns between
    workers does not multiply its allowance.  With ``RATE_LIMIT_STORAGE=memory://`` each
    process counts alone, which is what the shared count is for."""
    own = start_redis(tmp_path / "limits-redis")  # its own: no counts from other tests
    limit = {"RATE_LIMIT_GAMES": "4/minute"}
    try:
        shared = take_turns(tmp_path / "shared", own.url, limit, 4)
        assert shared == [201] * 4 + [429] * 4
        alone = {**limit, "RATE_LIMIT_STORAGE": "memory://"}
        assert take_turns(tmp_path / "separate", own.url, alone, 5) == [201] * 8 + [429] * 2
    finally:
        own.stop()


# -- class rooms across processes --------------------------------------------------------------


class ClassMember:
    """A python-socketio client of /class that records what the room sends it."""

    EVENTS = ("state", "presence", "puzzle", "ended", "leaderboard")

    def __init__(self, url: str):
        self.lock = threading.Lock()
        self.received: list[tuple[float, str, dict]] = []
        self.sio = socketio.Client(reconnection=False)
        for event in self.EVENTS:
            self.sio.on(event, functools.partial(self._record, event), namespace="/class")
        self.sio.connect(url, namespaces=["/class"], transports=["websocket"], wait_timeout=5)

    def _record(self, event: str, data):
        with self.lock:
            self.received.append((time.perf_counter(), event, data))

    def call(self, event: str, payload, timeout: float = 5):
        return self.sio.call(event, payload, namespace="/class", timeout=timeout)

    def got(self, event: str) -> list:
        with self.lock:
            return [data for _, name, data in self.received if name == event]

    def wait_for(self, predicate, timeout: float = 5) -> bool:
        return wait_until(predicate, timeout)

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()


def test_class_room_spans_processes(server_processes):
    """Teacher on a, students on b and c: the room's broadcasts cross the queue both ways."""
    pytest.importorskip("server.web.class_socket")
    a, b, c = server_processes(3)
    code, token = open_class_room(a.url)
    teacher = ClassMember(a.url)
    members = [teacher]
    try:
        joined = teacher.call("join", {"code": code, "token": token})
        assert joined["ok"] and joined["role"] == "teacher", joined
        gen = joined["state"]["gen"]
        students = [ClassMember(url) for url in (b.url, b.url, c.url)]
        members += students
        for student in students:
            assert student.call("join", {"code": code})["role"] == "student"
        # presence: from b and c to the teacher on a
        assert teacher.wait_for(lambda: {"students": 3} in teacher.got("presence"))

        # the teacher runs the demo and steps through it; every student follows
        assert teacher.call("start", {"run": "t1", "window": 2000})["ok"]
        time.sleep(0.3)  # the index is capped at what the teacher's run was sent
        for index in (1, 2, 3):
            answer = teacher.call(
                "control", {"gen": gen, "index": index, "playing": False, "speed": None}
            )
            assert answer["ok"] and answer["state"]["index"] == index, answer
        for student in students:
            assert student.wait_for(lambda s=student: len(s.got("state")) == 3)
            assert [state["index"] for state in student.got("state")] == [1, 2, 3]
        assert teacher.got("state") == []  # not echoed to the sender

        # a late joiner on c gets the room's state from the shared database
        late = ClassMember(c.url)
        members.append(late)
        assert late.call("join", {"code": code})["state"]["index"] == 3

        puzzle = {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}
        assert teacher.call("puzzle", puzzle)["ok"]
        for student in [*students, late]:
            assert student.wait_for(lambda s=student: len(s.got("puzzle")) == 1)

        assert teacher.call("close", {})["ok"]
        for student in [*students, late]:
            assert student.wait_for(lambda s=student: s.got("ended") == [{"code": code}])
    finally:
        for member in members:
            member.close()
    assert_clean(a, b, c)
