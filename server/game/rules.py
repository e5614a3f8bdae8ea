"""The rules of play on a plain dataclass: moves, undo, restart, winning, and the early warning.

No Flask and no database: the service loads a :class:`GameState`, calls one
function here and saves the state only when it returns without :class:`RuleError`,
so a refused intention changes nothing.  The clock (``now``) is passed in.

Win rules: an open game is won when every open square is visited; a closed game
(the H5 rule) when every open square is visited and the knight then jumps back
onto the start square.  A board may have holes (squares nobody may stand on) and
a fixed start (the only square the knight may be placed on): a puzzle.

The early warning is exact, not a heuristic: after every change the engine's
hint search (bounded by ``CHECK_SECONDS``) proves the position completable or
dead.  ``good_until`` is the longest prefix of the path proven completable and
``dead_from`` the shortest proven dead; a dead position reports how many moves
to undo to get back to ``good_until``.

Every search runs under :func:`server.limits.budget.searching`: the asker's search time and
the server's search slots.  A hint they refuse is refused (``Busy``, ``OverBudget``);
the early warning is an extra, so a move, an undo or a restart they refuse is made
without looking ahead (only what was proved before speaks), never refused.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import lru_cache

from ..engine.board import Board
from ..engine.hints import hint
from ..engine.shape import Puzzle, Shape, ShapeError, parse_puzzle
from ..engine.theory import Verdict, closed_tour_verdict, open_start_squares, tour_verdict
from ..engine.verdict import ShapeVerdict, obstacle
from ..limits.budget import Refused, searching
from .verdict_cache import verdicts

MIN_SIDE, MAX_SIDE = 3, 20
CHECK_SECONDS = 0.5  # look-ahead per move for the early warning
HINT_SECONDS = 1.0  # look-ahead for an explicit hint
VERDICT_SECONDS = 1.0  # the exact verdict on a shape with holes (cached per puzzle)


class RuleError(Exception):
    """An intention the rules refuse; ``code`` is the API error code, ``detail`` refines it."""

    def __init__(self, code: str, detail: str | None = None, **params) -> None:
        super().__init__(f"{code}{f' ({detail})' if detail else ''}")
        self.code = code
        self.detail = detail
        self.params = params


@lru_cache(maxsize=256)
def board_for(rows: int, cols: int, holes: frozenset[int] = frozenset()) -> Board:
    """Boards are immutable; sharing them shares their neighbour tables."""
    return Board(rows, cols, holes)


def shape_verdict(puzzle: Puzzle) -> ShapeVerdict:
    """The engine's exact verdict on a shape with holes, once per puzzle (cached);
    ``Busy`` or ``OverBudget`` when it must be searched and the asker may not."""
    return verdicts.decide(puzzle, time_limit=VERDICT_SECONDS)


@dataclass
class GameState:
    rows: int
    cols: int
    closed: bool
    path: list[int] = field(default_factory=list)
    returned: bool = False  # closed mode: the final jump back onto the start was made
    undos: int = 0  # moves taken back
    hints: int = 0  # hints asked for
    started_at: float | None = None  # clock at the first move (or the last restart)
    finished_at: float | None = None  # clock at the win
    good_until: int = 0  # longest prefix length proven completable
    dead_from: int | None = None  # shortest prefix length proven dead
    dead: dict | None = None  # {"code", "reason", "params", "undo"} when the position is dead
    holes: frozenset[int] = frozenset()  # squares nobody may stand on
    start: int | None = None  # the fixed start square of a puzzle; None: free
    level: str | None = None  # where the game came from (kept, not used by the rules)
    daily: str | None = None

    @property
    def board(self) -> Board:
        return board_for(self.rows, self.cols, self.holes)

    @property
    def puzzle(self) -> Puzzle:
        return Puzzle(Shape(self.rows, self.cols, self.holes), self.closed, self.start)

    @property
    def is_shape(self) -> bool:
        """Holes or a fixed start: ranked by its puzzle code, not by its size."""
        return bool(self.holes) or self.start is not None

    @property
    def won(self) -> bool:
        if self.closed:
            return self.returned
        return len(self.path) == self.board.size

    @property
    def moves(self) -> int:
        """Knight jumps made; placing the knight is not one, the closing return is."""
        return max(len(self.path) - 1, 0) + self.returned

    @property
    def squares_left(self) -> int:
        return self.board.size - len(self.path)

    def legal(self) -> list[int]:
        """Squares the knight may go to now (every square before it is placed)."""
        board = self.board
        if not self.path:
            return [self.start] if self.start is not None else list(board.squares())
        if self.won:
            return []
        last = self.path[-1]
        if len(self.path) == board.size:  # closed mode: only the return is left
            return [self.path[0]] if board.is_knight_move(last, self.path[0]) else []
        visited = set(self.path)
        return [sq for sq in board.neighbours[last] if sq not in visited]

    @property
    def status(self) -> str:
        if not self.path:
            return "new"
        if self.won:
            return "won"
        return "playing" if self.legal() else "stuck"

    def elapsed(self, now: float) -> float:
        """Seconds since the first move, frozen at the win."""
        if self.started_at is None:
            return 0.0
        end = self.finished_at if self.finished_at is not None else now
        return round(max(end - self.started_at, 0.0), 1)

    def feasible(self) -> Verdict | ShapeVerdict:
        """Whether a tour exists from the start square (once placed, or fixed).

        Theory's O(1) verdict on a plain rectangle; the engine's exact one with holes.
        """
        start = self.path[0] if self.path else self.start
        if not self.holes:
            return tour_verdict(self.rows, self.cols, closed=self.closed, start=start)
        return shape_verdict(Puzzle(Shape(self.rows, self.cols, self.holes), self.closed, start))


def check_size(rows: int, cols: int) -> None:
    """Play boards are MIN_SIDE..MAX_SIDE a side (``bad-board``)."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise RuleError("bad-board", rows=rows, cols=cols)


