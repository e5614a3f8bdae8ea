"""Tours of thin boards (3 or 4 rows, any length) from chained lane blocks.

A thin board is cut into column blocks.  Neighbouring blocks are linked by a
fixed set of knight moves across the seam ("crossings"), and each block holds
a few paths ("lanes") that run between its crossings: a chain of blocks with
two lanes is a corridor out and back, a turn block at the end closes it.  One
window block holds the start square; its path is found by search for that
start, with the corridors to its left and right standing in as single virtual
detours.  Everything else is a small template found once by search and cached.

3 rows: two lanes everywhere.  A closed tour is turn + corridor + turn; an
open tour (odd length, majority start) is corridor, window, corridor.

4 rows: outer squares only touch inner ones and both colours are outer, so a
tour makes exactly one inner-to-inner move and splits into two passes that
each take the outer squares of one colour.  Each side of the start is then
visited by both passes: the right side is a two-lane corridor whose far turn
holds the inner-to-inner move, the left side has three lanes (out, back, and
the second pass that ends at the far left).
"""

from __future__ import annotations

from functools import lru_cache

from .construct_search import grid_rank, hamiltonian, knight_graph

# Crossings as ((row, col counted back from the seam), (row, col after it)):
# col -1 is the last column of the left block, 0 the first of the right one.
# Chosen by trying every set of disjoint crossings: these give corridor and
# turn blocks in the widths below and a window for every start (4 rows: the
# lane colours must balance, see the module docstring).
CROSS2 = {
    3: (((1, -2), (2, 0)), ((2, -1), (1, 1))),
    4: (((1, -1), (3, 0)), ((2, -1), (0, 0))),
}
CROSS3 = (((0, -1), (1, 1)), ((1, -1), (3, 0)), ((2, -1), (0, 0)))

Segment = tuple[object, object, tuple[int, ...]]


def _left_squares(w: int, cross) -> list[int]:
    """A block's squares on its left seam's crossings (local r * w + c)."""
    return [r * w + c for _, (r, c) in cross]


def _right_squares(w: int, cross) -> list[int]:
    return [r * w + w + c for (r, c), _ in cross]


