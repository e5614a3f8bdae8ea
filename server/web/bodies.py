"""The JSON API's request bodies and queries (docs/api.md), as strict pydantic models.

A field missing or of the wrong type is 400 ``bad-request`` naming the field (worded by
server/web/refusals.py); a board out of range is ``bad-board``.  The game's rules
(server.game.rules) still decide everything that depends on a game: a move off the
board or onto a visited square, an undo past the start, a name.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, PrivateAttr, Strict, model_validator

from ..engine.shape import MAX_CODE_LENGTH, MAX_SHAPE_SIDE, Puzzle, ShapeError, parse_puzzle
from ..game.rules import MAX_SIDE, MIN_SIDE
from ..game.service import NAME_MAX
from ..validation import Message, Square, error_codes, flag, refuse, refused, whole

Side = whole(MIN_SIDE, MAX_SIDE, refused("bad-board", "error.bad-board"))
Closed = flag("closed tour: end a knight's move from the start")
Cell = Annotated[int, Strict(), Field(description="zero-based; off the board: `illegal-move`")]
PuzzleCode = Annotated[
    str,
    Strict(),
    Field(
        description=f"a puzzle code (`6x6~AAAgAAA.c.a1`, `5x5:c3.o`), up to {MAX_CODE_LENGTH}"
        " characters; refused with its shape error (`shape-*`, `start-*`)",
        json_schema_extra={"x-error": "shape-malformed"},
    ),
]


def _require(message: Message, *names: str) -> None:
    """A field the rest of the body makes required is there, else ``bad-request`` naming it."""
    for name in names:
        if getattr(message, name) is None:
            raise refuse("bad-request", "error.bad-request", field=name)


WITHOUT_PUZZLE = {"x-absent": "required without `puzzle`"}
WITHOUT_SOURCE = {"x-absent": "required without `puzzle` or `daily` (ignored with them)"}
BOARD_FIELDS = ("rows", "cols", "closed", "holes")  # what a puzzle code or the daily decides


class NewGame(Message):
    """``POST /api/games``: a board (``rows``, ``cols``, ``closed``, optional ``holes``), a
    ``puzzle`` code, or ``{"daily": "today"}``; a code or the daily decides everything."""

    puzzle: PuzzleCode | None = None
    daily: (
        Annotated[
            Literal["today"],
            Field(description='only `"today"`: the daily puzzle (docs/daily.md) decides the board'),
        ]
        | None
    ) = None
    rows: Side | None = Field(None, json_schema_extra=WITHOUT_SOURCE)
    cols: Side | None = Field(None, json_schema_extra=WITHOUT_SOURCE)
    closed: Closed = Field(
        False, json_schema_extra={"x-absent": "`false`; ignored with `puzzle` or `daily`"}
    )
    holes: list[Square] | None = Field(
        None,
        max_length=MAX_SHAPE_SIDE * MAX_SHAPE_SIDE,
        description="[row, col] squares nobody may stand on; off the board: `shape-malformed`",
        json_schema_extra={"x-absent": "none; ignored with `puzzle` or `daily`"},
    )

    @model_validator(mode="before")
    @classmethod
    def _a_code_decides_the_board(cls, payload: Any) -> Any:
        """With ``puzzle`` or ``daily``, the board fields are ignored, not checked."""
        if isinstance(payload, dict) and (
            payload.get("puzzle") is not None or payload.get("daily") is not None
        ):
            return {k: v for k, v in payload.items() if k not in BOARD_FIELDS}
        return payload

    @model_validator(mode="after")
    def _a_board_a_puzzle_or_the_daily(self) -> NewGame:
        if self.puzzle is None and self.daily is None:
            _require(self, "rows", "cols")
        return self


class LevelGame(Message):
    """``POST /api/games`` with ``level``: that level's game (docs/levels.md)."""

    level: Annotated[
        str, Strict(), Field(max_length=64, description="a level's id, else `unknown-level`")
    ]


