"""Which boards have knight's tours, from which squares, and why not.

Everything here is O(1) per question, for plain boards (no blocked squares) of
any size from 1x1 to 1000x1000: the solver asks theory before it searches, so
it never spends a budget on a board that is known to have no tour, and the UI
can say why.  The facts are stated for m x n with m <= n; a 7x3 board is 3x7
transposed, and start squares are transposed with it.  Colour means
(row + col) mod 2; on odd x odd boards the corners' colour is the majority.

Closed tours (Schwenk 1991): none when both sides are odd, the short side is
1, 2 or 4, or the board is 3x4, 3x6 or 3x8; every other board has one.  A
closed tour passes through every square, so the start never matters.  1x1
has no closed tour here: it would need a move from the square back to itself.

Open tours (Cull & De Curtins 1978; Conrad, Hindrichs, Morsy & Wegener 1994):
none on 1xn (n >= 2), 2xn, 3x3, 3x5, 3x6 and 4x4; 1x1 is the trivial tour.
Start squares that admit an open tour, checked square by square against
exhaustive search on every board of up to 30 squares and a few up to 36
(tests/engine/test_theory.py):

* odd x odd: the majority colour only (a path over 2k+1 squares alternating
  colours starts and ends on the colour with k+1 squares); on 3x7 also not
  the centre (1,3);
* 3x4: the two end columns; 3x8: every square except (1,2) and (1,5);
* 4xn, n >= 5: the two outer rows only (outer squares only touch inner
  ones and both colours are outer, so a tour has exactly one inner-to-inner
  move and must start and end outside);
* every other board with an open tour: every square.

Reason codes (``Verdict.code``), with the ``params`` each one carries beside
``rows`` and ``cols``; :data:`REASONS` holds the English templates:

==================  ==========================================================
``one-square``      closed tour of 1x1 (no move back to the start)
``one-row``         a board 1 square wide (n >= 2): the knight cannot move
``two-rows``        a board 2 squares wide: the moves fall into separate pieces
``isolated-centre`` 3x3 open: the centre has no knight moves
``no-open-tour``    3x5, 3x6, 4x4 open: exhaustive search finds no tour
``both-odd``        closed, both sides odd; params ``squares``
``schwenk-4xn``     closed, a board 4 squares wide
``schwenk-3xn``     closed 3x4, 3x6, 3x8
``colour``          open, odd x odd, start on the minority colour; ``square``
``inner-4xn``       open, 4xn, start on an inner line; ``square``
``start-square``    open, 3x4 / 3x7 / 3x8 start that search rules out; ``square``
==================  ==========================================================

``square`` is the start's algebraic name (``row,col`` above 26 columns);
start params also carry ``row`` and ``col`` (0-based, row 0 on top).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import Board

REASONS: dict[str, str] = {
    "one-square": "a closed tour needs a move back to the start, and a 1x1 board has no move",
    "one-row": "the knight cannot move at all on a {rows}x{cols} board, one square wide",
    "two-rows": (
        "on a {rows}x{cols} board, two squares wide, the knight's moves split the squares "
        "into separate pieces, so no tour can reach them all"
    ),
    "isolated-centre": "the centre of a 3x3 board has no knight moves, so no tour can reach it",
    "no-open-tour": (
        "a {rows}x{cols} board has no knight's tour: every route gets stuck "
        "(proved by exhaustive search)"
    ),
    "both-odd": (
        "a closed tour alternates colours, so it needs an even number of squares; "
        "{rows}x{cols} has {squares}"
    ),
    "schwenk-4xn": (
        "a board 4 squares wide has no closed tour (Schwenk): the edge lines' squares only "
        "touch the middle lines, so a closed tour must alternate between them, "
        "which the colours forbid"
    ),
    "schwenk-3xn": (
        "a {rows}x{cols} board has no closed tour (Schwenk: 3x4, 3x6 and 3x8 are the "
        "exceptions among boards 3 squares wide with an even number of squares)"
    ),
    "colour": (
        "{rows}x{cols} has one more square of the corners' colour, so an open tour must start "
        "and end on that colour; {square} is the other colour"
    ),
    "inner-4xn": (
        "on a board 4 squares wide an open tour must start and end on the two long edges "
        "(their squares only touch the middle lines); {square} is on a middle line"
    ),
    "start-square": (
        "no open tour of {rows}x{cols} starts on {square} (proved by exhaustive search)"
    ),
}


@dataclass(frozen=True)
class Verdict:
    """Whether a tour exists, and if not a code, an English reason and its params."""

    possible: bool
    code: str | None = None
    reason: str | None = None
    params: dict[str, int | str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.possible


def _yes(rows: int, cols: int) -> Verdict:
    return Verdict(True, None, None, {"rows": rows, "cols": cols})


def _no(code: str, rows: int, cols: int, **extra: int | str) -> Verdict:
    params: dict[str, int | str] = {"rows": rows, "cols": cols, **extra}
    return Verdict(False, code, REASONS[code].format(**params), params)


def _board(rows: int, cols: int, start: int | None) -> Board:
    """Validate sizes (and the start) by the Board rules; BoardError otherwise."""
    board = Board(rows, cols)
    if start is not None:
        board.row_col(start)
    return board


def _closed(rows: int, cols: int) -> Verdict:
    m, n = sorted((rows, cols))
    if m == n == 1:
        return _no("one-square", rows, cols)
    if m == 1:
        return _no("one-row", rows, cols)
    if m == 2:
        return _no("two-rows", rows, cols)
    if m % 2 and n % 2:
        return _no("both-odd", rows, cols, squares=rows * cols)
    if m == 4:
        return _no("schwenk-4xn", rows, cols)
    if m == 3 and n in (4, 6, 8):
        return _no("schwenk-3xn", rows, cols)
    return _yes(rows, cols)


def _open(rows: int, cols: int) -> Verdict:
    m, n = sorted((rows, cols))
    if m == n == 1:
        return _yes(rows, cols)
    if m == 1:
        return _no("one-row", rows, cols)
    if m == 2:
        return _no("two-rows", rows, cols)
    if (m, n) == (3, 3):
        return _no("isolated-centre", rows, cols)
    if (m, n) in ((3, 5), (3, 6), (4, 4)):
        return _no("no-open-tour", rows, cols)
    return _yes(rows, cols)


def _start_code(m: int, n: int, i: int, j: int) -> str | None:
    """Why no open tour of m x n (m <= n, which has one) starts at (i, j); None if one does."""
    if m % 2 and n % 2 and (i + j) % 2:
        return "colour"
    if m == 3 and (
        (n == 4 and j not in (0, 3))
        or (n == 7 and (i, j) == (1, 3))
        or (n == 8 and i == 1 and j in (2, 5))
    ):
        return "start-square"
    if m == 4 and i in (1, 2):
        return "inner-4xn"
    return None


def closed_tour_verdict(rows: int, cols: int) -> Verdict:
    """Schwenk's theorem: whether a rows x cols board has a closed tour."""
    _board(rows, cols, None)
    return _closed(rows, cols)


