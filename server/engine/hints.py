"""Exact hints for a partly played tour: can it still be finished, and how?

A hint is never a guess.  ``completable`` comes with a witness (the rest of a
real tour), ``dead`` with a proof (a named obstacle, or an exhausted search),
and ``unknown`` only when the time budget runs out first.

The search is a depth-first search over bitmask sets of the unvisited squares
(Python ints, on a grid padded by two columns so a knight move is one shift and
needs no edge mask).  What keeps rare positions from taking minutes:

* connectivity: the unvisited squares must stay one piece (checked by a flood
  fill that stops as soon as the new square's neighbours meet again);
* dead ends, counted for all squares at once with a bit-parallel adder:
  open tours allow one square with a single way in (the end), closed tours
  none (the start counts as the last square's way out);
* forced moves: a square with two ways in must use both unless it is the
  end, so a square next to three such squares (four in an open tour with no
  known end, two for the knight's square, the start or a known end) is dead;
* the start must keep a free neighbour until the last move (closed tours);
* a memo of failed (unvisited set, square) states;
* backjumping: when the search backs out of a square, the degree test and
  forced-move propagation look for the earliest move on the path that already
  made the tour impossible, and the search jumps back over everything after it
  (one early slip otherwise costs a retreat through hundreds of squares);
* Warnsdorff ordering (fewest onward moves first, corners before the centre),
  which finds witnesses almost without backtracking.
"""

from __future__ import annotations

import random
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from . import native
from .bits import bits
from .board import Board, BoardError
from .hint_degrees import degrees_feasible
from .hint_forced import forced_contradiction, open_end

# The degree test and forced-move propagation are strong but cost O(squares)
# each.  They always run when the search backs out of a square (_Search.backjump,
# a few calls per retreat, mostly on small sets); before every node only once a
# search has spent this many nodes plus two per square still to visit (a witness
# without backtracking needs one).
FLOW_AFTER = 5000
FORCED_AFTER = 5000
# Restarts: RESTARTS tries with node caps of RESTART_NODES plus two per square,
# each cap a quarter larger than the last, then one uncapped search.  Short and
# many: a fresh tie-break order finishes most hard positions in one descent.
RESTARTS = 16
RESTART_NODES = 100
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True)
class Hint:
    """The answer for one position; ``code`` and ``params`` let the web layer translate."""

    verdict: str  # "completable" | "dead" | "unknown"
    next: int | None
    witness: tuple[int, ...] | None
    reason: str | None  # English one-liner for dead/unknown
    code: str | None = None
    params: dict = field(default_factory=dict)
    nodes: int = 0


class _Timeout(Exception):
    """The time budget ran out in the middle of a search."""


class _Cap(Exception):
    """One restart used up its node allowance; the memo of failures stays valid."""


