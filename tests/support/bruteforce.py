"""An exhaustive tour search that shares nothing with server.engine: the truth the editor's
verdicts are checked against (tests/engine/test_verdict.py, tests/web/test_verdict_api.py)."""

from __future__ import annotations

import functools

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def brute_force(rows, cols, holes, closed, start):
    """Whether a tour exists: plain DFS over every start and move, memo of failed states.

    Shares nothing with server.engine; meant for up to about 16 open squares.
    """
    open_sq = [s for s in range(rows * cols) if s not in holes]
    index = {s: i for i, s in enumerate(open_sq)}
    nbrs = []
    for s in open_sq:
        r, c = divmod(s, cols)
        mask = 0
        for dr, dc in KNIGHT:
            t = (r + dr) * cols + (c + dc)
            if 0 <= r + dr < rows and 0 <= c + dc < cols and t in index:
                mask |= 1 << index[t]
        nbrs.append(mask)
    full = (1 << len(open_sq)) - 1

    @functools.cache
    def go(seen, cur, first):
        if seen == full:
            return not closed or bool(nbrs[cur] >> first & 1)
        free = nbrs[cur] & ~seen
        while free:
            low = free & -free
            nxt = low.bit_length() - 1
            if go(seen | low, nxt, first):
                return True
            free ^= low
        return False

    if closed and len(open_sq) < 3:
        return False
    starts = [index[start]] if start is not None else range(len(open_sq))
    return any(go(1 << i, i, i) for i in starts)
