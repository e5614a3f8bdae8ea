"""The class quiz "where next?" (docs/protocol.md, "The class quiz") over real websockets.

A teacher and students are python-socketio clients of an in-process server; the right
answer is taken from the engine's own walker (tests/support/follower.py ``reference``),
never from the server.  An outside client joined as a student records every event and
acknowledgement it gets, and none of them tells the answer before the reveal.
"""

from __future__ import annotations

import json
import random

import pytest
import socketio

from server.classroom.models import QuizAnswer, QuizQuestion
from server.db import db
from server.engine.article_orders import RULES
from server.engine.board import Board
from tests.support.follower import (
    NAMESPACE,
    SIX_BY_SIX,
    Teacher,
    events_held,
    first_index,
    lesson_demo,
    next_event,
    reference,
)
from tests.support.waiting import wait_until
from tests.web import test_class_socket as class_socket_tests

live = class_socket_tests.live  # the same in-process server and its members
members = class_socket_tests.members
open_room = class_socket_tests.open_room

WARNSDORFF = {**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [4, 0], "algorithm": "warnsdorff"}


class Room:
    """A teacher paused at an index of a demo, and a way to add students."""

    def __init__(self, live, members, settings: dict = SIX_BY_SIX) -> None:
        url, app = live
        self.url, self.app, self.members, self.settings = url, app, members, settings
        self.opened = open_room(app)
        member = members()
        joined = member.join(self.opened.code, self.opened.token)
        assert joined["ok"], joined
        self.teacher = Teacher(member, joined)
        assert self.teacher.settings(settings)["ok"]

    @property
    def code(self) -> str:
        return self.opened.code

    def pause_at(self, index: int) -> None:
        assert self.teacher.control(index)["ok"]
        assert wait_until(lambda: self.teacher.member.holds(index), 10)

    def ask(self, **payload) -> dict:
        """``quiz_ask`` once: it never answers ``busy`` on a paused class."""
        return self.teacher.member.call("quiz_ask", payload)

    def student(self, name: str):
        member = self.members()
        assert member.join(self.code)["ok"]
        entered = member.call("quiz_enter", {"name": name})
        assert entered["ok"], entered
        return member, entered


def code_of(ack: dict) -> str:
    assert not ack["ok"], ack
    return ack["error"]["code"]


def stored_answers(app, code: str) -> list[tuple[str, int]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(QuizAnswer.student_id, QuizAnswer.value)
            .join(QuizQuestion, QuizQuestion.id == QuizAnswer.question_id)
            .where(QuizQuestion.code == code)
        ).all()
        return sorted((row[0], row[1]) for row in rows)


@pytest.fixture
def room(live, members):
    return Room(live, members)


# -- asking ----------------------------------------------------------------------------------------
def test_a_question_is_the_paused_position_and_its_answer_the_engines_next_move(room):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=20)
    student, _entered = room.student("Ada")
    room.pause_at(index)
    ack = room.ask()
    assert ack["ok"], ack
    assert ack["moved"] is None  # asked where the class stands
    quiz = ack["quiz"]
    assert quiz["question"]["index"] == index
    assert quiz["question"]["path"] == reference(SIX_BY_SIX, index).path
    assert quiz["answer"] == next_event(SIX_BY_SIX, index)
    assert quiz["tally"] == {"question": 1, "round": 1, "tally": [], "answers": 0, "students": 1}
    assert ack["state"]["hold"] == index and not ack["state"]["playing"]
    # the student is told a question is open, with the position and nothing more
    assert wait_until(lambda: student.got("quiz_question"), 5)
    question = student.got("quiz_question")[0]
    assert set(question) == {
        *("question", "gen", "index", "path", "revealed", "moved"),
        *("kind", "subject", "values", "mode", "phase"),
    }
    assert (question["kind"], question["subject"], question["phase"]) == ("next", {}, None)
    assert question["path"] == quiz["question"]["path"] and question["moved"] is None


