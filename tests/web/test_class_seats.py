"""Seats in class rooms (issue 22): one client address cannot take the class down.

Caps per process, per client address, per room and per address in a room, and a room's
teacher apart: over real websockets, each client saying which address it comes from
(tests/support/classes.py), with caps small enough to fill.
"""

from __future__ import annotations

import pytest

from tests.support.classes import refusal, seats_taken

# -- seats ---------------------------------------------------------------------------------------
SMALL_SEATS = {
    "CLASS_MAX_MEMBERS": 10,
    "CLASS_ADDRESS_SEATS": 10,
    "CLASS_ROOM_SEATS": 6,
    "CLASS_ADDRESS_ROOM_SEATS": 4,
    "CLASS_TEACHER_PAGES": 2,
}


@pytest.fixture(scope="module")
def class_settings():
    return SMALL_SEATS


def test_a_teacher_is_admitted_while_the_server_is_full_of_one_addresss_students(players):
    rooms = [players.open_room() for _ in range(4)]
    school = "10.0.0.1"
    for opened, count in zip(rooms, (4, 4, 2), strict=False):
        for _ in range(count):
            players.student(opened.code, school)
    assert seats_taken(players.live.app) == 10  # the server's every seat, one address's
    late = players.connect("10.0.0.2")
    code, message = refusal(late.call("join", {"code": rooms[0].code}))
    assert code == "full" and "10" in message
    # the teacher of another room, and of the full rooms, still come in
    other = players.teacher(rooms[3], "10.0.0.2")
    assert other.joined["students"] == 0
    first = players.teacher(rooms[0], school)
    assert first.joined["students"] == 4
    # a teacher's pages count against that room's own allowance only
    assert players.teacher(rooms[0], "10.0.0.3").joined["ok"]
    code, message = refusal(players.connect("10.0.0.3").call("join", vars(rooms[0])))
    assert code == "full" and "2" in message


def test_one_address_cannot_fill_another_room(players):
    theirs, ours = players.open_room(), players.open_room()
    prankster, school = "10.0.1.1", "10.0.1.2"
    players.teacher(ours, school)
    for _ in range(4):
        players.student(ours.code, prankster)
    code, message = refusal(players.connect(prankster).call("join", {"code": ours.code}))
    assert code == "full" and "4" in message
    # the room's own students still come in, up to the room's seats
    players.student(ours.code, school)
    players.student(ours.code, "10.0.1.3")
    code, _ = refusal(players.connect(school).call("join", {"code": ours.code}))
    assert code == "full"
    # the prankster's seats elsewhere are not touched
    players.student(theirs.code, prankster)
