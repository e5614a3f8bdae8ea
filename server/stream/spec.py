"""Strict validation of the watch protocol's client messages (docs/protocol.md).

Every refusal is a :class:`ProtocolError` carrying the protocol's error ``code``, an
i18n message key (``watch.error.<code>`` or a refinement of it) and the message's
parameters; the web layer turns it into an ``error`` event in the connection's language.
Nothing here starts a run or touches Flask.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..engine.theory import tour_verdict

ALGORITHMS = ("seed", "warnsdorff", "construct")
MIN_SIDE = 3
MAX_SIDE = 30  # searches: every event is streamed, so bigger boards only mean budget runs
MAX_SIDE_CONSTRUCT = 100  # the construction streams exactly one move per square
MAX_WINDOW = 20_000  # credit outstanding, in events
MAX_NODE_BUDGET = 300_000_000  # the lesson's 8x8 plain search ends at 251,825,408 nodes
DEFAULT_NODE_BUDGET = 5_000_000
MAX_TIME_LIMIT = 600.0
DEFAULT_TIME_LIMIT = 120.0
MAX_GAME_ID = 64
MAX_SEEK_INDEX = 2 * MAX_NODE_BUDGET  # every node is one move and at most one backtrack
RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


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

    @property
    def counts(self) -> bool:
        """Whether each move carries its candidates' onward counts (Warnsdorff)."""
        return self.algorithm == "warnsdorff"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(payload: Mapping, name: str, run: str | None):
    if name not in payload:
        raise ProtocolError("bad-request", "watch.error.bad-request.missing", run, field=name)
    return payload[name]


def _wrong(name: str, run: str | None) -> ProtocolError:
    return ProtocolError("bad-request", "watch.error.bad-request.type", run, field=name)


def _int(payload: Mapping, name: str, run: str | None) -> int:
    value = _field(payload, name, run)
    if not _is_int(value):
        raise _wrong(name, run)
    return value


def _bool(payload: Mapping, name: str, run: str | None) -> bool:
    value = _field(payload, name, run)
    if not isinstance(value, bool):
        raise _wrong(name, run)
    return value


def _object(payload) -> Mapping:
    if not isinstance(payload, dict):
        raise ProtocolError("bad-request", "watch.error.bad-request.payload")
    return payload


def parse_run_id(payload) -> str:
    """The ``run`` field of any message; ProtocolError when missing or malformed."""
    payload = _object(payload)
    value = _field(payload, "run", None)
    if not isinstance(value, str) or not RUN_ID.fullmatch(value):
        raise ProtocolError("bad-request", "watch.error.bad-request.run-id", None)
    return value


def run_of(payload) -> str | None:
    """The payload's run id when it is a valid one (to label an error), else None."""
    try:
        return parse_run_id(payload)
    except ProtocolError:
        return None


def parse_credit(payload) -> tuple[str, int]:
    run = parse_run_id(payload)
    events = _int(payload, "events", run)
    if not 1 <= events <= MAX_WINDOW:
        raise ProtocolError("bad-request", "watch.error.bad-request.credit", run, max=MAX_WINDOW)
    return run, events


def parse_stop(payload) -> str:
    return parse_run_id(payload)


@dataclass(frozen=True)
class SeekSpec:
    """A ``seek``: stand at event ``index`` (None: the search's end), then stream on."""

    run: str
    index: int | None
    window: int | None  # credit for the stream after the snapshot (None: the start's)


def parse_seek(payload) -> SeekSpec:
    """Validate a ``seek`` payload ``{run, index, window?}``; ProtocolError for every refusal."""
    run = parse_run_id(payload)
    index = _field(payload, "index", run)
    if index is not None:
        if not _is_int(index):
            raise _wrong("index", run)
        if not 0 <= index <= MAX_SEEK_INDEX:
            raise ProtocolError(
                "bad-request", "watch.error.bad-request.seek", run, max=MAX_SEEK_INDEX
            )
    window = payload.get("window")
    if window is not None:
        if not _is_int(window):
            raise _wrong("window", run)
        if not 1 <= window <= MAX_WINDOW:
            raise ProtocolError(
                "bad-request", "watch.error.bad-request.window", run, max=MAX_WINDOW
            )
    return SeekSpec(run, index, window)


