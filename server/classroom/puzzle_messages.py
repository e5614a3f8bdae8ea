"""The /class messages of the class puzzle: the teacher's ``puzzle`` and
``clear_attempts``, the students' ``solve`` and ``solved``.

``puzzle`` is validated by server/classroom/puzzles.py (which callers may also hand a ready
model), the others by their handlers in server/web/class_socket.py.  A puzzle stays
within the Play page's rules (its sides, a puzzle code of server/engine/shape.py); every
message of the namespace is listed in server/classroom/messages.py.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, Strict, model_validator

from ..engine.shape import MAX_CODE_LENGTH, Puzzle, Shape, ShapeError, parse_puzzle
from ..game.rules import MAX_SIDE as PUZZLE_MAX_SIDE
from ..game.rules import MIN_SIDE as PUZZLE_MIN_SIDE
from ..game.service import NAME_MAX
from ..stream.spec import Closed, Holes, check_holes
from ..validation import Message, Square, refuse, refused, whole
from .quiz_messages import StudentId

GAME_ID_MAX = 64

PuzzleSide = whole(
    PUZZLE_MIN_SIDE,
    PUZZLE_MAX_SIDE,
    refused("bad-puzzle", "class.error.bad-puzzle.size", min=PUZZLE_MIN_SIDE, max=PUZZLE_MAX_SIDE),
)


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


class ClearAttemptsMessage(Message):
    """``clear_attempts``: the teacher gives a student (or everyone) their attempts back."""

    student: StudentId | None = Field(None, json_schema_extra={"x-absent": "every student"})
