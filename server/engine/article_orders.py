"""How each article's program orders its moves: the rules the search walks by.

An article ordering (:data:`~server.engine.articles.ARTICLES`) is three things:

* ``moves``: the program's own move order, as (drow, dcol) in our rows;
* ``sort``: how it sorts the candidates before trying them, with a stable sort
  (Java's ``List.sort`` and Python's ``sorted`` are both stable):
  ``"static"`` by ``findWay(p).size()`` / ``next(o1).size()``, which counts every
  on-board knight move of the candidate, visited squares included: the board's
  static degree, not Warnsdorff's rule (the Java articles' bug); ``"onward"`` by
  the candidate's unvisited squares (Warnsdorff, the corrected versions); None:
  no sort.  The Python article sorts, but with ``sorted(v, lambda x, y:
  x.wayout < y.wayout)``: Python 2 takes a ``cmp`` function there, and its sort
  asks only whether ``cmp(a, b) < 0``; a bool is 0 or 1, never negative, so no
  candidate is ever "less" than another and timsort leaves the list as it was.
  Its rule is therefore ``None``: plain backtracking in its offset order.
* ``keeps_root``: the C article's ``main`` marks the start and ``traverse`` clears
  only the squares it entered itself, so a search that runs out never leaves its
  start (``traverse_chess`` does leave it);
* ``lands_on_start``: the Python article's ``isCorrect(count == N*N + 1)`` lets
  the last move land on the start square (marked 1), so at the last step the
  start is a candidate beside the free squares, in move order.

The programs check visited squares at different moments (Java when a candidate
is taken from the list, C inside ``next()``, Python when it builds the list);
that gives the same events, because every square entered below a frame has been
left again when the frame tries its next candidate.  (The Python program breaks
that after its first success, which leaves its last square marked: the search
stops there, see :mod:`server.engine.search`.)
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import SEED_MOVES, Board

__all__ = ["RULES", "Rule", "carries_onward", "ordered_neighbours"]

# 000 and 002 (Java) ``findWay`` / ``next``: its cases 5 6 7 0 1 2 3 4, as (dx, dy)
# with x the column: (-2,-1) (-1,-2) (+1,-2) (+2,-1) (+2,+1) (+1,+2) (-1,+2) (-2,+1),
# which is the lesson's seed order.
JAVA_MOVES = SEED_MOVES

# 001 (Python): ``offsetX = [-1,1,-1,1,-2,-2,2,2]``, ``offsetY = [-2,-2,2,2,-1,1,-1,1]``,
# x the row (``chessBoard[x][y]`` is printed x per line).
PYTHON_MOVES: tuple[tuple[int, int], ...] = tuple(
    zip((-1, 1, -1, 1, -2, -2, 2, 2), (-2, -2, 2, 2, -1, 1, -1, 1), strict=True)
)

# 003 (C): ``next()``'s cases 0..7 on ``chess[x][y]``, x the row (printed x per line):
# (x-1, y+2) (x+1, y+2) (x+2, y+1) (x+2, y-1) (x+1, y-2) (x-1, y-2) (x-2, y-1) (x-2, y+1).
C_MOVES: tuple[tuple[int, int], ...] = (
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
)


@dataclass(frozen=True)
class Rule:
    moves: tuple[tuple[int, int], ...]
    sort: str | None  # "static" | "onward" | None
    lands_on_start: bool = False
    keeps_root: bool = False


RULES: dict[str, Rule] = {
    "a000-java": Rule(JAVA_MOVES, "static"),
    "a000-java-fixed": Rule(JAVA_MOVES, "onward"),
    "a001-python": Rule(PYTHON_MOVES, None, lands_on_start=True),
    "a001-python-fixed": Rule(PYTHON_MOVES, "onward"),
    "a002-java": Rule(JAVA_MOVES, "static"),
    "a002-java-fixed": Rule(JAVA_MOVES, "onward"),
    # traverse, the loop-based traverse_chess and the explicit-stack version walk
    # the same tree in the same order: one rule, three names.
    "a003-c": Rule(C_MOVES, None, keeps_root=True),
    "a003-c-loop": Rule(C_MOVES, None),
    "a003-c-stack": Rule(C_MOVES, None, keeps_root=True),
}


def carries_onward(ordering: str) -> bool:
    """Whether ``ordering``'s moves carry their candidates' counts (``Move.onward``): the
    counts its sort orders them by, Warnsdorff's or the Java articles' static degrees."""
    rule = RULES.get(ordering)
    return ordering == "warnsdorff" if rule is None else rule.sort is not None


_CACHE: dict[tuple[Board, tuple[tuple[int, int], ...]], tuple[tuple[int, ...], ...]] = {}


def ordered_neighbours(board: Board, moves: tuple[tuple[int, int], ...]) -> tuple:
    """Each square's on-board, unblocked neighbours in ``moves`` order (cached per board)."""
    if moves == SEED_MOVES:
        return board.neighbours
    key = (board, moves)
    table = _CACHE.get(key)
    if table is None:
        rows, cols = board.rows, board.cols
        blocked = board.blocked
        table = tuple(
            tuple(
                (r + dr) * cols + c + dc
                for dr, dc in moves
                if 0 <= r + dr < rows
                and 0 <= c + dc < cols
                and (r + dr) * cols + c + dc not in blocked
            )
            for r in range(rows)
            for c in range(cols)
        )
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = table
    return table
