"""The guided lesson run in a class room (docs/protocol.md, "The lesson in a class room").

A teacher sends ``lesson`` {seq, chapter, step} over real websockets; the room's demo
becomes the chapter's, standing where the step stands, and every student (joined
before, joining late, reloading) gets the same chapter, step and board.  What a student
would draw is compared with the engine's own walk (tests/support/follower.py).
"""

from __future__ import annotations

import json
import threading

from sqlalchemy import create_engine, text

from server.classroom import clock, rooms
from server.lesson.chapters import CHAPTERS
from tests.support.follower import Follower, Teacher
from tests.web import test_class_socket as class_socket_tests

live = class_socket_tests.live  # the same in-process server and its members
members = class_socket_tests.members
open_room = class_socket_tests.open_room
follows = class_socket_tests.follows
student_of = class_socket_tests.student_of

CHAPTER = {chapter["id"]: chapter for chapter in CHAPTERS}


def demo_of(chapter_id: str) -> dict:
    """A chapter's demo as the room must hold it, read from chapters.json here."""
    settings = CHAPTER[chapter_id]["settings"]
    keys = ("rows", "cols", "start", "algorithm", "closed")
    return {**{key: settings[key] for key in keys}, "pruning": False}


def teacher_in(live, members) -> tuple[rooms.Opened, Teacher]:
    _url, app = live
    opened = open_room(app)
    member = members()
    joined = member.join(opened.code, opened.token)
    assert joined["ok"], joined
    assert joined["state"]["lesson"] is None  # a new room follows no lesson
    return opened, Teacher(member, joined)


def test_students_follow_the_teacher_through_chapters_and_steps(live, members):
    opened, teacher = teacher_in(live, members)
    student, joined = student_of(members, opened.code)
    assert joined["state"]["lesson"] is None

    ack = teacher.lesson("dfs", 0)
    assert ack["ok"], ack
    state = ack["state"]
    assert state["lesson"] == {"chapter": "dfs", "step": 0}
    assert state["settings"] == demo_of("dfs") and state["index"] == 1 and not state["playing"]
    dfs_gen = state["gen"]
    follows(student, 1, demo_of("dfs"))
    assert student.state["lesson"] == {"chapter": "dfs", "step": 0}

    # a step of the same chapter moves the same demo (no new generation): step 2 is at 12
    ack = teacher.lesson("dfs", 1)
    assert ack["ok"] and ack["state"]["gen"] == dfs_gen, ack
    assert ack["state"]["index"] == CHAPTER["dfs"]["steps"][1]["at"] == 12
    follows(student, 12, demo_of("dfs"))
    assert student.state["lesson"] == {"chapter": "dfs", "step": 1}

    # a new chapter is a new demo, from the chapter's own settings
    ack = teacher.lesson("closed", 1)
    assert ack["ok"] and ack["state"]["gen"] > dfs_gen, ack
    assert ack["state"]["settings"] == demo_of("closed") and ack["state"]["index"] == 36
    follows(student, 36, demo_of("closed"))
    assert student.state["lesson"] == {"chapter": "closed", "step": 1}

    # the step "to the end" plays as fast as the search goes; the end reaches everyone
    ack = teacher.lesson("explode6", 1)
    assert ack["ok"] and ack["state"]["playing"] and ack["state"]["speed"] is None, ack
    end = teacher.wait_end()
    follows(student, end["end"]["total"], demo_of("explode6"), timeout=60)

    # a demo set up by hand leaves the lesson: its words no longer go with the board
    ack = teacher.settings(demo_of("dfs"))
    assert ack["ok"] and ack["state"]["lesson"] is None


def test_a_late_joiner_a_reload_and_a_restart_land_on_the_same_step(live, members):
    _url, app = live
    opened, teacher = teacher_in(live, members)
    assert teacher.lesson("warnsdorff", 0)["ok"]
    ack = teacher.lesson("warnsdorff", 2)
    assert ack["ok"], ack
    where = {"chapter": "warnsdorff", "step": 2}

    late, joined = student_of(members, opened.code)
    assert joined["state"]["lesson"] == where and joined["state"]["index"] == 20
    assert joined["snapshot"]["index"] == 20
    follows(late, 20, demo_of("warnsdorff"))

    # the teacher's page reloads: the same step, and it counts on from the room's seq
    reloaded = members()
    again = reloaded.join(opened.code, opened.token)
    assert again["ok"] and again["state"]["lesson"] == where
    assert again["state"]["control_seq"] == teacher.seq
    follows(reloaded, 20, demo_of("warnsdorff"))
    teacher = Teacher(reloaded, again)
    assert teacher.lesson("warnsdorff", 3)["ok"]

    # a restarted server reads the same place: it is in the database, not in a process
    engine = create_engine(app.config["DATABASE_URL"])
    try:
        with engine.connect() as connection:
            query = "SELECT lesson_chapter, lesson_step, settings FROM class_rooms WHERE code = :c"
            row = connection.execute(text(query), {"c": opened.code}).one()
    finally:
        engine.dispose()
    assert (row.lesson_chapter, row.lesson_step) == ("warnsdorff", 3)
    assert json.loads(row.settings) == demo_of("warnsdorff")


