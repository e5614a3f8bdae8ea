"""Scale-out: several ``knights-tour serve --message-queue redis://...`` processes.

Each test starts real server processes (the console script, threading mode) that share
one Redis message queue, one SQLite database and one SECRET_KEY, and connects
python-socketio clients to them over websockets.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import pytest
import socketio
from flask_socketio import SocketIO

from server.engine.board import Board
from server.engine.search import solve
from tests.support.follower import SIX_BY_SIX, Follower, Teacher
from tests.support.servers import open_class_room, start_redis, start_servers, tracebacks
from tests.support.waiting import wait_until
from tests.support.watch import WatchClient, start_payload

NAMESPACE = "/watch"
CHANNEL = "flask-socketio"  # Flask-SocketIO's default channel on the queue

pytestmark = pytest.mark.timeout(120)


class Listener:
    """A bare /watch client that records every ``event`` it receives.

    python-socketio's client runs each message's handler in a thread of its own, so the
    order ``received`` is in may not be the order the server sent: tests number what they
    send and compare sets, not sequences.
    """

    def __init__(self, url: str, event: str = "notice"):
        self.received: list = []
        self.changed = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on(event, self._record, namespace=NAMESPACE)
        self.sio.connect(url, namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5)

    def _record(self, data):
        with self.changed:
            self.received.append(data)
            self.changed.notify_all()

    @property
    def sid(self) -> str:
        return self.sio.get_sid(NAMESPACE)

    def wait_for(self, count: int, timeout: float = 5) -> bool:
        """Whether ``count`` messages have come within ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: len(self.received) >= count, timeout)

    def wait_for_message(self, data, timeout: float = 5) -> bool:
        """Whether ``data`` has come within ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: data in self.received, timeout)

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
    first = {"to": "all", "text": "马踏棋盘", "seq": 1}
    one = {"to": "one", "seq": 2}
    last = {"to": "all", "seq": 3}
    try:
        emitter = external_emitter(redis_server.url)
        emitter.emit("notice", first, namespace=NAMESPACE)
        for listener in listeners:
            assert listener.wait_for(1), "a process did not deliver the broadcast"
            assert listener.received == [first]
        target = listeners[3]  # the second client on process b
        emitter.emit("notice", one, to=target.sid, namespace=NAMESPACE)
        # A broadcast after it on the same queue: each process handles the queue's messages
        # in order, so a listener that has the last one was sent the one before it or never.
        emitter.emit("notice", last, namespace=NAMESPACE)
        for listener in listeners:
            assert listener.wait_for_message(last), "a process did not deliver the broadcast"
        assert target.wait_for(3)
        got = [sorted(notice["seq"] for notice in listener.received) for listener in listeners]
        assert got == [[1, 3], [1, 3], [1, 3], [1, 2, 3]]
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
            # sent again every half second until both processes have resubscribed
            delivered = False
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not delivered:
                external_emitter(url).emit("notice", 2, namespace=NAMESPACE)
                delivered = wait_until(
                    lambda: all(2 in listener.received for listener in listeners), 0.5
                )
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


SETTINGS = SIX_BY_SIX


def control(teacher: Teacher, index: int, **options) -> dict:
    answer = teacher.control(index, **options)
    assert answer["ok"], answer
    return answer["state"]


def test_class_room_spans_processes(server_processes):
    """Teacher on a, students on b and c: one search, its feed crosses the queue."""
    a, b, c = server_processes(3)
    code, token = open_class_room(a.url)
    teacher = Teacher.join(a.url, code, token)
    members = [teacher.member]
    try:
        assert teacher.joined["role"] == "teacher", teacher.joined
        students = [Follower(url) for url in (b.url, b.url, c.url)]
        members += students
        for student in students:
            assert student.join(code)["role"] == "student"
        # presence: from b and c to the teacher on a
        assert wait_until(lambda: {"students": 3} in teacher.member.got("presence"))

        # the teacher shows a demo and steps through it; every student follows it exactly
        assert teacher.settings(SETTINGS)["ok"]
        for index in (1, 2, 3, 500):
            assert control(teacher, index)["index"] == index
            for student in students:
                assert student.shows_truth(index), (index, student.position)
        assert not teacher.member.got("state")  # not echoed to the sender
        # a seek far ahead: a snapshot reaches every process
        control(teacher, 123_456)
        for student in students:
            assert student.shows_truth(123_456)

        # a late joiner on c gets the room's state and a snapshot from the database
        late = Follower(c.url)
        members.append(late)
        assert late.join(code)["state"]["index"] == 123_456
        assert late.shows_truth(123_456, timeout=0)

        puzzle = {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}
        assert teacher.member.call("puzzle", puzzle)["ok"]
        for student in [*students, late]:
            assert wait_until(lambda s=student: len(s.got("puzzle")) == 1)

        assert teacher.member.call("close", {})["ok"]
        for member in members:
            assert wait_until(lambda m=member: m.got("ended") == [{"code": code}])
    finally:
        for member in members:
            member.close()
    assert_clean(a, b, c)


def test_the_search_moves_to_another_process_when_its_owner_is_killed(server_processes):
    """kill -9 on the process running the room's search while 20 students follow on the
    other: within seconds the survivor runs it, from the same index, and none is lost."""
    owner, survivor = server_processes(2)
    code, token = open_class_room(owner.url)
    teacher = Teacher.join(owner.url, code, token)  # its first member's process takes the lease
    students: list[Follower] = []
    try:
        assert teacher.settings(SETTINGS)["ok"]
        students = [Follower(survivor.url) for _ in range(20)]
        for student in students:
            assert student.join(code)["ok"]
        control(teacher, 1_000)
        assert all(student.shows_truth(1_000) for student in students)
        # play at 50 events a second, then kill the owner mid-demo
        state = control(teacher, 1_000, playing=True, speed=50.0)
        assert wait_until(lambda: all(s.position.received > 1_100 for s in students), 10)
        owner.process.kill()  # SIGKILL: no goodbye, the lease just stops being renewed
        killed_at = time.perf_counter()
        received = [s.position.received for s in students]
        # the class goes on: every student gets events beyond what it had
        assert wait_until(
            lambda: all(
                s.position.received > r + 50 for s, r in zip(students, received, strict=True)
            ),
            15,
        ), [s.position.received for s in students]
        resumed = time.perf_counter() - killed_at
        # ... from the same index: the room's clock kept going, nobody was sent elsewhere
        for student in students:
            index = student.target()
            assert student.shows_truth(min(index, student.position.received))
        assert state["playing"]
        print(f"students moved again {resumed:.2f} s after the kill")
        assert all(s.sio.connected for s in students)
    finally:
        for member in [teacher.member, *students]:
            member.close()
    assert_clean(survivor)