def test_before_a_backtrack_the_class_moves_on_to_the_next_forward_move(room):
    index = first_index(SIX_BY_SIX, lambda e: e < 0)  # the search backtracks next
    forward = first_index(SIX_BY_SIX, lambda e: e >= 0, start=index)
    assert forward > index
    student, _ = room.student("Ada")
    room.pause_at(index)
    ack = room.ask()
    assert ack["ok"], ack
    assert ack["moved"] == {"from": index, "to": forward, "reason": "backtrack", "play": False}
    assert ack["quiz"]["question"]["index"] == forward
    assert ack["quiz"]["question"]["path"] == reference(SIX_BY_SIX, forward).path
    assert ack["quiz"]["answer"] == next_event(SIX_BY_SIX, forward)
    # the whole class stands there, paused
    assert ack["state"]["index"] == forward and not ack["state"]["playing"]
    assert wait_until(lambda: any(s["index"] == forward for s in student.got("state")), 5)
    assert wait_until(lambda: student.got("quiz_question"), 5)  # its own message, maybe later
    assert student.got("quiz_question")[0]["moved"] == ack["moved"]


def test_at_the_root_the_question_is_the_first_move(room):
    room.pause_at(0)  # the root move places the knight: nothing to choose between
    ack = room.ask()
    assert ack["ok"], ack
    assert ack["moved"]["reason"] == "root" and ack["moved"]["to"] == 1
    assert ack["quiz"]["answer"] == next_event(SIX_BY_SIX, 1)


def test_asking_while_playing_pauses_the_class_and_an_open_question_holds_the_demo(room):
    assert room.teacher.control(5, playing=True, speed=20.0)["ok"]
    ack = room.ask()
    assert ack["ok"], ack
    index = ack["quiz"]["question"]["index"]
    assert index >= 5 and ack["state"] == {**ack["state"], "index": index, "playing": False}
    assert ack["quiz"]["answer"] == next_event(SIX_BY_SIX, index)
    assert code_of(room.ask()) == "question-open"
    assert code_of(room.teacher.control(index + 1)) == "question-open"
    assert code_of(room.teacher.settings(SIX_BY_SIX)) == "question-open"
    # after the reveal the class stands at the question, paused, and moves on again
    revealed = room.teacher.member.call("quiz_reveal", {"question": 1})
    assert revealed["ok"]
    assert wait_until(
        lambda: any(
            s["index"] == index and not s["playing"] and s["hold"] is None
            for s in room.teacher.member.got("state")
        ),
        5,
    )
    assert room.teacher.control(index + 1)["ok"]


def test_the_class_can_play_on_to_the_question(room):
    index = first_index(SIX_BY_SIX, lambda e: e < 0, start=30)  # a backtrack comes next
    forward = first_index(SIX_BY_SIX, lambda e: e >= 0, start=index)
    student, _ = room.student("Ada")
    room.pause_at(index)
    ack = room.ask(play=True)
    assert ack["ok"], ack
    assert ack["moved"] == {"from": index, "to": forward, "reason": "backtrack", "play": True}
    state = ack["state"]
    assert state["playing"] and state["hold"] == forward and state["index"] <= forward
    # the class plays the backtracks, stops at the question, and everyone is told
    stopped = lambda s: s["index"] == forward and not s["playing"]  # noqa: E731
    assert wait_until(lambda: any(stopped(s) for s in student.got("state")), 10)
    assert wait_until(lambda: student.holds(forward), 10)
    assert not student.holds(forward + 1)  # nothing past the question
    assert ack["quiz"]["answer"] == next_event(SIX_BY_SIX, forward)


def test_nothing_is_left_to_ask_at_the_end_or_in_a_construction(live, members):
    room = Room(live, members, WARNSDORFF)  # 25 moves, no backtrack
    room.pause_at(25)
    refused = room.ask()
    assert code_of(refused) == "cannot-ask" and refused["error"]["message"]
    built = Room(live, members, {**WARNSDORFF, "algorithm": "construct", "rows": 6, "cols": 6})
    built.pause_at(3)
    assert code_of(built.ask()) == "cannot-ask"
    # nothing changed: the rooms can still be driven
    assert room.teacher.control(3)["ok"] and built.teacher.control(4)["ok"]


def test_quiz_ask_payloads_are_checked(room):
    room.pause_at(10)
    for payload in ({"play": 1}, {"play": "yes"}, ["play"]):
        assert code_of(room.teacher.member.call("quiz_ask", payload)) == "bad-request"
    assert room.teacher.member.call("quiz_ask", None)["ok"]  # no payload: {}


