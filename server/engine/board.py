"""Boards, squares and knight moves.

A square is a small int, ``row * cols + col``, with row 0 at the top (as the
articles and the CLI number rows).  Algebraic names follow chess: ``a1`` is the
bottom-left square, files are columns, ranks count rows from the bottom.

Neighbour tables are built lazily and once per board: a 1000x1000 board used
only by the fast construction never pays for them.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator
from functools import cached_property

MAX_SIDE = 1000

# The articles' fixed move order, as (drow, dcol).  The articles write it as
# (dx, dy) with x = column and y = row: (-2,-1), (-1,-2), (+1,-2), (+2,-1),
# (+2,+1), (+1,+2), (-1,+2), (-2,+1).  Every neighbour table keeps this order,
# so the plain backtracking visits candidates exactly as the lesson does.
SEED_MOVES: tuple[tuple[int, int], ...] = (
    (-1, -2),
    (-2, -1),
    (-2, +1),
    (-1, +2),
    (+1, +2),
    (+2, +1),
    (+2, -1),
    (+1, -2),
)


class BoardError(ValueError):
    """A board, square or path that cannot exist; the message says why."""


class Board:
    """A rows x cols board, optionally with blocked squares (irregular levels)."""

    __slots__ = ("__dict__", "blocked", "cols", "rows")

    def __init__(self, rows: int, cols: int, blocked: Iterable[int] = ()) -> None:
        for label, value in (("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BoardError(f"{label} must be an integer, got {value!r}")
            if not 1 <= value <= MAX_SIDE:
                raise BoardError(f"{label} must be between 1 and {MAX_SIDE}, got {value}")
        self.rows = rows
        self.cols = cols
        blocked = frozenset(blocked)
        for sq in blocked:
            self._check_index(sq)
        self.blocked: frozenset[int] = blocked

    # -- identity -------------------------------------------------------------
    def __repr__(self) -> str:
        extra = f", blocked={sorted(self.blocked)}" if self.blocked else ""
        return f"Board({self.rows}, {self.cols}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rows, self.cols, self.blocked) == (other.rows, other.cols, other.blocked)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.blocked))

    @property
    def size(self) -> int:
        """Number of squares a tour must visit (blocked squares excluded)."""
        return self.rows * self.cols - len(self.blocked)

    @property
    def area(self) -> int:
        return self.rows * self.cols

    @property
    def dims(self) -> str:
        return f"{self.rows}x{self.cols}"

    # -- squares --------------------------------------------------------------
    def _check_index(self, sq: int) -> None:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < self.rows * self.cols:
            raise BoardError(f"square {sq!r} is off the {self.dims} board")

    def square(self, row: int, col: int) -> int:
        """The square at (row, col); a clear error when it is off the board."""
        for value in (row, col):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BoardError(f"row and column must be integers, got {row!r},{col!r}")
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise BoardError(f"square {row},{col} is off the {self.dims} board")
        return row * self.cols + col

    def row_col(self, sq: int) -> tuple[int, int]:
        self._check_index(sq)
        return divmod(sq, self.cols)

    def is_open(self, sq: int) -> bool:
        """True when sq is on the board and not blocked."""
        return 0 <= sq < self.rows * self.cols and sq not in self.blocked

    def squares(self) -> Iterator[int]:
        """Every open square, in index order."""
        blocked = self.blocked
        return (sq for sq in range(self.rows * self.cols) if sq not in blocked)

    def colour(self, sq: int) -> int:
        """0 for the colour of the top-left corner, 1 for the other."""
        row, col = divmod(sq, self.cols)
        return (row + col) & 1

    def name(self, sq: int) -> str:
        """Algebraic name: a1 is bottom-left.  Boards up to 26 columns."""
        row, col = self.row_col(sq)
        if self.cols > 26:
            return f"{row},{col}"
        return f"{string.ascii_lowercase[col]}{self.rows - row}"

    def parse_name(self, text: str) -> int:
        """Inverse of :meth:`name`."""
        text = text.strip().lower()
        if self.cols > 26:
            raise BoardError("algebraic names need a board of at most 26 columns")
        if len(text) < 2 or text[0] not in string.ascii_lowercase or not text[1:].isdigit():
            raise BoardError(f"{text!r} is not a square name like 'c3'")
        col = string.ascii_lowercase.index(text[0])
        row = self.rows - int(text[1:])
        return self.square(row, col)

    # -- knight moves ---------------------------------------------------------
    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Knight neighbours of every square, in the articles' move order.

        Blocked squares have no neighbours and are nobody's neighbour.
        """
        rows, cols, blocked = self.rows, self.cols, self.blocked
        table = []
        for row in range(rows):
            for col in range(cols):
                if row * cols + col in blocked:
                    table.append(())
                    continue
                out = []
                for dr, dc in SEED_MOVES:
                    r, c = row + dr, col + dc
                    if 0 <= r < rows and 0 <= c < cols:
                        target = r * cols + c
                        if target not in blocked:
                            out.append(target)
                table.append(tuple(out))
        return tuple(table)

    @cached_property
    def degrees(self) -> tuple[int, ...]:
        return tuple(len(n) for n in self.neighbours)

    def is_knight_move(self, a: int, b: int) -> bool:
        ra, ca = divmod(a, self.cols)
        rb, cb = divmod(b, self.cols)
        return {abs(ra - rb), abs(ca - cb)} == {1, 2}


def parse_dims(text: str) -> tuple[int, int]:
    """Parse 'ROWSxCOLS' (e.g. '8x8'); BoardError with a one-line reason otherwise."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BoardError(f"board size must look like 8x8, got {text!r}")
    rows, cols = (int(p) for p in parts)
    Board(rows, cols)  # validates the range without building anything
    return rows, cols
