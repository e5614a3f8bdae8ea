"""server.classroom.hub: this process's class connections, their seats, and the room
feeds they follow (no feed thread runs here: ``start_task`` only records)."""

from __future__ import annotations

import threading

import pytest

from server.classroom.hub import Hub, Member, Seats, room_name, teacher_room
from server.classroom.messages import ClassError
from server.limits.bucket import TokenBucket
from tests.support.waiting import wait_until


def hub(seats: Seats, sent: list | None = None) -> Hub:
    return Hub(
        emit=lambda *args: sent.append(args) if sent is not None else None,
        start_task=lambda *args: None,  # no feed threads: only the seats are counted
        in_context=lambda fn: fn(),
        ttl=60,
        presence_timeout=60,
        heartbeat=20,
        seats=seats,
    )


def joined(rooms: Hub, sid: str, code: str, role: str = "student", address: str = "10.0.0.1"):
    member = rooms.connect(sid, "en", address)
    rooms.join(member, code, role)
    return member


def refusal(rooms: Hub, sid: str, code: str, role: str = "student", address: str = "10.0.0.1"):
    member = rooms.connect(sid, "en", address)
    with pytest.raises(ClassError) as err:
        rooms.join(member, code, role)
    assert member.code is None  # no seat taken
    return err.value.key, err.value.params["max"]


def test_each_cap_refuses_with_its_own_words():
    small = Seats(students=6, per_address=4, per_room=3, per_address_in_room=2, teacher_pages=1)
    rooms = hub(small)
    joined(rooms, "a1", "AAAAAA")
    joined(rooms, "a2", "AAAAAA")
    assert refusal(rooms, "a3", "AAAAAA") == ("class.error.full.room-address", 2)
    joined(rooms, "b1", "AAAAAA", address="10.0.0.2")
    assert refusal(rooms, "b2", "AAAAAA", address="10.0.0.3") == ("class.error.full.room", 3)
    joined(rooms, "a3", "BBBBBB")
    joined(rooms, "a4", "BBBBBB")
    assert refusal(rooms, "a5", "CCCCCC") == ("class.error.full.address", 4)
    joined(rooms, "c1", "CCCCCC", address="10.0.0.4")
    assert refusal(rooms, "d1", "DDDDDD", address="10.0.0.5") == ("class.error.full.server", 6)
    # the teacher sits apart: only the room's own teacher pages count
    joined(rooms, "t1", "AAAAAA", role="teacher")
    assert refusal(rooms, "t2", "AAAAAA", role="teacher") == ("class.error.full.teacher", 1)
    joined(rooms, "t3", "DDDDDD", role="teacher", address="10.0.0.5")
    # a seat given back is free again
    rooms.disconnect("a1")
    joined(rooms, "a6", "AAAAAA")


def test_the_default_seats_fit_a_class_of_two_hundred_behind_one_address():
    rooms = hub(Seats())
    members = [rooms.connect(f"s{i}", "en", "10.9.9.9") for i in range(251)]
    for member in members[:250]:
        rooms.join(member, "CLASSA", "student")
    with pytest.raises(ClassError) as refused:
        rooms.join(members[250], "CLASSA", "student")
    assert refused.value.key == "class.error.full.room-address"
    teacher = rooms.connect("t", "en", "10.9.9.9")
    rooms.join(teacher, "CLASSA", "teacher")  # the teacher, behind the same NAT
    assert rooms.has_member_from("CLASSA", "10.9.9.9")
    assert not rooms.has_member_from("CLASSB", "10.9.9.9")
    for member in members[:250]:
        rooms.disconnect(member.sid)
    rooms.disconnect("t")
    assert not rooms.has_member_from("CLASSA", "10.9.9.9")


