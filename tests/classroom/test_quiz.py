"""server.classroom.quiz: where a question is asked, the demo held while it is open, the
reveal and the why.

The room's search is a real timeline of its demo; the right answers come from the
engine's own walker (tests/support/follower.py), never from the server.
"""

from __future__ import annotations

import threading

import pytest

from server.classroom import clock, lease, quiz, rooms
from server.classroom.messages import ClassError
from server.engine import questions
from server.stream.timeline import Timeline
from tests.classroom.helpers import SETTINGS, T0, new_room, room_with_demo
from tests.support.follower import first_index, next_event, reference

WARNSDORFF = {**SETTINGS, "rows": 5, "cols": 5, "start": [4, 0], "algorithm": "warnsdorff"}


def finder(room):
    """The room's search as a feed offers it to :func:`quiz.ask` (``find(start, seconds)``):
    the first question at or after ``start``, ``cannot-ask`` when none is left."""
    timeline = Timeline(clock.demo_of(room))
    window = 2 * timeline.board.rows * timeline.board.cols + 2

    def find(start: int, seconds: float, kind: str = "next") -> quiz.Found:
        timeline.extend(start + window)
        snapshot = timeline.snapshot(start, tail=0, ahead=window)
        found = quiz.first_question(snapshot, timeline.demo.counts, timeline.board, kind)
        if found is None or found is questions.MORE:
            raise ClassError("cannot-ask", "class.error.cannot-ask.end")
        return found

    return find


def pause_at(room, index: int, seq: int = 2) -> None:
    control = {"seq": seq, "gen": room.gen, "index": index, "playing": False, "speed": 10}
    clock.set_control(room, control, T0)


def test_the_first_question_is_a_move_with_a_choice(ctx):
    room = room_with_demo()
    timeline = Timeline(clock.demo_of(room))
    timeline.extend(200)
    backtrack = first_index(SETTINGS, lambda e: e < 0, start=10)
    for start in (0, 1, backtrack, backtrack + 1, 40):
        snapshot = timeline.snapshot(start, tail=0, ahead=100)
        found = quiz.first_question(snapshot, False, timeline.board)
        index = max(start, 1)  # the root move places the knight: nothing to choose
        index = first_index(SETTINGS, lambda e: e >= 0, start=index)
        assert found.index == index, start
        assert found.path == reference(SETTINGS, index).path
        assert found.question.answer == next_event(SETTINGS, index)
        assert found.question.answer in found.question.why["candidates"]
    # a snapshot that ends on backtracks holds no question
    stop = first_index(SETTINGS, lambda e: e >= 0, start=backtrack)
    snapshot = timeline.snapshot(backtrack, tail=0, ahead=stop - backtrack)
    # (look further: the search goes on), and none at all once those events end the search
    assert quiz.first_question(snapshot, False, timeline.board) is questions.MORE
    assert quiz.first_question(snapshot, False, timeline.board, ended=True) is None


def test_a_question_is_asked_where_the_class_stands(ctx):
    room = room_with_demo()
    index = first_index(SETTINGS, lambda e: e >= 0, start=20)
    pause_at(room, index)
    asked = quiz.ask(room, T0 + 1, finder(room))
    question = asked.question
    assert asked.moved is None and (question.number, question.idx) == (1, index)
    assert question.answer == next_event(SETTINGS, index)
    assert quiz.public_question(question) == {
        "question": 1,
        "gen": room.gen,
        "index": index,
        "path": reference(SETTINGS, index).path,
        "kind": "next",
        "subject": {},
        "values": 25,
        "mode": "single",
        "phase": None,
        "revealed": False,
    }  # no answer in it
    why = quiz.why_of(question)
    assert why["from"] == reference(SETTINGS, index).path[-1] and why["algorithm"] == "seed"
    assert why["candidates"][why["tried"]] == question.answer and why["onward"] is None
    state = clock.public_state(rooms.find_room(room.code, T0), T0 + 5)
    assert (state["hold"], state["index"], state["playing"]) == (index, index, False)
    assert quiz.open_question(room.code).id == question.id
    assert quiz.latest_question(room.code).id == question.id
    with pytest.raises(ClassError) as err:
        quiz.check_not_held(room)
    assert err.value.code == "question-open"


def test_before_a_backtrack_the_class_is_moved_on_to_the_next_choice(ctx):
    room = room_with_demo()
    index = first_index(SETTINGS, lambda e: e < 0)  # the search backtracks next
    forward = first_index(SETTINGS, lambda e: e >= 0, start=index)
    assert forward > index
    pause_at(room, index)
    asked = quiz.ask(room, T0, finder(room))
    assert asked.moved == {"from": index, "to": forward, "reason": "backtrack", "play": False}
    assert asked.question.idx == forward
    assert asked.question.answer == next_event(SETTINGS, forward)
    state = clock.public_state(rooms.find_room(room.code, T0), T0 + 5)
    assert (state["index"], state["playing"], state["hold"]) == (forward, False, forward)


def test_at_the_root_the_question_is_the_first_move(ctx):
    room = room_with_demo()
    asked = quiz.ask(room, T0, finder(room))
    assert asked.moved == {"from": 0, "to": 1, "reason": "root", "play": False}
    assert asked.question.answer == next_event(SETTINGS, 1)


def test_a_question_is_never_behind_what_the_class_was_sent(ctx):
    room = room_with_demo()
    pause_at(room, 3)
    assert lease.claim_sent(room.code, room.gen, 30) == 30  # the feed led a playing class
    asked = quiz.ask(room, T0, finder(room))
    index = first_index(SETTINGS, lambda e: e >= 0, start=30)
    assert asked.question.idx == index
    assert asked.moved == {"from": 3, "to": index, "reason": "sent-ahead", "play": False}


