"""The JSON API's request bodies and queries (docs/api.md), as strict pydantic models.

A field missing or of the wrong type is 400 ``bad-request`` naming the field (worded by
server/web/refusals.py); a board out of range is ``bad-board``.  The game's rules
(server.game.rules) still decide everything that depends on a game: a move off the
board or onto a visited square, an undo past the start, a name.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, PrivateAttr, Strict, model_validator

from ..engine.shape import MAX_CODE_LENGTH, MAX_SHAPE_SIDE, Puzzle, ShapeError, parse_puzzle
from ..game.rules import MAX_SIDE, MIN_SIDE
from ..game.service import NAME_MAX
from ..validation import Message, error_codes, flag, refuse, refused, whole

Side = whole(MIN_SIDE, MAX_SIDE, refused("bad-board", "error.bad-board"))
Closed = flag("closed tour: end a knight's move from the start")
Cell = Annotated[int, Strict(), Field(description="zero-based; off the board: `illegal-move`")]


class NewGame(Message):
    """``POST /api/games``."""

    rows: Side
    cols: Side
    closed: Closed = False


class Move(Message):
    """``POST /api/games/<id>/moves``: a square, or ``{"random": true}`` for the first move."""

    row: Cell | None = None
    col: Cell | None = None
    random: (
        Annotated[bool, Strict(), Field(description="only `true`, without `row`/`col`")] | None
    ) = None

    @model_validator(mode="after")
    def _a_square_or_random(self) -> Move:
        if "random" in self.model_fields_set:
            if self.random is not True or {"row", "col"} & self.model_fields_set:
                raise refuse("bad-request", "error.bad-request", field="random")
        else:
            for name in ("row", "col"):
                if getattr(self, name) is None:
                    raise refuse("bad-request", "error.bad-request", field=name)
        return self


class Undo(Message):
    """``POST /api/games/<id>/undo``."""

    count: Annotated[
        int, Strict(), Field(description="1 ≤ count ≤ moves made, else `bad-undo`")
    ] = 1


class Score(Message):
    """``POST /api/games/<id>/score``."""

    name: Annotated[
        str,
        Strict(),
        Field(description=f"1..{NAME_MAX} characters, no control characters, else `bad-name`"),
    ]


class VerdictAsked(Message):
    """``POST /api/verdict``: the puzzle's code is parsed here, so a bad one is refused with
    its ShapeError code (server/engine/shape.py) before any search."""

    puzzle: Annotated[
        str,
        Strict(),
        Field(
            max_length=MAX_CODE_LENGTH,
            description="a puzzle code, `<shape>.o|.c[.<start>]`, e.g. `6x6~IAAAAAA.o.a1`;"
            " else a shape error",
        ),
        refused("shape-too-big", "error.shape-too-big", max=MAX_SHAPE_SIDE),
    ]
    witness: flag("answer a tour too, when one exists") = False
    _parsed: Puzzle = PrivateAttr()

    @model_validator(mode="after")
    def _a_puzzle(self) -> VerdictAsked:
        try:
            self._parsed = parse_puzzle(self.puzzle)
        except ShapeError as err:
            raise refuse(err.code, f"error.{err.code}", **_shown(err.params)) from None
        return self

    @property
    def parsed(self) -> Puzzle:
        return self._parsed


def _shown(params: dict) -> dict:
    """A ShapeError's params fit to show (its ``why`` is English; the message has its own)."""
    return {key: value for key, value in params.items() if key != "why"}


# -- queries: text that reads as a number or a flag -----------------------------------------
QUERY_NUMBER = re.compile(r"-?\d{1,6}")
QUERY_FLAGS = {"true": True, "1": True, "false": False, "0": False}


def _query_number(value: Any) -> Any:
    """``"12"`` reads as 12; anything else stays text (and is refused as not a number)."""
    return int(value) if isinstance(value, str) and QUERY_NUMBER.fullmatch(value) else value


def _query_flag(value: Any) -> Any:
    return QUERY_FLAGS.get(value.lower(), value) if isinstance(value, str) else value


QueryNumber = Annotated[
    int, BeforeValidator(_query_number), Strict(), Field(description="up to 6 digits")
]
QueryFlag = Annotated[
    bool, BeforeValidator(_query_flag), Strict(), Field(description="true, false, 1 or 0")
]


