"""The code lab in a class (docs/protocol.md, "The code lab in a class") over real websockets.

A teacher and students are python-socketio clients of an in-process server.  The runs the
teacher's page reports are the engine's own tours (server/engine/search.py), as the lab's
worker would record them; a wrong one is that tour broken.  Every event a student
receives is recorded: none carries another student's source.
"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from server.classroom import lab, rooms, students
from server.engine.board import Board
from server.engine.search import solve
from server.i18n import text as words
from tests.support.follower import Follower
from tests.support.waiting import wait_until
from tests.web import test_class_socket as class_socket_tests

live = class_socket_tests.live  # the same in-process server and its members
members = class_socket_tests.members
open_room = class_socket_tests.open_room

TOUR = solve(Board(8, 8), 0, ordering="warnsdorff")  # 64 moves, no backtrack
ANN_SOURCE = "# Ann: Warnsdorff\ndef dfs(x, y, step):\n    return True\n"
BOB_SOURCE = "# Bob's 马 program\nboard = [[0] * 8 for _ in range(8)]\n"


def run_of(submission: int, **change) -> dict:
    run = {
        "id": submission,
        "found": True,
        "closed": False,
        "moves": TOUR.nodes,
        "backtracks": TOUR.backtracks,
        "path": list(TOUR.tour),
    }
    return {**run, **change}


def code_of(ack: dict) -> str:
    assert not ack["ok"], ack
    return ack["error"]["code"]


class Class:
    """A teacher who handed out the Warnsdorff exercise, and a way to add students."""

    def __init__(self, live, members) -> None:
        self.url, self.app = live
        self.members = members
        self.opened = open_room(self.app)
        self.teacher = members()
        joined = self.teacher.join(self.opened.code, self.opened.token)
        assert joined["ok"] and joined["lab"] is None, joined
        ack = self.teacher.call("lab_exercise", {"preset": "warnsdorff"})
        assert ack["ok"], ack
        self.exercise = ack["exercise"]

    def student(self, name: str) -> Follower:
        member = self.members()
        joined = member.join(self.opened.code)
        assert joined["ok"] and joined["lab"] == self.exercise, joined
        assert member.call("quiz_enter", {"name": name})["ok"]
        return member

    def submit(self, member: Follower, source: str) -> dict:
        ack = member.call("lab_submit", {"exercise": self.exercise["number"], "source": source})
        assert ack["ok"], ack
        return ack["submission"]


@pytest.fixture
def lab_class(live, members):
    return Class(live, members)


def test_one_right_one_wrong_the_leaderboard_shows_only_the_checked_one(lab_class):
    ann, bob = lab_class.student("Ann"), lab_class.student("Bob")
    assert lab_class.exercise["number"] == 1 and lab_class.exercise["limit"] == 100
    ann_sub = lab_class.submit(ann, ANN_SOURCE)
    bob_sub = lab_class.submit(bob, BOB_SOURCE)
    assert "source" not in ann_sub and ann_sub["check"] is None

    # the teacher's page gets each program, with its source, to run it
    teacher = lab_class.teacher
    assert wait_until(lambda: len(teacher.got("lab_submission")) == 2, 5)
    sent = {s["id"]: s for s in teacher.got("lab_submission")}
    assert sent[ann_sub["id"]]["source"] == ANN_SOURCE
    assert sent[bob_sub["id"]]["source"] == BOB_SOURCE
    assert sent[bob_sub["id"]]["name"] == "Bob"

    # Ann's run is the engine's tour; Bob's claims one, but its path is broken
    right = teacher.call("lab_checked", run_of(ann_sub["id"]))
    assert right["ok"] and right["submission"]["check"]["passed"], right
    broken = list(TOUR.tour)
    broken[10], broken[11] = broken[11], broken[10]
    wrong = teacher.call("lab_checked", run_of(bob_sub["id"], path=broken))
    assert wrong["ok"], wrong
    assert wrong["submission"]["check"] | {"at": None} == {
        "passed": False,
        "reason": "not-a-tour",
        "moves": 64,
        "backtracks": 0,
        "closed": False,
        "at": None,
    }
    board = wrong["leaderboard"]
    assert [(e["rank"], e["name"], e["submission"]) for e in board["entries"]] == [
        (1, "Ann", ann_sub["id"])
    ]
    assert (board["submitted"], board["checked"], board["passed"]) == (2, 2, 1)

    # each student is told their own result, nobody else's
    assert wait_until(lambda: ann.got("lab_result") and bob.got("lab_result"), 5)
    assert [r["rank"] for r in ann.got("lab_result")] == [1]
    assert [(r["submission"]["id"], r["rank"]) for r in bob.got("lab_result")] == [
        (bob_sub["id"], None)
    ]
    for member, other in ((ann, BOB_SOURCE), (bob, ANN_SOURCE)):
        assert other not in repr(member.messages_as_pairs())
        assert not member.got("lab_submission") and not member.got("lab_leaderboard")
    assert wait_until(lambda: teacher.got("lab_leaderboard"), 5)

    # a reload: the student's own submissions and rank, the teacher's every one
    again = ann.call("lab_state", {})
    assert [s["id"] for s in again["submissions"]] == [ann_sub["id"]] and again["rank"] == 1
    assert ann.call("lab_source", {"id": ann_sub["id"]})["submission"]["source"] == ANN_SOURCE
    assert code_of(ann.call("lab_source", {"id": bob_sub["id"]})) == "unknown-submission"
    state = teacher.call("lab_state")
    assert [s["id"] for s in state["submissions"]] == [ann_sub["id"], bob_sub["id"]]
    assert state["leaderboard"]["entries"] == board["entries"]


def test_submissions_survive_a_restart_on_the_same_database(lab_class):
    ann = lab_class.student("Ann")
    mine = lab_class.submit(ann, ANN_SOURCE)
    assert lab_class.teacher.call("lab_checked", run_of(mine["id"]))["ok"]
    # a restarted server reads them where they are: in the database, not in a process
    # (tests/classroom/test_lab.py serves them from a second app on the same file)
    engine = create_engine(lab_class.app.config["DATABASE_URL"])
    try:
        with engine.connect() as connection:
            query = (
                "SELECT s.id, s.source, s.passed, r.lab_seq FROM class_lab_submissions s"
                " JOIN class_rooms r ON r.code = s.code WHERE s.code = :code"
            )
            rows = connection.execute(text(query), {"code": lab_class.opened.code}).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [(mine["id"], ANN_SOURCE, True, 1)]


def test_hostile_lab_messages_get_bounded_refusals(lab_class):
    ann = lab_class.student("Ann")
    teacher = lab_class.teacher
    number = lab_class.exercise["number"]
    mine = lab_class.submit(ann, ANN_SOURCE)
    # a student acting as the teacher
    assert code_of(ann.call("lab_checked", run_of(mine["id"]))) == "not-teacher"
    assert code_of(ann.call("lab_exercise", {"preset": "plain-dfs"})) == "not-teacher"
    # the teacher submitting; a student who never entered a name
    assert code_of(teacher.call("lab_submit", {"exercise": number, "source": "x"})) == (
        "not-student"
    )
    stranger = lab_class.members()
    assert stranger.join(lab_class.opened.code)["ok"]
    assert code_of(stranger.call("lab_submit", {"exercise": number, "source": "x"})) == (
        "not-entered"
    )
    # too long (within the transport's 16 KB: beyond it the connection is closed), NUL,
    # wrongly typed
    huge = ann.call("lab_submit", {"exercise": number, "source": "x" * 8_001})
    assert code_of(huge) == "bad-source" and "8000" in huge["error"]["message"]
    assert code_of(ann.call("lab_submit", {"exercise": number, "source": "\x00"})) == "bad-source"
    assert code_of(ann.call("lab_submit", {"exercise": str(number), "source": "x"})) == (
        "bad-request"
    )
    assert code_of(ann.call("lab_submit", ["x"])) == "bad-request"
    assert code_of(teacher.call("lab_checked", {**run_of(mine["id"]), "path": "0,1"})) == (
        "bad-request"
    )
    assert code_of(teacher.call("lab_checked", run_of(10**12))) == "bad-request"
    assert code_of(teacher.call("lab_checked", {**run_of(mine["id"]), "stop": "tired"})) == (
        "bad-request"
    )
    assert code_of(teacher.call("lab_checked", run_of(mine["id"] + 99))) == "unknown-submission"
    assert code_of(teacher.call("lab_exercise", {"preset": "rm -rf"})) == "bad-exercise"
    # a path that is no tour is stored as failed, never ranked
    ack = teacher.call("lab_checked", run_of(mine["id"], path=[0, 1, 2]))
    assert ack["submission"]["check"]["reason"] == "not-a-tour"
    assert ack["leaderboard"]["entries"] == []
    # a new exercise: a page that missed it submits for the old one
    assert teacher.call("lab_exercise", {"preset": "plain-dfs"})["exercise"]["number"] == 2
    assert wait_until(lambda: ann.got("lab_exercise"), 5)
    old = ann.call("lab_submit", {"exercise": number, "source": ANN_SOURCE})
    assert code_of(old) == "old-exercise"
    assert code_of(teacher.call("lab_checked", run_of(mine["id"]))) == "unknown-submission"
    # the words come in the connection's language
    zh = lab_class.members(lang="zh")
    assert zh.join(lab_class.opened.code)["ok"]
    refusal = zh.call("lab_submit", {"exercise": 2, "source": "x"})
    assert code_of(refusal) == "not-entered"
    assert refusal["error"]["message"] == words("class.error.not-entered", "zh")


def test_a_students_submissions_are_capped(lab_class):
    ann = lab_class.student("Ann")
    number = lab_class.exercise["number"]
    with lab_class.app.app_context():  # nine stored as the socket would (its rate is 2/s)
        room = rooms.find_room(lab_class.opened.code)
        student = students.student_by_id(room, ann_id(lab_class, "Ann"))
        for n in range(9):
            lab.submit(room, student, {"exercise": number, "source": f"# try {n}"}, rooms.now())
    lab_class.submit(ann, "# the tenth")
    ack = ann.call("lab_submit", {"exercise": number, "source": "# the eleventh"})
    assert code_of(ack) == "full" and "10" in ack["error"]["message"]
    state = lab_class.teacher.call("lab_state", {})
    assert len(state["submissions"]) == 10
    assert not any("source" in s for s in state["submissions"])


def ann_id(lab_class, name: str) -> str:
    scores = lab_class.teacher.call("quiz_state", {})["quiz"]["scores"]["scores"]
    return next(s["student"] for s in scores if s["name"] == name)