# -- padded bit layout ---------------------------------------------------------
class _Grid:
    """A board as bitmasks: square (row, col) is bit ``row * (cols + 2) + col``.

    The two padding columns absorb every knight move that leaves the board
    sideways, so "all neighbours of a set" is eight shifts and one AND.
    """

    def __init__(self, board: Board) -> None:
        rows, cols = board.rows, board.cols
        width = cols + 2
        self.width = width
        self.to_bit = [0] * (rows * cols)  # board square -> bit index
        self.to_sq = [-1] * (rows * width)  # bit index -> board square
        valid = 0
        for sq in board.squares():
            r, c = divmod(sq, cols)
            p = r * width + c
            self.to_bit[sq] = p
            self.to_sq[p] = sq
            valid |= 1 << p
        self.valid = valid
        self.offsets = (2 * width + 1, 2 * width - 1, width + 2, width - 2)
        self.nbm = [0] * (rows * width)
        for sq in board.squares():
            m = 0
            for other in board.neighbours[sq]:
                m |= 1 << self.to_bit[other]
            self.nbm[self.to_bit[sq]] = m
        # Warnsdorff tie-break: squares far from the centre first (Roth).
        cr, cc = (rows - 1) / 2, (cols - 1) / 2
        self.rank = [0] * (rows * width)
        for sq in board.squares():
            r, c = divmod(sq, cols)
            self.rank[self.to_bit[sq]] = -int(4 * ((r - cr) ** 2 + (c - cc) ** 2))
        self.colour = [0] * (rows * width)
        for sq in board.squares():
            self.colour[self.to_bit[sq]] = board.colour(sq)

    def spread(self, m: int) -> int:
        """Every square one knight move from some square of ``m`` (masked by the caller)."""
        a, b, c, d = self.offsets
        return (m >> a) | (m >> b) | (m >> c) | (m >> d) | (m << a) | (m << b) | (m << c) | (m << d)

    def counts(self, m: int) -> tuple[int, int, int, int]:
        """Masks of the squares with at least 1, 2, 3 and 4 neighbours in ``m``.

        A bit-parallel adder over the eight shifted copies of ``m``: one pass
        counts the free neighbours of every square at once.
        """
        a, b, c, d = self.offsets
        o = m >> a
        s = m << a
        t = o & s
        o |= s
        s = m >> b
        h = t & s
        t |= o & s
        o |= s
        s = m << b
        f = h & s
        h |= t & s
        t |= o & s
        o |= s
        for s in (m >> c, m << c, m >> d, m << d):
            f |= h & s
            h |= t & s
            t |= o & s
            o |= s
        return o, t, h, f

    def components(self, free: int) -> int:
        """How many pieces ``free`` falls into."""
        parts = 0
        while free:
            seen = frontier = free & -free
            while frontier:
                frontier = self.spread(frontier) & free & ~seen
                seen |= frontier
            free &= ~seen
            parts += 1
        return parts


@lru_cache(maxsize=32)
def _grid(board: Board) -> _Grid:
    return _Grid(board)


# -- the compiled core's copy of a grid ------------------------------------------
class _CoreGrid:
    """The grid as the core reads it: sets as little-endian 64-bit words."""

    def __init__(self, core, grid: _Grid, rows: int, cols: int) -> None:
        self.words = (rows * grid.width + 63) // 64
        size = self.words * 8
        nbm = b"".join(m.to_bytes(size, "little") for m in grid.nbm)
        self.handle = core.hint_grid(rows, cols, nbm, bytes(grid.colour))
        self.rank = grid.rank
        self._ranks: dict[int, bytes] = {}

    def pack(self, squares: int) -> bytes:
        return squares.to_bytes(self.words * 8, "little")

    def ranks(self, restarts: int) -> bytes:
        """The rank tables of _Search.solve's restarts, the base first, as int32."""
        if restarts not in self._ranks:
            rng = random.Random(0)
            tables = array("i", self.rank)
            for _ in range(restarts):
                jitter = [rng.randrange(256) for _ in self.rank]
                tables.extend(r + j for r, j in zip(self.rank, jitter, strict=True))
            self._ranks[restarts] = tables.tobytes()
        return self._ranks[restarts]


@lru_cache(maxsize=32)
def _core_grid(board: Board) -> _CoreGrid | None:
    """None when the board is too wide for the core's fixed-size sets."""
    core = native.core()
    grid = _grid(board)
    if (board.rows * grid.width + 63) // 64 * 64 > core.HINT_MAX_BITS:
        return None
    return _CoreGrid(core, grid, board.rows, board.cols)


def _degrees_ok(board: Board, g: _Grid, free: int, cur: int, start: int, closed: bool) -> bool:
    """degrees_feasible, on the core when it runs."""
    cg = _core_grid(board) if native.core() is not None else None
    if cg is None:
        return degrees_feasible(g.nbm, g.colour, free, cur, start, closed)
    return native.core().hint_degrees(cg.handle, cg.pack(free), cur, start, closed)


def _forced(board: Board, g: _Grid, free: int, cur: int, end: int, closed: bool):
    """forced_contradiction, on the core when it runs."""
    cg = _core_grid(board) if native.core() is not None else None
    if cg is None:
        return forced_contradiction(g.nbm, free, cur, end, closed)
    clash = native.core().hint_forced(cg.handle, cg.pack(free), cur, end, closed)
    return None if clash is None else (clash[0], clash[1])


