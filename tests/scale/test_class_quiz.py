"""The class quiz across processes: the teacher on one ``knights-tour serve`` process, a
student on another, one Redis message queue and one database between them.

The question, the answers, the tally, the reveal and the scores cross the queue and the
database; the student's process never sends it an event past the question before the
reveal, though the question was asked on the other process while its feed ran ahead.
"""

from __future__ import annotations

import pytest

from tests.support.follower import SIX_BY_SIX, Follower, Teacher, events_held, reference
from tests.support.servers import open_class_room
from tests.support.waiting import wait_until

pytestmark = pytest.mark.timeout(120)

STRAIGHT = {**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}  # 64 moves


def received(member: Follower, join_ack: dict) -> list:
    """Everything ``member`` was sent, as (name, data) pairs (its join's answer first)."""
    with member.lock:
        return [("ack:join", join_ack), *((name, data) for _at, name, data in member.messages)]


def test_a_question_asked_on_one_process_is_answered_on_another(server_processes):
    a, b = server_processes(2)
    code, token = open_class_room(a.url)
    teacher = Teacher.join(a.url, code, token)
    student = Follower(b.url)
    try:
        joined = student.join(code)
        assert joined["ok"], joined
        entered = student.call("quiz_enter", {"name": "Ada"})
        assert entered["ok"], entered
        assert teacher.settings(STRAIGHT)["ok"]
        assert teacher.control(3, playing=True, speed=4.0)["ok"]
        # the feed (run by a's search, through the queue) leads the class on b
        assert wait_until(lambda: events_held(received(student, joined), True) >= 10, 15)
        assert teacher.control(6)["ok"]  # paused behind what b's student holds
        held = events_held(received(student, joined), True)

        ack = teacher.member.call("quiz_ask", {})
        assert ack["ok"], ack
        index = ack["quiz"]["question"]["index"]
        assert index >= held
        right = reference(STRAIGHT, index + 1).path[-1]
        assert ack["quiz"]["answer"] == right

        assert wait_until(lambda: student.got("quiz_question"), 10)
        assert student.got("quiz_question")[0]["index"] == index
        answered = student.call("quiz_answer", {"question": 1, "square": right})
        assert answered == {"ok": True, "question": 1, "value": right, "round": 1}
        tally = {"question": 1, "round": 1, "tally": [[right, 1]], "answers": 1, "students": 1}
        assert wait_until(lambda: tally in teacher.member.got("quiz_tally"), 10)
        before = received(student, joined)
        assert events_held(before, True) <= index
        assert '"answer"' not in repr(before).replace("'", '"')

        assert teacher.member.call("quiz_reveal", {"question": 1})["ok"]
        assert wait_until(lambda: student.got("quiz_reveal"), 10)
        assert student.got("quiz_reveal")[0]["answer"] == right
        mine = student.call("quiz_state", {})["quiz"]
        assert mine["score"] == {"questions": 1, "right": 1, "answered": 1}
        scores = teacher.member.call("quiz_state", {})["quiz"]["scores"]
        assert [(s["name"], s["right"]) for s in scores["scores"]] == [("Ada", 1)]
        # the demo moves on again after the reveal, on both processes
        assert teacher.control(index + 1)["ok"]
        assert wait_until(lambda: student.holds(index + 1), 10)
    finally:
        student.close()
        teacher.member.close()


def test_a_question_asked_on_the_process_without_the_search_is_placed_by_its_replica(
    server_processes,
):
    """The teacher's second page is on the process that does not run the room's search:
    the question is found on its replica of the search (the stored checkpoints, computed
    on), never ``busy``, and at a position nobody holds."""
    a, b = server_processes(2)
    code, token = open_class_room(a.url)
    teacher = Teacher.join(a.url, code, token)
    projector = Follower(b.url)  # the same teacher's other page, on b
    student = Follower(b.url)
    try:
        assert projector.join(code, token)["ok"]
        joined = student.join(code)
        assert joined["ok"]
        plain = {**SIX_BY_SIX, "rows": 6, "cols": 6}
        assert teacher.settings(plain)["ok"]
        assert teacher.control(0, playing=True, speed=200.0)["ok"]
        assert wait_until(lambda: events_held(received(student, joined), False) >= 300, 15)
        assert teacher.control(250)["ok"]  # paused behind what was sent
        held = events_held(received(student, joined), False)
        ack = projector.call("quiz_ask", {})
        assert ack["ok"], ack
        index = ack["quiz"]["question"]["index"]
        assert index >= held and ack["moved"]["reason"] == "sent-ahead"
        after = reference(plain, index + 1).path
        assert len(after) > len(reference(plain, index).path)  # a move comes next
        assert ack["quiz"]["answer"] == after[-1]
        assert wait_until(lambda: student.got("quiz_question"), 10)
        assert events_held(received(student, joined), False) <= index
    finally:
        student.close()
        projector.close()
        teacher.member.close()
