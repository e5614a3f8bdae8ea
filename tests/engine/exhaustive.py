"""A deliberately simple exhaustive search, used as ground truth in the tests.

Plain DFS over bitmasks, with only a memo of failed (visited, square) states:
exact and independent of the engine's pruning.  Meant for boards of up to
about 30 squares.
"""

from __future__ import annotations

from functools import lru_cache


def _neighbours(rows, cols):
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(
                tuple(
                    (r + dr) * cols + (c + dc)
                    for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
                    if 0 <= r + dr < rows and 0 <= c + dc < cols
                )
            )
    return out


def completion(rows, cols, path, *, closed=False):
    """A list of squares completing ``path`` into a tour, or None if none exists.

    ``path`` is a non-empty list of square ints (row * cols + col).
    """
    nb = _neighbours(rows, cols)
    full = (1 << (rows * cols)) - 1
    start = path[0]
    visited = 0
    for sq in path:
        visited |= 1 << sq

    @lru_cache(maxsize=None)
    def go(mask, sq):
        if mask == full:
            return () if (not closed or start in nb[sq] or len(path) == 1 == rows * cols) else None
        for nxt in nb[sq]:
            if not mask >> nxt & 1:
                rest = go(mask | 1 << nxt, nxt)
                if rest is not None:
                    return (nxt, *rest)
        return None

    rest = go(visited, path[-1])
    go.cache_clear()
    return None if rest is None else list(rest)


def tour_exists(rows, cols, start, *, closed=False):
    return completion(rows, cols, [start], closed=closed) is not None
