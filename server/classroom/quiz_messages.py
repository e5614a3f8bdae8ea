"""The /class messages of the class quiz "where next?": the students' ``quiz_enter`` and
``quiz_answer``, the teacher's ``quiz_ask``, ``quiz_reveal``, ``quiz_why`` and
``quiz_remove``.

Each is validated by its handler in server/web/class_quiz.py.  A name is plain text
(:func:`server.game.service.clean_name`, as on the Play page's leaderboard); every
message of the namespace is listed in server/classroom/messages.py.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, field_validator

from ..game.rules import RuleError
from ..game.service import NAME_MAX, clean_name
from ..validation import Message, refuse, refused, whole

QUIZ_KEY_MAX = 64  # the key quiz_enter hands out (a URL-safe token)
QUIZ_STUDENT_MAX = 16  # a quiz student's id
MAX_QUESTION = 2**31 - 1

QuizName = Annotated[
    str,
    Strict(),
    Field(description=f"1..{NAME_MAX} characters, no control characters; unique in the room"),
    refused("bad-name", "class.error.bad-name", max=NAME_MAX),
]
QuizKey = Annotated[
    str,
    Strict(),
    Field(min_length=1, max_length=QUIZ_KEY_MAX, pattern=r"^[\x00-\x7f]*$"),
]
QuestionNumber = whole(1, MAX_QUESTION, doc="the question's number, from `quiz_question`")
StudentId = Annotated[
    str,
    Strict(),
    Field(
        min_length=1,
        max_length=QUIZ_STUDENT_MAX,
        pattern=r"^[\x00-\x7f]*$",
        description="a student's id (`quiz_scores`, a leaderboard's `student`)",
    ),
    refused("unknown-student", "class.error.unknown-student"),
]


class QuizEnterMessage(Message):
    """``quiz_enter``: take part in the quiz under a name; ``key`` comes back as that student."""

    name: QuizName
    key: QuizKey | None = Field(None, description="the key `quiz_enter` answered before")

    @field_validator("name")
    @classmethod
    def _plain_text(cls, name: str) -> str:
        try:
            return clean_name(name)
        except RuleError:
            raise refuse("bad-name", "class.error.bad-name", max=NAME_MAX) from None


class QuizAnswerMessage(Message):
    """``quiz_answer``: this student's square for the open question (the board's bounds
    are checked against the room's demo: ``bad-square``)."""

    question: QuestionNumber
    square: Annotated[
        int,
        Strict(),
        Field(description="0..rows×cols−1", json_schema_extra={"x-error": "bad-square"}),
    ]
    student: (
        Annotated[
            str,
            Strict(),
            Field(min_length=1, max_length=QUIZ_STUDENT_MAX, pattern=r"^[\x00-\x7f]*$"),
        ]
        | None
    ) = Field(None, description="when sent, the connection's own student id (`not-yours`)")


class QuizAskMessage(Message):
    """``quiz_ask``: open a question where the class stands (or as near as nobody holds
    the answer); ``play`` lets the class play on to it instead of jumping there."""

    play: Annotated[bool, Strict()] = Field(
        False, description="true: the class plays on at its speed to the question"
    )


class QuizQuestionMessage(Message):
    """``quiz_reveal`` and ``quiz_why``: which question."""

    question: QuestionNumber


class QuizRemoveMessage(Message):
    """``quiz_remove``: the teacher takes a student out of the room (their name, answers,
    attempts and leaderboard lines)."""

    student: StudentId
