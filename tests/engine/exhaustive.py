"""A simple exact exhaustive search, used as ground truth in the tests.

It shares no code with ``server.engine``.  Depth-first search over bitmasks of
the unvisited squares, moving to the square with the fewest onward moves first
(Warnsdorff), so tours are found quickly; "no tour" is proved by trying every
move, cut short only by checks that are provably safe:

* a memo of failed (unvisited set, square) states (the future does not depend
  on the order the visited squares were taken in);
* colour count: moves alternate colours, so the unvisited squares must split
  evenly (checked once, every move keeps it);
* every unvisited square must keep enough free neighbours: two in a closed
  tour (counting the square we stand on and the start, which is the last
  square's way home), and in an open tour all but one square (the end) keep
  two counting the square we stand on;
* the unvisited squares must stay reachable from where we stand.

A closed tour of 1x1 does not exist here: it would need a move from the
square back to itself.  Meant for boards of up to about 36 squares; the
slowest are "no tour" proofs from the inner squares of 4xn (about 0.1 s per
start on 4x7, 0.6 s on 4x9), a global argument no local check sees.
"""

from __future__ import annotations

import functools
import itertools

MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class _Board:
    """Neighbour bitmasks and a flood fill for one rows x cols board."""

    def __init__(self, rows, cols):
        self.rows, self.cols, self.size = rows, cols, rows * cols
        self.full = (1 << self.size) - 1
        self.nbm = []
        for r in range(rows):
            for c in range(cols):
                mask = 0
                for dr, dc in MOVES:
                    if 0 <= r + dr < rows and 0 <= c + dc < cols:
                        mask |= 1 << ((r + dr) * cols + c + dc)
                self.nbm.append(mask)
        # (shift, mask of source squares whose column stays on the board)
        self.shifts = []
        for dr, dc in MOVES:
            colmask = 0
            for c in range(cols):
                if 0 <= c + dc < cols:
                    for r in range(rows):
                        colmask |= 1 << (r * cols + c)
            self.shifts.append((dr * cols + dc, colmask))

    def spread(self, mask):
        """Every square one knight move from some square of ``mask``."""
        out = 0
        for shift, colmask in self.shifts:
            out |= (mask & colmask) << shift if shift > 0 else (mask & colmask) >> -shift
        return out & self.full

    def reaches_all(self, sq, free):
        """True when every square of ``free`` is reachable from ``sq`` through ``free``."""
        seen = self.nbm[sq] & free
        while True:
            more = (seen | self.spread(seen)) & free
            if more == seen:
                return seen == free
            seen = more