QUERY_SIDE = {"minimum": MIN_SIDE, "maximum": MAX_SIDE, "x-error": "bad-board"}


class BoardQuery(Message):
    """``GET /api/leaderboard?rows=&cols=&closed=``."""

    rows: QueryNumber = Field(json_schema_extra=QUERY_SIDE)
    cols: QueryNumber = Field(json_schema_extra=QUERY_SIDE)
    closed: QueryFlag = False

    @model_validator(mode="after")
    def _board_in_range(self) -> BoardQuery:
        if not (MIN_SIDE <= self.rows <= MAX_SIDE and MIN_SIDE <= self.cols <= MAX_SIDE):
            raise refuse("bad-board", "error.bad-board")
        return self


class TheoryQuery(BoardQuery):
    """``GET /api/theory?rows=&cols=&closed=&row=&col=``: ``row`` and ``col`` together or not
    at all, on the board."""

    row: QueryNumber | None = Field(None, description="0..rows-1, with `col`")
    col: QueryNumber | None = Field(None, description="0..cols-1, with `row`")

    @model_validator(mode="after")
    def _start_on_the_board(self) -> TheoryQuery:
        if (self.row is None) != (self.col is None):
            raise refuse(
                "bad-request", "error.bad-request", field="row" if self.row is None else "col"
            )
        if self.row is not None and not 0 <= self.row < self.rows:
            raise refuse("bad-request", "error.bad-request", field="row")
        if self.col is not None and not 0 <= self.col < self.cols:
            raise refuse("bad-request", "error.bad-request", field="col")
        return self

    @property
    def start(self) -> int | None:
        return None if self.row is None else self.row * self.cols + self.col


BODIES: dict[str, type[Message]] = {
    "POST /api/games": NewGame,
    "POST /api/games/<id>/moves": Move,
    "POST /api/games/<id>/undo": Undo,
    "POST /api/games/<id>/score": Score,
    "GET /api/leaderboard": BoardQuery,
    "GET /api/theory": TheoryQuery,
    "POST /api/verdict": VerdictAsked,
}
ERRORS = {  # code: (HTTP status, when)
    "bad-request": (
        400,
        "a body that is not a JSON object (or not UTF-8, or nested too deep), text that is not"
        " Unicode, a field missing or of the wrong type, a query that is no number or flag",
    ),
    "bad-board": (400, f"`rows`/`cols` out of {MIN_SIDE}..{MAX_SIDE}"),
    "shape-malformed": (400, "a puzzle code that does not parse (see docs/api.md: the editor)"),
    "shape-too-big": (400, f"a shape over {MAX_SHAPE_SIDE} squares a side, or its code too long"),
    "shape-empty": (400, "a shape with no open square"),
    "start-on-hole": (400, "a fixed start on one of the shape's holes"),
    "start-off-board": (400, "a fixed start that is no square of the shape"),
    "bad-name": (
        400,
        "a name that is empty, longer than 24 characters or holds control characters",
    ),
    "unknown-game": (404, "no game has this id"),
    "not-found": (404, "no such `/api/` route"),
    "method-not-allowed": (405, "a method the route does not take"),
    "illegal-move": (409, "a square off the board, visited, or not a knight's move away"),
    "game-over": (409, "a move, undo, restart or hint in a won game"),
    "bad-undo": (409, "an undo beyond the knight's placement (`count` < 1 or > moves made)"),
    "not-won": (409, "a score for a game the server did not see won"),
    "already-submitted": (409, "a second score for the same game"),
    "conflict": (
        409,
        "another request changed the same game at the same moment and retrying did not settle"
        " it: try again",
    ),
    "too-large": (413, "a body over `MAX_CONTENT_LENGTH` (64 KiB)"),
    "rate-limited": (
        429,
        "one client creates games (`RATE_LIMIT_GAMES`) or asks verdicts"
        " (`RATE_LIMIT_VERDICTS`) too fast; with a `Retry-After` header",
    ),
    "internal": (500, "a bug, logged by the server; nothing changed"),
}
ErrorCode = error_codes(
    {code: meaning for code, (_status, meaning) in ERRORS.items()},
    **{code: {"x-status": status} for code, (status, _meaning) in ERRORS.items()},
)


class ErrorAnswer(BaseModel):
    """Every refusal's body."""

    error: str = Field(description="why, in the request's language")
    code: ErrorCode