def new_game(
    rows: int,
    cols: int,
    closed: bool,
    *,
    holes: frozenset[int] = frozenset(),
    start: int | None = None,
) -> GameState:
    """A fresh game; RuleError ``bad-board`` for a size out of range, the ShapeError's code
    (``shape-malformed``, ``shape-empty``, ``start-on-hole``, ``start-off-board``) for the rest."""
    check_size(rows, cols)
    try:
        puzzle = Puzzle(Shape(rows, cols, frozenset(holes)), closed, start)
    except ShapeError as err:
        raise RuleError(err.code, **err.params) from None
    return GameState(rows, cols, closed, holes=puzzle.shape.holes, start=puzzle.start)


def puzzle_of(code: str) -> Puzzle:
    """A puzzle from its code (``shape.parse_puzzle``); RuleError with the ShapeError's code."""
    try:
        return parse_puzzle(code)
    except ShapeError as err:
        raise RuleError(err.code, **err.params) from None


def cells_to_squares(rows: int, cols: int, cells) -> frozenset[int]:
    """[row, col] pairs as squares; a pair off the board is ``shape-malformed``."""
    squares = set()
    for row, col in cells:
        if not (0 <= row < rows and 0 <= col < cols):
            raise RuleError("shape-malformed", "hole", square=f"{row},{col}")
        squares.add(row * cols + col)
    return frozenset(squares)


def move(state: GameState, row: int, col: int, now: float, *, check=CHECK_SECONDS) -> None:
    """Place the knight (first move) or jump; RuleError when the rules forbid it."""
    if state.won:
        raise RuleError("game-over")
    board = state.board
    if not (0 <= row < state.rows and 0 <= col < state.cols):
        raise RuleError("illegal-move", "off-board")
    sq = board.square(row, col)
    if sq in state.holes:
        raise RuleError("illegal-move", "hole", square=board.name(sq))
    if not state.path:
        if state.start is not None and sq != state.start:
            raise RuleError("illegal-move", "fixed-start", start=board.name(state.start))
        _place(state, sq, now, check)
        return
    last, start = state.path[-1], state.path[0]
    if state.closed and len(state.path) == board.size and sq == start:
        if not board.is_knight_move(last, start):
            raise RuleError("illegal-move", "not-knight", square=board.name(sq))
        state.returned = True
        state.finished_at = now
        state.dead = None
        return
    if sq in state.path:
        raise RuleError("illegal-move", "visited", square=board.name(sq))
    if not board.is_knight_move(last, sq):
        raise RuleError("illegal-move", "not-knight", square=board.name(sq))
    state.path.append(sq)
    if state.won:
        state.finished_at = now
        state.good_until = len(state.path)
        state.dead = None
        return
    assess(state, check)


def random_first_move(state: GameState, now: float, *, rng=None, check=CHECK_SECONDS) -> None:
    """Place the knight on a random square from which theory does not rule a tour out."""
    if state.path:
        raise RuleError("illegal-move", "random-later")
    if state.start is not None:
        _place(state, state.start, now, check)
        return
    rng = rng or random.SystemRandom()
    _place(state, rng.choice(_hopeful_starts(state) or list(state.board.squares())), now, check)


def _hopeful_starts(state: GameState) -> list[int]:
    """Start squares from which theory (or, with holes, no named obstacle) rules no tour out."""
    if state.holes:
        shape = Shape(state.rows, state.cols, state.holes)
        return [
            sq for sq in state.board.squares() if obstacle(Puzzle(shape, state.closed, sq)) is None
        ]
    if state.closed:  # a closed tour passes every square: the start does not matter
        feasible = closed_tour_verdict(state.rows, state.cols)
        return list(state.board.squares()) if feasible else []
    return sorted(open_start_squares(state.rows, state.cols))


