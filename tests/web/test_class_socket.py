"""Class rooms (/class namespace, docs/protocol.md "Class rooms") over a real server.

What the socket adds to the room: the acknowledgements and their error codes, what is
broadcast and who receives it, the pages.  The room's own logic (codes, the control
clock, the search's feed, the puzzle) is tested on its functions in tests/classroom/.

The app runs in this process under werkzeug's threaded server on a free port; teachers
and students are python-socketio clients over websockets (tests/support/follower.py:
each follows the room's one search as a phone does), the puzzle is played through the
ordinary JSON API.  What a student would show is compared with the engine's own walk.
"""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import pytest

from server.app import create_app
from server.classroom import rooms
from server.classroom.models import ClassRoom
from server.classroom.room_messages import MAX_INDEX
from server.db import db
from server.engine.board import Board
from server.engine.search import solve
from server.http_server import make_server
from server.i18n import text
from server.web.class_socket import hub
from tests.support.follower import (
    SIX_BY_SIX,
    SIX_BY_SIX_EVENTS,
    Follower,
    Position,
    Teacher,
    reference,
)
from tests.support.waiting import wait_until


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
    for feed in hub(app).live_feeds():
        feed.stop()
    server.shutdown()
    thread.join(5)


@pytest.fixture
def members(live):
    url, app = live
    opened: list[Follower] = []

    def open_member(**kwargs) -> Follower:
        member = Follower(url, **kwargs)
        opened.append(member)
        return member

    yield open_member
    for member in opened:
        member.close()
    # every feed stops with the last member of its room: no thread is left behind
    assert wait_until(lambda: not hub(app).live_feeds(), 5)


def open_room(app) -> rooms.Opened:
    with app.app_context():
        return rooms.open_room()


def teacher_of(members, app, **kwargs):
    opened = open_room(app)
    teacher = members(**kwargs)
    ack = teacher.join(opened.code, opened.token)
    assert ack["ok"] and ack["role"] == "teacher", ack
    return opened, teacher, ack


def student_of(members, code: str, **kwargs):
    student = members(**kwargs)
    ack = student.join(code)
    assert ack["ok"] and ack["role"] == "student", ack
    return student, ack


SETTINGS = SIX_BY_SIX


def follows(member: Follower, index: int, settings: dict = SETTINGS, timeout: float = 10) -> None:
    """``member`` shows exactly the engine's position at ``index`` (within ``timeout``)."""
    assert member.shows_truth(index, settings, timeout), (
        index,
        member.state and member.state["index"],
        member.position and (member.position.at, member.position.received),
        member.shows(index),
    )


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
    assert len(code) == rooms.CODE_LENGTH and set(code) <= set(rooms.CODE_ALPHABET)
    with app.app_context():
        room = db.session.get(ClassRoom, code)
        assert rooms.token_matches(room, token)
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
    assert wait_until(lambda: {"students": 1} in teacher.got("presence"))
    two, _ = student_of(members, opened.code)
    assert wait_until(lambda: teacher.got("presence")[-1:] == [{"students": 2}])
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
    assert wait_until(lambda: len(one.got("error")) == 4)
    assert all(e["code"] == "not-teacher" for e in one.got("error"))
    assert not two.got("state") and not two.got("puzzle")  # nothing reached the class

    # a wrong token is refused outright (not silently demoted to a student)
    intruder = members()
    answer = intruder.call("join", {"code": opened.code, "token": "guess"})
    assert answer["error"]["code"] == "bad-token"

    one.close()
    assert wait_until(lambda: teacher.got("presence")[-1:] == [{"students": 1}])


