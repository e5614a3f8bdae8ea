"""Closed tours of big boards (both sides >= 5) from small structured blocks.

The board is cut into blocks of 5..13 rows and columns.  Every block gets a
closed tour found once by search (cached) that contains four fixed "join"
edges, one per side::

    right  (0, w-1)-(2, w-2)        left (1, 1)-(3, 0)
    bottom (h-1, 0)-(h-2, 2)        top  (1, 1)-(0, 3)

A block's right edge and its right neighbour's left edge are knight moves
apart end to end ((0, w-1)~(1, 1) and (2, w-2)~(3, 0) across the seam), so
swapping the two edges for the two cross moves merges the two cycles into one
(the same holds for bottom/top).  Merging along a spanning "comb" of the block
grid (the first block column is the spine, each block row hangs off it) gives
one cycle through the whole board.  The cycle is written out directly in
order: each block's cycle is walked from the square where its parent enters,
and a child's walk is spliced in where the walk crosses the join edge.  All
that is per-block work on translated templates (list.extend), so a 1000x1000
board costs a few hundred milliseconds in pure Python.

Odd x odd boards have no closed tour; for an open tour from a majority square
s the block that holds s is odd x odd and uses a cycle of the block minus s
(the other blocks have an even side).  The result is a cycle through every
square but s; the tour is s, then a neighbour of s, then around the cycle.
"""

from __future__ import annotations

from functools import lru_cache

from .construct_search import grid_rank, hamiltonian, knight_graph

# Join edges per side, as ((r, c), (r, c)) with negative numbers counted from
# the far side (h - k or w - k).  The first vertex of a child side (L, T) is
# the partner of the first vertex of the parent side (R, B).
_SIDES = ("R", "L", "B", "T")