def _place(state: GameState, sq: int, now: float, check: float) -> None:
    state.path = [sq]
    state.started_at = now
    state.good_until, state.dead_from = 0, None
    assess(state, check)


def undo(state: GameState, count: int, *, check=CHECK_SECONDS) -> None:
    """Take back ``count`` moves (never the placement of the knight)."""
    if state.won:
        raise RuleError("game-over")
    if state.moves == 0:
        raise RuleError("bad-undo", "none")
    if not 1 <= count <= state.moves:
        raise RuleError("bad-undo", moves=state.moves)
    _truncate(state, len(state.path) - count)
    state.undos += count
    assess(state, check)


def restart(state: GameState, now: float, *, check=CHECK_SECONDS) -> None:
    """Back to the start square with a fresh clock; hint and undo counts stay."""
    if state.won:
        raise RuleError("game-over")
    if not state.path:
        return
    _truncate(state, 1)
    state.started_at = now
    assess(state, check)


def _truncate(state: GameState, length: int) -> None:
    """Shorten the path; keep only the proofs that still speak about a prefix of it."""
    state.path = state.path[:length]
    state.good_until = min(state.good_until, length)
    if state.dead_from is not None and state.dead_from > length:
        state.dead_from = None


@dataclass(frozen=True)
class HintAnswer:
    verdict: str  # "completable" | "dead" | "unknown"
    next: int | None
    code: str | None
    reason: str | None
    params: dict


def ask_hint(state: GameState, *, seconds=HINT_SECONDS) -> HintAnswer:
    """The engine's hint for the current position; counted, and it sharpens the warning.

    Before the knight is placed the engine recommends a start square (the fixed one of
    a puzzle, when it has a tour).
    """
    if state.won:
        raise RuleError("game-over")
    state.hints += 1
    if not state.path and state.start is not None:  # a fixed start: is it a good one?
        with searching():
            result = hint(state.board, [state.start], closed=state.closed, time_limit=seconds)
        nxt = state.start if result.verdict == "completable" else None
        return HintAnswer(result.verdict, nxt, result.code, result.reason, dict(result.params))
    with searching():
        result = hint(state.board, state.path, closed=state.closed, time_limit=seconds)
    if state.path:
        _learn(state, len(state.path), result.verdict)
        _set_warning(state, result if result.verdict == "dead" else None)
    return HintAnswer(result.verdict, result.next, result.code, result.reason, dict(result.params))


def assess(state: GameState, seconds: float = CHECK_SECONDS) -> None:
    """The exact early warning for the current position, within a bounded time."""
    n = len(state.path)
    if n == 0 or state.won or n <= state.good_until:
        state.dead = None
        return
    try:
        with searching():
            _look_ahead(state, n, seconds)
    except Refused:  # no search time now: only what was proved before speaks
        before = state.dead
        _set_warning(state, None)
        if before is not None and state.dead is not None:
            state.dead.update(code=before["code"], reason=before["reason"], params=before["params"])


def _look_ahead(state: GameState, n: int, seconds: float) -> None:
    result = hint(state.board, state.path, closed=state.closed, time_limit=seconds)
    _learn(state, n, result.verdict)
    if state.dead_from is None or n < state.dead_from:
        state.dead = None  # completable, or not settled in time: no warning
        return
    # Dead: walk back to the last completable prefix, with a budget of its own.
    deadline = time.monotonic() + seconds
    k = state.dead_from - 1
    while k > state.good_until and time.monotonic() < deadline:
        budget = max(deadline - time.monotonic(), 0.05)
        verdict = hint(state.board, state.path[:k], closed=state.closed, time_limit=budget).verdict
        if verdict == "unknown":
            break
        _learn(state, k, verdict)
        k -= 1
    _set_warning(state, result if result.verdict == "dead" else None)


def _learn(state: GameState, length: int, verdict: str) -> None:
    if verdict == "completable":
        state.good_until = max(state.good_until, length)
    elif verdict == "dead" and (state.dead_from is None or length < state.dead_from):
        state.dead_from = length


def _set_warning(state: GameState, result) -> None:
    """Record the warning for a position known dead (``result`` may lack its reason)."""
    n = len(state.path)
    if state.dead_from is None or n < state.dead_from:
        state.dead = None
        return
    state.dead = {
        "code": result.code if result else "dead",
        "reason": result.reason if result else "No tour can be completed from here.",
        "params": dict(result.params) if result else {},
        # moves to undo; None when even the start square leads nowhere
        "undo": n - state.good_until if state.good_until >= 1 else None,
        # False when positions in between were not settled in time: undo may be more than needed
        "exact": state.dead_from == state.good_until + 1,
    }
