"""Forced-move propagation: the second test that proves hard positions dead.

A square with exactly as many free neighbours as tour edges it needs (two
inside the tour, one at either end) forces those edges.  A square whose edges
are all forced loses its other edges, which can force more, and an edge that
would close a chain of forced edges into a loop is removed.  A contradiction
(a square left with too few edges, too many forced, a forced loop, or the two
ends joined early) proves that no tour exists.  The degree test in
``hint_degrees`` counts; this one sees loops, so the two complement each other.

Only used when both ends are known: the start in a closed tour, or the one
square with a single way in during an open tour.
"""

from __future__ import annotations

from .bits import bits


def open_end(nbm: list[int], free: int, cur: int) -> int | None:
    """The square an open tour must end on (its only way in), if exactly one is forced."""
    avail = free | (1 << cur)
    ends = [p for p in bits(free) if (nbm[p] & avail).bit_count() <= 1]
    return ends[0] if len(ends) == 1 else None


def forced_contradiction(
    nbm: list[int], free: int, cur: int, end: int, closed: bool
) -> tuple[str, list[int]] | None:
    """``("loop", squares)`` or ``("forced", [square])`` when forced edges clash, else None.

    The tour still to play runs from ``cur`` over ``free`` to ``end``: in a
    closed tour ``end`` is the start (not in ``free``), in an open one a square
    of ``free``.
    """
    nodes = free | (1 << cur)
    if closed:
        nodes |= 1 << end
    order = bits(nodes)
    total = len(order)
    need = dict.fromkeys(order, 2)
    need[cur] = 1
    need[end] = 1
    adj = {p: nbm[p] & nodes for p in order}
    if closed and free:
        adj[cur] &= ~(1 << end)
        adj[end] &= ~(1 << cur)
    forced = dict.fromkeys(order, 0)
    changed = True
    while changed:
        changed = False
        for v in order:
            a = adj[v]
            n = need[v]
            count = a.bit_count()
            if count < n:
                return ("forced", [v])
            fv = forced[v]
            if count == n and a != fv:
                vb = 1 << v
                for u in bits(a & ~fv):
                    forced[u] |= vb
                fv = forced[v] = a
                changed = True
            k = fv.bit_count()
            if k > n:
                return ("forced", [v])
            if k == n and a != fv:
                vb = 1 << v
                for u in bits(a & ~fv):
                    adj[u] &= ~vb
                adj[v] = fv
                changed = True
        # a square forced earlier in the pass may have gained more forced edges
        # since it was checked; the chains below are paths only without those
        for v in order:
            if forced[v].bit_count() > need[v]:
                return ("forced", [v])
        # follow every chain of forced edges from one of its ends
        seen = 0
        for v in order:
            if seen >> v & 1 or forced[v].bit_count() != 1:
                continue
            chain = 1
            prev, x = -1, v
            seen |= 1 << v
            while True:
                step = forced[x] & ~(1 << prev) if prev >= 0 else forced[x]
                if not step:
                    break
                prev, x = x, step.bit_length() - 1
                seen |= 1 << x
                chain += 1
            if chain == total:
                continue
            if need[v] == 1 and need[x] == 1:
                return ("forced", [v])  # the tour's two ends joined with squares left over
            if adj[v] >> x & 1 and not forced[v] >> x & 1:
                adj[v] &= ~(1 << x)  # closing the chain would make a loop
                adj[x] &= ~(1 << v)
                changed = True
        loop = [v for v in order if forced[v] and not seen >> v & 1]
        if loop:
            first = loop[0]
            cycle = [first]
            prev, x = -1, first
            while True:
                step = forced[x] & ~(1 << prev) if prev >= 0 else forced[x]
                nxt = (step & -step).bit_length() - 1
                if nxt == first:
                    break
                prev, x = x, nxt
                cycle.append(x)
            return ("loop", cycle)
    return None
