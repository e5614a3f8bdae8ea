"""The guided lesson across processes: the teacher on one server process, students on
others behind the redis message queue, one database (tests/scale/conftest.py)."""

from __future__ import annotations

from tests.scale.test_message_queue import assert_clean
from tests.support.follower import Follower, Teacher, reference
from tests.support.servers import open_class_room
from tests.support.waiting import wait_until

DFS = {"rows": 5, "cols": 5, "start": [0, 0], "algorithm": "seed", "closed": False}


def shows(member: Follower, index: int, settings: dict) -> bool:
    if not wait_until(lambda: member.shows(index) is not None, 20):
        return False
    return member.shows(index).path == reference({**settings, "pruning": False}, index).path


def test_students_on_other_processes_follow_the_lesson(server_processes):
    a, b = server_processes(2)
    code, token = open_class_room(a.url)
    teacher = Teacher.join(a.url, code, token)
    members = [teacher.member]
    try:
        student = Follower(b.url)
        members.append(student)
        assert student.join(code)["state"]["lesson"] is None
        assert teacher.lesson("dfs", 1)["ok"]
        assert wait_until(
            lambda: (student.state or {}).get("lesson") == {"chapter": "dfs", "step": 1}
        )
        assert shows(student, 12, DFS)
        late = Follower(b.url)  # a late joiner on the other process: from the database
        members.append(late)
        joined = late.join(code)
        assert joined["state"]["lesson"] == {"chapter": "dfs", "step": 1}
        assert shows(late, 12, DFS)
    finally:
        for member in members:
            member.close()
    assert_clean(a, b)
