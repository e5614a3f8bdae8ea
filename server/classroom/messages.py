"""The /class namespace's client messages (docs/protocol.md, "Class rooms"), as strict models.

Each message is validated once, by the first function that reads it: the teacher's
``settings``, ``control`` and ``puzzle`` by server.classroom.service (which callers
may also hand a ready model), ``join``, ``sync``, ``solve`` and ``solved`` by their
handlers in server/web/class_socket.py.  A field missing or of the wrong type is
``bad-request`` naming the field; the other refusals carry their own code
(server/validation.py).  The demo's board follows the /watch ``start`` rules
(:func:`server.stream.spec.check_board`), with the same error codes.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, Strict, field_validator, model_validator

from ..engine.shape import MAX_CODE_LENGTH, Puzzle, Shape, ShapeError, parse_puzzle
from ..game.rules import MAX_SIDE as PUZZLE_MAX_SIDE
from ..game.rules import MIN_SIDE as PUZZLE_MIN_SIDE
from ..game.rules import RuleError
from ..game.service import NAME_MAX, clean_name
from ..lesson.chapters import CHAPTERS
from ..stream.spec import Algorithm, Closed, Holes, Pruning, Side, check_board, check_holes
from ..validation import Message, Square, error_codes, flag, refuse, refused, whole

CODE_MAX = 32  # a typed code, before spaces and dashes are dropped
TOKEN_MAX = 128
MAX_SPEED = 10_000.0  # events per second; None means "as fast as the browser can draw"
MAX_INDEX = 600_000_000  # two events per node at most: the node budget bounds the index
MAX_SEQ = 2**53  # the teacher page's control numbers (a JavaScript safe integer)
GAME_ID_MAX = 64
QUIZ_KEY_MAX = 64  # the key quiz_enter hands out (a URL-safe token)
QUIZ_STUDENT_MAX = 16  # a quiz student's id
MAX_QUESTION = 2**31 - 1
CHAPTER_MAX = 32  # a chapter's id (class_rooms.lesson_chapter)
LESSON_STEPS = {chapter["id"]: len(chapter["steps"]) for chapter in CHAPTERS}

Seq = whole(1, MAX_SEQ, doc="the teacher page's message number, each higher than the last")
Gen = whole(0, MAX_SEQ, doc="the demo generation the control is for")
Index = whole(0, MAX_INDEX, doc="an event index of the demo")
Playing = flag("whether the class's index moves on by itself")
PuzzleSide = whole(
    PUZZLE_MIN_SIDE,
    PUZZLE_MAX_SIDE,
    refused("bad-puzzle", "class.error.bad-puzzle.size", min=PUZZLE_MIN_SIDE, max=PUZZLE_MAX_SIDE),
)


class JoinMessage(Message):
    """``join``: enter a room, as its teacher with the room's token."""

    code: Annotated[
        str,
        Strict(),
        Field(max_length=CODE_MAX, description="6 characters; case, spaces and dashes ignored"),
        refused("unknown-room", "class.error.unknown-room"),
    ]
    token: (
        Annotated[
            str,
            Strict(),
            Field(min_length=1, max_length=TOKEN_MAX, description="the teacher's secret"),
            refused("bad-token", "class.error.bad-token"),
        ]
        | None
    ) = None


class SyncMessage(Message):
    """``sync``: a snapshot at ``index`` of demo generation ``gen``."""

    gen: Annotated[int, Strict(), Field(description="another than the room's: `stale`")]
    index: Index