# -- answering -------------------------------------------------------------------------------------
def test_answers_are_one_per_student_changeable_until_the_reveal_and_tallied_for_the_teacher(
    room,
):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=10)
    right = next_event(SIX_BY_SIX, index)
    wrong = (right + 1) % 36
    ada, _ = room.student("Ada")
    bob, _ = room.student("Bob")
    room.pause_at(index)
    assert room.ask()["ok"]
    assert ada.call("quiz_answer", {"question": 1, "square": wrong}) == {
        "ok": True,
        "question": 1,
        "value": wrong,
        "round": 1,
    }
    assert ada.call("quiz_answer", {"question": 1, "square": right})["ok"]  # changed her mind
    assert bob.call("quiz_answer", {"question": 1, "square": wrong})["ok"]

    def tallied():
        tallies = room.teacher.member.got("quiz_tally")
        return tallies and tallies[-1]["answers"] == 2 and tallies[-1]

    assert wait_until(tallied, 5)
    last = tallied()
    assert sorted(last["tally"]) == sorted([[right, 1], [wrong, 1]]) and last["students"] == 2
    assert len(stored_answers(room.app, room.code)) == 2

    revealed = room.teacher.member.call("quiz_reveal", {"question": 1})
    assert revealed["ok"] and revealed["quiz"]["reveal"]["answer"] == right
    assert code_of(bob.call("quiz_answer", {"question": 1, "square": right})) == "revealed"
    # everyone sees the right square and the distribution; each their own answer
    for student, mine in ((ada, right), (bob, wrong)):
        assert wait_until(lambda s=student: s.got("quiz_reveal"), 5)
        reveal = student.got("quiz_reveal")[0]
        assert reveal["answer"] == right and reveal["answers"] == 2
        assert sorted(reveal["distribution"]) == sorted([[right, 1], [wrong, 1]])
        view = student.call("quiz_state", {})["quiz"]
        assert view["mine"] == mine and view["reveal"]["answer"] == right
    for student, right_answers in ((ada, 1), (bob, 0)):
        score = student.call("quiz_state", {})["quiz"]["score"]
        assert score == {"questions": 1, "right": right_answers, "answered": 1}


def test_bad_answers_are_refused_and_nothing_is_stored(room):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=10)
    ada, _ = room.student("Ada")
    _bob, bob_entered = room.student("Bob")
    lurker = room.members()
    assert lurker.join(room.code)["ok"]
    # no open question yet
    assert code_of(ada.call("quiz_answer", {"question": 1, "square": 3})) == "no-question"
    room.pause_at(index)
    assert room.ask()["ok"]
    bob_id = bob_entered["quiz"]["student"]["id"]
    refused = [
        (ada, {"question": 1, "square": 36}, "bad-square"),  # off the 6x6 board
        (ada, {"question": 1, "square": -1}, "bad-square"),
        (ada, {"question": 1, "square": 10**12}, "bad-square"),
        (ada, {"question": 1, "square": True}, "bad-request"),
        (ada, {"question": 1, "square": "3"}, "bad-request"),
        (ada, {"question": 1}, "bad-request"),
        (ada, {"question": 2, "square": 3}, "no-question"),  # not the open one
        (ada, {"question": 1, "square": 3, "student": bob_id}, "not-yours"),
        (ada, ["question", 1], "bad-request"),
        (lurker, {"question": 1, "square": 3}, "not-entered"),
        (room.teacher.member, {"question": 1, "square": 3}, "not-student"),
    ]
    for member, payload, code in refused:
        ack = member.call("quiz_answer", payload)
        assert code_of(ack) == code, (payload, ack)
        assert ack["error"]["message"]
    assert stored_answers(room.app, room.code) == []
    # a name is one student's: taking it needs their key
    other = room.members()
    assert other.join(room.code)["ok"]
    assert code_of(other.call("quiz_enter", {"name": "bob"})) == "name-taken"
    assert code_of(other.call("quiz_enter", {"name": ""})) == "bad-name"
    back = other.call("quiz_enter", {"name": "Bob", "key": bob_entered["key"]})
    assert back["ok"] and back["quiz"]["student"]["id"] == bob_id
    # students cannot use the teacher's events
    for event, payload in (
        ("quiz_ask", {}),
        ("quiz_reveal", {"question": 1}),
        ("quiz_why", {"question": 1}),
    ):
        assert code_of(ada.call(event, payload)) == "not-teacher", event
    assert code_of(room.teacher.member.call("quiz_why", {"question": 1})) == "not-revealed"
    assert code_of(room.teacher.member.call("quiz_reveal", {"question": 9})) == "no-question"
    assert room.teacher.member.call("quiz_state", {})["quiz"]["tally"]["answers"] == 0


