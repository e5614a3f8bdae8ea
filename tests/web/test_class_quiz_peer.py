"""The quiz's kinds and peer instruction over real websockets (docs/protocol.md, "The class
quiz"): what the socket adds to server/classroom's rules (tests/classroom/test_quiz_kinds.py,
test_quiz_peer.py): the feed places each kind on the room's own search, ``quiz_phase``
reaches every page, the teacher alone steps a question on, and an outside student learns
no answer through two votes and the tally between them."""

from __future__ import annotations

import json

import pytest

from server.engine.questions import OBSTACLES
from tests.engine.exhaustive import completion
from tests.support.follower import SIX_BY_SIX, first_index, next_event, reference
from tests.support.waiting import wait_until
from tests.web import test_class_quiz as quiz_tests
from tests.web.test_class_quiz import Outsider, code_of

live = quiz_tests.live  # the same in-process server, its members and a room's fixture
members = quiz_tests.members
room = quiz_tests.room

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def unvisited(path: list[int], square: int, rows: int = 6, cols: int = 6) -> list[int]:
    r, c = divmod(square, cols)
    around = [
        (r + dr) * cols + c + dc for dr, dc in KNIGHT if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]
    return [sq for sq in around if sq not in path]


def test_each_kind_is_placed_on_the_rooms_own_search(room):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=30)
    room.pause_at(index)
    ack = room.ask(kind="onward")
    assert ack["ok"], ack
    question = ack["quiz"]["question"]
    path = reference(SIX_BY_SIX, index).path
    assert question["kind"] == "onward" and question["path"] == path
    square = question["subject"]["square"]
    assert ack["quiz"]["answer"] == len(unvisited(path, square))
    assert room.teacher.member.call("quiz_reveal", {"question": 1})["ok"]
    # the steps back: the class stands where the search next backtracks
    stuck = first_index(SIX_BY_SIX, lambda e: e < 0, start=index)
    room.pause_at(stuck)
    ack = room.ask(kind="backtrack")
    assert ack["ok"] and ack["quiz"]["question"]["index"] == stuck
    steps = 0
    while next_event(SIX_BY_SIX, stuck + steps) < 0:
        steps += 1
    assert ack["quiz"]["answer"] == steps
    assert room.teacher.member.call("quiz_reveal", {"question": 2})["ok"]
    # the frame that carries on, from a forward run: the class is moved on to the dead end
    forward = first_index(SIX_BY_SIX, lambda e: e >= 0, start=stuck + steps)
    room.pause_at(forward)
    ack = room.ask(kind="frame")
    assert ack["ok"] and ack["moved"]["reason"] == "fits"
    at = ack["quiz"]["question"]["index"]
    assert next_event(SIX_BY_SIX, at) < 0
    back = 0
    while next_event(SIX_BY_SIX, at + back) < 0:
        back += 1
    assert ack["quiz"]["answer"] == reference(SIX_BY_SIX, at + back).path[-1]
    assert ack["state"]["hold"] == at


def test_a_kind_the_demo_cannot_take_is_refused_and_asks_nothing(room):
    room.pause_at(10)
    assert code_of(room.ask(kind="obstacle")) == "cannot-ask"  # 6x6 has a tour
    assert code_of(room.ask(kind="where")) == "bad-request"
    assert code_of(room.ask(peer="yes")) == "bad-request"
    assert room.teacher.member.call("quiz_state", {})["quiz"]["question"] is None