class SettingsMessage(Message):
    """``settings``: the teacher's new demo, checked like /watch's ``start``."""

    seq: Seq
    algorithm: Algorithm
    pruning: Pruning
    rows: Side
    cols: Side
    closed: Closed
    start: Square = Field(
        json_schema_extra={"x-error": "bad-board", "description": "[row, col], on the board"}
    )
    holes: Holes | None = Field(None, json_schema_extra={"x-absent": "no holes"})

    @model_validator(mode="after")
    def _on_the_board(self) -> SettingsMessage:
        check_board(self.algorithm, self.rows, self.cols, self.closed, self.start, self.holes)
        return self

    def settings(self) -> dict:
        """The demo settings as a room stores them (``holes`` only when there are some)."""
        settings = self.model_dump(exclude={"seq", "holes"})
        if self.holes:
            settings["holes"] = sorted(self.holes)
        return settings


class ControlMessage(Message):
    """``control``: the teacher's clock, applied only if ``seq`` is newer."""

    seq: Seq
    gen: Gen
    index: Index
    playing: Playing
    speed: (
        Annotated[
            float,
            Strict(),
            Field(gt=0, le=MAX_SPEED, description="events per second; null: jump to the end"),
        ]
        | None
    ) = None


PuzzleCode = Annotated[
    str,
    Strict(),
    Field(
        max_length=MAX_CODE_LENGTH,
        description="a puzzle code (server/engine/shape.py, e.g. `6x6~IAAAAAA.c.a1`); it"
        " decides `rows`, `cols`, `closed`, `start` and `holes`",
        json_schema_extra={"x-error": "bad-puzzle"},
    ),
    refused("bad-puzzle", "class.error.bad-puzzle.code"),
]


class PuzzleMessage(Message):
    """``puzzle``: the class puzzle, within the Play page's rules (``null`` takes it back).

    Either the fields, or ``puzzle``: a puzzle code (a shape with holes, open or closed,
    a fixed start or a free one) that decides them all.
    """

    puzzle: PuzzleCode | None = Field(None, json_schema_extra={"x-absent": "the fields decide"})
    rows: PuzzleSide
    cols: PuzzleSide
    closed: Closed
    start: Square | None = Field(
        json_schema_extra={
            "description": "[row, col], on the board; null: each student picks the start",
            "x-absent": "required (null allowed)",
        }
    )
    holes: Holes | None = Field(None, json_schema_extra={"x-absent": "no holes"})

    @model_validator(mode="before")
    @classmethod
    def _code_decides(cls, payload: Any) -> Any:
        """A puzzle code is parsed into the fields (the payload's own are ignored)."""
        if not isinstance(payload, dict) or not isinstance(payload.get("puzzle"), str):
            return payload
        code = payload["puzzle"]
        try:
            puzzle = parse_puzzle(code[: MAX_CODE_LENGTH + 1])
        except ShapeError as err:
            raise refuse("bad-puzzle", f"class.error.bad-puzzle.{err.code}", **err.params) from None
        shape = puzzle.shape
        return {
            "puzzle": code,
            "rows": shape.rows,
            "cols": shape.cols,
            "closed": puzzle.closed,
            "start": None if puzzle.start is None else list(divmod(puzzle.start, shape.cols)),
            "holes": sorted(shape.holes),
        }

    @model_validator(mode="after")
    def _on_the_board(self) -> PuzzleMessage:
        start = None
        if self.start is not None:
            row, col = self.start
            if not (0 <= row < self.rows and 0 <= col < self.cols):
                raise refuse("bad-request", "class.error.bad-request.field", field="start")
            start = row * self.cols + col
        check_holes(self.rows, self.cols, self.holes, start)
        return self

    def stored(self) -> dict:
        """The puzzle as a room keeps it: the fields, the holes and its canonical code."""
        holes = frozenset(self.holes or ())
        start = None if self.start is None else self.start[0] * self.cols + self.start[1]
        code = Puzzle(Shape(self.rows, self.cols, holes), self.closed, start).code
        return {
            "rows": self.rows,
            "cols": self.cols,
            "closed": self.closed,
            "start": self.start,
            "holes": sorted(holes),
            "code": code,
        }


