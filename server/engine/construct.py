"""Fast knight's tour constructions for boards from 1x1 to 1000x1000.

:func:`construct_tour` returns an open tour from any start square that has one
and a closed tour on every board that has one, in time linear in the board
(a 1000x1000 closed tour takes well under a second in pure Python).  It picks
a method by shape:

* both sides >= 5: blocks with structured closed tours merged by edge swaps
  (:mod:`.construct_blocks`); an open tour is the closed tour rotated to the
  start, or on odd x odd boards a cycle through every square but the start;
* 3 or 4 rows (or columns): chained lane blocks (:mod:`.construct_thin`);
* the few small boards those leave out (3x7, 4x9, 5x5, ...): an exact search
  (:mod:`.construct_search`), cached.

Every piece found by search is cached, so the first tour of a new shape or
start pays a few milliseconds more than the next one.  Output is
deterministic.  Existence is :mod:`.theory`'s verdict; impossible requests
raise :class:`NoTourError` with its reason.
"""

from __future__ import annotations

from functools import lru_cache

from .board import Board
from .construct_blocks import closed_cycle, hole_cycle
from .construct_search import KNIGHT, grid_rank, hamiltonian, knight_graph
from .construct_thin import closed_3xn, open_thin
from .theory import tour_verdict

# The hole construction leaves a few starts on boards up to this size to search.
_EXACT_MAX_AREA = 100


class NoTourError(ValueError):
    """The requested tour does not exist on this board (from this start)."""


def construct_tour(rows: int, cols: int, start: int = 0, *, closed: bool = False) -> list[int]:
    """A knight's tour of rows x cols from ``start`` (squares are row * cols + col).

    ``tour[0] == start``; a closed tour lists every square once and the move
    back to the start is implied.  Raises :class:`~.board.BoardError` for a bad
    size or start and :class:`NoTourError` when no such tour exists.
    """
    Board(rows, cols).row_col(start)  # validates sizes and the start square
    verdict = tour_verdict(rows, cols, closed=closed, start=start)
    if not verdict:
        raise NoTourError(verdict.reason)
    if rows == cols == 1:
        return [0]
    if min(rows, cols) <= 4:
        return _thin(rows, cols, start, closed)
    if closed or rows % 2 == 0 or cols % 2 == 0:
        return _rotate(closed_cycle(rows, cols), start)
    cycle = hole_cycle(rows, cols, start)
    if cycle is None:  # 5x5 and a few starts on other small boards
        if rows * cols > _EXACT_MAX_AREA:  # pragma: no cover - checked up to 41x41
            raise RuntimeError(f"no block layout for {rows}x{cols} from {start}")
        return _exact(rows, cols, start, closed)
    return _around_hole(rows, cols, start, cycle)


def _rotate(cycle: list[int], start: int) -> list[int]:
    k = cycle.index(start)
    return cycle[k:] + cycle[:k] if k else cycle


def _around_hole(rows: int, cols: int, start: int, cycle: list[int]) -> list[int]:
    """Start, then a neighbour of it, then round the cycle that skips the start."""
    r, c = divmod(start, cols)
    nxt = next(
        (r + dr) * cols + c + dc for dr, dc in KNIGHT if 0 <= r + dr < rows and 0 <= c + dc < cols
    )
    tour = _rotate(cycle, nxt)
    tour.insert(0, start)
    return tour


def _thin(rows: int, cols: int, start: int, closed: bool) -> list[int]:
    """3 or 4 rows (or columns): lanes, or exact search when short."""
    if rows > cols:  # solve the transpose, then map back
        r, c = divmod(start, cols)
        tour = _thin(cols, rows, c * rows + r, closed)
        return [(t % rows) * cols + t // rows for t in tour]
    h, n = rows, cols
    if h == 3 and n % 2 == 0 and n >= 10:  # closed tours exist: rotate one
        cycle = _exact(3, n, 0, True) if n <= 12 else closed_3xn(n)
        if cycle is None:  # pragma: no cover - every even n >= 14 has a layout
            raise RuntimeError(f"no 3x{n} layout")
        return _rotate(cycle, start)
    if n <= (13 if h == 3 else 9):
        return _exact(h, n, start, closed)
    tour = open_thin(h, n, start)
    if tour is None:  # pragma: no cover - checked over all starts on every thin length
        raise RuntimeError(f"no {h}x{n} layout for start {start}")
    return tour


@lru_cache(maxsize=1024)
def _exact_cached(rows: int, cols: int, start: int, closed: bool) -> tuple[int, ...] | None:
    sparse: list[int] = []
    if rows == 4:
        sparse = [*range(cols), *range(3 * cols, 4 * cols)]
    elif cols == 4:
        sparse = [r * 4 + c for r in range(rows) for c in (0, 3)]
    tour = hamiltonian(
        knight_graph(rows, cols),
        start,
        closed=closed,
        rank=grid_rank(rows, cols),
        sparse=sparse,
    )
    return None if tour is None else tuple(tour)


def _exact(rows: int, cols: int, start: int, closed: bool) -> list[int]:
    """Exact search for the small boards the constructions leave out."""
    tour = _exact_cached(rows, cols, start, closed)
    if tour is None:  # pragma: no cover - existence was checked first
        raise NoTourError(f"no {'closed' if closed else 'open'} tour of {rows}x{cols} found")
    return list(tour)
