"""The /class namespace's protocol (docs/protocol.md, "Class rooms"): every client
message, every refusal, and the exception that carries one.

The messages are strict models, one module per family: the room and its demo
(server/classroom/room_messages.py), the class puzzle (puzzle_messages.py), the quiz
(quiz_messages.py) and the code lab (lab_messages.py).  Each is validated once, by the
first function that reads it.  A field missing or of the wrong type is ``bad-request``
naming the field; the other refusals carry their own code (server/validation.py).  Every
refusal of the class room is a :class:`ClassError` with one of the codes of
:data:`ERRORS`; the web layer (server/web/sockets.py) turns it into an ``error`` event or
a refused acknowledgement.
:data:`MESSAGES` and :class:`ErrorEvent` are what docs/protocol.md's tables are
generated from (server/web/contract.py).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..validation import Message, error_codes
from .lab_messages import (
    LabCheckedMessage,
    LabExerciseMessage,
    LabSourceMessage,
    LabSubmitMessage,
)
from .puzzle_messages import ClearAttemptsMessage, PuzzleMessage, SolvedMessage, SolveMessage
from .quiz_messages import (
    QuizAnswerMessage,
    QuizAskMessage,
    QuizEnterMessage,
    QuizPhaseMessage,
    QuizQuestionMessage,
    QuizRemoveMessage,
)
from .room_messages import (
    ControlMessage,
    EmptyMessage,
    JoinMessage,
    LessonMessage,
    SettingsMessage,
    SyncMessage,
)


class ClassError(Exception):
    """A refused class message: ``code`` for the client, ``key`` + ``params`` for the words."""

    def __init__(self, code: str, key: str | None = None, **params) -> None:
        super().__init__(code)
        self.code = code
        self.key = key or f"class.error.{code}"
        self.params = params


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
    "quiz_phase": QuizPhaseMessage,
    "quiz_reveal": QuizQuestionMessage,
    "quiz_why": QuizQuestionMessage,
    "quiz_state": EmptyMessage,
    "quiz_remove": QuizRemoveMessage,
    "clear_attempts": ClearAttemptsMessage,
    "lab_exercise": LabExerciseMessage,
    "lab_submit": LabSubmitMessage,
    "lab_checked": LabCheckedMessage,
    "lab_source": LabSourceMessage,
    "lab_state": EmptyMessage,
}
ERRORS = {
    "bad-request": "a payload that is not an object; a field missing, of the wrong type or"
    " out of its range (the message names the field); `join` on a connection that joined;"
    " `quiz_answer` with both or neither of `square` and `value`",
    "bad-board": "`settings`, `lab_exercise`: the board or the start as `/watch`'s `start`"
    " refuses them; `lab_exercise`: also a board without holes that has no tour from the"
    " start",
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
    " `quiz_ask`, `quiz_phase`, `quiz_reveal`, `quiz_why`, `quiz_remove`, `clear_attempts`,"
    " `lab_exercise`, `lab_checked`) from a student",
    "unknown-chapter": "`lesson`: no chapter of the lesson has this id",
    "bad-step": "`lesson`: a step the chapter does not have (its steps count from 0)",
    "stale": "`control` or `sync` for another demo generation than the room's (with `gen`"
    " and `state`)",
    "superseded": "a `settings`, `control` or `lesson` whose `seq` is not newer than the last one"
    " applied (with `state`)",
    "bad-puzzle": "a puzzle's `rows`/`cols` out of range, or a `puzzle` code that cannot be"
    " played (malformed, too big, no open square, a start off the board or on a hole: the"
    " message says which)",
    "bad-holes": "`settings`, `puzzle` or `lab_exercise`: `holes` as `/watch`'s `start`"
    " refuses them",
    "no-puzzle": "`solve` while there is no puzzle",
    "bad-name": "a name (`quiz_enter`, `solve`) that is not 1..24 characters of text",
    "full": "`join`: no seat (the process's `CLASS_MAX_MEMBERS` students, the client"
    " address's `CLASS_ADDRESS_SEATS`, the room's `CLASS_ROOM_SEATS`, the address's"
    " `CLASS_ADDRESS_ROOM_SEATS` in the room; a teacher: the room's own"
    " `CLASS_TEACHER_PAGES`); a new name: the room's `CLASS_QUIZ_STUDENTS`, the address's"
    " `CLASS_ADDRESS_ROOM_NAMES` in the room; `solve`: the"
    " student's 5 attempts at the puzzle (until the teacher clears them); `lab_submit`:"
    " the student's 10 submissions for the exercise, the room's 400. The message says"
    " which",
    "unknown-entry": "`solved` for a game that is no attempt at the current puzzle in this room",
    "not-solved": "`solved` for a game the server has not seen won",
    "busy": "the database was held by another writer for longer than it waits, no turn at"
    " the process's handlers came within 5 s (`CLASS_HANDLER_SLOTS`; or the client address"
    " has 200 messages waiting), or `quiz_ask` where the search is still computing towards"
    " the class: nothing changed, try again",
    "bad-square": "`quiz_answer`: a square off the demo's board",
    "bad-answer": "`quiz_answer`: a `value` out of the question's range",
    "voting-closed": "`quiz_answer` to a peer question between its two votes (`tally`, `discuss`)",
    "bad-phase": "`quiz_phase` for a question asked once, or out of order (the steps go"
    " `vote`, `tally`, `discuss`, `revote`; the talk may be skipped)",
    "no-question": "`quiz_answer`, `quiz_phase`, `quiz_reveal`, `quiz_why`: no open question,"
    " or not this number",
    "revealed": "`quiz_answer` or `quiz_phase` after the question's reveal",
    "not-yours": "`quiz_answer` for another student than the connection's own",
    "not-entered": "`quiz_answer`, `lab_submit`, or `solve` without a `name`, before `quiz_enter`",
    "not-student": "`quiz_enter`, `quiz_answer`, `solve` or `lab_submit` from the teacher",
    "name-taken": "`quiz_enter` with a name another student holds (without their key)",
    "already-entered": "`quiz_enter` as another student than the one this connection, or"
    " this browser (its `kt_player` cookie), entered the room as",
    "unknown-student": "`quiz_remove` or `clear_attempts` for a student the room does not have",
    "cannot-ask": "`quiz_ask` with nothing left to ask about (the search ends before a"
    " position of the kind, a construction, no demo yet, a board with a tour asked why it"
    " has none, a tour the hint search could not decide): the message says which",
    "question-open": "`control`, `settings` or `lesson` while a question is open: reveal it first;"
    " `quiz_ask` while one is",
    "not-revealed": "`quiz_why` before the reveal",
    "bad-exercise": "`lab_exercise`: a `preset` the lab does not have",
    "bad-source": "`lab_submit`: a `source` that is not 1..8,000 characters of text (empty,"
    " blank, too long, a NUL character): the message says which",
    "no-exercise": "`lab_submit` while there is no exercise, or it is closed",
    "old-exercise": "`lab_submit` for another exercise than the room's (its number is in the"
    " message: the page missed `lab_exercise`)",
    "unknown-submission": "`lab_checked` or `lab_source` for an id that is no submission of"
    " the room's current exercise (a student's `lab_source`: no submission of theirs)",
    "internal": "a bug, logged by the server; nothing changed",
    "too-many-rooms": "not a message's: `POST /class/new` when the client address has"
    " `CLASS_ADDRESS_ROOMS` live rooms (429) or the server `CLASS_ROOMS` (503); the page says"
    " when the oldest of them expires (`Retry-After`)",
}


ErrorCode = error_codes(ERRORS)


class ErrorEvent(BaseModel):
    """The ``error`` event, and the ``error`` of a refused acknowledgement."""

    run: None = Field(description="always null on `/class`")
    code: ErrorCode
    message: str = Field(description="why, in the connection's language")
    gen: int | None = Field(None, description="`stale`: the room's demo generation")
    state: dict | None = Field(None, description="`stale`, `superseded`: the room's state")