def _complete(
    board: Board, g: _Grid, free: int, cur: int, start: int, closed: bool, deadline: float
) -> tuple[list[int] | None, int, bool]:
    """(bits completing the path or None, nodes searched, whether time ran out)."""
    cg = _core_grid(board) if native.core() is not None else None
    if cg is None:
        search = _Search(g, start, closed, deadline)
        try:
            return search.solve(free, cur), search.nodes, False
        except _Timeout:
            return None, search.nodes, True
    status, rest, nodes = native.core().hint_complete(
        cg.handle,
        cg.pack(free),
        cur,
        start,
        closed,
        deadline - time.perf_counter(),
        FLOW_AFTER,
        FORCED_AFTER,
        RESTART_NODES,
        RESTARTS,
        cg.ranks(RESTARTS),
    )
    return rest, nodes, status == "timeout"


# -- the search ----------------------------------------------------------------
class _Search:
    """Finish a path from ``cur`` over ``free``; closed tours then step onto ``start``."""

    def __init__(self, grid: _Grid, start: int, closed: bool, deadline: float) -> None:
        self.g = grid
        self.start = start
        self.closed = closed
        self.deadline = deadline
        self.failed: set[int] = set()
        self.nodes = 0
        self.keyshift = len(grid.nbm)
        self.cap = 1 << 62
        self.rank = grid.rank
        self.flow_after = FLOW_AFTER
        self.forced_after = FORCED_AFTER

    def children(self, free: int, cur: int) -> list[int]:
        """The moves from ``cur`` that survive every local check, best first."""
        self.nodes += 1
        if not self.nodes & 63:
            if time.perf_counter() > self.deadline:
                raise _Timeout
            if self.nodes > self.cap:
                raise _Cap
        g = self.g
        nbm = g.nbm
        cand = nbm[cur] & free
        if not cand:
            return []
        if self.closed:
            tbit = 1 << self.start
            ge1, ge2, ge3, _ = g.counts(free | tbit)
            weak = free & ~ge2  # fewer than two ways in: must be entered next
            if weak:
                if weak & (weak - 1):
                    return []
                cand &= weak
            home = nbm[self.start] & free
            if not home:
                return []  # no way back to the start
            if home == free:
                pass  # the last square: anything adjacent to the start
            elif not home & (home - 1):
                cand &= ~home  # keep the start's last free neighbour for the end
            if free & (free - 1) == 0:
                cand &= home
            two = free & ge2 & ~ge3
            end = tbit
        else:
            ge1, ge2, ge3, _ = g.counts(free)
            if free & ~ge1 and free & (free - 1):
                return []  # an unvisited square nobody can reach
            ones = free & ~ge2
            if ones & (ones - 1):
                rest = ones & (ones - 1)
                if rest & (rest - 1):
                    return []  # three squares with one way in
                cand &= ones  # two: we enter one now, the other is the end
            two = free & ge2 & ~ge3
            end = 0
        if not cand:
            return []
        counts = g.counts
        out = []
        rank = self.rank
        for n in bits(cand):
            nb = 1 << n
            rest = free & ~nb
            if not rest:
                out.append((0, n))
                continue
            forced = two & ~nb
            if self.closed:
                if forced:
                    _, f2, f3, _ = counts(forced)
                    if f3 & rest or f2 & (nb | end):
                        continue
            else:
                known = ones & ~nb
                if known:
                    forced |= known
                    if forced:
                        _, f2, f3, _ = counts(forced)
                        if f3 & rest or f2 & (nb | known):
                            continue
                elif forced:
                    _, _, f3, f4 = counts(forced)
                    if f4 & rest or f3 & nb:
                        continue
            deg = (nbm[n] & rest).bit_count()
            out.append((deg * 4096 + rank[n], n))
        out.sort()
        return [n for _, n in out]

    def connected_without(self, rest: int, n: int) -> bool:
        """Whether ``rest`` (a connected set minus ``n``) is still one piece."""
        seeds = self.g.nbm[n] & rest
        if not seeds & (seeds - 1):
            return bool(seeds)
        spread = self.g.spread
        seen = frontier = seeds & -seeds
        while frontier:
            frontier = spread(frontier) & rest & ~seen
            seen |= frontier
            if not seeds & ~seen:
                return True
        return False

    def solve(self, free: int, cur: int) -> list[int] | None:
        """Restarts with shuffled tie-breaks and growing node caps, then one full search.

        Warnsdorff's first choice is nearly always right, but one early slip
        can cost millions of nodes; a fresh tie-break order usually avoids it,
        so the caps start at about one descent and grow slowly.
        Failed states found on the way stay in the memo (they are facts), so
        the final uncapped search is still exhaustive.
        """
        slack = 2 * free.bit_count()  # one descent without backtracking fits
        self.flow_after = FLOW_AFTER and FLOW_AFTER + slack  # 0 stays 0 (the tests)
        self.forced_after = FORCED_AFTER and FORCED_AFTER + slack
        rng = random.Random(0)
        base = self.g.rank
        cap = RESTART_NODES + slack
        for _ in range(RESTARTS):
            self.cap = self.nodes + cap
            try:
                return self.run(free, cur)
            except _Cap:
                pass
            jitter = [rng.randrange(256) for _ in base]
            self.rank = [r + j for r, j in zip(base, jitter, strict=True)]
            cap += cap // 4
        self.cap = 1 << 62
        return self.run(free, cur)

    def run(self, free: int, cur: int) -> list[int] | None:
        """Bits completing the path, or None when provably none exists."""
        shift = self.keyshift
        failed = self.failed
        nbm, colour, start, closed = self.g.nbm, self.g.colour, self.start, self.closed
        first = self.children(free, cur)
        if not first:
            return None
        path: list[int] = []
        stack = [(free, cur, iter(first))]
        while stack:
            free, cur, moves = stack[-1]
            for n in moves:
                rest = free & ~(1 << n)
                if not rest:
                    path.append(n)
                    return path
                key = (rest << shift) | n
                if key in failed or not self.connected_without(rest, n):
                    continue
                if self.nodes > self.flow_after and not degrees_feasible(
                    nbm, colour, rest, n, start, closed
                ):
                    failed.add(key)
                    continue
                if self.nodes > self.forced_after and self.forced_dead(rest, n):
                    failed.add(key)
                    continue
                nxt = self.children(rest, n)
                if not nxt:
                    failed.add(key)
                    continue
                path.append(n)
                stack.append((rest, n, iter(nxt)))
                break
            else:
                stack.pop()
                failed.add((free << shift) | cur)
                if path:
                    path.pop()
                for _ in range(len(stack) - self.backjump(stack)):
                    free, cur, _ = stack.pop()
                    failed.add((free << shift) | cur)
                    path.pop()
        return None

    def forced_dead(self, free: int, cur: int) -> bool:
        """Whether forced-move propagation proves the state dead (when the end is known)."""
        nbm = self.g.nbm
        end = self.start if self.closed else open_end(nbm, free, cur)
        return (
            end is not None
            and end != cur
            and forced_contradiction(nbm, free, cur, end, self.closed) is not None
        )

    def dead(self, free: int, cur: int) -> bool:
        """The degree test, then forced-move propagation: True only with a proof."""
        g = self.g
        if not degrees_feasible(g.nbm, g.colour, free, cur, self.start, self.closed):
            return True
        return self.forced_dead(free, cur)

    def backjump(self, stack: list) -> int:
        """How many frames of ``stack`` to keep after backing out of a square.

        The frames above the first one (the root, which _diagnose checked) whose
        state the tests prove dead go: everything after a fatal move is dead too.
        A state the degree test refutes has only refuted successors (a tour of a
        successor plus the moves that led there would complete the earlier
        state), so when the top survives the tests nothing below it is tried;
        otherwise the search doubles its step up the path and then bisects.
        Forced-move propagation is not monotone like that, so the frame found
        may not be the earliest dead one; it is always a dead one.
        """
        top = len(stack) - 1
        if top < 1 or not self.dead(stack[top][0], stack[top][1]):
            return len(stack)
        lo, hi, step = 1, top, 1  # stack[hi] is dead; the first dead frame is >= lo
        while hi - step >= 1:
            j = hi - step
            if not self.dead(stack[j][0], stack[j][1]):
                lo = j + 1
                break
            hi = j
            step *= 2
        while lo < hi:
            mid = (lo + hi) // 2
            if self.dead(stack[mid][0], stack[mid][1]):
                hi = mid
            else:
                lo = mid + 1
        return hi


