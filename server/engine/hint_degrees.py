"""A counting test that proves hard positions dead: can every square get its two tour edges?

In a finished tour every unvisited square has two tour neighbours (one in,
one out), the knight's square one (its way on), the end one.  Knight moves
alternate colours, so choosing those edges is a bipartite degree-constrained
subgraph problem, i.e. a max-flow: if even this relaxation (which forgets that
the edges must form one path) has no solution, no tour exists.  It settles
positions on which plain backtracking needs millions of nodes, e.g. a corner
that must be the end while the squares around it need more edges than their
neighbours can give.

Squares are bit indices of the hint grid; ``nbm`` their neighbour bitmasks.
"""

from __future__ import annotations

from .bits import bits

END = -1  # a virtual square joined to every square that could end an open tour


def degrees_feasible(
    nbm: list[int], colour: list[int], free: int, cur: int, start: int, closed: bool
) -> bool:
    """False when no choice of edges gives every square the degree a tour needs.

    ``free`` holds the unvisited squares, ``cur`` the knight's square; in a
    closed tour the last square must also reach ``start``.
    """
    if not free:
        return True
    here = 1 << cur
    need: dict[int, int] = {p: 2 for p in bits(free)}
    need[cur] = 1
    nodes = free | here
    adj: dict[int, list[int]] = {}
    end_colour = 0
    if closed and start != cur:
        need[start] = 1
        nodes |= 1 << start
        for p in bits(nodes):
            m = nbm[p] & nodes
            if p == cur:
                m &= ~(1 << start)
            elif p == start:
                m &= ~here
            adj[p] = bits(m)
    else:
        if closed:
            need[cur] = 2  # the path is the start alone: it needs a way out and back
        for p in bits(nodes):
            adj[p] = bits(nbm[p] & nodes)
        if not closed:
            k = free.bit_count()
            end_colour = colour[cur] if k % 2 == 0 else 1 - colour[cur]
            ends = [p for p in need if p != cur and colour[p] == end_colour]
            need[END] = 1
            adj[END] = ends
            for p in ends:
                adj[p] = [*adj[p], END]
    side_a = colour[cur]

    def is_a(p: int) -> bool:
        return colour[p] == side_a if p != END else end_colour != side_a

    a_side = [p for p in need if is_a(p)]
    total_a = sum(need[p] for p in a_side)
    total_b = sum(need.values()) - total_a
    if total_a != total_b:
        return False
    mates: dict[int, set[int]] = {p: set() for p in need}
    left = dict(need)  # how many more edges each square still needs
    for a in a_side:  # greedy start
        for b in adj[a]:
            if not left[a]:
                break
            if left[b]:
                mates[a].add(b)
                mates[b].add(a)
                left[a] -= 1
                left[b] -= 1
    missing = sum(left[a] for a in a_side)
    while missing:
        # one breadth-first search from every square that still needs an edge
        parent: dict[int, int | None] = {a: None for a in a_side if left[a]}
        queue = list(parent)
        found = None
        for x in queue:  # x on side A
            for y in adj[x]:
                if y in parent or y in mates[x]:
                    continue
                parent[y] = x
                if left[y]:
                    found = y
                    break
                for x2 in mates[y]:
                    if x2 not in parent:
                        parent[x2] = y
                        queue.append(x2)
            if found is not None:
                break
        if found is None:
            return False
        y = found
        left[y] -= 1
        while True:
            x = parent[y]
            mates[x].add(y)
            mates[y].add(x)
            prev = parent[x]
            if prev is None:
                left[x] -= 1
                break
            mates[x].discard(prev)
            mates[prev].discard(x)
            y = prev
        missing -= 1
    return True
