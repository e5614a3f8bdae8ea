"""Fair class play (issue 22): attempts, names and leaderboard lines are a student's.

Puzzle attempts per student (not per connection), cleared by the teacher, each one a
game of the client address's game limit; one student per connection and per browser;
a cap on names and the teacher removing one with its answers; a leaderboard line per
student.  And the smaller holes on /class: codes looked up in vain, events a namespace
does not know, fields of the wrong type.  Over real websockets, each client saying which
address it comes from (tests/support/classes.py).
"""

from __future__ import annotations

import re

import pytest
import websocket

from server.classroom import puzzles, rooms
from server.classroom.models import ClassEntry, QuizAnswer, QuizStudent
from server.db import db
from server.engine.board import Board
from server.engine.search import solve
from server.i18n import text
from tests.support.classes import Clients, Live, http, refusal
from tests.support.follower import SIX_BY_SIX, Follower, Teacher
from tests.support.waiting import wait_until

PUZZLE = {"rows": 5, "cols": 5, "closed": False, "start": [4, 0]}
TOUR = solve(Board(5, 5), 20).tour  # from the puzzle's start (row 4, col 0)


# -- fair play -----------------------------------------------------------------------------------
GAMES = 8  # a minute per address: RATE_LIMIT_GAMES
MISSES = 5  # a minute per address: RATE_LIMIT_CLASS_MISSES


@pytest.fixture(scope="module")
def class_settings():
    return {
        "CLASS_QUIZ_STUDENTS": 4,
        "CLASS_ADDRESS_ROOM_NAMES": 3,
        "RATE_LIMIT_GAMES": f"{GAMES}/minute",
        "RATE_LIMIT_CLASS_MISSES": f"{MISSES}/minute",
    }


def hand_out(players: Clients, address: str) -> tuple[rooms.Opened, Teacher]:
    opened = players.open_room()
    teacher = players.teacher(opened, address)
    assert teacher.member.call("puzzle", PUZZLE)["ok"]
    return opened, teacher


def test_attempts_are_per_student_and_the_teacher_clears_them(players):
    opened, teacher = hand_out(players, "10.0.2.1")
    ada = players.student(opened.code, "10.0.2.2")
    entered = ada.call("quiz_enter", {"name": "Ada"})
    for _ in range(puzzles.MAX_ATTEMPTS):
        assert ada.call("solve", {})["ok"]
    code, message = refusal(ada.call("solve", {}))
    assert code == "full" and "5" in message
    # another connection of the same student (her key) has no attempts of its own
    again = players.student(opened.code, "10.0.2.2")
    assert again.call("quiz_enter", {"name": "Ada", "key": entered["key"]})["ok"]
    assert refusal(again.call("solve", {}))[0] == "full"
    # a classmate is not held back by her
    bob = players.student(opened.code, "10.0.2.3", name="Bob")
    assert bob.call("solve", {})["ok"]
    # the teacher gives Ada her attempts back: her page hears it
    ada_id = entered["quiz"]["student"]["id"]
    cleared = teacher.member.call("clear_attempts", {"student": ada_id})
    assert cleared == {"ok": True, "cleared": 1}
    assert wait_until(lambda: ada.got("attempts_cleared") == [{"student": ada_id}], 5)
    assert again.call("solve", {})["ok"]
    assert refusal(teacher.member.call("clear_attempts", {"student": "nobody"}))[0] == (
        "unknown-student"
    )
    assert refusal(ada.call("clear_attempts", {}))[0] == "not-teacher"
    assert teacher.member.call("clear_attempts", {})["cleared"] == 2  # everyone's
    # a new puzzle is a new count
    assert teacher.member.call("puzzle", {**PUZZLE, "closed": True, "rows": 6, "cols": 6})["ok"]
    assert ada.call("solve", {})["ok"]