def test_a_rooms_feed_runs_from_its_first_member_to_its_last():
    rooms = hub(Seats())
    first = joined(rooms, "a", "AAAAAA")
    feed = rooms.feed("AAAAAA")
    assert feed is not None and rooms.live_feeds() == [feed]
    assert rooms.join(rooms.connect("b", "en", "10.0.0.1"), "AAAAAA", "student") is feed
    rooms.disconnect(first.sid)
    assert rooms.feed("AAAAAA") is feed and not feed.stopped
    rooms.disconnect("b")
    assert feed.stopped and rooms.feed("AAAAAA") is None and rooms.live_feeds() == []
    assert rooms.disconnect("b") is None  # gone already
    # a member back in the room gets a new feed
    assert joined(rooms, "c", "AAAAAA") and rooms.feed("AAAAAA") is not feed


def test_closing_a_room_frees_its_members_and_stops_its_feed():
    rooms = hub(Seats(per_room=1))
    member = joined(rooms, "a", "AAAAAA")
    teacher = joined(rooms, "t", "AAAAAA", role="teacher")
    other = joined(rooms, "b", "BBBBBB")
    member.quiz_student = "s1"
    feed = rooms.feed("AAAAAA")
    rooms.room_closed("AAAAAA")
    assert feed.stopped and rooms.feed("AAAAAA") is None
    for left in (member, teacher):
        assert (left.code, left.role, left.quiz_student) == (None, None, None)
    assert other.code == "BBBBBB" and not rooms.feed("BBBBBB").stopped
    joined(rooms, "c", "AAAAAA")  # its seat is free (a room of one)
    assert rooms.member("a") is member  # still connected: it may join another room


def test_a_connection_that_floods_is_refused():
    """Every message takes a token of the connection's bucket, the costly ones (join, sync,
    solve) one of the costly bucket too (on a clock that stands still here)."""
    still = lambda: 0.0  # noqa: E731
    member = Member("a", "en", TokenBucket(5, 1.0, still), TokenBucket(2, 1.0, still))
    member.admit(costly=True)
    member.admit(costly=True)
    with pytest.raises(ClassError) as err:
        member.admit(costly=True)
    assert (err.value.code, err.value.key) == ("rate-limited", "watch.error.rate-limited")
    member.admit()  # the refused one took a message token too: 3 of 5 taken
    member.admit()
    with pytest.raises(ClassError):
        member.admit()


def test_broadcasts_go_to_the_room_or_its_teachers():
    sent: list = []
    rooms = hub(Seats(), sent)
    rooms.broadcast("state", {"index": 3}, "AAAAAA", skip_sid="t")
    rooms.to_teacher("presence", {"students": 2}, "AAAAAA")
    assert sent == [
        ("state", {"index": 3}, room_name("AAAAAA"), "t"),
        ("presence", {"students": 2}, teacher_room("AAAAAA"), None),
    ]
    assert room_name("AAAAAA") != teacher_room("AAAAAA")
    rooms.to_teacher_latest("quiz_scores", "AAAAAA", lambda: None)  # nothing to send
    rooms.to_teacher_latest("quiz_scores", "BBBBBB", lambda: {"scores": []})
    assert sent[-1] == ("quiz_scores", {"scores": []}, teacher_room("BBBBBB"), None)
    assert len(sent) == 3


def test_a_teacher_has_the_next_turn_before_students_of_the_same_address():
    rooms = Hub(
        emit=lambda *args: None,
        start_task=lambda *args: None,
        in_context=lambda fn: fn(),
        ttl=60,
        presence_timeout=60,
        heartbeat=20,
        handler_slots=1,
    )
    student = joined(rooms, "s1", "ROOM01")
    teacher = joined(rooms, "t1", "ROOM01", role="teacher")
    order: list[str] = []

    def handle(member, name):
        with rooms.turn(member):
            order.append(name)

    rooms.gate.acquire("10.0.0.1")  # the one slot, taken
    threads = []
    for queued, (member, name) in enumerate(((student, "student"), (teacher, "teacher")), 1):
        threads.append(threading.Thread(target=handle, args=(member, name), daemon=True))
        threads[-1].start()
        assert wait_until(lambda queued=queued: rooms.gate.waiting == queued)
    rooms.gate.release("10.0.0.1")
    for thread in threads:
        thread.join(5)
    assert order == ["teacher", "student"]
