"""The /class messages of the room and its demo: ``join``, ``sync``, the teacher's
``settings``, ``control`` and ``lesson``, and the ones that carry nothing.

The teacher's three are validated by the control clock (server/classroom/clock.py), which
callers may also hand a ready model; ``join`` and ``sync`` by their handlers in
server/web/class_socket.py.  The demo's board follows the /watch ``start`` rules
(:func:`server.stream.spec.check_board`), with the same error codes; every message of
the namespace is listed in server/classroom/messages.py.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, field_validator, model_validator

from ..lesson.chapters import CHAPTERS
from ..stream.spec import Algorithm, Closed, Holes, Pruning, Side, check_board
from ..validation import Message, Square, flag, refuse, refused, whole

CODE_MAX = 32  # a typed code, before spaces and dashes are dropped
TOKEN_MAX = 128
MAX_SPEED = 10_000.0  # events per second; None means "as fast as the browser can draw"
MAX_INDEX = 600_000_000  # two events per node at most: the node budget bounds the index
MAX_SEQ = 2**53  # the teacher page's control numbers (a JavaScript safe integer)
CHAPTER_MAX = 32  # a chapter's id (class_rooms.lesson_chapter)
LESSON_STEPS = {chapter["id"]: len(chapter["steps"]) for chapter in CHAPTERS}

Seq = whole(1, MAX_SEQ, doc="the teacher page's message number, each higher than the last")
Gen = whole(0, MAX_SEQ, doc="the demo generation the control is for")
Index = whole(0, MAX_INDEX, doc="an event index of the demo")
Playing = flag("whether the class's index moves on by itself")


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
        check_board(
            self.algorithm, self.rows, self.cols, self.closed, self.start, self.holes, self.pruning
        )
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


class EmptyMessage(Message):
    """A message whose payload carries nothing (``heartbeat``, ``close``, ``quiz_state``)."""