def _budget(payload: Mapping, run: str) -> tuple[int, float]:
    node_budget = payload.get("node_budget", DEFAULT_NODE_BUDGET)
    if node_budget is None:
        node_budget = DEFAULT_NODE_BUDGET
    if not _is_int(node_budget):
        raise _wrong("node_budget", run)
    if not 1 <= node_budget <= MAX_NODE_BUDGET:
        raise ProtocolError("bad-budget", "watch.error.bad-budget.nodes", run, max=MAX_NODE_BUDGET)
    time_limit = payload.get("time_limit", DEFAULT_TIME_LIMIT)
    if time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise _wrong("time_limit", run)
    if not (math.isfinite(time_limit) and 0 < time_limit <= MAX_TIME_LIMIT):
        raise ProtocolError("bad-budget", "watch.error.bad-budget.time", run, max=MAX_TIME_LIMIT)
    return node_budget, float(time_limit)


def _start_square(payload: Mapping, rows: int, cols: int, run: str) -> int:
    value = _field(payload, "start", run)
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise _wrong("start", run)
    row, col = value
    if not (0 <= row < rows and 0 <= col < cols):
        raise ProtocolError(
            "bad-board", "watch.error.bad-board.start", run, row=row, col=col, rows=rows, cols=cols
        )
    return row * cols + col


def parse_start(payload, load_game: Callable[[str], GameInfo | None] | None = None) -> RunSpec:
    """Validate a ``start`` payload into a RunSpec; ProtocolError for every refusal.

    ``load_game`` looks a game id up (None when there is no such game); without it a
    ``game`` field is refused as unknown.  With a game, the board, the closed flag and
    the start come from the game (its path is the run's prefix) and the payload's
    ``rows``/``cols``/``start``/``closed`` are not needed.  A construction is refused on
    a board where theory proves there is no tour (it would have nothing to stream).
    """
    payload = _object(payload)
    run = parse_run_id(payload)
    algorithm = _field(payload, "algorithm", run)
    if not isinstance(algorithm, str):
        raise _wrong("algorithm", run)
    if algorithm not in ALGORITHMS:
        shown = algorithm[:32]
        raise ProtocolError("unknown-algorithm", None, run, algorithm=shown)
    pruning = _bool(payload, "pruning", run)
    window = _int(payload, "window", run)
    if not 1 <= window <= MAX_WINDOW:
        raise ProtocolError("bad-request", "watch.error.bad-request.window", run, max=MAX_WINDOW)
    node_budget, time_limit = _budget(payload, run)

    game_id = payload.get("game")
    prefix: tuple[int, ...] = ()
    if game_id is not None:
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= MAX_GAME_ID:
            raise _wrong("game", run)
        game = load_game(game_id) if load_game is not None else None
        if game is None:
            raise ProtocolError("unknown-game", None, run)
        rows, cols, closed, prefix = game.rows, game.cols, game.closed, tuple(game.path)
        if algorithm == "construct" and prefix:
            raise ProtocolError("bad-request", "watch.error.bad-request.construct-game", run)
    else:
        rows = _int(payload, "rows", run)
        cols = _int(payload, "cols", run)
        closed = _bool(payload, "closed", run)

    limit = MAX_SIDE_CONSTRUCT if algorithm == "construct" else MAX_SIDE
    if not (MIN_SIDE <= rows <= limit and MIN_SIDE <= cols <= limit):
        raise ProtocolError(
            "bad-board", "watch.error.bad-board", run, min=MIN_SIDE, max=limit, rows=rows, cols=cols
        )
    if prefix:
        if any(not _is_int(sq) or not 0 <= sq < rows * cols for sq in prefix):
            raise ProtocolError("unknown-game", None, run)  # a stored game we cannot use
        start = prefix[0]
    else:
        start = _start_square(payload, rows, cols, run)

    if algorithm == "construct":
        verdict = tour_verdict(rows, cols, closed=closed, start=start)
        if not verdict:
            raise ProtocolError(
                "bad-board",
                "watch.error.bad-board.no-tour",
                run,
                reason_code=verdict.code,
                reason=verdict.reason,
                reason_params=dict(verdict.params),
            )
    return RunSpec(
        run=run,
        rows=rows,
        cols=cols,
        start=start,
        algorithm=algorithm,
        closed=closed,
        pruning=pruning,
        window=window,
        node_budget=node_budget,
        time_limit=time_limit,
        prefix=prefix,
        game=game_id,
    )
