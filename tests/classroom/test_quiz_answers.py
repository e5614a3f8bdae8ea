"""server.classroom.quiz_answers: the students' answers, the tally, the scores, and what
each member sees of the quiz (never another student's answer, nobody the answer early)."""

from __future__ import annotations

import json

import pytest

from server.classroom import quiz, quiz_answers, students
from server.classroom.messages import ClassError
from server.classroom.models import QuizQuestion
from server.classroom.quiz_messages import QuizAnswerMessage
from server.engine.questions import where_next
from server.stream.encode import DecodedMove
from tests.classroom.helpers import T0, room_with_demo, student

RIGHT = 11  # the square each question's search moves to (a 5x5 board)


def ask(room, index: int) -> QuizQuestion:
    """A question at ``index`` whose right answer is :data:`RIGHT`."""

    def find(start: int, seconds: float, kind: str = "next") -> quiz.Found:
        move = DecodedMove(RIGHT, (14, RIGHT, 3), (2, 1, 3))
        return quiz.Found(max(start, index), [0, 7], where_next(7, move, 25))

    return quiz.ask(room, T0, find).question


def answer(room, who, number: int, square: int, **fields):
    message = QuizAnswerMessage(question=number, square=square, **fields)
    return quiz_answers.answer(room, who, message, T0)


def refusal(room, who, number: int, square: int, **fields) -> ClassError:
    with pytest.raises(ClassError) as err:
        answer(room, who, number, square, **fields)
    return err.value


def test_one_answer_per_student_changeable_until_the_reveal(ctx):
    room = room_with_demo()
    ada, bob = student(room, "Ada"), student(room, "Bob")
    assert refusal(room, ada, 1, 3).code == "no-question"  # none asked yet
    question = ask(room, 5)
    assert answer(room, ada, 1, 3).value == 3
    assert answer(room, ada, 1, RIGHT, student=ada.id).value == RIGHT  # changed her mind
    answer(room, bob, 1, 3)
    assert quiz_answers.tally(question) == [[3, 1], [RIGHT, 1]]  # a tie: by square
    assert refusal(room, ada, 1, 3, student=bob.id).code == "not-yours"
    assert refusal(room, ada, 2, 3).code == "no-question"  # not the open one
    err = refusal(room, ada, 1, 25)
    assert (err.code, err.params) == ("bad-square", {"max": 24})
    assert refusal(room, ada, 1, -1).code == "bad-square"
    quiz.reveal(room, 1, T0)
    assert refusal(room, bob, 1, RIGHT).code == "revealed"
    assert quiz_answers.tally(question) == [[3, 1], [RIGHT, 1]]  # nothing changed


def test_the_tally_and_the_reveal(ctx):
    room = room_with_demo()
    question = ask(room, 5)
    for name, square in (("A", 3), ("B", RIGHT), ("C", 3), ("D", 20), ("E", 3), ("F", RIGHT)):
        answer(room, student(room, name), 1, square)
    assert quiz_answers.tally(question) == [[3, 3], [RIGHT, 2], [20, 1]]  # most chosen first
    assert quiz_answers.teacher_tally(question, 9) == {
        "question": 1,
        "round": 1,
        "tally": [[3, 3], [RIGHT, 2], [20, 1]],
        "answers": 6,
        "students": 9,
    }
    assert quiz_answers.revealed(question) == {
        "question": 1,
        "answer": RIGHT,
        "distribution": [[3, 3], [RIGHT, 2], [20, 1]],
        "answers": 6,
    }


def test_scores_add_up_over_the_revealed_questions(ctx):
    room = room_with_demo()
    ada, bob, cy = student(room, "Ada"), student(room, "bob"), student(room, "Cy")
    student(room, "Dee")  # never answers
    ask(room, 5)
    answer(room, ada, 1, RIGHT)
    answer(room, bob, 1, RIGHT)
    answer(room, cy, 1, 3)
    quiz.reveal(room, 1, T0)
    ask(room, 9)
    answer(room, ada, 2, RIGHT)
    answer(room, bob, 2, 3)
    quiz.reveal(room, 2, T0)
    ask(room, 12)  # open: its answers do not count yet
    answer(room, cy, 3, RIGHT)
    scores = quiz_answers.scores(room)
    assert scores["questions"] == 2
    assert [(s["name"], s["right"], s["answered"]) for s in scores["scores"]] == [
        ("Ada", 2, 2),
        ("bob", 1, 2),
        ("Cy", 0, 1),
        ("Dee", 0, 0),
    ]
    for row in scores["scores"]:  # a student's own count is the same line
        own = quiz_answers.own_score(room, students.student_in(room.code, row["student"]))
        assert own == {"questions": 2, "right": row["right"], "answered": row["answered"]}
    students.remove(room, ada.id)  # a removed student's answers go with them
    assert [s["name"] for s in quiz_answers.scores(room)["scores"]] == ["bob", "Cy", "Dee"]


def test_a_student_sees_the_question_their_answer_and_the_reveal_only_after_it(ctx):
    room = room_with_demo()
    ada, bob = student(room, "Ada"), student(room, "Bob")
    assert quiz_answers.student_view(room, ada) == {
        "question": None,
        "mine": None,
        "reveal": None,
        "why": None,
        "score": {"questions": 0, "right": 0, "answered": 0},
        "student": {"id": ada.id, "name": "Ada"},
    }
    question = ask(room, 5)
    answer(room, bob, 1, RIGHT)
    view = quiz_answers.student_view(room, ada)
    assert view["question"] == quiz.public_question(question) and view["mine"] is None
    assert view["reveal"] is None and view["why"] is None
    text = json.dumps(view)
    for word in ('"answer"', '"distribution"', '"candidates"', '"tally"', "Bob"):
        assert word not in text, word
    answer(room, ada, 1, 3)
    assert quiz_answers.student_view(room, ada)["mine"] == 3
    assert quiz_answers.student_view(room, bob)["mine"] == RIGHT
    quiz.reveal(room, 1, T0)
    view = quiz_answers.student_view(room, ada)
    assert view["reveal"] == quiz_answers.revealed(question) and view["why"] is None
    assert view["score"] == {"questions": 1, "right": 0, "answered": 1}
    quiz.show_why(room, 1)
    assert quiz_answers.student_view(room, ada)["why"] == quiz.why_of(question)
    nobody = quiz_answers.student_view(room, None)  # not entered: no one's score
    assert "student" not in nobody and nobody["score"] is None and nobody["mine"] is None


def test_the_teacher_sees_the_answer_the_tally_and_the_scores(ctx):
    room = room_with_demo()
    view = quiz_answers.teacher_view(room, 0)
    assert view["question"] is None and view["scores"] == {"questions": 0, "scores": []}
    question = ask(room, 5)
    answer(room, student(room, "Ada"), 1, 3)
    view = quiz_answers.teacher_view(room, 4)
    assert view["answer"] == RIGHT and view["why"] == quiz.why_of(question)
    assert view["tally"] == quiz_answers.teacher_tally(question, 4) and not view["why_shown"]
    assert view["reveal"] is None and view["scores"]["questions"] == 0
    assert quiz.why_of(question) == {
        "question": 1,
        "algorithm": "seed",
        "board": {"rows": 5, "cols": 5},
        "from": 7,
        "candidates": [14, RIGHT, 3],
        "onward": [2, 1, 3],
        "tried": 1,
    }
    quiz.reveal(room, 1, T0)
    view = quiz_answers.teacher_view(room, 4)
    assert view["reveal"] == quiz_answers.revealed(question) and view["scores"]["questions"] == 1