# -- root diagnosis ------------------------------------------------------------
def _words(n: int) -> str:
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)


def _dead(code: str, reason: str, searched: int = 0, **params: object) -> Hint:
    return Hint("dead", None, None, reason, code, dict(params), searched)


def _diagnose(board: Board, g: _Grid, free: int, cur: int, start: int, closed: bool) -> Hint | None:
    """A named reason the position is dead, found without searching; None if none."""
    name = lambda p: board.name(g.to_sq[p])  # noqa: E731
    nbm = g.nbm
    here = 1 << cur
    # colour count: moves alternate colours
    k = free.bit_count()
    other = sum(1 for p in bits(free) if g.colour[p] != g.colour[cur])
    bad = other != (k + 1) // 2
    if closed and (k % 2 == 0) != (g.colour[start] != g.colour[cur]):
        bad = True  # the last step onto the start would not change colour
    if bad:
        dark_colour = (board.rows - 1) & 1  # a1 is dark
        dark = sum(1 for p in bits(free) if g.colour[p] == dark_colour)
        return _dead(
            "parity",
            f"the unvisited squares ({k - dark} light, {dark} dark) cannot be covered "
            "by knight moves, which alternate colours",
            light=k - dark,
            dark=dark,
        )
    if not nbm[cur] & free:
        return _dead("stuck", f"stuck: no legal move from {name(cur)}", square=name(cur))
    if closed and not nbm[start] & free:
        return _dead(
            "no-return", f"no move back to the start ({name(start)}) is left", start=name(start)
        )
    avail = free | here
    if closed:
        avail |= 1 << start
    lonely = [p for p in bits(free) if not nbm[p] & (free | here)]
    if lonely:
        return _dead(
            "unreachable", f"{name(lonely[0])} can no longer be reached", square=name(lonely[0])
        )
    single = [p for p in bits(free) if not (nbm[p] & avail) & ((nbm[p] & avail) - 1)]
    if closed and single:
        sq = name(single[0])
        return _dead(
            "dead-end",
            f"{sq} has only one way in, but a closed tour must enter and leave it",
            square=sq,
        )
    if not closed:
        trapped = [p for p in single if nbm[p] & avail == here]
        if trapped and k > 1:
            sq = name(trapped[0])
            return _dead(
                "trap",
                f"{sq} can only be entered from here and has no way on, "
                "but other squares are still unvisited",
                square=sq,
            )
        if len(single) >= 2:
            a, b = name(single[0]), name(single[1])
            return _dead(
                "two-ends",
                f"{a} and {b} both have only one way in: a tour can end at only one of them",
                a=a,
                b=b,
            )
    parts = g.components(free)
    if parts > 1:
        return _dead(
            "split", f"the unvisited squares split into {_words(parts)} parts", parts=parts
        )
    if not _degrees_ok(board, g, free, cur, start, closed):
        return _dead(
            "degrees",
            "the unvisited squares cannot all be given a way in and a way out at once",
        )
    end = start if closed else open_end(nbm, free, cur)
    if end is not None and end != cur:
        clash = _forced(board, g, free, cur, end, closed)
        if clash is not None:
            kind, where = clash
            names = [name(p) for p in where]
            if kind == "loop":
                squares = ", ".join(names)
                return _dead(
                    "loop",
                    f"the forced moves through {squares} close a loop that leaves squares out",
                    squares=squares,
                )
            return _dead(
                "forced",
                f"the forced moves around {names[0]} contradict each other",
                square=names[0],
            )
    return None