def test_lesson_messages_apply_in_order_however_they_arrive(live, members):
    """Sent at once from threads: the highest number wins, its chapter with its demo."""
    _url, app = live
    opened, teacher = teacher_in(live, members)
    places = [("dfs", 1), ("moves", 2), ("closed", 0), ("dfs", 2), ("warnsdorff", 1)]
    for burst in range(6):
        first = teacher.seq + 1
        answers: dict[int, dict] = {}

        def send(seq, place, answers=answers):
            chapter, step = place
            payload = {"seq": seq, "chapter": chapter, "step": step}
            answers[seq] = teacher.member.call("lesson", payload)

        order = places[burst % len(places) :] + places[: burst % len(places)]
        threads = [
            threading.Thread(target=send, args=(first + i, place)) for i, place in enumerate(order)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        last = first + len(order) - 1
        teacher.seq = last
        assert answers[last]["ok"], answers[last]
        for seq, answer in answers.items():  # applied, or refused because a newer one was
            assert answer["ok"] or answer["error"]["code"] == "superseded", (seq, answer)
        chapter, step = order[-1]
        with app.app_context():
            state = clock.public_state(rooms.find_room(opened.code), rooms.now())
        assert state["lesson"] == {"chapter": chapter, "step": step}, (burst, answers)
        assert state["settings"] == demo_of(chapter)  # never one chapter's words on another's board
        assert state["index"] == CHAPTER[chapter]["steps"][step]["at"]
        assert state["control_seq"] == last
    older = teacher.member.call("lesson", {"seq": 1, "chapter": "moves", "step": 0})
    assert older["error"]["code"] == "superseded"
    assert older["error"]["state"]["lesson"] == state["lesson"]


def test_bad_lesson_messages_are_refused_and_change_nothing(live, members):
    _url, app = live
    opened, teacher = teacher_in(live, members)
    assert teacher.lesson("moves", 1)["ok"]
    before = teacher.member.state
    good = {"seq": teacher.seq + 1, "chapter": "dfs", "step": 0}
    refusals = [
        ({**good, "chapter": "recursion"}, "unknown-chapter"),
        ({**good, "chapter": "x" * 200}, "unknown-chapter"),
        ({**good, "step": len(CHAPTER["dfs"]["steps"])}, "bad-step"),
        ({**good, "step": -1}, "bad-step"),
        ({**good, "chapter": 1}, "bad-request"),
        ({**good, "step": 1.0}, "bad-request"),
        ({**good, "step": "1"}, "bad-request"),
        ({**good, "seq": 0}, "bad-request"),
        ({k: v for k, v in good.items() if k != "chapter"}, "bad-request"),
        ([], "bad-request"),
        (None, "bad-request"),
    ]
    for payload, code in refusals:
        answer = teacher.member.call("lesson", payload)
        assert answer["error"]["code"] == code, (payload, answer)
        assert answer["error"]["message"] and answer["error"]["run"] is None
    student, _joined = student_of(members, opened.code)
    answer = student.call("lesson", good)
    assert answer["error"]["code"] == "not-teacher", answer
    chinese = Follower(live[0], lang="zh")
    try:
        assert chinese.join(opened.code, opened.token)["ok"]
        answer = chinese.call("lesson", {**good, "chapter": "recursion"})
        assert answer["error"]["code"] == "unknown-chapter" and "章节" in answer["error"]["message"]
    finally:
        chinese.close()
    with app.app_context():
        state = clock.public_state(rooms.find_room(opened.code), rooms.now())
    assert state["lesson"] == {"chapter": "moves", "step": 1}
    assert (state["gen"], state["control_seq"]) == (before["gen"], before["control_seq"])
    assert teacher.member.call("lesson", good)["ok"]  # the same number, once valid, applies
