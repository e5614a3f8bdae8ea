"""Class rooms (/class namespace, docs/protocol.md "Class rooms") over a real server.

The app runs in this process under werkzeug's threaded server on a free port; teachers
and students are python-socketio clients over websockets, the puzzle is played through
the ordinary JSON API.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request

import pytest
import socketio

from server.app import create_app
from server.classroom import service
from server.classroom.models import ClassRoom
from server.engine.board import Board
from server.engine.search import solve
from server.game.models import db
from server.serving import make_server
from server.stream.encode import count_events, decode
from server.web.class_socket import CREDIT_SLACK, classroom
from tests.waiting import wait_until

NS = "/class"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """(base URL, app) of an in-process server on a free port."""
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path_factory.mktemp("class")),
            "RATE_LIMIT_CLASS_ROOMS": "5/minute",
        }
    )
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}", app
    for run in classroom(app).runs.live_runs():
        run.stop(silent=True)
    server.shutdown()
    thread.join(5)


class Member:
    """A python-socketio client on /class that records every message it gets."""

    def __init__(self, url: str, *, credit: bool = True, lang: str = "en") -> None:
        self.credit = credit
        self.lock = threading.Lock()
        self.messages: list[tuple[str, object]] = []
        self.events: dict[str, list[int]] = {}
        self.dones: dict[str, dict] = {}
        self.counts: dict[str, bool] = {}
        self.sio = socketio.Client(reconnection=False)
        for name in ("state", "presence", "puzzle", "leaderboard", "error", "ended"):
            self.sio.on(name, self._recorder(name), namespace=NS)
        self.sio.on("batch", self._on_batch, namespace=NS)
        self.sio.on("done", self._on_done, namespace=NS)
        self.sio.connect(f"{url}?lang={lang}", namespaces=[NS], transports=["websocket"])

    def _recorder(self, name):
        def record(data):
            with self.lock:
                self.messages.append((name, data))

        return record

    def _on_batch(self, data):
        run = data["run"]
        with self.lock:
            self.events.setdefault(run, []).extend(data["events"])
        if self.credit:
            n = count_events(data["events"], self.counts.get(run, False))
            with contextlib.suppress(socketio.exceptions.BadNamespaceError):  # disconnecting
                self.sio.emit("credit", {"run": run, "events": n}, namespace=NS)

    def _on_done(self, data):
        with self.lock:
            self.dones[data["run"]] = data

    def call(self, event: str, payload=None, timeout: float = 5):
        return self.sio.call(event, payload, namespace=NS, timeout=timeout)

    def start(self, run: str, window: int = 2000) -> dict:
        ack = self.call("start", {"run": run, "window": window})
        if ack.get("ok"):
            self.counts[run] = ack["counts"]
        return ack

    def got(self, name: str) -> list:
        with self.lock:
            return [data for kind, data in self.messages if kind == name]

    def wait(self, predicate, timeout: float = 5) -> bool:
        return wait_until(predicate, timeout)

    def received(self, run: str) -> int:
        with self.lock:
            return count_events(list(self.events.get(run, [])), self.counts.get(run, False))

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()


@pytest.fixture
def members(live):
    url, app = live
    opened: list[Member] = []

    def open_member(**kwargs) -> Member:
        member = Member(url, **kwargs)
        opened.append(member)
        return member

    yield open_member
    for member in opened:
        member.close()
    runs = classroom(app).runs
    deadline = time.monotonic() + 5
    while runs.live_count() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert runs.live_count() == 0


def open_room(app) -> service.Opened:
    with app.app_context():
        return service.open_room()


def teacher_of(members, app, **kwargs):
    opened = open_room(app)
    teacher = members(**kwargs)
    ack = teacher.call("join", {"code": opened.code, "token": opened.token})
    assert ack["ok"] and ack["role"] == "teacher", ack
    return opened, teacher, ack


def student_of(members, code: str, **kwargs):
    student = members(**kwargs)
    ack = student.call("join", {"code": code})
    assert ack["ok"] and ack["role"] == "student", ack
    return student, ack


SETTINGS = {
    "rows": 6,
    "cols": 6,
    "start": [0, 0],
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
}


# -- opening --------------------------------------------------------------------------------------
def test_open_a_room_over_http(live):
    url, app = live
    request = urllib.request.Request(f"{url}/class/new", method="POST", data=b"")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(request)
        raise AssertionError("expected a redirect")
    except urllib.error.HTTPError as err:
        assert err.code == 303
        location = err.headers["Location"]
    path, token = location.split("#token=")
    code = path.rstrip("/").split("/")[-2]
    assert len(code) == service.CODE_LENGTH and set(code) <= set(service.CODE_ALPHABET)
    with app.app_context():
        room = db.session.get(ClassRoom, code)
        assert room.token_hash == service.hash_token(token) and token not in room.token_hash
    with urllib.request.urlopen(f"{url}/class/{code}") as page:
        assert page.status == 200
    with urllib.request.urlopen(f"{url}/class/{code.lower()}/qr.svg") as qr:
        svg = qr.read().decode()
        assert qr.headers["Content-Type"].startswith("image/svg+xml") and "<svg" in svg
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{url}/class/ZZZZZZ")
    assert missing.value.code == 404


def test_opening_rooms_is_rate_limited(live):
    url, _app = live
    statuses = []
    for _ in range(7):
        request = urllib.request.Request(f"{url}/class/new", method="POST", data=b"")
        try:
            with urllib.request.urlopen(request) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as err:
            statuses.append(err.code)
    assert 429 in statuses  # 5 a minute (the first test opened one too)


# -- joining, counting, refusing ------------------------------------------------------------------
def test_students_are_counted_and_cannot_control(live, members):
    _url, app = live
    opened, teacher, ack = teacher_of(members, app)
    assert ack["students"] == 0 and ack["state"]["index"] == 0
    one, _ = student_of(members, opened.code.lower())  # codes are case-insensitive
    assert teacher.wait(lambda: {"students": 1} in teacher.got("presence"))
    two, _ = student_of(members, opened.code)
    assert teacher.wait(lambda: teacher.got("presence")[-1:] == [{"students": 2}])
    assert teacher.call("heartbeat")["students"] == 2

    # every control message from a student is refused, with an error event
    for event, payload in (
        ("settings", SETTINGS),
        ("control", {"gen": 1, "index": 0, "playing": True, "speed": 10}),
        ("puzzle", {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}),
        ("close", {}),
    ):
        answer = one.call(event, payload)
        assert answer["ok"] is False and answer["error"]["code"] == "not-teacher", event
    assert one.wait(lambda: len(one.got("error")) == 4)
    assert all(e["code"] == "not-teacher" for e in one.got("error"))
    assert not two.got("state") and not two.got("puzzle")  # nothing reached the class

    # a wrong token is refused outright (not silently demoted to a student)
    intruder = members()
    answer = intruder.call("join", {"code": opened.code, "token": "guess"})
    assert answer["error"]["code"] == "bad-token"

    one.close()
    assert teacher.wait(lambda: teacher.got("presence")[-1:] == [{"students": 1}])


def test_connect_and_disconnect_sent_as_events_are_refused(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    assert teacher.wait(lambda: teacher.got("presence")[-1:] == [{"students": 1}])
    for event in ("connect", "disconnect"):
        answer = student.call(event, {})
        assert answer["ok"] is False and answer["error"]["code"] == "bad-request", event
    # the forged disconnect did not take the student out of the room
    assert teacher.call("heartbeat")["students"] == 1


def test_unknown_code_and_messages_before_joining(members):
    member = members()
    assert member.call("join", {"code": "ZZZZZZ"})["error"]["code"] == "unknown-room"
    assert member.call("join", {"code": "<script>"})["error"]["code"] == "unknown-room"
    assert member.call("control", {})["error"]["code"] == "not-joined"
    assert member.call("start", {"run": "a", "window": 100})["error"]["code"] == "not-joined"


def test_errors_speak_the_connection_language(live, members):
    _url, app = live
    opened = open_room(app)
    student, _ = student_of(members, opened.code, lang="zh")
    error = student.call("control", {})["error"]
    assert error["code"] == "not-teacher" and "老师" in error["message"]


# -- the demo -------------------------------------------------------------------------------------
def test_students_follow_the_teacher_and_see_the_same_stream(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    state = teacher.call("settings", SETTINGS)["state"]
    assert state["gen"] == 2 and state["settings"] == SETTINGS and state["index"] == 0
    assert student.wait(lambda: any(s["gen"] == 2 for s in student.got("state")))

    ack = teacher.start("t1")
    assert ack["ok"] and ack["gen"] == 2 and (ack["rows"], ack["cols"], ack["start"]) == (6, 6, 0)
    assert teacher.wait(lambda: teacher.received("t1") >= 3000)
    control = {"gen": 2, "index": 2500, "playing": False, "speed": 50, "frontier": 2600}
    state = teacher.call("control", control)["state"]
    assert (state["index"], state["playing"], state["frontier"]) == (2500, False, 2600)
    assert student.wait(lambda: student.got("state")[-1]["index"] == 2500)

    # the student's own run of the room's settings is the very same stream
    ack = student.start("s1")
    assert ack["ok"] and ack["gen"] == 2
    assert student.wait(lambda: student.received("s1") >= 2500)
    n = 2500
    mine = list(decode(student.events["s1"], False))[:n]
    theirs = list(decode(teacher.events["t1"], False))[:n]
    assert mine == theirs
    # and it is the engine's search: the stream ends with the engine's tour
    assert teacher.call("stop", {"run": "t1"})["ok"]
    assert student.call("stop", {"run": "s1"})["ok"]


def test_a_late_joiner_gets_the_current_position(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    teacher.call("settings", SETTINGS)
    teacher.start("t1")
    assert teacher.wait(lambda: teacher.received("t1") >= 1500)
    teacher.call("control", {"gen": 2, "index": 1234, "playing": False, "speed": 20})
    _late, ack = student_of(members, opened.code)
    assert ack["state"]["index"] == 1234 and ack["state"]["playing"] is False
    assert ack["state"]["settings"] == SETTINGS and ack["state"]["gen"] == 2

    # while the teacher plays, the index a joiner gets runs on with the speed
    teacher.call("control", {"gen": 2, "index": 1000, "playing": True, "speed": 100})
    time.sleep(0.5)
    _later, ack = student_of(members, opened.code)
    assert ack["state"]["playing"] is True and 1040 <= ack["state"]["index"] <= 1200


def test_the_teacher_cannot_announce_events_it_was_not_sent(live, members):
    _url, app = live
    _opened, teacher, _ = teacher_of(members, app, credit=False)
    teacher.call("settings", SETTINGS)
    teacher.start("t1", window=500)
    assert teacher.wait(lambda: teacher.received("t1") == 500)
    state = teacher.call("control", {"gen": 2, "index": 10**6, "playing": False, "speed": 10})
    assert state["state"]["index"] == 500  # capped at what the server sent
    stale = teacher.call("control", {"gen": 1, "index": 0, "playing": False, "speed": 10})
    assert stale["error"]["code"] == "stale" and stale["error"]["gen"] == 2


def test_a_students_run_cannot_outrun_the_class(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app, credit=False)
    teacher.call("settings", {**SETTINGS, "rows": 8, "cols": 8})
    teacher.start("t1", window=100)
    student, _ = student_of(members, opened.code)  # grants every batch back at once
    student.start("s1", window=20_000)
    # the teacher is at 0: the student gets the slack's worth of events, then nothing
    assert student.wait(lambda: student.received("s1") >= CREDIT_SLACK, timeout=10)
    time.sleep(0.7)
    assert student.received("s1") == CREDIT_SLACK
    answer = student.call("credit", {"run": "s1", "events": 1000})
    assert answer == {"ok": True, "run": "s1", "granted": 0}


def test_settings_are_checked(live, members):
    _url, app = live
    _opened, teacher, _ = teacher_of(members, app)
    bad = teacher.call("settings", {**SETTINGS, "rows": 99})
    assert bad["error"]["code"] == "bad-board"
    bad = teacher.call("settings", {**SETTINGS, "start": [9, 9]})
    assert bad["error"]["code"] == "bad-board"
    bad = teacher.call("settings", {**SETTINGS, "algorithm": "bogo"})
    assert bad["error"]["code"] == "bad-request"


def test_rooms_expire_after_inactivity(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    with app.app_context():
        room = db.session.get(ClassRoom, opened.code)
        room.last_active -= service.DEFAULT_TTL + 1
        db.session.commit()
    assert teacher.call("heartbeat")["error"]["code"] == "expired"
    assert student.call("heartbeat")["error"]["code"] == "unknown-room"  # deleted by now
    newcomer = members()
    assert newcomer.call("join", {"code": opened.code})["error"]["code"] == "unknown-room"


def test_closing_the_class_tells_everyone(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    assert teacher.call("close")["ok"]
    assert student.wait(lambda: student.got("ended") == [{"code": opened.code}])


# -- the class puzzle -----------------------------------------------------------------------------
def api(url: str, method: str, path: str, body=None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, method=method, data=data)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def test_a_solved_puzzle_reaches_the_teachers_leaderboard(live, members):
    url, app = live
    opened, teacher, _ = teacher_of(members, app)
    alice, _ = student_of(members, opened.code)
    bob, _ = student_of(members, opened.code)
    assert alice.call("solve", {"name": "Alice"})["error"]["code"] == "no-puzzle"

    puzzle = {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}
    answer = teacher.call("puzzle", puzzle)
    assert answer["puzzle"] == {**puzzle, "seq": 1}
    assert alice.wait(lambda: alice.got("puzzle") == [{"puzzle": {**puzzle, "seq": 1}}])

    got = alice.call("solve", {"name": "  <b>Alice</b>  "})
    assert got["ok"] and got["name"] == "<b>Alice</b>"  # kept as text, trimmed
    assert bob.call("solve", {"name": "x" * 40})["error"]["code"] == "bad-name"
    game = got["game"]
    status, state = api(url, "GET", f"/api/games/{game}")
    assert status == 200 and state["path"] == [[4, 0]] and state["status"] == "playing"
    assert teacher.wait(lambda: teacher.got("leaderboard")[-1]["trying"] == 1)

    # claiming a win too early is refused
    assert alice.call("solved", {"game": game})["error"]["code"] == "not-solved"
    # someone else's game (not handed out in this room) is refused too
    status, other = api(url, "POST", "/api/games", {"rows": 5, "cols": 5, "closed": False})
    assert bob.call("solved", {"game": other["id"]})["error"]["code"] == "unknown-entry"

    tour = solve(Board(5, 5), 20).tour
    for sq in tour[1:]:
        status, state = api(
            url, "POST", f"/api/games/{game}/moves", {"row": sq // 5, "col": sq % 5}
        )
        assert status == 200, state
    assert state["status"] == "won"
    result = alice.call("solved", {"game": game})
    assert result["ok"] and result["entry"]["rank"] == 1 and result["entry"]["moves"] == 24
    assert teacher.wait(lambda: teacher.got("leaderboard")[-1]["solved"] == 1)
    board = teacher.got("leaderboard")[-1]
    assert board["entries"][0]["name"] == "<b>Alice</b>" and board["entries"][0]["seconds"] >= 0
    assert not alice.got("leaderboard") and not bob.got("leaderboard")  # the teacher's view

    # a new puzzle starts a new board; the old game no longer counts
    answer = teacher.call("puzzle", {"rows": 6, "cols": 6, "closed": True, "start": [0, 1]})
    assert answer["leaderboard"]["solved"] == 0 and answer["leaderboard"]["puzzle"]["seq"] == 2
    assert alice.call("solved", {"game": game})["error"]["code"] == "unknown-entry"


# -- several server processes ---------------------------------------------------------------------
def test_a_room_spans_server_processes(tmp_path):
    """Teacher on one process, students on another: one Redis queue, one database."""
    pytest.importorskip("redis")
    from tests.scale.servers import open_class_room, redis_binary, start_redis, start_servers

    if redis_binary() is None:
        pytest.skip("redis-server is not installed")
    redis = start_redis(tmp_path / "redis")
    servers = []
    opened: list[Member] = []
    try:
        servers = start_servers(tmp_path / "servers", 2, redis.url, None)
        a, b = servers
        code, token = open_class_room(a.url)
        teacher = Member(a.url)
        opened.append(teacher)
        assert teacher.call("join", {"code": code, "token": token})["role"] == "teacher"
        one = Member(b.url)
        two = Member(a.url)
        opened += [one, two]
        assert one.call("join", {"code": code})["role"] == "student"
        assert two.call("join", {"code": code})["role"] == "student"
        assert teacher.wait(lambda: teacher.got("presence")[-1:] == [{"students": 2}])
        assert teacher.call("heartbeat")["students"] == 2

        # a student on the other process cannot control the room either
        assert one.call("control", {})["error"]["code"] == "not-teacher"

        teacher.call("settings", SETTINGS)
        teacher.start("t1")
        assert teacher.wait(lambda: teacher.received("t1") >= 800)
        teacher.call("control", {"gen": 2, "index": 777, "playing": False, "speed": 10})
        for student in (one, two):
            assert student.wait(
                lambda s=student: [m["index"] for m in s.got("state")][-1:] == [777]
            )
        late = Member(b.url)
        opened.append(late)
        assert late.call("join", {"code": code})["state"]["index"] == 777
        late.start("s1")
        assert late.wait(lambda: late.received("s1") >= 777)
        n = 777
        assert (
            list(decode(late.events["s1"], False))[:n]
            == list(decode(teacher.events["t1"], False))[:n]
        )

        # the puzzle: handed out on A, solved through B's API, ranked on A
        teacher.call("puzzle", {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]})
        assert one.wait(lambda: bool(one.got("puzzle")))
        game = one.call("solve", {"name": "Bo"})["game"]
        for sq in solve(Board(5, 5), 20).tour[1:]:
            status, _state = api(
                b.url, "POST", f"/api/games/{game}/moves", {"row": sq // 5, "col": sq % 5}
            )
            assert status == 200
        assert one.call("solved", {"game": game})["entry"]["rank"] == 1
        assert teacher.wait(lambda: teacher.got("leaderboard")[-1]["solved"] == 1)

        one.close()
        assert teacher.wait(lambda: teacher.got("presence")[-1:] == [{"students": 2}])
        for server in servers:
            assert "Traceback" not in server.stderr()
    finally:
        for member in opened:
            member.close()
        for server in servers:
            server.stop()
        redis.stop()