# -- nothing leaks ---------------------------------------------------------------------------------
class Outsider:
    """A bare python-socketio client joined as a student: it records everything it gets."""

    def __init__(self, url: str) -> None:
        self.received: list[tuple[str, object]] = []
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("*", lambda event, data: self.received.append((event, data)), NAMESPACE)
        self.sio.connect(f"{url}?lang=en", namespaces=[NAMESPACE], transports=["websocket"])

    def call(self, event: str, payload=None):
        ack = self.sio.call(event, payload, namespace=NAMESPACE, timeout=10)
        self.received.append((f"ack:{event}", ack))
        return ack

    def got_state(self, index: int) -> bool:
        """Whether a ``state`` putting the class at ``index`` arrived."""
        return any(name == "state" and data["index"] == index for name, data in self.received)

    def close(self) -> None:
        self.sio.disconnect()


def assert_no_secret(received: list) -> None:
    """No message names a question's answer, its tally or its why."""
    text = json.dumps(received)
    for word in ('"answer"', '"distribution"', '"candidates"', '"tally"', '"onward"'):
        assert word not in text, word


def assert_learns_the_answer_at_the_reveal(room: Room, outsider: Outsider, right: int) -> None:
    assert room.teacher.member.call("quiz_reveal", {"question": 1})["ok"]
    assert wait_until(lambda: any(n == "quiz_reveal" for n, _ in outsider.received), 5)
    reveal = next(data for name, data in outsider.received if name == "quiz_reveal")
    assert reveal["answer"] == right


def test_an_outside_student_learns_nothing_of_the_answer_before_the_reveal(room):
    index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=40)
    right = next_event(SIX_BY_SIX, index)
    room.pause_at(index)
    assert room.ask()["ok"]
    outsider = Outsider(room.url)
    try:
        assert outsider.call("join", {"code": room.code})["ok"]
        assert outsider.call("quiz_enter", {"name": "Eve"})["ok"]
        assert outsider.call("quiz_state", {})["ok"]
        outsider.call("sync", {"gen": room.teacher.gen, "index": index + 50})  # ask ahead
        outsider.call("quiz_answer", {"question": 1, "square": (right + 5) % 36})
        outsider.call("quiz_why", {"question": 1})
        outsider.call("quiz_reveal", {"question": 1})
        other, _ = room.student("Ada")
        other.call("quiz_answer", {"question": 1, "square": right})  # a classmate is right
        assert wait_until(lambda: room.teacher.member.got("quiz_tally"), 5)
        before = list(outsider.received)
        # no event and no acknowledgement names the answer, the reveal or the why ...
        assert_no_secret(before)
        assert not [name for name, _ in before if name in ("quiz_reveal", "quiz_why")]
        # ... and no snapshot or feed reaches past the question's position
        assert events_held(before, counts=False) <= index
        question = next(data for name, data in before if name == "ack:quiz_state")["quiz"]
        assert question["question"]["path"] == reference(SIX_BY_SIX, index).path
        # after the reveal it does learn it
        assert_learns_the_answer_at_the_reveal(room, outsider, right)
    finally:
        outsider.close()


def test_a_student_who_joined_while_the_demo_played_holds_nothing_past_the_question(live, members):
    """The feed leads a playing class; the question is asked where the class was sent."""
    straight = {**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}  # 64 moves
    room = Room(live, members, straight)
    assert room.teacher.control(3, playing=True, speed=4.0)["ok"]
    outsider = Outsider(room.url)
    try:
        joined = outsider.call("join", {"code": room.code})
        assert joined["ok"] and joined["state"]["playing"]
        assert outsider.call("quiz_enter", {"name": "Eve"})["ok"]
        outsider.call("sync", {"gen": room.teacher.gen, "index": 60})  # ask ahead
        # the feed runs ahead of where the class is: ~2 s of play
        assert wait_until(lambda: events_held(outsider.received, counts=True) >= 10, 10)
        paused = room.teacher.control(6)  # the teacher pauses behind what was sent
        assert paused["ok"] and not paused["state"]["playing"]
        sent = events_held(outsider.received, counts=True)
        assert sent > 6
        ack = room.ask()
        assert ack["ok"], ack
        index = ack["quiz"]["question"]["index"]
        assert ack["state"]["index"] == index and not ack["state"]["playing"]
        # asked as far as the class was sent (the class moved there), never behind it
        assert index >= sent
        right = next_event(straight, index)
        assert ack["quiz"]["answer"] == right and right >= 0
        assert wait_until(lambda: outsider.got_state(index), 5)
        outsider.call("sync", {"gen": room.teacher.gen, "index": index + 10})
        outsider.call("quiz_state", {})
        outsider.call("quiz_answer", {"question": 1, "square": (right + 1) % 64})
        assert wait_until(lambda: room.teacher.member.got("quiz_tally"), 5)
        before = list(outsider.received)
        # nothing the outsider got reaches past the question, or names its answer
        assert events_held(before, counts=True) <= index
        assert_no_secret(before)
        assert [data["index"] for name, data in before if name == "quiz_question"] == [index]
        assert_learns_the_answer_at_the_reveal(room, outsider, right)
    finally:
        outsider.close()


