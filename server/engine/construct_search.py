"""A small exact Hamiltonian path/cycle search for the constructions.

The constructions assemble big boards from small pieces: base blocks with
prescribed edges, windows around a start square, whole small boards.  Each
piece is one search on a graph of at most a few hundred vertices, run once and
cached, so this favours being exact and simple over being fast: Warnsdorff
ordering finds most answers without backtracking, and the pruning (free
neighbours, connectivity, a memo of failed states) keeps the rare dead ends
short.  Not a public API: the teaching searches live elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class _Budget(Exception):
    """The node budget ran out."""


def knight_graph(rows: int, cols: int, holes: Iterable[int] = ()) -> list[list[int]]:
    """Adjacency lists of the knight graph of a rows x cols grid minus holes."""
    holes = set(holes)
    adj: list[list[int]] = [[] for _ in range(rows * cols)]
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if v in holes:
                continue
            for dr, dc in KNIGHT:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and rr * cols + cc not in holes:
                    adj[v].append(rr * cols + cc)
    return adj


def grid_rank(rows: int, cols: int) -> list[float]:
    """Tie-break for Warnsdorff: squares far from the centre first (Roth)."""
    cr, cc = (rows - 1) / 2, (cols - 1) / 2
    return [-((r - cr) ** 2 + (c - cc) ** 2) for r in range(rows) for c in range(cols)]


def hamiltonian(
    adj: Sequence[Sequence[int]],
    start: int,
    *,
    end: int | None = None,
    closed: bool = False,
    required: Iterable[tuple[int, int]] = (),
    skip: Iterable[int] = (),
    rank: Sequence[float] | None = None,
    budget: int | None = None,
    sparse: Iterable[int] = (),
    accept: Callable[[list[int]], bool] | None = None,
) -> list[int] | None:
    """A Hamiltonian path from ``start`` (or cycle) using every required edge.

    Vertices in ``skip`` are not part of the graph.  Required edges may be
    "virtual" (not in ``adj``): they stand for detours through other pieces.
    ``sparse`` is an independent set (the outer rows of a 4xn board): a path
    never takes two of its vertices in a row, which prunes 4xn searches that
    Warnsdorff alone sends astray for minutes.
    ``accept`` vets each complete path (the search goes on when it says no).
    Returns None when there is none, or when ``budget`` nodes were not enough.
    A cycle is returned as a path from ``start`` whose last vertex is adjacent
    to it.
    """
    n = len(adj)
    skip = set(skip)
    nbrs = [set(a) - skip for a in adj]
    req: list[set[int]] = [set() for _ in range(n + 1)]
    for a, b in required:
        nbrs[a].add(b)
        nbrs[b].add(a)
        req[a].add(b)
        req[b].add(a)
    if closed:
        if end is not None:
            raise ValueError("a cycle has no separate end")
        # Walk the cycle from a vertex without required edges, then rotate:
        # the way home becomes an ordinary last step into a terminal copy.
        real_start = start
        start = next(
            (v for v in [start, *range(n)] if v not in skip and not req[v] and nbrs[v]),
            start,
        )
        term = n
        nbrs.append(set(nbrs[start]))
        for v in nbrs[start]:
            nbrs[v].add(term)
        end = term
        n += 1
    nb = [sorted(s) for s in nbrs]
    rank = list(rank) if rank is not None else [0.0] * n
    while len(rank) < n:
        rank.append(0.0)
    total = n - len(skip)
    visited = bytearray(n)
    for v in skip:
        visited[v] = 1
    path = [start]
    visited[start] = 1
    failed: set[tuple[int, int]] = set()
    nodes = 0
    is_sparse = bytearray(n)
    for v in sparse:
        is_sparse[v] = 1
    sparse_left = sum(1 for v in range(n) if is_sparse[v] and not visited[v])

    def free(x: int) -> int:
        return sum(1 for y in nb[x] if not visited[y])

    def connected(head: int, left: int) -> bool:
        seen = {head}
        stack = [head]
        count = 0
        while stack:
            x = stack.pop()
            for y in nb[x]:
                if not visited[y] and y not in seen:
                    seen.add(y)
                    count += 1
                    stack.append(y)
        return count == left

    def step(v: int, mask: int, left: int) -> bool:
        nonlocal nodes, sparse_left
        if left == 0:
            return (end is None or v == end) and (accept is None or accept(path))
        if v == end:
            return False
        if sparse_left > left - sparse_left + (0 if is_sparse[v] else 1):
            return False
        nodes += 1
        if budget is not None and nodes > budget:
            raise _Budget
        if (mask, v) in failed:
            return False
        forced = [u for u in req[v] if not visited[u]]
        if len(forced) > 1:
            return False
        cands = forced or [u for u in nb[v] if not visited[u]]
        cands.sort(key=lambda u: (free(u), rank[u], u))
        for u in cands:
            if any(visited[w] and w != v for w in req[u]):
                continue
            visited[u] = 1
            ok = True
            ones = 0
            for x in nb[v]:
                if visited[x]:
                    continue
                d = free(x) + (1 if u in nb[x] else 0)
                if d == 0 or (d == 1 and x != end and end is not None):
                    ok = False
                    break
                if d == 1:
                    ones += 1
            if ok and ones > 1:
                ok = False
            if ok and left > 1 and not connected(u, left - 1):
                ok = False
            if ok:
                path.append(u)
                sparse_left -= is_sparse[u]
                if step(u, mask | (1 << u), left - 1):
                    return True
                sparse_left += is_sparse[u]
                path.pop()
            visited[u] = 0
        if accept is None:  # acceptance may depend on the order, not just the set
            failed.add((mask, v))
        return False

    try:
        found = step(start, 1 << start, total - 1)
    except _Budget:
        return None
    if not found:
        return None
    if closed:
        path.pop()  # the terminal copy of the start
        i = path.index(real_start)
        path = path[i:] + path[:i]
    return path