def _join_edge(h: int, w: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    if side == "R":
        return (0, w - 1), (2, w - 2)
    if side == "L":
        return (1, 1), (3, 0)
    if side == "B":
        return (h - 1, 0), (h - 2, 2)
    return (1, 1), (0, 3)


def _join_squares(h: int, w: int, sides: frozenset[str]) -> set[int]:
    return {r * w + c for side in sides for r, c in _join_edge(h, w, side)}


@lru_cache(maxsize=8192)
def block_cycle(h: int, w: int, hole: int | None, sides: frozenset[str]) -> tuple[int, ...] | None:
    """A closed tour of an h x w block (minus ``hole``) holding the join edges of ``sides``.

    Squares are local ``r * w + c``.  None when the search gives up (the
    callers then try another cut of the board).
    """
    if hole is not None and hole in _join_squares(h, w, sides):
        return None
    holes = [] if hole is None else [hole]
    required = [
        (a[0] * w + a[1], b[0] * w + b[1]) for a, b in (_join_edge(h, w, s) for s in sorted(sides))
    ]
    start = 0 if hole != 0 else 2
    cycle = hamiltonian(
        knight_graph(h, w, holes),
        start,
        closed=True,
        required=required,
        skip=holes,
        rank=grid_rank(h, w),
        budget=200_000,
    )
    return None if cycle is None else tuple(cycle)


# ---------------------------------------------------------------------------
# cutting the board


def split_even(length: int) -> list[int]:
    """Cut an even length >= 6 into even parts of 6..12 (as few as possible)."""
    k = -(-length // 12)
    units = length // 2
    base, extra = divmod(units, k)
    return [2 * (base + 1)] * extra + [2 * base] * (k - extra)


def split_any(length: int) -> list[int]:
    """Cut a length >= 5 into parts of 5..12 with at most one odd part."""
    if length % 2 == 0:
        return split_even(length)
    if length <= 11:
        return [length]
    return [*split_even(length - 7), 7]


def odd_cuts(length: int, pos: int) -> list[list[int]]:
    """Cuts of an odd length >= 5 whose single odd part (5..13) holds ``pos``.

    The odd part starts at an even offset, so its corner has the board's
    corner colour; the cuts come best first (odd part centred on ``pos``).
    """
    found = []
    for k in (7, 9, 5, 11, 13):
        if k > length:
            continue
        for off in range(0, length - k + 1, 2):
            right = length - off - k
            if not off <= pos < off + k or off in (2, 4) or right in (2, 4):
                continue
            parts = ([*split_even(off)] if off else []) + [k] + (split_even(right) if right else [])
            found.append((abs(2 * (pos - off) - (k - 1)), k != 7, parts))
    found.sort()
    return [parts for *_, parts in found]


# ---------------------------------------------------------------------------
# walking the comb


def _sides_of(i: int, j: int, nrows: int, ncols: int) -> tuple[str | None, tuple[str, ...]]:
    """Parent side and child sides of block (i, j) in the comb."""
    parent = "L" if j > 0 else ("T" if i > 0 else None)
    children = []
    if j == 0 and i < nrows - 1:
        children.append("B")
    if j < ncols - 1:
        children.append("R")
    return parent, tuple(children)


_PARTNER = {"R": "L", "B": "T"}


@lru_cache(maxsize=4096)
def _plan(
    h: int,
    w: int,
    hole: int | None,
    sides: frozenset[str],
    parent: str | None,
    entry: int,
    children: tuple[str, ...],
    width: int,
) -> tuple:
    """How to walk one block: pieces of squares (as r * width + c) and child splices.

    ``entry`` is 0 or 1: which square of the parent join edge the walk enters
    by.  Returns a tuple of items, each either a tuple of squares or a pair
    (child side, child entry).
    """
    cycle = block_cycle(h, w, hole, sides)
    if cycle is None:  # pragma: no cover - the callers only plan blocks that exist
        raise RuntimeError(f"no structured {h}x{w} block")
    n = len(cycle)
    pos = {v: k for k, v in enumerate(cycle)}
    edges = {s: tuple(r * w + c for r, c in _join_edge(h, w, s)) for s in _SIDES}
    if parent is None:
        # Start anywhere that is not inside a join edge, so that no child edge wraps.
        used = {frozenset(edges[s]) for s in children}
        k = next(k for k in range(n) if frozenset((cycle[k - 1], cycle[k])) not in used)
        order = cycle[k:] + cycle[:k]
    else:
        first, other = edges[parent][entry], edges[parent][1 - entry]
        k = pos[first]
        step = -1 if cycle[(k + 1) % n] == other else 1
        order = tuple(cycle[(k + step * t) % n] for t in range(n))
    where = {v: t for t, v in enumerate(order)}
    cuts = []
    for side in children:
        a, b = edges[side]
        ta, tb = where[a], where[b]
        cuts.append((min(ta, tb), side, 0 if ta < tb else 1))
    cuts.sort()
    items: list = []
    last = 0
    for t, side, child_entry in cuts:
        items.append(tuple(order[last : t + 1]))
        items.append((_PARTNER[side], child_entry))
        last = t + 1
    items.append(tuple(order[last:]))
    out = []
    for item in items:
        if isinstance(item[0], str):
            out.append(item)
        else:
            out.append(tuple((v // w) * width + v % w for v in item))
    return tuple(out)


def comb_cycle(
    rows: int, cols: int, rparts: list[int], cparts: list[int], hole: int | None = None
) -> list[int]:
    """The merged cycle of every block (minus ``hole``), as board squares in order."""
    nrows, ncols = len(rparts), len(cparts)
    roff = [0]
    for p in rparts:
        roff.append(roff[-1] + p)
    coff = [0]
    for p in cparts:
        coff.append(coff[-1] + p)
    all_sides = frozenset(_SIDES)
    hole_block = None
    if hole is not None:
        hr, hc = divmod(hole, cols)
        hi = next(i for i in range(nrows) if roff[i] <= hr < roff[i + 1])
        hj = next(j for j in range(ncols) if coff[j] <= hc < coff[j + 1])
        hole_block = (hi, hj)
        hole_local = (hr - roff[hi]) * cparts[hj] + hc - coff[hj]
    out: list[int] = []
    extend = out.extend
    stack: list = [(0, 0, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        if len(item) == 2:
            extend(map(item[1].__add__, item[0]))
            continue
        i, j, entry = item
        parent, children = _sides_of(i, j, nrows, ncols)
        if (i, j) == hole_block:
            sides = frozenset(s for s in (parent, *children) if s)
            key_hole = hole_local
        else:
            sides, key_hole = all_sides, None
        items = _plan(rparts[i], cparts[j], key_hole, sides, parent, entry, children, cols)
        off = roff[i] * cols + coff[j]
        for it in reversed(items):
            if isinstance(it[0], str):
                push((i + 1, j, it[1]) if it[0] == "T" else (i, j + 1, it[1]))
            else:
                push((it, off))
    return out


def hole_sides(rparts: list[int], cparts: list[int], hi: int, hj: int) -> frozenset[str]:
    parent, children = _sides_of(hi, hj, len(rparts), len(cparts))
    return frozenset(s for s in (parent, *children) if s)


def closed_cycle(rows: int, cols: int) -> list[int]:
    """A closed tour of a rows x cols board, both sides >= 5, not both odd."""
    if rows % 2 == 0:
        rparts, cparts = split_even(rows), split_any(cols)
    else:
        rparts, cparts = split_any(rows), split_even(cols)
    return comb_cycle(rows, cols, rparts, cparts)


def hole_cycle(rows: int, cols: int, hole: int) -> list[int] | None:
    """A cycle through every square but ``hole`` (majority colour), both sides odd >= 5."""
    hr, hc = divmod(hole, cols)
    for rparts in odd_cuts(rows, hr):
        for cparts in odd_cuts(cols, hc):
            hi = rparts.index(next(p for p in rparts if p % 2))
            hj = cparts.index(next(p for p in cparts if p % 2))
            h, w = rparts[hi], cparts[hj]
            local = (hr - sum(rparts[:hi])) * w + hc - sum(cparts[:hj])
            if block_cycle(h, w, local, hole_sides(rparts, cparts, hi, hj)) is not None:
                return comb_cycle(rows, cols, rparts, cparts, hole)
    return None
