"""Seats in class rooms (issue 22): one client address cannot take the class down.

Caps per process, per client address, per room and per address in a room, and a room's
teacher apart: over real websockets, each client saying which address it comes from
(tests/support/classes.py), with caps small enough to fill.
"""

from __future__ import annotations

import pytest

from tests.support.classes import Clients, refusal, seats_taken, serve

# -- seats ---------------------------------------------------------------------------------------
SMALL_SEATS = {
    "CLASS_MAX_MEMBERS": 10,
    "CLASS_ADDRESS_SEATS": 10,
    "CLASS_ROOM_SEATS": 6,
    "CLASS_ADDRESS_ROOM_SEATS": 4,
    "CLASS_TEACHER_PAGES": 2,
}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    live = serve(tmp_path_factory.mktemp("seats"), **SMALL_SEATS)
    yield live
    live.stop()


@pytest.fixture
def clients(small):
    opened = Clients(small)
    yield opened
    opened.close()


def test_a_teacher_is_admitted_while_the_server_is_full_of_one_addresss_students(clients):
    rooms = [clients.open_room() for _ in range(4)]
    school = "10.0.0.1"
    for opened, count in zip(rooms, (4, 4, 2), strict=False):
        for _ in range(count):
            clients.student(opened.code, school)
    assert seats_taken(clients.live.app) == 10  # the server's every seat, one address's
    late = clients.connect("10.0.0.2")
    code, message = refusal(late.call("join", {"code": rooms[0].code}))
    assert code == "full" and "10" in message
    # the teacher of another room, and of the full rooms, still come in
    other = clients.teacher(rooms[3], "10.0.0.2")
    assert other.joined["students"] == 0
    first = clients.teacher(rooms[0], school)
    assert first.joined["students"] == 4
    # a teacher's pages count against that room's own allowance only
    assert clients.teacher(rooms[0], "10.0.0.3").joined["ok"]
    code, message = refusal(clients.connect("10.0.0.3").call("join", vars(rooms[0])))
    assert code == "full" and "2" in message


def test_one_address_cannot_fill_another_room(clients):
    theirs, ours = clients.open_room(), clients.open_room()
    prankster, school = "10.0.1.1", "10.0.1.2"
    clients.teacher(ours, school)
    for _ in range(4):
        clients.student(ours.code, prankster)
    code, message = refusal(clients.connect(prankster).call("join", {"code": ours.code}))
    assert code == "full" and "4" in message
    # the room's own students still come in, up to the room's seats
    clients.student(ours.code, school)
    clients.student(ours.code, "10.0.1.3")
    code, _ = refusal(clients.connect(school).call("join", {"code": ours.code}))
    assert code == "full"
    # the prankster's seats elsewhere are not touched
    clients.student(theirs.code, prankster)
