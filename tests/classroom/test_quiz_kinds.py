"""server.classroom.quiz with the engine's kinds: each asked in a room on its real search,
placed where it fits, its answer checked against the engine's walker (tests/support/
follower.py) or a computation of this module's own, and answered within its own range."""

from __future__ import annotations

import pytest

from server.classroom import clock, quiz, quiz_answers, rooms
from server.classroom.messages import ClassError
from server.classroom.quiz_messages import QuizAnswerMessage
from server.engine import questions
from server.stream.timeline import Timeline
from tests.classroom.helpers import SETTINGS, T0, room_with_demo, student
from tests.engine import exhaustive
from tests.engine.test_questions import neighbours
from tests.support.follower import first_index, next_event, reference


def finder(room):
    """The room's search as a feed offers it to :func:`quiz.ask` (``find(start, seconds,
    kind)``), on a real timeline of its demo; ``cannot-ask`` when the kind finds no place."""
    timeline = Timeline(clock.demo_of(room))
    board = timeline.board
    closed = clock.settings_of(room)["closed"]
    window = 2 * board.rows * board.cols + 2

    def find(start: int, seconds: float, kind: str = "next") -> quiz.Found:
        timeline.extend(start + window)
        snapshot = timeline.snapshot(start, tail=0, ahead=window)
        ended = timeline.end is not None and start + window >= timeline.end["total"]
        found = quiz.first_question(
            snapshot, timeline.demo.counts, board, kind, closed=closed, ended=ended
        )
        if found is None or found is questions.MORE:
            raise ClassError("cannot-ask", quiz.cannot_ask_key(kind))
        return found

    return find


def pause_at(room, index: int) -> None:
    control = {"seq": 2, "gen": room.gen, "index": index, "playing": False, "speed": 10}
    clock.set_control(room, control, T0)


def ask_at(index: int, kind: str, settings: dict = SETTINGS):
    room = room_with_demo(settings)
    pause_at(room, index)
    return room, quiz.ask(room, T0 + 1, finder(room), kind=kind)


def unvisited(settings, path, square) -> list[int]:
    return [n for n in neighbours(settings["rows"], settings["cols"], square) if n not in path]


def test_onward_is_asked_where_the_class_stands_about_a_square_it_can_jump_to(ctx):
    index = first_index(SETTINGS, lambda e: e >= 0, start=12)
    room, asked = ask_at(index, "onward")
    question = asked.question
    path = reference(SETTINGS, index).path
    assert asked.moved is None and question.idx == index and question.kind == "onward"
    public = quiz.public_question(question)
    square = public["subject"]["square"]
    assert square in unvisited(SETTINGS, path, path[-1])
    assert question.answer == len(unvisited(SETTINGS, path, square))
    assert public["values"] == 9 and "answer" not in public
    ada = student(room, "Ada")
    message = QuizAnswerMessage(question=1, value=9)
    with pytest.raises(ClassError) as err:
        quiz_answers.answer(room, ada, message, T0)
    assert (err.value.code, err.value.params) == ("bad-answer", {"max": 8})
    kept = quiz_answers.answer(room, ada, QuizAnswerMessage(question=1, value=question.answer), T0)
    assert (kept.value, kept.round) == (question.answer, 1)
    quiz.reveal(room, 1, T0 + 2)
    assert quiz_answers.scores(room)["scores"][0]["right"] == 1


def test_pick_is_warnsdorffs_choice_here_and_a_square_of_the_board(ctx):
    index = first_index(SETTINGS, lambda e: e >= 0, start=30)
    room, asked = ask_at(index, "pick")
    question = asked.question
    path = reference(SETTINGS, index).path if asked.moved is None else None
    path = path or reference(SETTINGS, question.idx).path
    candidates = unvisited(SETTINGS, path, path[-1])
    counts = [len(unvisited(SETTINGS, path, c)) for c in candidates]
    assert question.answer == candidates[counts.index(min(counts))]
    why = quiz.why_of(question)
    assert why["tied"][0] == question.answer and why["algorithm"] == "seed"
    with pytest.raises(ClassError) as err:
        quiz_answers.answer(room, student(room, "Bo"), QuizAnswerMessage(question=1, square=25), T0)
    assert (err.value.code, err.value.params) == ("bad-square", {"max": 24})


def steps_back(settings, index) -> int:
    k = 0
    while next_event(settings, index + k) < 0:
        k += 1
    return k


def test_backtrack_counts_the_steps_back_the_walker_takes(ctx):
    backtrack = first_index(SETTINGS, lambda e: e < 0, start=10)  # the class at a dead end
    _room, asked = ask_at(backtrack, "backtrack")
    assert asked.moved is None and asked.question.answer == steps_back(SETTINGS, backtrack) > 0
    forward = first_index(SETTINGS, lambda e: e >= 0, start=5)
    _room, asked = ask_at(forward, "backtrack")
    assert asked.question.answer == 0  # it moves on
    assert quiz.public_question(asked.question)["subject"] == {"max": forward}


def test_frame_moves_the_class_on_to_the_next_dead_end_and_names_the_frame_that_goes_on(ctx):
    forward = first_index(SETTINGS, lambda e: e >= 0, start=5)
    stuck = first_index(SETTINGS, lambda e: e < 0, start=forward)
    room, asked = ask_at(forward, "frame")
    assert asked.question.idx == stuck
    assert asked.moved == {"from": forward, "to": stuck, "reason": "fits", "play": False}
    k = steps_back(SETTINGS, stuck)
    path = reference(SETTINGS, stuck).path
    assert asked.question.answer == path[len(path) - 1 - k]
    assert reference(SETTINGS, stuck + k).path[-1] == asked.question.answer
    state = clock.public_state(rooms.find_room(room.code, T0), T0 + 5)
    assert (state["index"], state["hold"]) == (stuck, stuck)  # held there like any question


def test_possible_agrees_with_the_exhaustive_search(ctx):
    answers = set()
    for index in (8, 40, 120, 300):
        _room, asked = ask_at(index, "possible")
        path = reference(SETTINGS, asked.question.idx).path
        rest = exhaustive.completion(5, 5, path)
        assert asked.question.answer == (rest is not None)
        answers.add(asked.question.answer)
    assert answers == {0, 1}


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({**SETTINGS, "rows": 4, "cols": 4, "start": [0, 0]}, "theory"),
        ({**SETTINGS, "holes": [13, 17]}, "unreachable"),
    ],
)
def test_obstacle_is_the_verdicts_and_a_board_with_a_tour_is_refused(ctx, settings, code):
    _room, asked = ask_at(0, "obstacle", settings)
    assert asked.moved is None and asked.question.idx == 0
    assert questions.OBSTACLES[asked.question.answer] == code == quiz.why_of(asked.question)["code"]
    assert quiz.public_question(asked.question)["subject"]["choices"] == list(questions.OBSTACLES)
    room = room_with_demo()
    with pytest.raises(ClassError) as err:
        quiz.ask(room, T0, finder(room), kind="obstacle")
    assert (err.value.code, err.value.key) == ("cannot-ask", "class.error.cannot-ask.has-tour")
    assert quiz.open_question(room.code) is None and room.held_at is None