class ProgressImport(Message):
    """``POST /api/levels/import``: a code from ``GET /api/levels/export``."""

    code: Annotated[
        str,
        Strict(),
        Field(max_length=8000, description="signed by this server, else `bad-progress-code`"),
    ]


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
            _require(self, "row", "col")
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
QUERY_FLAGS = {"true": True, "1": True, "false": False, "0": False}  # exactly these


def _query_number(value: Any) -> Any:
    """``"12"`` reads as 12; anything else stays text (and is refused as not a number)."""
    return int(value) if isinstance(value, str) and QUERY_NUMBER.fullmatch(value) else value


def _query_flag(value: Any) -> Any:
    """``true``, ``false``, ``1``, ``0`` read as flags; anything else (``True``) is refused."""
    return QUERY_FLAGS.get(value, value) if isinstance(value, str) else value


QueryNumber = Annotated[
    int, BeforeValidator(_query_number), Strict(), Field(description="up to 6 digits")
]
QueryFlag = Annotated[
    bool, BeforeValidator(_query_flag), Strict(), Field(description="true, false, 1 or 0")
]


QUERY_SIDE = {"minimum": MIN_SIDE, "maximum": MAX_SIDE, "x-error": "bad-board"}


class BoardQuery(Message):
    """``GET /api/theory?rows=&cols=&closed=``."""

    rows: QueryNumber = Field(json_schema_extra=QUERY_SIDE)
    cols: QueryNumber = Field(json_schema_extra=QUERY_SIDE)
    closed: QueryFlag = False

    @model_validator(mode="after")
    def _board_in_range(self) -> BoardQuery:
        if not (MIN_SIDE <= self.rows <= MAX_SIDE and MIN_SIDE <= self.cols <= MAX_SIDE):
            raise refuse("bad-board", "error.bad-board")
        return self


class LeaderboardQuery(Message):
    """``GET /api/leaderboard?rows=&cols=&closed=`` or ``?puzzle=<code>``."""

    puzzle: PuzzleCode | None = None
    rows: QueryNumber | None = Field(None, json_schema_extra={**QUERY_SIDE, **WITHOUT_PUZZLE})
    cols: QueryNumber | None = Field(None, json_schema_extra={**QUERY_SIDE, **WITHOUT_PUZZLE})
    closed: QueryFlag = False

    @model_validator(mode="after")
    def _a_board_or_a_puzzle(self) -> LeaderboardQuery:
        if self.puzzle is not None:
            return self
        _require(self, "rows", "cols")
        if not (MIN_SIDE <= self.rows <= MAX_SIDE and MIN_SIDE <= self.cols <= MAX_SIDE):
            raise refuse("bad-board", "error.bad-board")
        return self


def _a_date(field: str) -> Any:
    """A query field holding ``YYYY-MM-DD`` that is a real date, else refused naming it."""

    def check(value: Any) -> Any:
        try:
            if isinstance(value, str) and len(value) == 10:
                return date.fromisoformat(value).isoformat()
        except ValueError:
            pass
        raise refuse("bad-request", "error.bad-request", field=field)

    return Annotated[str, BeforeValidator(check), Field(description="a UTC date, `YYYY-MM-DD`")]


class DailyQuery(Message):
    """``GET /api/leaderboard?daily=YYYY-MM-DD``: one date's daily puzzle."""

    daily: _a_date("daily")


class DailyPuzzleQuery(Message):
    """``GET /api/daily?date=``."""

    date: _a_date("date") | None = Field(None, json_schema_extra={"x-absent": "today (UTC)"})


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


class TourChecked(Message):
    """``POST /api/tour``: a path the code lab's program walked (data, never code), checked
    by the rules the server keeps (server/engine/theory.py's ``verify``)."""

    rows: Side
    cols: Side
    path: list[Square] = Field(
        max_length=MAX_SIDE * MAX_SIDE + 1,
        description="[row, col] squares in the order the knight entered them",
    )