DEMOS = {  # the demo, and the last moment to pause it at (before its end)
    "5x5-plain": ({**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [4, 0]}, 55),  # 57 events
    "6x6-plain": (SIX_BY_SIX, 10**6),
    "8x8-warnsdorff": ({**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}, 62),
    "6x6-closed-warnsdorff": (  # 2,684 events
        {**SIX_BY_SIX, "algorithm": "warnsdorff", "closed": True},
        2600,
    ),
    "5x5-shape-plain": (  # the centre cut out: 5,778 events
        {**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [0, 0], "holes": [12]},
        5700,
    ),
}


@pytest.mark.parametrize("demo", DEMOS)
def test_a_question_opens_at_any_moment_a_playing_demo_is_paused(live, members, demo):
    """As an outside teacher client would: play at 5-400 events/s, pause at a random
    moment, ask. It opens at once every time, nobody holds its answer, and the answer
    is the engine's next move there."""
    settings, last = DEMOS[demo]
    counts = settings["algorithm"] == "warnsdorff"
    chance = random.Random(f"quiz-{demo}")
    room = Room(live, members, settings)
    outsider = Outsider(room.url)
    try:
        assert outsider.call("join", {"code": room.code})["ok"]
        for _round in range(4):
            outsider.received.clear()
            assert room.teacher.settings(settings)["ok"]  # a new run from its start
            speed = chance.uniform(5, 400)
            moment = chance.randint(1, min(last, int(speed * 1.5) + 1))  # 1.5 s of play at most
            assert room.teacher.control(0, playing=True, speed=speed)["ok"]
            assert wait_until(lambda m=moment: room.teacher.member.target() >= m, 10)
            board = room.teacher.member.target()
            assert room.teacher.control(board)["ok"]  # paused where the class is
            ack = room.ask()
            gen = room.teacher.gen
            if not ack["ok"]:
                # refused only when the class was sent every event to the end before the
                # pause reached the server (a loaded machine can be that late at 400/s)
                assert code_of(ack) == "cannot-ask", (demo, speed, board, ack)
                assert wait_until(lambda g=gen: sent_the_end(room, settings, g), 5), (demo, board)
                continue
            index = ack["quiz"]["question"]["index"]
            number = ack["quiz"]["question"]["question"]  # a refused round asked none
            assert index >= board and ack["state"]["index"] == index
            assert ack["quiz"]["question"]["path"] == reference(settings, index).path
            assert ack["quiz"]["answer"] == next_event(settings, index) >= 0
            assert wait_until(lambda n=number: outsider_got_question(outsider, n), 5)
            assert events_held(outsider.received, counts, gen) <= index
            assert events_held(room.teacher.member.messages_as_pairs(), counts, gen) <= index
            assert room.teacher.member.call("quiz_reveal", {"question": number})["ok"]
    finally:
        outsider.close()


def sent_the_end(room: Room, settings: dict, gen: int) -> bool:
    """Whether the teacher's page was sent every event of generation ``gen`` to its end."""
    counts = settings["algorithm"] == "warnsdorff"
    held = events_held(room.teacher.member.messages_as_pairs(), counts, gen)
    ended = [s["end"] for s in room.teacher.member.got("state") if s["gen"] == gen and s["end"]]
    return bool(ended) and held == ended[-1]["total"]


def outsider_got_question(outsider: Outsider, number: int) -> bool:
    return any(
        name == "quiz_question" and data["question"] == number for name, data in outsider.received
    )