def open_tour_verdict(rows: int, cols: int, start: int | None = None) -> Verdict:
    """Whether an open tour exists from ``start`` (None: from some square)."""
    board = _board(rows, cols, start)
    verdict = _open(rows, cols)
    if not verdict or start is None:
        return verdict
    row, col = board.row_col(start)
    i, j = (row, col) if rows <= cols else (col, row)
    code = _start_code(min(rows, cols), max(rows, cols), i, j)
    if code is None:
        return verdict
    return _no(code, rows, cols, square=board.name(start), row=row, col=col)


def tour_verdict(rows: int, cols: int, *, closed: bool, start: int | None = None) -> Verdict:
    """One entry point; a closed tour passes through every square, so its start is irrelevant."""
    if closed:
        _board(rows, cols, start)
        return _closed(rows, cols)
    return open_tour_verdict(rows, cols, start)


def open_start_squares(rows: int, cols: int) -> frozenset[int]:
    """Every square an open tour can start from; O(rows * cols), no search."""
    _board(rows, cols, None)
    if not _open(rows, cols):
        return frozenset()
    m, n = min(rows, cols), max(rows, cols)
    everything = range(rows * cols)
    if m % 2 and n % 2 and m != 3:
        # cols is odd, so (row + col) is even exactly when the index is even
        return frozenset(range(0, rows * cols, 2))
    if m > 4:
        return frozenset(everything)

    def ok(sq: int) -> bool:
        row, col = divmod(sq, cols)
        i, j = (row, col) if rows <= cols else (col, row)
        return _start_code(m, n, i, j) is None

    return frozenset(filter(ok, everything))