class LessonMessage(Message):
    """``lesson``: the teacher takes the class to a step of the guided lesson (/lesson).

    The room's demo becomes the chapter's (a new generation when the chapter changes)
    standing where the step stands; numbered like ``control`` (one ``seq`` for both).
    """

    seq: Seq
    chapter: Annotated[
        str,
        Strict(),
        Field(
            max_length=CHAPTER_MAX,
            description="a chapter's id: " + ", ".join(f"`{c}`" for c in LESSON_STEPS),
            json_schema_extra={"x-error": "unknown-chapter"},
        ),
        refused("unknown-chapter", "class.error.unknown-chapter"),
    ]
    step: Annotated[
        int,
        Strict(),
        Field(
            ge=0,
            description="the narration step, from 0 (2..5 per chapter)",
            json_schema_extra={"x-error": "bad-step"},
        ),
        refused("bad-step", "class.error.bad-step"),
    ]

    @field_validator("chapter")
    @classmethod
    def _known(cls, chapter: str) -> str:
        if chapter not in LESSON_STEPS:
            raise refuse("unknown-chapter", "class.error.unknown-chapter")
        return chapter

    @model_validator(mode="after")
    def _in_the_chapter(self) -> LessonMessage:
        steps = LESSON_STEPS[self.chapter]
        if self.step >= steps:
            raise refuse("bad-step", "class.error.bad-step")
        return self


class SolveMessage(Message):
    """``solve``: a game of the current puzzle for this student, under the name the
    connection entered the room with (``quiz_enter``); ``name`` enters it first."""

    name: (
        Annotated[
            str,
            Strict(),
            Field(description=f"1..{NAME_MAX} characters, no control characters"),
            refused("bad-name", "class.error.bad-name", max=NAME_MAX),
        ]
        | None
    ) = Field(
        None,
        description=f"1..{NAME_MAX} characters, no control characters: enters the room"
        " under this name when the connection has not (`quiz_enter`); ignored when it has",
        json_schema_extra={"x-absent": "the entered name (`not-entered` without one)"},
    )


class SolvedMessage(Message):
    """``solved``: the student won that game."""

    game: Annotated[
        str,
        Strict(),
        Field(max_length=GAME_ID_MAX, pattern=r"^[\x00-\x7f]*$", description="the game id"),
    ]


class EmptyMessage(Message):
    """A message whose payload carries nothing (``heartbeat``, ``close``, ``quiz_state``)."""


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


class ClearAttemptsMessage(Message):
    """``clear_attempts``: the teacher gives a student (or everyone) their attempts back."""

    student: StudentId | None = Field(None, json_schema_extra={"x-absent": "every student"})