def test_connect_and_disconnect_sent_as_events_are_refused(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    assert wait_until(lambda: teacher.got("presence")[-1:] == [{"students": 1}])
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
    assert member.call("sync", {"gen": 2, "index": 0})["error"]["code"] == "not-joined"


def test_errors_speak_the_connection_language(live, members):
    _url, app = live
    opened = open_room(app)
    student, _ = student_of(members, opened.code, lang="zh")
    error = student.call("control", {})["error"]
    assert error["code"] == "not-teacher" and "老师" in error["message"]


def test_a_message_waits_for_a_turn_and_is_told_busy_when_none_comes(live, members):
    """With every handler slot taken, a message waits at the hub's gate and is handled
    once a slot frees; a wait that runs out is answered ``busy``, and nothing is held."""
    _url, app = live
    _opened, teacher, _ack = teacher_of(members, app)
    gate = hub(app).gate
    for _ in range(gate.slots):
        gate.acquire("the test")
    answers: list[dict] = []
    caller = threading.Thread(target=lambda: answers.append(teacher.call("heartbeat")))
    caller.start()
    assert wait_until(lambda: gate.waiting == 1)  # at the gate, not handled around it
    for _ in range(gate.slots):
        gate.release("the test")
    caller.join(10)
    assert answers and answers[0]["ok"], answers
    wait, gate.wait = gate.wait, 0.05
    try:
        for _ in range(gate.slots):
            gate.acquire("the test")
        assert teacher.call("heartbeat")["error"]["code"] == "busy"
    finally:
        for _ in range(gate.slots):
            gate.release("the test")
        gate.wait = wait
    assert gate.waiting == 0 and teacher.call("heartbeat")["ok"]


# -- the demo: one search for the whole room ---------------------------------------------------
def test_students_follow_steps_plays_and_seeks(live, members):
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    assert ack["snapshot"] is None  # nothing shown yet
    teacher = Teacher(teacher_member, ack)
    one, _ = student_of(members, opened.code)
    two, _ = student_of(members, opened.code)
    assert teacher.settings()["ok"]
    for student in (one, two):
        assert wait_until(lambda s=student: s.state and s.state["gen"] == teacher.gen, 5)
    # steps while paused: each step's events are sent as it is taken (nothing ahead)
    for index in (1, 2, 3, 40):
        assert teacher.control(index)["state"]["index"] == index
        for member in (one, two, teacher_member):
            follows(member, index)
    # play at 200 events a second, then pause where the teacher is
    teacher.control(40, playing=True, speed=200.0)
    assert wait_until(lambda: one.position and one.position.received > 400, 10)
    paused = teacher.control(350)
    assert paused["state"]["index"] == 350 and not paused["state"]["playing"]
    for member in (one, two):
        follows(member, 350)
    # a seek far away reaches everyone (as a snapshot: tests/classroom/test_feed.py)
    teacher.control(250_000)
    for member in (one, two):
        follows(member, 250_000)
    # playing fast: keyframes a few times a second, each one the engine's own position
    teacher.control(1_000, playing=True, speed=5_000.0)
    assert wait_until(lambda: len([k for k in one.got("snapshot") if k["keyframe"]]) >= 3, 10)
    teacher.control(0)
    for keyframe in [k for k in one.got("snapshot") if k["keyframe"]][:3]:
        truth = reference(SETTINGS, keyframe["index"])
        assert keyframe["at"] == keyframe["index"] and keyframe["path"] == truth.path
        assert (keyframe["nodes"], keyframe["backtracks"]) == (truth.nodes, truth.backtracks)


def test_running_to_the_end_shows_keyframes_then_the_end(live, members):
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    student, _ = student_of(members, opened.code)
    teacher.settings()
    teacher.control(0, playing=True, speed=None)  # the teacher's jump to the end
    assert wait_until(lambda: student.state and student.state["end"] is not None, 30)
    end = student.state["end"]
    assert end == {
        "status": "found",
        "total": SIX_BY_SIX_EVENTS,
        "nodes": 177_048,
        "backtracks": SIX_BY_SIX_EVENTS - 177_048,
        "limit": None,
    }
    assert student.state["index"] == SIX_BY_SIX_EVENTS
    follows(student, SIX_BY_SIX_EVENTS)
    shown = student.shows(SIX_BY_SIX_EVENTS)
    assert shown.path == solve(Board(6, 6), 0).tour


def test_after_the_jump_to_the_end_a_late_joiner_gets_a_snapshot(live, members):
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    teacher.settings()
    teacher.control(0, playing=True, speed=None)
    assert wait_until(lambda: teacher_member.state and teacher_member.state["end"], 30)
    follows(teacher_member, SIX_BY_SIX_EVENTS)
    # a late joiner lands on the end from a snapshot, never a replay from event 0
    late, joined = student_of(members, opened.code)
    snapshot = joined["snapshot"]
    assert snapshot["index"] == SIX_BY_SIX_EVENTS and snapshot["at"] == SIX_BY_SIX_EVENTS - 100
    assert snapshot["nodes"] > 176_000
    follows(late, SIX_BY_SIX_EVENTS)


def opening_of(url: str, code: str) -> tuple[dict, str | None]:
    """The room as the students' page was rendered with it, and the page's Cache-Control."""
    with urllib.request.urlopen(f"{url}/class/{code}?lang=en") as response:
        html = response.read().decode()
        cache = response.headers["Cache-Control"]
    found = re.search(r'<script type="application/json" id="class-demo">(.*?)</script>', html)
    return json.loads(found.group(1)), cache


def test_the_students_page_is_rendered_with_what_a_join_answers(live, members):
    url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    before, cache = opening_of(url, opened.code)
    assert before["snapshot"] is None and before["state"]["gen"] == ack["state"]["gen"]
    assert cache == "no-store"  # it holds the class's position now: never from a cache

    teacher.settings(SETTINGS)
    # at the demo's start nothing has happened yet: the page says it is loading, as its
    # scripts do until an event is drawn
    assert wait_until(lambda: first_frame_of(url, opened.code)["pos"] == 0, 10)
    start = first_frame_of(url, opened.code)["html"]
    narration = re.search(r'data-role="narration">([^<]*)<', start).group(1)
    assert narration == text("class.ui.loading", "en")
    teacher.control(2_345)
    assert wait_until(lambda: teacher_member.shows(2_345) is not None, 10)
    opening, _cache = opening_of(url, opened.code)
    _late, joined = student_of(members, opened.code)
    assert opening["state"] == joined["state"]
    assert opening["snapshot"] == joined["snapshot"]
    assert opening["snapshot"]["index"] == 2_345
    page = Position(opening["snapshot"], counts=False)
    truth = reference(SETTINGS, 2_345)
    assert page.standing(2_345).path == truth.path
    # ... and with that position drawn: the path's squares numbered in order, the knight on its last
    first = first_frame_of(url, opened.code)
    assert first["pos"] == 2_345
    numbered = {
        sq: int(n) for sq, (state, n) in first["cells"].items() if state in ("visited", "current")
    }
    assert numbered == {sq: i + 1 for i, sq in enumerate(truth.path)}
    assert [sq for sq, (state, _n) in first["cells"].items() if state == "current"] == truth.path[
        -1:
    ]
    assert f">{truth.nodes:,}<" in first["html"] and f">{truth.backtracks:,}<" in first["html"]


def first_frame_of(url: str, code: str) -> dict:
    """The board the server drew into the students' page: {pos, cells, html}; a cell is
    (state, number) by square."""
    with urllib.request.urlopen(f"{url}/class/{code}?lang=en") as response:
        html = response.read().decode()
    pos = re.search(r'data-role="first-frame" data-pos="(\d+)"', html)
    if pos is None:
        return {"pos": None, "cells": {}, "html": html}
    cells = re.findall(
        r'<div class="sq \w+" data-row="(\d+)" data-col="(\d+)"[^>]*data-state="(\w+)"[^>]*>'
        r'<span class="num">(\d*)</span>',
        html,
    )
    cols = 1 + max(int(col) for _row, col, _state, _n in cells)
    return {
        "pos": int(pos.group(1)),
        "cells": {int(r) * cols + int(c): (state, n) for r, c, state, n in cells},
        "html": html,
    }


def test_a_page_rendered_where_no_member_follows_the_room_leaves_the_snapshot_to_the_join(
    live, members
):
    url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    Teacher(teacher_member, ack).settings(SETTINGS)
    teacher_member.close()  # the room's last member here: its feed stops
    assert wait_until(lambda: hub(app).feed(opened.code) is None, 5)
    opening, _cache = opening_of(url, opened.code)
    assert opening["snapshot"] is None and opening["state"]["gen"] >= 2
    with urllib.request.urlopen(f"{url}/class/{opened.code}") as response:
        assert b'data-role="first-frame"' not in response.read()  # nothing to draw it from


def test_a_late_joiner_gets_a_snapshot_of_where_the_class_is(live, members):
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    teacher.settings({**SETTINGS, "algorithm": "warnsdorff", "closed": True})
    settings = {**SETTINGS, "algorithm": "warnsdorff", "closed": True}
    teacher.control(1_234)
    assert wait_until(lambda: teacher_member.shows(1_234) is not None, 10)
    late, joined = student_of(members, opened.code)
    assert joined["state"]["index"] == 1_234
    snapshot = joined["snapshot"]
    assert snapshot["index"] == 1_234 and snapshot["at"] == 1_234 - 100
    assert len(json.dumps(snapshot)) <= 16 * 1024
    follows(late, 1_234, settings)
    # a sync asks for any index of the current demo; a stale gen is refused with the state
    answer = late.sync(700)
    assert answer["ok"] and answer["snapshot"]["index"] == 700
    follows(late, 700, settings)
    stale = late.call("sync", {"gen": teacher.gen - 1, "index": 3})
    assert stale["error"]["code"] == "stale" and stale["error"]["state"]["gen"] == teacher.gen
    beyond = {"gen": teacher.gen, "index": MAX_INDEX + 1}  # past the cap: refused
    for bad in (
        {"gen": teacher.gen},
        {"gen": teacher.gen, "index": -1},
        [],
        {"index": 1.5},
        beyond,
    ):
        assert late.call("sync", bad)["error"]["code"] == "bad-request", bad


def test_a_refused_control_answers_with_the_rooms_state(live, members):
    """The compare-and-set itself: tests/classroom/test_clock.py."""
    _url, app = live
    _opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    teacher.settings()
    assert teacher.control(77)["ok"]
    older = teacher_member.call(
        "control", {"seq": 1, "gen": teacher.gen, "index": 1, "playing": False, "speed": 10}
    )
    assert older["error"]["code"] == "superseded" and older["error"]["state"]["index"] == 77
    past = teacher_member.call(
        "control",
        {"seq": teacher.seq + 1, "gen": teacher.gen - 1, "index": 1, "playing": False, "speed": 10},
    )
    assert past["error"]["code"] == "stale" and past["error"]["gen"] == teacher.gen
    assert past["error"]["state"]["gen"] == teacher.gen


def test_a_malformed_control_is_refused_and_a_good_one_applied(live, members):
    """Every malformed control: tests/classroom/test_clock.py."""
    _url, app = live
    _opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    teacher.settings()
    good = {"seq": 99, "gen": teacher.gen, "index": 5, "playing": False, "speed": 10}
    for bad in ({**good, "speed": True}, {k: v for k, v in good.items() if k != "seq"}):
        answer = teacher_member.call("control", bad)
        assert answer["error"]["code"] == "bad-request" and answer["error"]["run"] is None
    assert teacher_member.call("control", good)["ok"]


def test_settings_are_checked(live, members):
    _url, app = live
    _opened, teacher, _ = teacher_of(members, app)
    # checked like /watch's start, with its codes; ``run`` is null on /class, always
    bad = teacher.call("settings", {**SETTINGS, "seq": 1, "rows": 99})
    assert bad["error"]["code"] == "bad-board" and bad["error"]["run"] is None
    assert "3" in bad["error"]["message"] and "30" in bad["error"]["message"]
    bad = teacher.call("settings", {**SETTINGS, "seq": 1, "start": [9, 9]})
    assert bad["error"]["code"] == "bad-board" and bad["error"]["run"] is None
    bad = teacher.call("settings", {**SETTINGS, "seq": 1, "algorithm": "bogo"})
    assert bad["error"]["code"] == "unknown-algorithm" and bad["error"]["run"] is None
    assert "bogo" in bad["error"]["message"]
    bad = teacher.call("settings", {**SETTINGS, "seq": 1, "rows": "5"})
    assert bad["error"]["code"] == "bad-request" and bad["error"]["run"] is None
    assert "rows" in bad["error"]["message"]
    no_tour = {**SETTINGS, "seq": 1, "algorithm": "construct", "rows": 4, "cols": 4}
    bad = teacher.call("settings", no_tour)
    assert bad["error"]["code"] == "bad-board" and "4" in bad["error"]["message"]
    assert teacher.call("settings", SETTINGS)["error"]["code"] == "bad-request"  # no seq


def test_rooms_expire_after_inactivity(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    student, _ = student_of(members, opened.code)
    with app.app_context():
        room = db.session.get(ClassRoom, opened.code)
        room.last_active -= rooms.DEFAULT_TTL + 1
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
    for member in (student, teacher):  # the teacher who closed it is told too
        assert wait_until(lambda m=member: m.got("ended") == [{"code": opened.code}])
    # whatever they send next is refused cleanly, never answered "internal"
    for member in (student, teacher):
        assert member.call("heartbeat")["error"]["code"] in ("not-joined", "unknown-room")


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
    stored = {**puzzle, "holes": [], "code": "5x5.o.a1", "seq": 1}
    assert answer["puzzle"] == stored
    assert wait_until(lambda: alice.got("puzzle") == [{"puzzle": stored}])

    got = alice.call("solve", {"name": "<b>Alice</b>"})
    assert got["ok"] and got["name"] == "<b>Alice</b>"
    assert bob.call("solve", {"name": "x" * 40})["error"]["code"] == "bad-name"
    game = got["game"]
    status, state = api(url, "GET", f"/api/games/{game}")
    assert status == 200 and state["path"] == [[4, 0]] and state["status"] == "playing"
    assert wait_until(lambda: teacher.got("leaderboard")[-1]["trying"] == 1)

    # claiming a win too early is refused (every refusal: tests/classroom/test_puzzles.py)
    assert alice.call("solved", {"game": game})["error"]["code"] == "not-solved"

    tour = solve(Board(5, 5), 20).tour
    for sq in tour[1:]:
        status, state = api(
            url, "POST", f"/api/games/{game}/moves", {"row": sq // 5, "col": sq % 5}
        )
        assert status == 200, state
    assert state["status"] == "won"
    result = alice.call("solved", {"game": game})
    assert result["ok"] and result["entry"]["rank"] == 1 and result["entry"]["moves"] == 24
    assert wait_until(lambda: teacher.got("leaderboard")[-1]["solved"] == 1)
    board = teacher.got("leaderboard")[-1]
    assert board["entries"][0]["name"] == "<b>Alice</b>" and board["entries"][0]["seconds"] >= 0
    assert not alice.got("leaderboard") and not bob.got("leaderboard")  # the teacher's view

    # a new puzzle starts a new board: the teacher's answer says so
    answer = teacher.call("puzzle", {"rows": 6, "cols": 6, "closed": True, "start": [0, 1]})
    assert answer["leaderboard"]["solved"] == 0 and answer["leaderboard"]["puzzle"]["seq"] == 2


def test_a_student_gives_one_name_for_the_quiz_and_the_puzzle(live, members):
    _url, app = live
    opened, teacher, _ = teacher_of(members, app)
    alice, _ = student_of(members, opened.code)
    bob, _ = student_of(members, opened.code)
    assert teacher.call("puzzle", {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]})["ok"]
    # without a name and before entering the room, there is nobody to play as
    assert alice.call("solve", {})["error"]["code"] == "not-entered"
    entered = alice.call("quiz_enter", {"name": "Alice"})
    assert entered["ok"]
    # the name she entered with is her puzzle name; another one is ignored
    got = alice.call("solve", {})
    assert got["ok"] and got["name"] == "Alice" and "key" not in got
    assert alice.call("solve", {"name": "Mallory"})["name"] == "Alice"
    # a name given with the puzzle enters the room: the same student for the quiz
    got = bob.call("solve", {"name": "Bob"})
    assert got["ok"] and got["name"] == "Bob" and got["key"]
    view = bob.call("quiz_state", {})["quiz"]
    assert view["student"]["name"] == "Bob"
    back = members()
    assert back.join(opened.code)["ok"]
    assert (
        back.call("quiz_enter", {"name": "Bob", "key": got["key"]})["quiz"]["student"]
        == (view["student"])
    )
    # a name is one student's
    carol, _ = student_of(members, opened.code)
    assert carol.call("solve", {"name": "alice"})["error"]["code"] == "name-taken"
    assert teacher.call("solve", {})["error"]["code"] == "not-student"


def test_an_articles_program_is_the_class_demo_to_its_false_tour(live, members):
    """The Python article as written on 5x5 from a4: the class follows it event by event
    to the end, where its last move lands on the start; run only as written."""
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    student, _ = student_of(members, opened.code)
    demo = {"algorithm": "a001-python", "rows": 5, "cols": 5, "start": [1, 0]}
    demo.update(closed=False, pruning=False)
    assert teacher.settings(demo)["ok"]
    teacher.control(0, playing=True, speed=None)  # to the end
    assert wait_until(lambda: student.state and student.state["end"] is not None, 30)
    end = student.state["end"]
    assert end["status"] == "declared" and end["nodes"] == 749
    follows(student, end["total"], demo)
    shown = student.shows(end["total"])
    assert shown.path[0] == shown.path[-1] == 5 and len(shown.path) == 25
    for changes, code in (({"closed": True}, "bad-board"), ({"pruning": True}, "bad-request")):
        teacher.seq += 1
        bad = teacher_member.call("settings", {**demo, **changes, "seq": teacher.seq})
        assert bad["error"]["code"] == code, bad