BODIES: dict[str, type[Message]] = {
    "POST /api/games": NewGame,
    "POST /api/games (a level)": LevelGame,
    "POST /api/games/<id>/moves": Move,
    "POST /api/games/<id>/undo": Undo,
    "POST /api/games/<id>/score": Score,
    "GET /api/leaderboard": LeaderboardQuery,
    "GET /api/leaderboard?daily=": DailyQuery,
    "GET /api/daily": DailyPuzzleQuery,
    "GET /api/theory": TheoryQuery,
    "POST /api/levels/import": ProgressImport,
    "POST /api/verdict": VerdictAsked,
    "POST /api/tour": TourChecked,
}
ERRORS_BY_STATUS = {  # HTTP status: {code: when}
    400: {
        "bad-request": "a body that is not a JSON object (or not UTF-8, or nested too deep), text"
        " that is not Unicode, a field missing or of the wrong type, a query that is no number or"
        " flag",
        "bad-board": f"`rows`/`cols` out of {MIN_SIDE}..{MAX_SIDE}",
        "shape-malformed": "a `puzzle` that does not parse, or a hole off the board",
        "shape-too-big": f"a `puzzle` over {MAX_SHAPE_SIDE} squares a side or its text too long",
        "shape-empty": "a shape with no open square",
        "start-on-hole": "a puzzle whose fixed start is a hole",
        "start-off-board": "a puzzle whose fixed start is not a square of the board",
        "bad-name": "a name that is empty, longer than 24 characters or holds control characters",
        "bad-progress-code": "a progress code this server did not sign, or one changed",
    },
    403: {"level-locked": "a level game before the level is unlocked (docs/levels.md)"},
    404: {
        "unknown-game": "no game has this id",
        "unknown-replay": "no replay has this id",
        "unknown-level": "no level has this id",
        "not-yet": "`GET /api/daily?date=` of a date after today (UTC): not out yet",
        "not-found": "no such `/api/` route",
    },
    405: {"method-not-allowed": "a method the route does not take"},
    409: {
        "illegal-move": "a square off the board, a hole, visited, not a knight's move away, or a"
        " first move off a puzzle's fixed start",
        "game-over": "a move, undo, restart or hint in a won game",
        "bad-undo": "an undo beyond the knight's placement (`count` < 1 or > moves made)",
        "not-won": "a score or a replay for a game the server did not see won",
        "already-submitted": "a second score for the same game",
        "conflict": "another request changed the same game at the same moment and retrying did"
        " not settle it: try again",
    },
    413: {"too-large": "a body over `MAX_CONTENT_LENGTH` (64 KiB)"},
    415: {
        "not-json": "a `POST` whose Content-Type is not `application/json`, or a body without one"
        " (a form cannot post to the API)"
    },
    429: {
        "rate-limited": "one client creates games (`RATE_LIMIT_GAMES`) or asks verdicts"
        " (`RATE_LIMIT_VERDICTS`) too fast, or its address has used its search time"
        " (`SEARCH_BUDGET`: a hint, a verdict to search); with a `Retry-After` header"
    },
    500: {"internal": "a bug, logged by the server; nothing changed"},
    503: {
        "busy": "a hint or a verdict to search while every search slot stayed taken"
        " (`SEARCH_WAIT`); with a `Retry-After` header; nothing changed"
    },
}
ERRORS = {  # code: (HTTP status, when)
    code: (status, when)
    for status, codes in ERRORS_BY_STATUS.items()
    for code, when in codes.items()
}
ErrorCode = error_codes(
    {code: meaning for code, (_status, meaning) in ERRORS.items()},
    **{code: {"x-status": status} for code, (status, _meaning) in ERRORS.items()},
)


class ErrorAnswer(BaseModel):
    """Every refusal's body."""

    error: str = Field(description="why, in the request's language")
    code: ErrorCode