MESSAGES: dict[str, type[Message]] = {
    "join": JoinMessage,
    "heartbeat": EmptyMessage,
    "sync": SyncMessage,
    "settings": SettingsMessage,
    "control": ControlMessage,
    "puzzle": PuzzleMessage,
    "lesson": LessonMessage,
    "close": EmptyMessage,
    "solve": SolveMessage,
    "solved": SolvedMessage,
    "quiz_enter": QuizEnterMessage,
    "quiz_answer": QuizAnswerMessage,
    "quiz_ask": QuizAskMessage,
    "quiz_reveal": QuizQuestionMessage,
    "quiz_why": QuizQuestionMessage,
    "quiz_state": EmptyMessage,
    "quiz_remove": QuizRemoveMessage,
    "clear_attempts": ClearAttemptsMessage,
}
ERRORS = {
    "bad-request": "a payload that is not an object; a field missing, of the wrong type or"
    " out of its range (the message names the field); `join` on a connection that joined",
    "bad-board": "`settings`: the board or the start as `/watch`'s `start` refuses them",
    "unknown-algorithm": "`settings`: `algorithm` unknown, as on `/watch`",
    "rate-limited": "too many messages (see Limits); at most one such `error` event a second;"
    " too many new names (`RATE_LIMIT_CLASS_NAMES`), games (`RATE_LIMIT_GAMES`) or wrong"
    " class codes (`RATE_LIMIT_CLASS_MISSES`) from the client address: the message says"
    " when to try again",
    "unknown-room": "no room has this code (or it was closed)",
    "expired": "the room was idle for longer than `CLASS_ROOM_TTL`",
    "bad-token": "a `token` that is not the room's",
    "not-joined": "a message other than `join` before joining",
    "not-teacher": "a teacher's message (`settings`, `control`, `lesson`, `puzzle`, `close`,"
    " `quiz_ask`, `quiz_reveal`, `quiz_why`, `quiz_remove`, `clear_attempts`) from a student",
    "unknown-chapter": "`lesson`: no chapter of the lesson has this id",
    "bad-step": "`lesson`: a step the chapter does not have (its steps count from 0)",
    "stale": "`control` or `sync` for another demo generation than the room's (with `gen`"
    " and `state`)",
    "superseded": "a `settings`, `control` or `lesson` whose `seq` is not newer than the last one"
    " applied (with `state`)",
    "bad-puzzle": "a puzzle's `rows`/`cols` out of range, or a `puzzle` code that cannot be"
    " played (malformed, too big, no open square, a start off the board or on a hole: the"
    " message says which)",
    "bad-holes": "`settings` or `puzzle`: `holes` as `/watch`'s `start` refuses them",
    "no-puzzle": "`solve` while there is no puzzle",
    "bad-name": "a name (`quiz_enter`, `solve`) that is not 1..24 characters of text",
    "full": "`join`: no seat (the process's `CLASS_MAX_MEMBERS` students, the client"
    " address's `CLASS_ADDRESS_SEATS`, the room's `CLASS_ROOM_SEATS`, the address's"
    " `CLASS_ADDRESS_ROOM_SEATS` in the room; a teacher: the room's own"
    " `CLASS_TEACHER_PAGES`); a new name: the room's `CLASS_QUIZ_STUDENTS`; `solve`: the"
    " student's 5 attempts at the puzzle (until the teacher clears them). The message says"
    " which",
    "unknown-entry": "`solved` for a game that is no attempt at the current puzzle in this room",
    "not-solved": "`solved` for a game the server has not seen won",
    "busy": "the database was held by another writer for longer than it waits, or"
    " `quiz_ask` where the search is still computing towards the class: nothing"
    " changed, try again",
    "bad-square": "`quiz_answer`: a square off the demo's board",
    "no-question": "`quiz_answer`, `quiz_reveal`, `quiz_why`: no open question, or not this number",
    "revealed": "`quiz_answer` after the question's reveal",
    "not-yours": "`quiz_answer` for another student than the connection's own",
    "not-entered": "`quiz_answer`, or `solve` without a `name`, before `quiz_enter`",
    "not-student": "`quiz_enter`, `quiz_answer` or `solve` from the teacher",
    "name-taken": "`quiz_enter` with a name another student holds (without their key)",
    "already-entered": "`quiz_enter` as another student than the one this connection, or"
    " this browser (its `kt_player` cookie), entered the room as",
    "unknown-student": "`quiz_remove` or `clear_attempts` for a student the room does not have",
    "cannot-ask": "`quiz_ask` with no move left to ask about (the search ends before one,"
    " a construction, no demo yet): the message says which",
    "question-open": "`control`, `settings` or `lesson` while a question is open: reveal it first;"
    " `quiz_ask` while one is",
    "not-revealed": "`quiz_why` before the reveal",
    "internal": "a bug, logged by the server; nothing changed",
}


ErrorCode = error_codes(ERRORS)


class ErrorEvent(BaseModel):
    """The ``error`` event, and the ``error`` of a refused acknowledgement."""

    run: None = Field(description="always null on `/class`")
    code: ErrorCode
    message: str = Field(description="why, in the connection's language")
    gen: int | None = Field(None, description="`stale`: the room's demo generation")
    state: dict | None = Field(None, description="`stale`, `superseded`: the room's state")
