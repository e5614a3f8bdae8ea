"""An independent tour checker for the tests.

It shares no code with ``server.engine``: it reads a tour as (row, col) pairs
and checks the definition directly, so an engine bug cannot hide behind itself.
"""

from __future__ import annotations

import itertools


def assert_tour(rows, cols, tour, *, closed=False, start=None, blocked=()):
    """Fail with a clear message unless ``tour`` is a knight's tour.

    ``tour`` may hold square ints (row * cols + col) or (row, col) pairs.
    """
    cells = [divmod(t, cols) if isinstance(t, int) else tuple(t) for t in tour]
    blocked = {divmod(b, cols) if isinstance(b, int) else tuple(b) for b in blocked}
    expected = rows * cols - len(blocked)
    assert len(cells) == expected, f"tour has {len(cells)} squares, board needs {expected}"
    assert len(set(cells)) == len(cells), "tour repeats a square"
    for r, c in cells:
        assert 0 <= r < rows and 0 <= c < cols, f"({r},{c}) is off the {rows}x{cols} board"
        assert (r, c) not in blocked, f"({r},{c}) is blocked"
    if start is not None:
        start = divmod(start, cols) if isinstance(start, int) else tuple(start)
        assert cells[0] == start, f"tour starts at {cells[0]}, not {start}"
    pairs = list(itertools.pairwise(cells))
    if closed:
        pairs.append((cells[-1], cells[0]))
    for (r1, c1), (r2, c2) in pairs:
        assert sorted((abs(r1 - r2), abs(c1 - c2))) == [1, 2], (
            f"({r1},{c1}) -> ({r2},{c2}) is not a knight move"
        )
