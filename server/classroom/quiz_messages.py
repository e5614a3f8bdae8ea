"""The /class messages of the class quiz: the students' ``quiz_enter`` and
``quiz_answer``, the teacher's ``quiz_ask``, ``quiz_phase``, ``quiz_reveal``, ``quiz_why``
and ``quiz_remove``.

Each is validated by its handler in server/web/class_quiz.py.  A name is plain text
(:func:`server.game.service.clean_name`, as on the Play page's leaderboard); every
message of the namespace is listed in server/classroom/messages.py.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict, field_validator, model_validator

from ..engine.questions import KINDS
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
    """``quiz_answer``: this student's answer to the open question, in its open vote: a
    ``square`` (where next, Warnsdorff's pick, the frame), or a ``value`` of any kind (a
    count, 1/0, a choice); the bounds are the question's (``bad-square``, ``bad-answer``)."""

    question: QuestionNumber
    square: (
        Annotated[
            int,
            Strict(),
            Field(description="0..rows×cols−1", json_schema_extra={"x-error": "bad-square"}),
        ]
        | None
    ) = Field(None, json_schema_extra={"x-absent": "`value` is sent"})
    value: (
        Annotated[
            int,
            Strict(),
            Field(
                description="0..the question's `values`−1",
                json_schema_extra={"x-error": "bad-answer"},
            ),
        ]
        | None
    ) = Field(None, json_schema_extra={"x-absent": "`square` is sent"})
    student: (
        Annotated[
            str,
            Strict(),
            Field(min_length=1, max_length=QUIZ_STUDENT_MAX, pattern=r"^[\x00-\x7f]*$"),
        ]
        | None
    ) = Field(None, description="when sent, the connection's own student id (`not-yours`)")

    @model_validator(mode="after")
    def _one_answer(self) -> QuizAnswerMessage:
        if (self.square is None) == (self.value is None):
            raise refuse("bad-request", "class.error.bad-answer.one")
        return self

    @property
    def answer(self) -> int:
        return self.value if self.value is not None else self.square


class QuizAskMessage(Message):
    """``quiz_ask``: open a question of ``kind`` where the class stands (or as near as
    nobody holds the answer); ``play`` lets the class play on to it instead of jumping
    there; ``peer`` asks it twice, with the class's first tally between (peer
    instruction)."""

    play: Annotated[bool, Strict()] = Field(
        False, description="true: the class plays on at its speed to the question"
    )
    kind: Literal[KINDS] = Field(
        "next",
        description="`next` (where next?), `onward` (a square's onward moves), `pick`"
        " (Warnsdorff's pick), `backtrack` (steps back), `frame` (the frame that carries on),"
        " `possible` (a tour still possible?), `obstacle` (why no tour)",
    )
    peer: Annotated[bool, Strict()] = Field(
        False, description="true: two votes, the class's first tally shown between them"
    )


class QuizPhaseMessage(Message):
    """``quiz_phase``: step a peer question on: ``tally`` (close the first vote and show
    its tally), ``discuss`` (talk to your neighbour), ``revote`` (the second vote)."""

    question: QuestionNumber
    phase: Literal["tally", "discuss", "revote"] = Field(description="the step to go on to")


class QuizQuestionMessage(Message):
    """``quiz_reveal`` and ``quiz_why``: which question."""

    question: QuestionNumber


class QuizRemoveMessage(Message):
    """``quiz_remove``: the teacher takes a student out of the room (their name, answers,
    attempts and leaderboard lines)."""

    student: StudentId