# -- public entry point ----------------------------------------------------------
def _check_path(board: Board, path: Sequence[int]) -> list[int]:
    out = []
    seen = set()
    for sq in path:
        if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < board.area:
            raise BoardError(f"path square {sq!r} is off the {board.dims} board")
        if sq in board.blocked:
            raise BoardError(f"path square {board.name(sq)} is blocked")
        if sq in seen:
            raise BoardError(f"the path visits {board.name(sq)} twice")
        if out and not board.is_knight_move(out[-1], sq):
            raise BoardError(f"{board.name(out[-1])} -> {board.name(sq)} is not a knight move")
        seen.add(sq)
        out.append(sq)
    return out


def hint(
    board: Board, path: Sequence[int], *, closed: bool = False, time_limit: float = 1.0
) -> Hint:
    """Whether ``path`` (squares in order, from the start) can still become a tour.

    ``completable`` carries the next move and a witness (the rest of a tour,
    the next move first); in closed mode a full path ending a knight move from
    the start answers ``next`` = the start.  An empty path recommends a start
    (the corner-most square from which a tour exists) with a whole tour as the
    witness.  Raises BoardError for a path that cannot be played.
    """
    began = time.perf_counter()
    deadline = began + time_limit
    path = _check_path(board, path)
    g = _grid(board)
    if not path:
        return _recommend(board, g, closed, deadline, time_limit)
    size = board.size
    start, cur = g.to_bit[path[0]], g.to_bit[path[-1]]
    if len(path) == size:
        if not closed:
            return Hint("completable", None, (), None)
        if g.nbm[cur] >> start & 1:
            return Hint("completable", path[0], (), None)
        return _dead(
            "no-return",
            f"no move back to the start ({board.name(path[0])}) is left",
            start=board.name(path[0]),
        )
    free = g.valid
    for sq in path:
        free &= ~(1 << g.to_bit[sq])
    dead = _diagnose(board, g, free, cur, start, closed)
    if dead is not None:
        return dead
    if time_limit <= 0:
        return _unknown(time_limit, 0)
    rest, nodes, timed_out = _complete(board, g, free, cur, start, closed, deadline)
    if timed_out:
        return _unknown(time_limit, nodes)
    if rest is None:
        return _dead(
            "exhausted",
            f"every way on runs into a dead end ({nodes} positions searched)",
            nodes,
            nodes=nodes,
        )
    witness = tuple(g.to_sq[p] for p in rest)
    return Hint("completable", witness[0], witness, None, nodes=nodes)