# -- why, and the scores ---------------------------------------------------------------------------
def test_why_shows_the_candidates_in_order_with_warnsdorffs_onward_counts(live, members):
    room = Room(live, members, WARNSDORFF)
    ada, _ = room.student("Ada")
    index = first_index(WARNSDORFF, lambda e: e >= 0, start=3)
    room.pause_at(index)
    assert room.ask()["ok"]
    assert room.teacher.member.call("quiz_reveal", {"question": 1})["ok"]
    why = room.teacher.member.call("quiz_why", {"question": 1})
    assert why["ok"], why
    why = why["why"]
    path = reference(WARNSDORFF, index).path
    board = Board(5, 5)
    free = [sq for sq in board.neighbours[path[-1]] if sq not in path]
    assert why["from"] == path[-1] and sorted(why["candidates"]) == sorted(free)
    answer = next_event(WARNSDORFF, index)
    assert why["candidates"][why["tried"]] == answer
    onward = [len([n for n in board.neighbours[c] if n not in path]) for c in why["candidates"]]
    assert why["onward"] == onward
    assert onward[why["tried"]] == min(onward[why["tried"] :])  # the fewest onward moves
    assert wait_until(lambda: ada.got("quiz_why"), 5)
    assert ada.got("quiz_why")[0] == why


def test_scores_add_up_over_the_lessons_questions_and_students_see_only_their_own(room):
    ada, _ = room.student("Ada")
    bob, _ = room.student("Bob")
    asked = []
    start = 10
    for number in (1, 2):
        index = first_index(SIX_BY_SIX, lambda e: e >= 0, start=start)
        right = next_event(SIX_BY_SIX, index)
        room.pause_at(index)
        assert room.ask()["ok"]
        assert ada.call("quiz_answer", {"question": number, "square": right})["ok"]
        if number == 1:
            assert bob.call("quiz_answer", {"question": number, "square": right})["ok"]
        else:
            assert bob.call("quiz_answer", {"question": number, "square": (right + 1) % 36})["ok"]
        assert room.teacher.member.call("quiz_reveal", {"question": number})["ok"]
        asked.append(index)
        start = index + 5
    scores = room.teacher.member.call("quiz_state", {})["quiz"]["scores"]
    assert scores["questions"] == 2
    assert [(s["name"], s["right"], s["answered"]) for s in scores["scores"]] == [
        ("Ada", 2, 2),
        ("Bob", 1, 2),
    ]
    view = bob.call("quiz_state", {})["quiz"]
    assert view["score"] == {"questions": 2, "right": 1, "answered": 2}
    assert "Ada" not in json.dumps(view) and "scores" not in view


@pytest.mark.parametrize("chapter", ["bug-java1", "bug-python", "bug-c", "loop-c"])
def test_the_quiz_works_in_the_articles_chapters(live, members, chapter):
    """Issue 24: a question in a "find the bug" chapter's demo is answered by that program's
    own next move, and its why lists the candidates in the program's order, with the counts
    its sort used (the Java article's static degrees) or none."""
    settings = lesson_demo(chapter)
    room = Room(live, members, settings)
    ada, _ = room.student("Ada")
    index = first_index(settings, lambda e: e >= 0, start=5)
    room.pause_at(index)
    ack = room.ask()
    assert ack["ok"], ack
    assert ack["quiz"]["answer"] == next_event(settings, index)
    assert room.teacher.member.call("quiz_reveal", {"question": 1})["ok"]
    why = room.teacher.member.call("quiz_why", {"question": 1})["why"]
    path = reference(settings, index).path
    rule = RULES[settings["algorithm"]]
    assert why["candidates"][why["tried"]] == ack["quiz"]["answer"]
    board = Board(settings["rows"], settings["cols"])
    free = [
        path[-1] + dr * settings["cols"] + dc
        for dr, dc in rule.moves
        if 0 <= path[-1] // settings["cols"] + dr < settings["rows"]
        and 0 <= path[-1] % settings["cols"] + dc < settings["cols"]
    ]
    free = [sq for sq in free if sq not in path]
    if rule.sort == "static":  # sorted by every move on the board, visited or not
        assert why["onward"] == [len(board.neighbours[c]) for c in why["candidates"]]
        assert why["onward"] == sorted(why["onward"])
    else:  # the program's own move order, no counts
        assert why["candidates"] == free and why["onward"] is None
    assert wait_until(lambda: ada.got("quiz_why"), 5)
