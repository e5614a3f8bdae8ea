"""server.classroom.quiz_peer: a question asked twice, with the first tally between.

The steps go forward one at a time (the talk may be skipped), the answers fall in the
vote that is open, the tally between votes tells no answer, and the reveal says how the
class moved, counted here by hand from what each student sent.
"""

from __future__ import annotations

import pytest

from server.classroom import quiz, quiz_answers, quiz_peer
from server.classroom.messages import ClassError
from server.classroom.quiz_messages import QuizAnswerMessage
from tests.classroom.helpers import T0, room_with_demo, student
from tests.classroom.test_quiz_answers import RIGHT, ask

WRONG = 14  # another candidate of the question's position


def peer_question(room, index: int = 5):
    """A peer question at ``index`` whose right answer is RIGHT (test_quiz_answers' search)."""
    question = ask(room, index)
    question.mode, question.phase = "peer", "vote"  # as quiz.ask(peer=True) stores it
    return question


def vote(room, who, value: int):
    return quiz_answers.answer(room, who, QuizAnswerMessage(question=1, square=value), T0)


def refused_vote(room, who, value: int) -> str:
    with pytest.raises(ClassError) as err:
        vote(room, who, value)
    return err.value.code


def test_two_votes_the_tally_between_and_how_the_class_moved(ctx):
    room = room_with_demo()
    question = peer_question(room)
    ada, bob, cy, dee = (student(room, n) for n in ("Ada", "Bob", "Cy", "Dee"))
    for who, value in ((ada, WRONG), (bob, WRONG), (cy, RIGHT)):
        assert vote(room, who, value).round == 1
    assert quiz_answers.first_tally(question) is None  # nobody sees the vote while it is open
    quiz_peer.set_phase(room, 1, "tally", T0)
    assert refused_vote(room, dee, RIGHT) == "voting-closed"
    shown = quiz_answers.first_tally(question)
    assert shown == {"question": 1, "tally": [[WRONG, 2], [RIGHT, 1]], "answers": 3}
    assert "answer" not in shown  # the tally carries no answer
    quiz_peer.set_phase(room, 1, "discuss", T0)
    assert refused_vote(room, dee, RIGHT) == "voting-closed"
    quiz_peer.set_phase(room, 1, "revote", T0)
    assert vote(room, ada, RIGHT).round == 2  # convinced by a neighbour
    assert vote(room, cy, WRONG).round == 2  # talked out of it
    assert vote(room, dee, RIGHT).round == 2  # votes only now; Bob keeps his first vote
    assert quiz_answers.teacher_tally(question, 4)["tally"] == [[RIGHT, 2], [WRONG, 1]]
    assert quiz_answers.teacher_tally(question, 4)["round"] == 2
    quiz.reveal(room, 1, T0 + 1)
    reveal = quiz_answers.revealed(question)
    assert reveal["answer"] == RIGHT
    # by each student's last vote: Ada right, Bob wrong (kept), Cy wrong, Dee right
    assert reveal["distribution"] == [[RIGHT, 2], [WRONG, 2]] and reveal["answers"] == 4
    assert reveal["first"] == {"distribution": [[WRONG, 2], [RIGHT, 1]], "answers": 3}
    assert reveal["rounds"] == 2
    assert reveal["moves"] == {
        # [first, second, students], most first, then by the answers (RIGHT 11 < WRONG 14)
        "changes": [[RIGHT, WRONG, 1], [WRONG, RIGHT, 1], [WRONG, WRONG, 1]],
        "shift": {"right_right": 0, "wrong_right": 1, "right_wrong": 1, "wrong_wrong": 1},
        "second_only": 1,
    }
    scores = {row["name"]: row["right"] for row in quiz_answers.scores(room)["scores"]}
    assert scores == {"Ada": 1, "Bob": 0, "Cy": 0, "Dee": 1}
    assert quiz_answers.own_score(room, cy) == {"questions": 1, "right": 0, "answered": 1}
    view = quiz_answers.student_view(room, ada)
    assert (view["mine"], view["first"]) == (RIGHT, WRONG)


def test_the_steps_go_forward_one_at_a_time_and_the_talk_may_be_skipped(ctx):
    room = room_with_demo()
    peer_question(room)
    for phase in ("revote", "discuss"):
        with pytest.raises(ClassError) as err:
            quiz_peer.set_phase(room, 1, phase, T0)
        assert (err.value.code, err.value.key) == ("bad-phase", "class.error.bad-phase.order")
    assert quiz_peer.set_phase(room, 1, "tally", T0).phase == "tally"
    assert quiz_peer.set_phase(room, 1, "tally", T0).phase == "tally"  # again: no change
    assert quiz_peer.set_phase(room, 1, "revote", T0).phase == "revote"  # no talk
    with pytest.raises(ClassError) as err:
        quiz_peer.set_phase(room, 1, "tally", T0)  # never back
    assert err.value.code == "bad-phase"
    with pytest.raises(ClassError) as err:
        quiz_peer.set_phase(room, 2, "tally", T0)
    assert err.value.code == "no-question"
    quiz.reveal(room, 1, T0)
    with pytest.raises(ClassError) as err:
        quiz_peer.set_phase(room, 1, "revote", T0)
    assert err.value.code == "revealed"


def test_a_question_asked_once_has_no_steps_and_one_vote(ctx):
    room = room_with_demo()
    question = ask(room, 5)
    assert (question.mode, question.phase) == ("single", None)
    with pytest.raises(ClassError) as err:
        quiz_peer.set_phase(room, 1, "tally", T0)
    assert (err.value.code, err.value.key) == ("bad-phase", "class.error.bad-phase.single")
    ada = student(room, "Ada")
    assert vote(room, ada, RIGHT).round == 1
    quiz.reveal(room, 1, T0)
    reveal = quiz_answers.revealed(question)
    assert "first" not in reveal and "moves" not in reveal


def test_a_students_view_between_votes_has_their_own_first_vote_and_the_class_tally(ctx):
    room = room_with_demo()
    peer_question(room)
    ada, bob = student(room, "Ada"), student(room, "Bob")
    vote(room, ada, WRONG)
    vote(room, bob, RIGHT)
    view = quiz_answers.student_view(room, ada)
    assert (view["mine"], view["first"], view["first_tally"]) == (WRONG, WRONG, None)
    quiz_peer.set_phase(room, 1, "tally", T0)
    view = quiz_answers.student_view(room, ada)
    assert view["first_tally"]["tally"] == [[RIGHT, 1], [WRONG, 1]]
    quiz_peer.set_phase(room, 1, "revote", T0)
    view = quiz_answers.student_view(room, ada)
    assert (view["mine"], view["first"]) == (None, WRONG)  # nothing in the second vote yet
    assert view["reveal"] is None and "answer" not in view
    teacher = quiz_answers.teacher_view(room, 2)
    assert teacher["answer"] == RIGHT and teacher["tally"]["round"] == 2