def _unknown(time_limit: float, nodes: int) -> Hint:
    return Hint(
        "unknown",
        None,
        None,
        f"no answer within {time_limit:g} s ({nodes} positions searched)",
        "time",
        {"seconds": time_limit, "nodes": nodes},
        nodes,
    )


def start_candidates(board: Board) -> list[int]:
    """Open squares, corner-most first: fewest moves, then nearest a corner, then a1 first."""
    rows, cols = board.rows, board.cols

    def key(sq: int) -> tuple[int, int, int, int]:
        r, c = divmod(sq, cols)
        corner = min(r, rows - 1 - r) + min(c, cols - 1 - c)
        return (board.degrees[sq], corner, rows - 1 - r, c)

    return sorted(board.squares(), key=key)


def _recommend(board: Board, g: _Grid, closed: bool, deadline: float, time_limit: float) -> Hint:
    """Hint for an empty path: the first candidate start that has a tour, with that tour."""
    mode = "closed" if closed else "open"
    if board.size == 0:
        return Hint("completable", None, (), None)
    nodes = 0
    for sq in start_candidates(board):
        remaining = deadline - time.perf_counter()
        if board.size == 1:
            if closed:
                break
            return Hint("completable", sq, (sq,), None)
        found = hint(board, [sq], closed=closed, time_limit=remaining)
        nodes += found.nodes
        if found.verdict == "completable":
            return Hint("completable", sq, (sq, *found.witness), None, nodes=nodes)
        if found.verdict == "unknown":
            return _unknown(time_limit, nodes)
        if closed:
            break  # a closed tour passes every square: one failed start settles it
    return _dead("no-tour", f"this board has no {mode} tour", nodes, mode=mode)