def _colour(sq, cols):
    return (sq // cols + sq % cols) & 1


def _valid_path(b, path):
    if not path or len(set(path)) != len(path):
        return False
    if any(not isinstance(sq, int) or not 0 <= sq < b.size for sq in path):
        return False
    return all(b.nbm[a] >> c & 1 for a, c in itertools.pairwise(path))


class _Search:
    """One search from a fixed path prefix; ``count`` mode counts instead of stopping."""

    def __init__(self, b, path, closed, count):
        self.b, self.closed, self.count = b, closed, count
        self.start = path[0]
        self.startbit = 1 << path[0]
        self.memo = {}  # (free, cur) -> count (count mode) or None (failed)

    def ok_root(self, free, cur):
        """Colour count and neighbour supply at the root: False when surely dead."""
        b, cols = self.b, self.b.cols
        if self.closed and b.size % 2:
            return False  # a closed tour alternates colours: it needs an even count
        k = free.bit_count()
        same = sum(1 for sq in _bits(free) if _colour(sq, cols) == _colour(cur, cols))
        if same != k // 2:  # u1 has the other colour, u2 ours, and so on
            return False
        nbm = b.nbm
        if self.closed:
            avail = free | (1 << cur) | self.startbit
            return all((nbm[u] & avail).bit_count() >= 2 for u in _bits(free))
        avail = free | (1 << cur)
        counts = [(nbm[u] & avail).bit_count() for u in _bits(free)]
        return 0 not in counts and counts.count(1) <= 1

    def short_count(self, free, cur):
        """Open tours: unvisited squares with at most one way in, so they must be the end."""
        nbm = self.b.nbm
        avail = free | (1 << cur)
        return sum(1 for u in _bits(free) if (nbm[u] & avail).bit_count() <= 1)

    def after_move(self, free, cur, nxt, short):
        """The new ``short`` count after cur -> nxt, or -1 when the move surely fails.

        ``free`` is before the move.  Only neighbours of ``cur`` lose a way in
        (``cur`` stops being the square we stand on), so only they are checked.
        """
        nbm = self.b.nbm
        after = free & ~(1 << nxt)
        if self.closed:
            if cur == self.start:
                return 0
            if after and not nbm[self.start] & after:
                return -1  # no way back to the start
            avail = free | self.startbit
            bad = any((nbm[u] & avail).bit_count() < 2 for u in _bits(nbm[cur] & after))
            return -1 if bad else 0
        if not nbm[nxt] & free:
            short -= 1  # nxt was a square with a single way in; now it is the end
        for u in _bits(nbm[cur] & after):
            n = (nbm[u] & free).bit_count()
            if n == 0:
                return -1
            if n == 1:
                short += 1
        return -1 if short > 1 else short

    def go(self, free, cur, short):
        """A tuple completing the tour from ``cur`` over ``free`` (or a count), None if none."""
        b = self.b
        if not free:
            done = not self.closed or b.nbm[cur] & self.startbit
            if self.count:
                return 1 if done else 0
            return () if done else None
        key = (free, cur)
        memo = self.memo
        if key in memo:
            return memo[key]
        nbm = b.nbm
        moves = sorted(_bits(nbm[cur] & free), key=lambda v: (nbm[v] & free).bit_count())
        total = 0
        for nxt in moves:
            new_short = self.after_move(free, cur, nxt, short)
            if new_short < 0:
                continue
            after = free & ~(1 << nxt)
            if after and not b.reaches_all(nxt, after):
                continue
            rest = self.go(after, nxt, new_short)
            if self.count:
                total += rest
            elif rest is not None:
                return (nxt, *rest)
        memo[key] = total if self.count else None
        return memo[key]

    def run(self, path):
        b = self.b
        free = b.full
        for sq in path:
            free &= ~(1 << sq)
        cur = path[-1]
        if not self.ok_root(free, cur):
            return 0 if self.count else None
        return self.go(free, cur, 0 if self.closed else self.short_count(free, cur))


def _bits(mask):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def completion(rows, cols, path, closed=False):
    """A list of squares completing ``path`` into a tour, or None if none exists.

    ``path`` is a non-empty list of square ints (row * cols + col); a path that
    is not itself a valid start of a tour (repeats, off-board, non-knight moves)
    has no completion.  The tour returned is ``path + completion``.
    """
    rest = _completion(rows, cols, tuple(path), bool(closed))
    return None if rest is None else list(rest)


@functools.cache
def _completion(rows, cols, path, closed):
    """Cached: the engine tests run once per engine and ask the same questions twice."""
    b = _Board(rows, cols)
    path = list(path)
    if not _valid_path(b, path):
        return None
    return _Search(b, path, closed, count=False).run(path)


def tour_exists(rows, cols, start, closed=False):
    """Whether a tour (open or closed) starting at square ``start`` exists."""
    return completion(rows, cols, [start], closed=closed) is not None


def count_completions(rows, cols, path, closed=False):
    """How many ways ``path`` completes into a tour (directed; each tour counted once)."""
    b = _Board(rows, cols)
    path = list(path)
    if not _valid_path(b, path):
        return 0
    return _Search(b, path, closed, count=True).run(path)
