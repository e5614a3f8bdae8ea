"""The /class messages of the code lab in a class: the teacher's ``lab_exercise`` and
``lab_checked``, the students' ``lab_submit``, and ``lab_source`` / ``lab_state``.

Each is validated once, by the function that reads it (server/classroom/lab.py for the
exercise, the handlers in server/web/class_lab.py for the others).  The one thing a
student sends is a program's source text: bounded here (length, text, no NUL), stored,
never run by the server.  A board follows /watch's search boards (its sides, holes and
start, with their error codes); every message of the namespace is listed in
server/classroom/messages.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, Strict, field_validator, model_validator

from ..stream.fields import MAX_SIDE
from ..stream.spec import Closed, Holes, Side, check_board, require_a_tour
from ..validation import Message, Square, flag, refuse, refused, whole
from .lab_presets import PRESETS
from .room_messages import MAX_SEQ

SOURCE_MAX = 8_000  # characters of a submitted program
PRESET_MAX = 32
MAX_LIMIT = 1_000_000_000  # a goal's moves + backtracks
MAX_SUBMISSION = 2**31 - 1
MAX_PATH = MAX_SIDE * MAX_SIDE  # a tour of the largest board a search runs on
MAX_COUNT = MAX_SEQ  # a run's moves or backtracks (the lab stops at 50,000,000 steps)

SubmissionId = whole(1, MAX_SUBMISSION, doc="a submission's id (`lab_submission`)")
ExerciseNumber = whole(1, MAX_SEQ, doc="the exercise's `number` (`lab_exercise`)")
Count = whole(0, MAX_COUNT)


class LabExerciseMessage(Message):
    """``lab_exercise``: the class's exercise (``null`` takes it back).

    Either ``preset`` (server/classroom/lab_presets.py), which decides every field, or
    the board and the goal.  A plain rectangle with no tour from the start (theory's
    verdict) is refused: nobody could pass it.
    """

    preset: (
        Annotated[
            str,
            Strict(),
            Field(
                max_length=PRESET_MAX,
                description="a ready exercise: " + ", ".join(f"`{p}`" for p in PRESETS),
                json_schema_extra={"x-error": "bad-exercise"},
            ),
            refused("bad-exercise", "class.error.bad-exercise"),
        ]
        | None
    ) = Field(None, json_schema_extra={"x-absent": "the fields decide"})
    rows: Side
    cols: Side
    start: Square = Field(
        json_schema_extra={"x-error": "bad-board", "description": "[row, col], on the board"}
    )
    holes: Holes | None = Field(None, json_schema_extra={"x-absent": "no holes"})
    closed: Closed
    limit: (
        Annotated[
            int,
            Strict(),
            Field(
                ge=1,
                le=MAX_LIMIT,
                description="a run passes with at most this many moves + backtracks",
            ),
        ]
        | None
    ) = Field(None, json_schema_extra={"x-absent": "any number"})

    @model_validator(mode="before")
    @classmethod
    def _preset_decides(cls, payload: Any) -> Any:
        """A preset's fields replace the payload's own."""
        if not isinstance(payload, dict) or not isinstance(payload.get("preset"), str):
            return payload
        preset = PRESETS.get(payload["preset"])
        if preset is None:
            raise refuse("bad-exercise", "class.error.bad-exercise")
        return {
            "preset": preset.id,
            "rows": preset.rows,
            "cols": preset.cols,
            "start": list(preset.start),
            "closed": preset.closed,
            "limit": preset.limit,
        }

    @model_validator(mode="after")
    def _a_tour_can_pass(self) -> LabExerciseMessage:
        start = check_board("seed", self.rows, self.cols, self.closed, self.start, self.holes)
        if not self.holes:  # theory speaks of plain rectangles only
            require_a_tour(self.rows, self.cols, self.closed, start)
        return self

    def stored(self) -> dict:
        """The exercise as the room keeps it (its ``number`` is the room's to give)."""
        preset = PRESETS.get(self.preset) if self.preset else None
        return {
            "preset": self.preset,
            "example": preset.example if preset else None,
            "title": f"class.lab.preset.{self.preset}.title"
            if preset
            else "class.lab.preset.custom.title",
            "prompt": f"class.lab.preset.{self.preset}.prompt" if preset else None,
            "rows": self.rows,
            "cols": self.cols,
            "start": list(self.start),
            "holes": sorted(self.holes or ()),
            "closed": self.closed,
            "limit": self.limit,
        }


class LabSubmitMessage(Message):
    """``lab_submit``: a student's program for the current exercise (its text only)."""

    exercise: ExerciseNumber
    source: Annotated[
        str,
        Strict(),
        Field(
            min_length=1,
            max_length=SOURCE_MAX,
            description="the program's Python source text: no NUL, not blank",
            json_schema_extra={"x-error": "bad-source"},
        ),
        refused("bad-source", "class.error.bad-source.length", max=SOURCE_MAX),
    ]

    @field_validator("source")
    @classmethod
    def _plain_text(cls, source: str) -> str:
        # (a lone surrogate, not text, never gets here: ``bad-request`` before any field)
        if "\x00" in source:
            raise refuse("bad-source", "class.error.bad-source.nul")
        if not source.strip():
            raise refuse("bad-source", "class.error.bad-source.blank")
        return source


class LabCheckedMessage(Message):
    """``lab_checked``: what the teacher's page saw when it ran submission ``id``; the
    server checks it against the exercise before it counts."""

    id: SubmissionId
    found: flag("whether the run ended with a tour")
    closed: flag("whether the run says its tour is closed")
    moves: Count = Field(description="moves the run made, the start's placement included")
    backtracks: Count = Field(description="backtracks the run made")
    path: Annotated[
        list[Annotated[int, Strict()]],
        Field(
            max_length=MAX_PATH,
            description="the tour the run ended with, start first (squares row × cols + col)",
        ),
    ]
    stop: Literal["limit", "time", "error"] | None = Field(
        None,
        description="what ended a run without a tour: `limit` (the check's budget, one past"
        " the exercise's limit), `time` (the check's time cap), `error` (the program's)",
        json_schema_extra={"x-absent": "the program returned"},
    )


class LabSourceMessage(Message):
    """``lab_source``: a stored submission's source again (a reload of the page)."""

    id: SubmissionId