def _cover(
    h: int,
    w: int,
    start: int | None,
    end: int | None,
    connectors: list[tuple[str, list[int]]],
    sides: dict[str, list[int]],
    *,
    start_side: str | None = None,
    start_label: object = "S",
    end_side: str | None = None,
    accept_lanes=None,
    inner_moves: bool = False,
    budget: int = 300_000,
) -> tuple[Segment, ...] | None:
    """Lanes covering an h x w block, found as one Hamiltonian path.

    Each connector is a virtual vertex joined to some crossing squares of one
    side: the path passes through it between two lanes.  ``start=None`` starts
    at a virtual vertex joined to the crossings of ``start_side``.  Lane ends
    are labelled ("L", i) / ("R", i) for crossings, ``start_label`` for a real
    start and "E" for a free end (a crossing of ``end_side`` if given).
    """
    n = h * w
    adj = [list(a) for a in knight_graph(h, w)]
    if h == 4 and not inner_moves:
        # the one inner-to-inner move of a 4xn tour lives in the right turn block
        adj = [[b for b in a if not (0 < v // w < 3 and 0 < b // w < 3)] for v, a in enumerate(adj)]
    virtual_side = {}
    for side, squares in connectors:
        v = len(adj)
        virtual_side[v] = side
        adj.append(list(squares))
        for q in squares:
            adj[q].append(v)
    if start is None:
        v = len(adj)
        virtual_side[v] = start_side
        adj.append(list(sides[start_side]))
        for q in sides[start_side]:
            adj[q].append(v)
        start = v
    rank = grid_rank(h, w) + [0.0] * (len(adj) - n)

    def label(q: int, neighbour: int | None, default: object) -> object:
        if neighbour is not None and neighbour >= n:
            side = virtual_side[neighbour]
            return (side, sides[side].index(q))
        return default

    def split(path: list[int]) -> list[Segment] | None:
        segs: list[Segment] = []
        cur: list[int] = []
        before: int | None = None
        for v in path:
            if v >= n:
                if cur:
                    first = label(cur[0], before, start_label)
                    segs.append((first, label(cur[-1], v, "?"), tuple(cur)))
                cur, before = [], v
            else:
                cur.append(v)
        if not cur:
            return None  # the path may not end on a virtual vertex
        last = end_label
        if end_side is not None:
            if cur[-1] not in sides[end_side]:
                return None
            last = (end_side, sides[end_side].index(cur[-1]))
        segs.append((label(cur[0], before, start_label), last, tuple(cur)))
        return segs

    end_label: object = "E"
    if end is not None:
        end_label = next((s, sq.index(end)) for s, sq in sides.items() if end in sq)

    def accept(path: list[int]) -> bool:
        segs = split(path)
        if segs is None:
            return False
        ends = [x for a, b, _ in segs for x in (a, b)]
        if len(set(ends)) < len(ends):  # a one-square lane would use a crossing twice
            return False
        return accept_lanes is None or accept_lanes(segs)

    path = hamiltonian(
        adj,
        start,
        end=end,
        rank=rank,
        budget=budget,
        accept=accept,
    )
    if path is None:
        return None
    segs = split(path)
    assert segs is not None
    return tuple(segs)


def _through(segs: list[Segment]) -> bool:
    return all({a[0], b[0]} == {"L", "R"} for a, b, _ in segs)


@lru_cache(maxsize=256)
def lane_block(h: int, w: int, kind: str) -> tuple[Segment, ...] | None:
    """Template lanes for a corridor ("D2", "D3") or turn ("TL2", "TR2", "TL3") block."""
    cross = CROSS3 if kind.endswith("3") else CROSS2[h]
    sides = {"L": _left_squares(w, cross), "R": _right_squares(w, cross)}
    if len(set(sides["L"] + sides["R"])) < 2 * len(cross):
        return None
    left0, right0 = ("L", 0), ("R", 0)
    if kind == "D2":
        return _cover(
            h, w, sides["L"][0], sides["L"][1], [("R", sides["R"])], sides, start_label=left0
        )
    if kind == "TL2":
        return _cover(h, w, sides["R"][0], sides["R"][1], [], sides, start_label=right0)
    if kind == "TR2":
        return _cover(
            h, w, sides["L"][0], sides["L"][1], [], sides, start_label=left0, inner_moves=True
        )
    if kind == "D3":
        return _cover(
            h,
            w,
            sides["L"][0],
            None,
            [("R", sides["R"]), ("L", sides["L"])],
            sides,
            start_label=left0,
            end_side="R",
            accept_lanes=_through,
        )
    if kind == "TL3":
        return _cover(h, w, None, None, [("R", sides["R"])], sides, start_side="R", budget=300_000)
    raise ValueError(kind)


# Widths of the corridor and turn blocks that exist (checked by the tests).
_D2_W = {3: 4, 4: 4}
_TURN_W = {3: (7, 9), 4: tuple(range(5, 10))}
_D3_W = 4
_TL3_W = (4, 5, 6)


def _corridor_right(h: int, width: int) -> list[tuple[int, str]] | None:
    """Blocks (width, kind) for a corridor of ``width`` columns closed at its right end."""
    d = _D2_W[h]
    for t in _TURN_W[h]:
        if width >= t and (width - t) % d == 0:
            return [(d, "D2")] * ((width - t) // d) + [(t, "TR2")]
    return None


def _corridor_left(h: int, width: int) -> list[tuple[int, str]] | None:
    """Blocks for the left corridor: two lanes (3 rows) or three (4 rows)."""
    if h == 3:
        d = _D2_W[3]
        for t in _TURN_W[3]:
            if width >= t and (width - t) % d == 0:
                return [(t, "TL2")] + [(d, "D2")] * ((width - t) // d)
        return None
    for t in _TL3_W:
        rest = width - t
        for first in (0, 6):  # D3 blocks exist in even widths only
            if rest >= first and (rest - first) % _D3_W == 0:
                head = [(t, "TL3")] + ([(first, "D3")] if first else [])
                return head + [(_D3_W, "D3")] * ((rest - first) // _D3_W)
    return None


def _block_segments(h: int, w: int, kind: str) -> tuple[Segment, ...]:
    segs = lane_block(h, w, kind)
    if segs is None:  # pragma: no cover - the widths above all exist
        raise RuntimeError(f"no {kind} block of {h}x{w}")
    return segs


def _left_ends(blocks: list[tuple[int, str]]) -> tuple[tuple[int, int], int]:
    """For a 3-lane left corridor: the U-turn crossing pair and the end lane at its right seam."""
    width, kind = blocks[0]
    segs = _block_segments(4, width, kind)
    # lanes of the turn block: a U between two right crossings, one lane to the end
    pair: list[int] = []
    end_lane = -1
    for a, b, _ in segs:
        if b == "E":
            end_lane = a[1]
        else:
            pair = [a[1], b[1]]
    for width, kind in blocks[1:]:
        perm = {}
        for a, b, _ in _block_segments(4, width, kind):
            (sa, ia), (_, ib) = a, b
            if sa == "L":
                perm[ia] = ib
            else:
                perm[ib] = ia
        pair = [perm[pair[0]], perm[pair[1]]]
        end_lane = perm[end_lane]
    return (pair[0], pair[1]), end_lane


@lru_cache(maxsize=4096)
def window_block(
    h: int, w: int, s: int, has_left: bool, left_pair: tuple[int, int] | None, end_lane: int | None
) -> tuple[Segment, ...] | None:
    """The window's lanes: from ``s``, detouring through the left and right corridors."""
    right = CROSS2[h]
    left = CROSS3 if h == 4 else CROSS2[3]
    sides = {"L": _left_squares(w, left), "R": _right_squares(w, right)}
    squares = sides["R"] + (sides["L"] if has_left else [])
    if len(set(squares)) < len(squares):
        return None
    connectors = [("R", sides["R"])]
    end = None
    if has_left:
        if h == 3:
            connectors.append(("L", sides["L"]))
        else:
            assert left_pair is not None and end_lane is not None
            connectors.append(("L", [sides["L"][i] for i in left_pair]))
            end = sides["L"][end_lane]
            if end == s:
                return None
    return _cover(h, w, s, end, connectors, sides, budget=200_000)


def _assemble(h: int, n: int, blocks: list[tuple[int, int, tuple[Segment, ...]]]) -> list[int]:
    """Follow the lanes from the "S" end through the blocks into one path."""
    index = []
    for _, _, segs in blocks:
        ends = {}
        for k, (a, b, _) in enumerate(segs):
            ends[a] = (k, 0)
            ends[b] = (k, 1)
        index.append(ends)
    bi = next(i for i, ends in enumerate(index) if "S" in ends)
    k, at = index[bi]["S"]
    tour: list[int] = []
    while True:
        col0, w, segs = blocks[bi]
        a, b, sq = segs[k]
        seq = sq if at == 0 else sq[::-1]
        tour.extend((v // w) * n + col0 + v % w for v in seq)
        other = b if at == 0 else a
        if other == "E":
            break
        side, i = other
        bi += 1 if side == "R" else -1
        k, at = index[bi][("L" if side == "R" else "R", i)]
    if len(tour) != h * n:  # pragma: no cover - a design error, not a user error
        raise RuntimeError(f"thin assembly covered {len(tour)} of {h * n} squares")
    return tour


def _layout(h: int, n: int, parts: list[tuple[int, str]]) -> list[tuple[int, int, tuple]]:
    out = []
    col = 0
    for width, kind in parts:
        out.append((col, width, _block_segments(h, width, kind)))
        col += width
    return out


def closed_3xn(n: int) -> list[int] | None:
    """A closed tour of 3 x n for even n >= 14: turn, corridor, turn."""
    for t in _TURN_W[3]:
        rest = _corridor_right(3, n - t)
        if rest is None:
            continue
        blocks = _layout(3, n, [(t, "TL2"), *rest])
        # Start the walk in the left turn; the empty lane catches the way back.
        (a, b, sq), *_ = blocks[0][2]
        blocks[0] = (0, t, (("S", b, sq), (a, "E", ())))
        return _assemble(3, n, blocks)
    return None


def _mirror(h: int, n: int, tour: list[int], hflip: bool, vflip: bool) -> list[int]:
    if not (hflip or vflip):
        return tour
    out = []
    for v in tour:
        r, c = divmod(v, n)
        if hflip:
            c = n - 1 - c
        if vflip:
            r = h - 1 - r
        out.append(r * n + c)
    return out


def open_thin(h: int, n: int, start: int) -> list[int] | None:
    """An open tour of h x n (h = 3 or 4) from ``start``, or None when no layout works."""
    r0, c0 = divmod(start, n)
    for hflip in (c0 > (n - 1) // 2, c0 <= (n - 1) // 2):
        for vflip in (False, True):
            r = h - 1 - r0 if vflip else r0
            c = n - 1 - c0 if hflip else c0
            tour = _open_thin_layouts(h, n, r, c)
            if tour is not None:
                return _mirror(h, n, tour, hflip, vflip)
    return None


def _open_thin_layouts(h: int, n: int, r: int, c: int) -> list[int] | None:
    for a, ww in _placements(h, n, c):
        right = _corridor_right(h, n - a - ww)
        if right is None:
            continue
        left: list[tuple[int, str]] = []
        pair = end_lane = None
        if a:
            got = _corridor_left(h, a)
            if got is None:
                continue
            left = got
            if h == 4:
                pair, end_lane = _left_ends(left)
        win = window_block(h, ww, r * ww + c - a, bool(a), pair, end_lane)
        if win is None:
            continue
        blocks = _layout(h, n, left) if left else []
        blocks.append((a, ww, win))
        col = a + ww
        for width, kind in right:
            blocks.append((col, width, _block_segments(h, width, kind)))
            col += width
        return _assemble(h, n, blocks)
    return None


def _placements(h: int, n: int, c: int) -> list[tuple[int, int]]:
    """(left corridor width, window width) pairs with column ``c`` in the window, best first."""
    found = []
    for ww in range(3, 13):
        for a in range(max(0, c - ww + 1), c + 1):
            if a + ww > n or (a and a < (7 if h == 3 else 4)):
                continue
            found.append((ww > 8, a != 0, abs(2 * (c - a) - ww + 1), ww, a))
    found.sort()
    return [(a, ww) for *_, ww, a in found]