def test_the_class_can_play_on_to_the_question(ctx):
    room = room_with_demo()
    index = first_index(SETTINGS, lambda e: e < 0, start=30)  # a backtrack comes next
    forward = first_index(SETTINGS, lambda e: e >= 0, start=index)
    pause_at(room, index)
    clock.set_control(
        room, {"seq": 3, "gen": room.gen, "index": index, "playing": False, "speed": 4}, T0
    )
    asked = quiz.ask(room, T0, finder(room), play=True)
    assert asked.moved == {"from": index, "to": forward, "reason": "backtrack", "play": True}
    room = rooms.find_room(room.code, T0)
    state = clock.public_state(room, T0)
    assert state["playing"] and state["hold"] == forward and state["index"] == index
    assert clock.room_index(room, T0 + 3600) == forward  # it stops at the question
    # as fast as the search goes, there is nothing to watch on the way: it jumps there
    other = room_with_demo()
    pause_at(other, index)
    control = {"seq": 3, "gen": other.gen, "index": index, "playing": False, "speed": None}
    clock.set_control(other, control, T0)
    asked = quiz.ask(other, T0, finder(other), play=True)
    assert asked.moved["play"] is False
    assert clock.public_state(other, T0)["index"] == forward


def test_what_cannot_be_asked_leaves_the_room_as_it_was(ctx):
    room = new_room()
    with pytest.raises(ClassError) as err:
        quiz.ask(room, T0, finder(room))
    assert (err.value.code, err.value.key) == ("cannot-ask", "class.error.cannot-ask.no-demo")
    built = room_with_demo({**SETTINGS, "algorithm": "construct", "rows": 6, "cols": 6})
    with pytest.raises(ClassError) as err:
        quiz.ask(built, T0, finder(built))
    assert err.value.key == "class.error.cannot-ask.construct"
    straight = room_with_demo(WARNSDORFF)  # 25 moves, no backtrack
    pause_at(straight, 25)
    with pytest.raises(ClassError) as err:
        quiz.ask(straight, T0, finder(straight))
    assert err.value.key == "class.error.cannot-ask.end"

    def busy(start: int, seconds: float, kind: str = "next"):
        raise ClassError("busy", "class.error.busy.computing")

    with pytest.raises(ClassError) as err:
        quiz.ask(straight, T0, busy)
    assert err.value.code == "busy"
    for each in (room, built, straight):
        assert quiz.latest_question(each.code) is None
        assert rooms.find_room(each.code, T0).held_at is None
        quiz.check_not_held(each)  # the teacher's controls work


def test_one_question_at_a_time(ctx):
    room = room_with_demo()
    first = quiz.ask(room, T0, finder(room)).question
    with pytest.raises(ClassError) as err:
        quiz.ask(room, T0, finder(room))
    assert err.value.code == "question-open"
    quiz.reveal(room, first.number, T0)
    second = quiz.ask(room, T0, finder(room)).question
    assert (second.number, quiz.latest_question(room.code).id) == (2, second.id)
    assert second.idx == first.idx  # the class still stands there


def test_two_teacher_pages_asking_at_once_open_one_question(app):
    with app.app_context():
        room = room_with_demo()
        code = room.code
    outcomes: list[object] = []
    barrier = threading.Barrier(4)

    def ask() -> None:
        with app.app_context():
            room = rooms.find_room(code, T0)
            find = finder(room)
            barrier.wait()
            try:
                outcomes.append(quiz.ask(room, T0, find).question.number)
            except ClassError as err:
                outcomes.append(err.code)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes, key=str) == [1] + ["question-open"] * 3


def test_the_reveal_lifts_the_hold_where_the_question_stands(ctx):
    room = room_with_demo()
    index = first_index(SETTINGS, lambda e: e < 0, start=30)
    forward = first_index(SETTINGS, lambda e: e >= 0, start=index)
    clock.set_control(
        room, {"seq": 2, "gen": room.gen, "index": index, "playing": False, "speed": 1}, T0
    )
    question = quiz.ask(room, T0, finder(room), play=True).question
    with pytest.raises(ClassError) as err:
        quiz.show_why(room, question.number)  # the why waits for the reveal
    assert err.value.code == "not-revealed"
    revealed = quiz.reveal(room, question.number, T0 + 1)  # before it played on that far
    assert revealed.revealed_at == T0 + 1
    state = clock.public_state(rooms.find_room(room.code, T0), T0 + 60)
    assert (state["index"], state["playing"], state["hold"]) == (forward, False, None)
    assert quiz.open_question(room.code) is None
    quiz.check_not_held(room)
    seq = state["seq"]
    assert quiz.reveal(room, question.number, T0 + 9).revealed_at == T0 + 1  # once
    assert clock.public_state(rooms.find_room(room.code, T0), T0)["seq"] == seq
    assert quiz.show_why(room, question.number).why_shown
    assert quiz.public_question(question)["revealed"]
    for number in (0, 2):
        for step in (quiz.reveal, quiz.show_why):
            with pytest.raises(ClassError) as err:
                step(room, number, *([T0] if step is quiz.reveal else []))
            assert err.value.code == "no-question"


def test_a_question_of_a_replaced_demo_is_revealed_where_the_class_is(ctx):
    room = room_with_demo()
    question = quiz.ask(room, T0, finder(room)).question
    clock.set_settings(room, {**WARNSDORFF, "seq": 9}, T0)  # under the web layer's guard
    state = clock.public_state(room, T0)
    quiz.reveal(room, question.number, T0)
    after = clock.public_state(rooms.find_room(room.code, T0), T0)
    assert (after["gen"], after["index"], after["hold"]) == (state["gen"], 0, None)