def test_the_puzzles_games_count_against_the_addresss_game_limit(players):
    school = "10.0.3.1"
    opened, _teacher = hand_out(players, school)
    live = players.live
    for _ in range(GAMES - 1):  # the Play page's games from the school's address
        status, _, _ = http(live, "POST", "/api/games", school, {"rows": 5, "cols": 5})
        assert status == 201
    ada = players.student(opened.code, school, name="Ada")
    assert ada.call("solve", {})["ok"]  # the last game of the minute
    code, message = refusal(ada.call("solve", {}))
    assert code == "rate-limited" and " s" in message
    status, headers, _ = http(live, "POST", "/api/games", school, {"rows": 5, "cols": 5})
    assert status == 429 and int(headers["Retry-After"]) >= 1
    # the refused attempt was not one of hers, and other addresses play on
    bob = players.student(opened.code, "10.0.3.2", name="Bob")
    assert bob.call("solve", {})["ok"]
    with live.app.app_context():
        attempts = db.session.scalar(
            db.select(QuizStudent.attempts).where(
                QuizStudent.code == opened.code, QuizStudent.name == "Ada"
            )
        )
    assert attempts == 1


def test_a_connection_and_a_browser_are_one_student_in_a_room(players):
    opened, teacher = hand_out(players, "10.0.4.1")
    ada = players.student(opened.code, "10.0.4.2", name="Ada")
    code, message = refusal(ada.call("quiz_enter", {"name": "Mallory"}))
    assert code == "already-entered" and "Ada" in message
    # one browser (its player cookie), two tabs: the same student
    cookie = {"Cookie": "kt_player=browser-of-carol"}
    first = players.student(opened.code, "10.0.4.3", **cookie)
    carol = first.call("quiz_enter", {"name": "Carol"})
    second = players.student(opened.code, "10.0.4.3", **cookie)
    again = second.call("quiz_enter", {"name": "Caroline"})
    assert again["ok"] and again["quiz"]["student"]["id"] == carol["quiz"]["student"]["id"]
    assert again["quiz"]["student"]["name"] == "Caroline"  # she changed her name
    # that browser cannot be another student as well, even with their key
    bob = players.student(opened.code, "10.0.4.4")
    bob_key = bob.call("quiz_enter", {"name": "Bob"})["key"]
    third = players.student(opened.code, "10.0.4.3", **cookie)
    assert refusal(third.call("quiz_enter", {"name": "Bob", "key": bob_key}))[0] == (
        "already-entered"
    )
    scores = teacher.member.call("quiz_state", {})["quiz"]["scores"]["scores"]
    assert sorted(s["name"] for s in scores) == ["Ada", "Bob", "Caroline"]


