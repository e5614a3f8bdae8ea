"""server.classroom.quiz_messages: ``quiz_enter``, ``quiz_answer``, ``quiz_ask``,
``quiz_reveal`` / ``quiz_why`` and ``quiz_remove``."""

from __future__ import annotations

from server.classroom.quiz_messages import (
    MAX_QUESTION,
    QuizAnswerMessage,
    QuizAskMessage,
    QuizEnterMessage,
    QuizQuestionMessage,
    QuizRemoveMessage,
)
from tests.classroom.helpers import refused


def test_a_name_is_plain_text_trimmed():
    assert QuizEnterMessage.model_validate({"name": "  <b>Ann</b>  "}).name == "<b>Ann</b>"
    assert QuizEnterMessage.model_validate({"name": "王小明"}).key is None
    for name in ("", "   ", "x" * 25, "a\x00b"):
        assert refused(QuizEnterMessage.model_validate, {"name": name}) == "bad-name", name
    for name in (5, None, ["Ann"]):  # not text: a bad request naming the field
        assert refused(QuizEnterMessage.model_validate, {"name": name}) == "bad-request"
    for key in ("", "é", "k" * 65, 5):
        assert refused(QuizEnterMessage.model_validate, {"name": "Ann", "key": key}) == (
            "bad-request"
        )


def test_an_answer_is_a_whole_square_of_a_numbered_question():
    message = QuizAnswerMessage.model_validate({"question": 1, "square": 35})
    assert (message.question, message.square, message.student) == (1, 35, None)
    for bad in (
        {"square": True},
        {"square": "3"},
        {"square": 3.0},
        {"question": 0},
        {"question": MAX_QUESTION + 1},
        {"student": ""},
        {"student": "x" * 17},
    ):
        payload = {"question": 1, "square": 3, **bad}
        assert refused(QuizAnswerMessage.model_validate, payload) == "bad-request", bad
    assert refused(QuizAnswerMessage.model_validate, {"question": 1}) == "bad-request"
    # the board's bounds are the room's demo's: checked when answering (``bad-square``)
    assert QuizAnswerMessage.model_validate({"question": 1, "square": 10**12}).square == 10**12


def test_the_teachers_quiz_messages():
    assert QuizAskMessage.model_validate({}).play is False
    assert QuizAskMessage.model_validate({"play": True}).play is True
    for play in (1, "yes", None):
        assert refused(QuizAskMessage.model_validate, {"play": play}) == "bad-request"
    assert QuizQuestionMessage.model_validate({"question": 3}).question == 3
    assert refused(QuizQuestionMessage.model_validate, {"question": "3"}) == "bad-request"
    assert QuizRemoveMessage.model_validate({"student": "ab12"}).student == "ab12"
    for student in ("", "x" * 17):
        assert refused(QuizRemoveMessage.model_validate, {"student": student}) == (
            "unknown-student"
        )
    assert refused(QuizRemoveMessage.model_validate, {"student": None}) == "bad-request"
