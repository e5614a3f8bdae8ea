"""Provably safe cuts for the tour search: each one only discards positions with no tour.

The depth-first search in :mod:`server.engine.search` switches them on per run so a
demo can show what each one saves.  The checks that run on every move are inlined
in the search loop (they must be cheap); this module holds the whole-position
checks the search runs once at its root, and the tables the connectivity check
needs.  The reasoning, for a position "path so far ending on ``cur``, unvisited
squares ``U``":

``parity``
    Knight moves alternate colours, so the rest of an open tour visits ``U`` as
    other colour, our colour, other colour...: ``U`` must hold exactly
    ``len(U) // 2`` squares of ``cur``'s colour.  A closed tour also needs an even
    number of squares.  Every move keeps the balance, so checking the root once
    is enough.
``dead-ends``
    Every square of ``U`` is entered once and left once, except the last square
    of an open tour, which is only entered.  Counting the ways in and out of a
    square ``u`` (its unvisited neighbours, plus ``cur``, plus the start in a
    closed tour, whose last square steps home): an open tour needs every ``u``
    to keep at least one and at most one ``u`` to have only one; a closed tour
    needs every ``u`` to keep two.  A move ``cur -> nxt`` only changes the count
    of ``cur``'s neighbours (``nxt`` takes over as the square we stand on), so
    the search checks just those, and it refuses to step onto a square with no
    way on before the last move.
``connectivity``
    Every square of ``U`` must be reachable from ``cur`` through ``U``; a flood
    fill over bitmasks after each move.
"""

from __future__ import annotations

from .board import Board

__all__ = ["colour_balanced", "connectivity_tables", "reaches_all", "ways_ok"]


def colour_balanced(board: Board, visited: list[int], cur: int, closed: bool) -> bool:
    """False when the colour count rules out every tour from this position."""
    if closed and board.size % 2:
        return False
    cols = board.cols
    mine = (cur // cols + cur % cols) & 1
    left = same = 0
    for sq in board.squares():
        if not visited[sq]:
            left += 1
            same += ((sq // cols + sq % cols) & 1) == mine
    return same == left // 2


def ways_ok(board: Board, visited: list[int], cur: int, start: int, closed: bool) -> int:
    """The number of short squares (open tours) or -1 when the dead-end rule fails.

    A short square is an unvisited one with a single way in; in an open tour it
    can only be the last square.  Closed tours have no short squares (they need
    two ways everywhere), so the answer is 0 or -1.
    """
    nbrs = board.neighbours
    cur_nbrs = set(nbrs[cur])
    start_nbrs = set(nbrs[start]) if closed else set()
    left = [sq for sq in board.squares() if not visited[sq]]
    if closed and len(left) < 2 and cur == start:
        return 0  # a 2-square closed tour uses the start both ways; the search decides
    short = 0
    for u in left:
        ways = sum(1 for v in nbrs[u] if not visited[v])
        ways += (u in cur_nbrs) + (u in start_nbrs and start != cur)
        if closed:
            if ways < 2:
                return -1
        elif ways == 0:
            return -1
        elif ways == 1:
            short += 1
    if short > 1:
        return -1
    return short


def connectivity_tables(board: Board) -> tuple[list[int], list[tuple[int, int]], int]:
    """Neighbour bitmasks, (shift, source mask) pairs for one knight step, and all-ones."""
    rows, cols = board.rows, board.cols
    full = 0
    for sq in board.squares():
        full |= 1 << sq
    masks = []
    for sq in range(board.area):
        mask = 0
        for v in board.neighbours[sq]:
            mask |= 1 << v
        masks.append(mask)
    shifts = []
    for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        colmask = 0
        for c in range(cols):
            if 0 <= c + dc < cols:
                for r in range(rows):
                    if 0 <= r + dr < rows:
                        colmask |= 1 << (r * cols + c)
        if colmask:
            shifts.append((dr * cols + dc, colmask))
    return masks, shifts, full


def reaches_all(seen: int, free: int, shifts: list[tuple[int, int]]) -> bool:
    """True when flooding from ``seen`` (a subset of ``free``) through ``free`` covers it."""
    while True:
        more = seen
        for shift, colmask in shifts:
            if shift > 0:
                more |= (seen & colmask) << shift
            else:
                more |= (seen & colmask) >> -shift
        more &= free
        if more == seen:
            return seen == free
        seen = more