def test_a_peer_question_through_both_votes_reaches_every_page(room):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=40)
    right = next_event(SIX_BY_SIX, index)
    wrong = (right + 1) % 36
    ada, _ = room.student("Ada")
    bob, _ = room.student("Bob")
    room.pause_at(index)
    outsider = Outsider(room.url)
    try:
        assert outsider.call("join", {"code": room.code})["ok"]
        assert outsider.call("quiz_enter", {"name": "Eve"})["ok"]
        ack = room.ask(peer=True)
        assert ack["ok"] and ack["quiz"]["question"]["phase"] == "vote"
        assert ada.call("quiz_answer", {"question": 1, "square": wrong})["round"] == 1
        assert bob.call("quiz_answer", {"question": 1, "square": right})["round"] == 1
        outsider.call("quiz_answer", {"question": 1, "square": wrong})
        teacher = room.teacher.member
        assert code_of(ada.call("quiz_phase", {"question": 1, "phase": "tally"})) == "not-teacher"
        assert code_of(teacher.call("quiz_phase", {"question": 1, "phase": "revote"})) == (
            "bad-phase"
        )
        assert teacher.call("quiz_phase", {"question": 1, "phase": "tally"})["ok"]

        def phase(name):
            return lambda: any(
                event == "quiz_phase" and data["phase"] == name for event, data in outsider.received
            )

        assert wait_until(phase("tally"), 5)
        shown = next(d for e, d in outsider.received if e == "quiz_phase")
        assert sorted(shown["first_tally"]["tally"]) == sorted([[wrong, 2], [right, 1]])
        assert code_of(ada.call("quiz_answer", {"question": 1, "square": right})) == (
            "voting-closed"
        )
        assert teacher.call("quiz_phase", {"question": 1, "phase": "discuss"})["ok"]
        assert teacher.call("quiz_phase", {"question": 1, "phase": "revote"})["ok"]
        assert wait_until(phase("revote"), 5)
        assert ada.call("quiz_answer", {"question": 1, "square": right})["round"] == 2
        mine = ada.call("quiz_state", {})["quiz"]
        assert (mine["mine"], mine["first"]) == (right, wrong)
        # through both votes and the tally, no event or acknowledgement told the answer
        text = json.dumps(outsider.received)
        for word in ('"answer"', '"distribution"', '"candidates"', '"witness"'):
            assert word not in text, word
        assert teacher.call("quiz_reveal", {"question": 1})["ok"]
        assert wait_until(lambda: any(e == "quiz_reveal" for e, _ in outsider.received), 5)
        reveal = next(d for e, d in outsider.received if e == "quiz_reveal")
        assert reveal["answer"] == right and reveal["rounds"] == 2
        assert reveal["moves"]["shift"] == {
            "right_right": 1,  # Bob
            "wrong_right": 1,  # Ada
            "right_wrong": 0,
            "wrong_wrong": 1,  # Eve kept her first vote
        }
    finally:
        outsider.close()


@pytest.mark.parametrize(
    "payload",
    [{"question": 1}, {"question": 1, "phase": "vote"}, {"question": 0, "phase": "tally"}, []],
)
def test_quiz_phase_payloads_are_checked(room, payload):
    room.pause_at(12)
    assert room.ask(peer=True)["ok"]
    assert code_of(room.teacher.member.call("quiz_phase", payload)) == "bad-request"


def test_why_a_board_has_no_tour_and_whether_a_tour_is_still_possible(live, members):
    four = quiz_tests.Room(live, members, {**SIX_BY_SIX, "rows": 4, "cols": 4})
    ack = four.ask(kind="obstacle")
    assert ack["ok"], ack
    question = ack["quiz"]["question"]
    assert question["subject"]["choices"] == list(OBSTACLES)
    assert OBSTACLES[ack["quiz"]["answer"]] == "theory"  # no 4x4 board has a tour
    assert four.teacher.member.call("quiz_reveal", {"question": 1})["ok"]
    why = four.teacher.member.call("quiz_why", {"question": 1})["why"]
    assert why["code"] == "theory" and why["params"]["theory"]
    six = quiz_tests.Room(live, members)
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=60)
    six.pause_at(index)
    ack = six.ask(kind="possible")
    assert ack["ok"], ack
    path = ack["quiz"]["question"]["path"]
    assert ack["quiz"]["answer"] == (completion(6, 6, path) is not None)