@dataclass(frozen=True)
class TourCheck:
    """Whether a sequence of squares is a tour; ``problem`` is the first thing wrong.

    ``index`` points into the tour at the offending entry (None when the problem
    is a square never visited), so a UI can highlight it.  ``code`` names the problem
    (``not-square``, ``off-board``, ``blocked``, ``not-knight``, ``repeat``, ``empty``,
    ``missing``, ``no-return``, ``closing``) and ``params`` its squares' names, so a page
    can say it in its language; neither takes part in comparisons.
    """

    ok: bool
    problem: str | None = None
    index: int | None = None
    code: str | None = field(default=None, compare=False)
    params: dict = field(default_factory=dict, compare=False)

    def __bool__(self) -> bool:
        return self.ok


def verify(board: Board, tour: Sequence[int], *, closed: bool = False) -> TourCheck:
    """Check ``tour`` against the definition alone, trusting no solver.

    Every open square exactly once, nothing blocked or off the board, each step
    a knight move, and for a closed tour a knight move from the last square
    back to the first (so 1x1 has no closed tour).
    """
    cols, total = board.cols, board.rows * board.cols
    seen: dict[int, int] = {}
    prev: int | None = None
    for index, sq in enumerate(tour):
        step = index + 1
        if isinstance(sq, bool) or not isinstance(sq, int):
            return TourCheck(
                False, f"step {step} ({sq!r}) is not a square number", index, "not-square"
            )
        if not 0 <= sq < total:
            return TourCheck(
                False,
                f"step {step} (square {sq}) is off the {board.dims} board",
                index,
                "off-board",
                {"step": step},
            )
        if sq in board.blocked:
            return TourCheck(
                False,
                f"step {step} ({board.name(sq)}) is a blocked square",
                index,
                "blocked",
                {"step": step, "square": board.name(sq)},
            )
        if prev is not None and not _knight(prev, sq, cols):
            return TourCheck(
                False,
                f"move {index} ({board.name(prev)} -> {board.name(sq)}) is not a knight move",
                index,
                "not-knight",
                {"step": step, "square": board.name(sq), "from": board.name(prev)},
            )
        if sq in seen:
            return TourCheck(
                False,
                f"step {step} ({board.name(sq)}) repeats step {seen[sq] + 1}",
                index,
                "repeat",
                {"step": step, "square": board.name(sq), "first": seen[sq] + 1},
            )
        seen[sq] = index
        prev = sq
    if not seen:
        return TourCheck(False, "the tour is empty", None, "empty")
    if len(seen) < board.size:
        missing = next(sq for sq in board.squares() if sq not in seen)
        return TourCheck(
            False,
            f"the tour visits {len(seen)} of {board.size} squares; "
            f"{board.name(missing)} is never visited",
            None,
            "missing",
            {"visited": len(seen), "squares": board.size, "square": board.name(missing)},
        )
    if closed:
        first, last = tour[0], tour[-1]
        if len(seen) == 1:
            return TourCheck(
                False,
                "a closed tour needs a move back to the start; one square has none",
                0,
                "no-return",
            )
        if not _knight(last, first, cols):
            return TourCheck(
                False,
                f"the closing move ({board.name(last)} -> {board.name(first)}) "
                "is not a knight move",
                len(seen) - 1,
                "closing",
                {"square": board.name(last), "start": board.name(first)},
            )
    return TourCheck(True)


def _knight(a: int, b: int, cols: int) -> bool:
    ra, ca = divmod(a, cols)
    rb, cb = divmod(b, cols)
    return sorted((abs(ra - rb), abs(ca - cb))) == [1, 2]


__all__ = [
    "REASONS",
    "TourCheck",
    "Verdict",
    "closed_tour_verdict",
    "open_start_squares",
    "open_tour_verdict",
    "tour_verdict",
    "verify",
]