def win(live: Live, member: Follower) -> dict:
    """A new attempt at the 5x5 puzzle, played to a win through the JSON API, and claimed."""
    game = member.call("solve", {})["game"]
    for sq in TOUR[1:]:
        body = {"row": sq // 5, "col": sq % 5}
        status, _, answer = http(live, "POST", f"/api/games/{game}/moves", "10.0.0.9", body)
        assert status == 200, answer
    solved = member.call("solved", {"game": game})
    assert solved["ok"], solved
    return solved["entry"]


def test_one_address_cannot_take_every_name_of_a_room(players):
    opened, _teacher = hand_out(players, "10.0.6.1")
    for name in ("Ada", "Bob", "Cy"):
        players.student(opened.code, "10.0.6.2", name=name)
    script = players.student(opened.code, "10.0.6.2")
    code, message = refusal(script.call("quiz_enter", {"name": "Bot"}))
    assert (code, message) == ("full", text("class.error.full.names-address", "en", {"max": 3}))
    code, _message = refusal(script.call("solve", {"name": "Bot"}))  # a name through solve
    assert code == "full"
    # the room's last name is still there for a student of another address
    assert players.student(opened.code, "10.0.6.3").call("quiz_enter", {"name": "Eve"})["ok"]


def test_names_have_a_cap_and_the_teacher_removes_one_with_its_answers(players):
    opened, teacher = hand_out(players, "10.0.5.1")
    assert teacher.settings(SIX_BY_SIX)["ok"] and teacher.control(30)["ok"]
    students = {  # from two addresses: one may enter only 3 (CLASS_ADDRESS_ROOM_NAMES)
        name: players.student(opened.code, address, name=name)
        for name, address in (
            ("Ada", "10.0.5.2"),
            ("Bob", "10.0.5.2"),
            ("Cy", "10.0.5.3"),
            ("Di", "10.0.5.3"),
        )
    }
    late = players.student(opened.code, "10.0.5.2")
    code, message = refusal(late.call("quiz_enter", {"name": "Eve"}))
    assert code == "full" and "4" in message  # the room's CLASS_QUIZ_STUDENTS
    asked = teacher.member.call("quiz_ask", {})
    assert asked["ok"], asked
    number = asked["quiz"]["question"]["question"]
    for member in students.values():
        assert member.call("quiz_answer", {"question": number, "square": 3})["ok"]
    bob = students["Bob"]
    bob_id = bob.call("quiz_state", {})["quiz"]["student"]["id"]
    assert win(players.live, bob)["student"] == bob_id

    removed = teacher.member.call("quiz_remove", {"student": bob_id})
    assert removed["ok"] and removed["student"] == {"id": bob_id, "name": "Bob"}
    assert removed["quiz"]["tally"]["answers"] == 3
    assert [s["name"] for s in removed["quiz"]["scores"]["scores"]] == ["Ada", "Cy", "Di"]
    assert removed["leaderboard"]["entries"] == [] and removed["leaderboard"]["trying"] == 0
    with players.live.app.app_context():
        kept = db.session.scalars(db.select(QuizAnswer.student_id)).all()
        assert bob_id not in kept and len(kept) >= 3
        assert (
            db.session.scalar(db.select(ClassEntry.id).where(ClassEntry.student_id == bob_id))
            is None
        )
    # every page hears it; Bob's is asked for a name again
    for member in students.values():
        assert wait_until(
            lambda m=member: {"student": bob_id, "name": "Bob"} in m.got("quiz_removed"), 5
        )
    assert refusal(bob.call("quiz_answer", {"question": number, "square": 4}))[0] == "not-entered"
    assert "student" not in bob.call("quiz_state", {})["quiz"]  # his page asks for a name
    # the name and the seat are free: the late student takes them
    assert late.call("quiz_enter", {"name": "bob"})["ok"]
    assert refusal(teacher.member.call("quiz_remove", {"student": bob_id}))[0] == "unknown-student"
    assert refusal(students["Ada"].call("quiz_remove", {"student": bob_id}))[0] == "not-teacher"


def test_the_leaderboard_has_a_line_per_student_not_per_name(players):
    opened, teacher = hand_out(players, "10.0.8.1")
    first = players.student(opened.code, "10.0.8.2")
    key = first.call("quiz_enter", {"name": "Bob"})["key"]
    fast = win(players.live, first)
    assert fast["rank"] == 1
    # the name passes to someone else: the first Bob's result stays his
    assert first.call("quiz_enter", {"name": "Robert", "key": key})["ok"]
    second = players.student(opened.code, "10.0.8.3", name="bob")
    slow = win(players.live, second)
    assert slow["student"] != fast["student"]
    with players.live.app.app_context():
        board = puzzles.leaderboard(rooms.find_room(opened.code))
    lines = {entry["name"]: entry for entry in board["entries"]}
    assert set(lines) == {"Robert", "bob"} and board["solved"] == 2
    assert lines["Robert"]["student"] == fast["student"]
    assert lines["Robert"]["seconds"] == fast["seconds"]
    assert wait_until(lambda: teacher.member.got("leaderboard")[-1]["solved"] == 2, 5)


# -- the smaller holes ---------------------------------------------------------------------------
def test_codes_looked_up_in_vain_are_limited_per_address(players):
    live = players.live
    school, elsewhere = "10.0.9.1", "10.0.9.2"
    ours, theirs = players.open_room(), players.open_room()
    players.teacher(ours, school)
    for guess in range(MISSES):
        status, _, _ = http(live, "GET", f"/class/ZZZZZ{'23456789'[guess]}", school)
        assert status == 404
    # beyond: every room this address has nobody in is refused alike, there or not
    pages = []
    for code in ("ZZZZZZ", theirs.code):
        status, headers, page = http(live, "GET", f"/class/{code}?lang=en", school)
        assert status == 429 and int(headers["Retry-After"]) >= 1, code
        said = re.search(rb"wrong class codes came from your network; try again in (\d+) s", page)
        assert said, page  # the join page says why, and when to try again
        page = page.replace(code.encode(), b"<the code typed>")
        pages.append(page.replace(said.group(0), b"<the wait>"))
    assert pages[0] == pages[1]
    code, message = refusal(players.connect(school).call("join", {"code": theirs.code}))
    assert code == "rate-limited" and " s" in message
    # the class goes on joining its own room: its teacher is in from this address
    status, _, _ = http(live, "GET", f"/class/{ours.code}", school)
    assert status == 200
    players.student(ours.code, school)
    # the browser that opened a room finds its teacher page; a teacher's token its room
    cookie = {"Cookie": f"kt_last_room={theirs.code}"}
    status, _, _ = http(live, "GET", f"/class/{theirs.code}/teach", school, headers=cookie)
    assert status == 200
    players.teacher(theirs, school)
    # another address is not held back
    status, _, _ = http(live, "GET", f"/class/{theirs.code}/qr.svg", elsewhere)
    assert status == 200
    # a join with a code that leads nowhere is a miss too
    guesser = players.connect("10.0.9.3")
    for _ in range(MISSES):
        assert refusal(guesser.call("join", {"code": "ZZZZZZ"}))[0] == "unknown-room"
    assert refusal(guesser.call("join", {"code": ours.code}))[0] == "rate-limited"


def test_an_event_a_namespace_does_not_know_gets_no_answer(class_server):
    """Dropped without an answer, as docs/protocol.md says; Flask-SocketIO's namespace
    answered an empty acknowledgement (``43/watch,15[]``)."""
    ws = websocket.create_connection(
        class_server.url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
        header=["X-Forwarded-For: 10.0.10.1"],
        timeout=10,
    )
    try:
        assert ws.recv().startswith("0{")
        for namespace in ("/class", "/watch"):
            ws.send(f"40{namespace},")
            assert ws.recv().startswith(f"40{namespace},")
        unknown = {
            7: ("/class", "start"),
            8: ("/class", "credit"),
            9: ("/class", "stop"),
            10: ("/class", "seek"),
            11: ("/class", "nonsense"),
            12: ("/watch", "join"),
            13: ("/watch", "nonsense"),
            14: ("/watch", "quiz_enter"),
        }
        for ack, (namespace, event) in unknown.items():
            ws.send(f'42{namespace},{ack}["{event}",{{}}]')
        ws.send('42/class,20["heartbeat",{}]')  # known: answered (not-joined)
        ws.send('42/watch,21["stop",{"run":"a1"}]')  # known: answered (unknown-run)
        answered: set[int] = set()
        while not {20, 21} <= answered:
            frame = ws.recv()
            if frame == "2":
                ws.send("3")
            for namespace in ("/class", "/watch"):
                prefix = f"43{namespace},"
                if frame.startswith(prefix):
                    body = frame[len(prefix) :]
                    answered.add(int(body[: len(body) - len(body.lstrip("0123456789"))]))
        assert not answered & set(unknown), answered
    finally:
        ws.close()


def test_a_field_of_the_wrong_type_is_a_bad_request_naming_it(players):
    """As docs/protocol.md says; the field's own code was given (``join {"code": 5}`` was
    ``unknown-room``)."""
    opened, teacher = hand_out(players, "10.0.11.1")
    stranger = players.connect("10.0.11.2")
    student = players.student(opened.code, "10.0.11.2")
    cases = [
        (stranger, "join", {"code": 5}, "code"),
        (stranger, "join", {"code": opened.code, "token": 5}, "token"),
        (student, "quiz_enter", {"name": []}, "name"),
        (student, "quiz_enter", {"name": "Ada", "key": 7}, "key"),
        (student, "solve", {"name": 5}, "name"),
        (teacher.member, "puzzle", {"puzzle": 5}, "puzzle"),
        (teacher.member, "quiz_remove", {"student": 5}, "student"),
    ]
    for member, event, payload, field in cases:
        code, message = refusal(member.call(event, payload))
        assert code == "bad-request" and f"“{field}”" in message, (event, payload, message)
    # a value of the right type out of its range keeps the field's own code
    assert refusal(stranger.call("join", {"code": "X" * 40}))[0] == "unknown-room"
    assert refusal(student.call("quiz_enter", {"name": "x" * 40}))[0] == "bad-name"
    assert refusal(teacher.member.call("puzzle", {"puzzle": "9x"}))[0] == "bad-puzzle"
