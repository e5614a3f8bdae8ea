"""The watch protocol's client messages (docs/protocol.md), as strict pydantic models.

``start``, ``credit``, ``seek`` and ``stop`` are :class:`StartMessage`,
:class:`CreditMessage`, :class:`SeekMessage` and :class:`StopMessage`; a bad one fails
validation with a ``ValidationError`` whose refusals carry the protocol's error code
(server/validation.py), which the web layer turns into the ``error`` event
(server/web/refusals.py).  Refusals that need a run's state (``unknown-run``,
``too-many-runs``) are :class:`ProtocolError` s, raised by the run registry
(server/stream/runs.py, server/stream/admission.py).  The fields are in
server/stream/fields.py; they and the board rules (:func:`check_board`) are shared with
the class room's demo settings.  Nothing here starts a run or touches Flask.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, Field, PrivateAttr, Strict, ValidationInfo, model_validator

from ..engine.article_orders import carries_onward
from ..engine.articles import ARTICLES
from ..engine.theory import tour_verdict
from ..validation import Message, Square, error_codes, refuse, refused
from .fields import (
    ALGORITHMS,
    DEFAULT_NODE_BUDGET,
    DEFAULT_TIME_LIMIT,
    MAX_NODE_BUDGET,
    MAX_SIDE,
    MAX_SIDE_CONSTRUCT,
    MIN_SIDE,
    RUN_ID,
    Algorithm,
    Closed,
    Events,
    GameId,
    Holes,
    NodeBudget,
    Pruning,
    RunId,
    Side,
    TimeLimit,
    Window,
)

MAX_SEEK_INDEX = 2 * MAX_NODE_BUDGET  # every node is one move and at most one backtrack
WITHOUT_GAME = {"x-absent": "required without `game` (which decides it)"}


class ProtocolError(Exception):
    """A message the protocol refuses: ``code`` for the client, ``key`` + ``params`` to say why."""

    def __init__(self, code: str, key: str | None = None, run: str | None = None, **params):
        self.code = code
        self.key = key or f"watch.error.{code}"
        self.run = run
        self.params = params
        super().__init__(f"{code}: {self.key} {params}")


@dataclass(frozen=True)
class GameInfo:
    """What a run needs from a stored game (the Play page's "show me")."""

    rows: int
    cols: int
    closed: bool
    path: tuple[int, ...]
    holes: frozenset[int] = frozenset()


@dataclass(frozen=True)
class RunSpec:
    run: str
    rows: int
    cols: int
    start: int  # square
    algorithm: str
    closed: bool
    pruning: bool
    window: int
    node_budget: int
    time_limit: float
    prefix: tuple[int, ...] = ()  # the game's path, start first; () for a fresh run
    game: str | None = None
    holes: frozenset[int] = frozenset()  # squares the board does not have

    @property
    def counts(self) -> bool:
        """Whether each move carries its candidates' counts (what its sort orders by)."""
        return carries_onward(self.algorithm)


def check_size(algorithm: str, rows: int, cols: int) -> None:
    """Refuse a board out of the algorithm's range (``bad-board``)."""
    limit = MAX_SIDE_CONSTRUCT if algorithm == "construct" else MAX_SIDE
    if not (MIN_SIDE <= rows <= limit and MIN_SIDE <= cols <= limit):
        raise refuse(
            "bad-board", "watch.error.bad-board", min=MIN_SIDE, max=limit, rows=rows, cols=cols
        )


def check_holes(rows: int, cols: int, holes: list[int] | None, start: int | None) -> frozenset:
    """The holes as a set, or a refusal (``bad-holes``): each on the board, none twice,
    not the start, and at least one open square left."""
    if not holes:
        return frozenset()
    area = rows * cols
    for square in holes:
        if not 0 <= square < area:
            raise refuse(
                "bad-holes", "watch.error.bad-holes.off-board", square=square, max=area - 1
            )
    if len(set(holes)) != len(holes):
        twice = next(sq for sq in holes if holes.count(sq) > 1)
        raise refuse("bad-holes", "watch.error.bad-holes.twice", square=twice)
    if len(holes) >= area:
        raise refuse("bad-holes", "watch.error.bad-holes.all", max=area - 1)
    if start is not None and start in holes:
        raise refuse("bad-holes", "watch.error.bad-holes.start", square=start)
    return frozenset(holes)


def check_board(
    algorithm: str,
    rows: int,
    cols: int,
    closed: bool,
    start: list[int],
    holes: list[int] | None = None,
    pruning: bool = False,
) -> int:
    """The start square of a demo on this board, or a refusal (``bad-board``, ``bad-holes``).

    The construction is refused where theory proves there is no tour (it would have
    nothing to stream) and on a board with holes (it builds rectangles only); the
    searches run anywhere: watching one exhaust is the lesson.  Theory's verdict speaks
    of plain rectangles only, so a shape is never refused for lacking a tour.
    """
    check_size(algorithm, rows, cols)
    if algorithm in ARTICLES and (closed or holes):
        # the articles' programs search open tours of a whole board, as written
        raise refuse("bad-board", "watch.error.bad-board.article", algorithm=algorithm)
    if algorithm in ARTICLES and pruning:
        raise refuse("bad-request", "watch.error.bad-request.article", algorithm=algorithm)
    row, col = start
    if not (0 <= row < rows and 0 <= col < cols):
        raise refuse(
            "bad-board", "watch.error.bad-board.start", row=row, col=col, rows=rows, cols=cols
        )
    square = row * cols + col
    if check_holes(rows, cols, holes, square) and algorithm == "construct":
        raise refuse("bad-holes", "watch.error.bad-holes.construct")
    if algorithm == "construct":
        require_a_tour(rows, cols, closed, square)
    return square


def require_a_tour(rows: int, cols: int, closed: bool, start: int) -> None:
    """``bad-board`` with theory's reason when the plain rectangle has no such tour from
    ``start`` (a construction, a lab exercise: both promise one)."""
    verdict = tour_verdict(rows, cols, closed=closed, start=start)
    if not verdict:
        raise refuse(
            "bad-board",
            "watch.error.bad-board.no-tour",
            reason_code=verdict.code,
            reason=verdict.reason,
            reason_params=dict(verdict.params),
        )


# -- messages -----------------------------------------------------------------------------
class StartMessage(Message):
    """``start``: begin a run.  Validated with ``context={"load_game": fn}`` to allow ``game``
    (fn looks a game id up, None when there is none); the run's settings are :attr:`spec`."""

    run: RunId
    algorithm: Algorithm
    pruning: Pruning
    window: Window
    node_budget: NodeBudget | None = None
    time_limit: TimeLimit | None = None
    game: GameId | None = None
    rows: Side | None = Field(None, json_schema_extra=WITHOUT_GAME)
    cols: Side | None = Field(None, json_schema_extra=WITHOUT_GAME)
    closed: Closed | None = Field(None, json_schema_extra=WITHOUT_GAME)
    start: Square | None = Field(
        None,
        json_schema_extra={
            "x-absent": "required unless `game` has moves",
            "x-error": "bad-board",
            "description": "[row, col], on the board",
        },
    )
    holes: Holes | None = Field(
        None, json_schema_extra={"x-absent": "no holes; ignored with `game` (which decides it)"}
    )
    _spec: RunSpec = PrivateAttr()

    @model_validator(mode="before")
    @classmethod
    def _game_decides_the_board(cls, payload: Any) -> Any:
        """With ``game``, the stored game's board and mode are used, the payload's ignored."""
        if isinstance(payload, dict) and payload.get("game") is not None:
            ignored = ("rows", "cols", "closed", "holes")
            return {k: v for k, v in payload.items() if k not in ignored}
        return payload

    @model_validator(mode="after")
    def _resolve(self, info: ValidationInfo) -> StartMessage:
        prefix: tuple[int, ...] = ()
        holes: frozenset[int] = frozenset()
        if self.algorithm in ARTICLES and self.game is not None:
            # an article's program runs as written: from its start, without a game's moves
            raise refuse("bad-request", "watch.error.bad-request.article", algorithm=self.algorithm)
        if self.game is not None:
            load_game = (info.context or {}).get("load_game")
            game = load_game(self.game) if load_game is not None else None
            if game is None:
                raise refuse("unknown-game", "watch.error.unknown-game")
            rows, cols, closed, prefix = game.rows, game.cols, game.closed, tuple(game.path)
            holes = frozenset(game.holes)
            if self.algorithm == "construct" and prefix:
                raise refuse("bad-request", "watch.error.bad-request.construct-game")
            if any(not 0 <= square < rows * cols or square in holes for square in prefix):
                raise refuse("unknown-game", "watch.error.unknown-game")  # unusable
        else:
            for name in ("rows", "cols", "closed"):
                _require(self, name)
            rows, cols, closed = self.rows, self.cols, self.closed
        if prefix:
            check_size(self.algorithm, rows, cols)
            start = prefix[0]
        else:
            given = sorted(holes) if self.game is not None else self.holes  # a game's own
            start = check_board(
                self.algorithm, rows, cols, closed, _require(self, "start"), given, self.pruning
            )
            holes = frozenset(given or ())
        budget = DEFAULT_NODE_BUDGET if self.node_budget is None else self.node_budget
        seconds = DEFAULT_TIME_LIMIT if self.time_limit is None else self.time_limit
        self._spec = RunSpec(
            run=self.run,
            rows=rows,
            cols=cols,
            start=start,
            algorithm=self.algorithm,
            closed=closed,
            pruning=self.pruning,
            window=self.window,
            node_budget=budget,
            time_limit=float(seconds),
            prefix=prefix,
            game=self.game,
            holes=holes,
        )
        return self

    @property
    def spec(self) -> RunSpec:
        return self._spec


def _require(message: Message, name: str):
    value = getattr(message, name)
    if value is None:
        raise refuse("bad-request", "watch.error.bad-request.missing", field=name)
    return value


class CreditMessage(Message):
    """``credit``: the viewer drew ``events`` more events."""

    run: RunId
    events: Events


class StopMessage(Message):
    """``stop``: end the run."""

    run: RunId


class SeekMessage(Message):
    """``seek``: stand at event ``index`` (null: the search's end), then stream on."""

    run: RunId
    index: (
        Annotated[
            int,
            Strict(),
            Field(ge=0, le=MAX_SEEK_INDEX, description="null: the search's end"),
            refused("bad-request", "watch.error.bad-request.seek", max=MAX_SEEK_INDEX),
        ]
        | None
    ) = Field(json_schema_extra={"x-absent": "required (null allowed)"})
    window: Window | None = Field(
        None, description="credit for the stream after the snapshot; null: the start's"
    )


MESSAGES: dict[str, type[Message]] = {
    "start": StartMessage,
    "credit": CreditMessage,
    "stop": StopMessage,
    "seek": SeekMessage,
}
ERRORS = {
    "bad-request": "a payload that is not an object; a field missing, of the wrong type or out"
    " of its range (`run`, `window`, `events`, `index`, `game`); a live run's id used again;"
    " `construct` asked to continue a game that has moves; a `seek` in a run that continues"
    " a game",
    "unknown-algorithm": "`algorithm` is none of " + ", ".join(f"`{a}`" for a in ALGORITHMS),
    "bad-board": f"`rows`/`cols` out of {MIN_SIDE}..{MAX_SIDE} ({MAX_SIDE_CONSTRUCT} for"
    " `construct`), `start` off the board, or `construct` on a board where theory proves"
    " there is no tour (the message says why)",
    "bad-holes": "`holes` not a list of squares, a hole off the board, twice, on the start,"
    " no open square left, or `construct` asked for a board with holes (it builds"
    " rectangles only)",
    "bad-budget": "`node_budget` or `time_limit` out of its range",
    "too-many-runs": "the connection's, the client address's or the server's runs are all"
    " taken (see Limits)",
    "unknown-run": "`credit` or `stop` for a run id the connection never started (or started"
    " more than 32 runs ago)",
    "unknown-game": "`game` names no stored game, or one whose path cannot be continued",
    "rate-limited": "too many messages (see Limits); at most one such `error` event a second,"
    " every acknowledgement asked for still comes; or, for `start` and `seek`, the client"
    " address has used its search time (the message says when to retry)",
    "busy": "`start` or `seek` while the server's search queue is full (the message says when"
    " to retry)",
}


ErrorCode = error_codes(ERRORS)


class ErrorEvent(BaseModel):
    """The ``error`` event, and the ``error`` of a refused acknowledgement."""

    run: str | None = Field(description="the payload's run id when it had a well-formed one")
    code: ErrorCode
    message: str = Field(description="why, in the connection's language")


def parse_start(payload, load_game: Callable[[str], GameInfo | None] | None = None) -> RunSpec:
    """A ``start`` payload's run settings; ``ValidationError`` for every refusal."""
    return StartMessage.model_validate(payload, context={"load_game": load_game}).spec


def run_of(payload) -> str | None:
    """The payload's run id when it is a valid one (to label an error), else None."""
    if isinstance(payload, dict):
        run = payload.get("run")
        if isinstance(run, str) and RUN_ID.fullmatch(run):
            return run
    return None
