"""Depth-first search for knight's tours: a stream of events to watch, or a fast solve.

One iterative search (an explicit stack, so no recursion limit) in two shapes:

* :func:`search_events` yields every step (:class:`Move`, :class:`Backtrack`) and
  ends with exactly one :class:`Found`, :class:`Exhausted` or :class:`Budget`; the
  web layer animates it and the tests replay it.
* :func:`solve` gives the same answer, node and backtrack counts without paying
  for events: the plain lesson search runs in a separate tight loop (lazy
  ``filterfalse`` iterators over precomputed neighbour tuples, a list for the
  visited flags because CPython 3.11 specialises list stores and not bytearray
  ones); other settings run the event loop with its events switched off.
  Measured with ``benchmarks/bench_search.py`` (CPython 3.11, CPU time on a
  shared 2-core machine, plain search 6x6 from a corner): the tight loop enters
  about 4 M nodes/s; the stream delivers about 2.5 M events/s (two per node:
  a Move and, sooner or later, its Backtrack), so watching a search costs about
  3x the time of solving it.  The event loop without events (Warnsdorff,
  pruning) runs at about 1 M nodes/s.

Nodes.  A node is one square entered by the search, the root included: the first
node is the start (or the last square of ``prefix``), as in the articles, whose
recursive function is called once per node.  With that count the plain search in
the articles' order enters 177,048 nodes for the first 6x6 tour from the top-left
corner and 251,825,408 for the first 8x8 one, the figures in the lesson notes.
Every node is one Move event and every square left again is one Backtrack event,
so ``nodes == number of Move events`` and ``backtracks == number of Backtrack
events``; the final event carries both counts.

Orderings (``ORDERINGS``):

``seed``
    The articles' plain backtracking: neighbours in their fixed move order.
``warnsdorff``
    Fewest onward moves first (onward = unvisited neighbours of the candidate).
    Ties keep the articles' order: a stable sort, as the articles' Java
    ``List.sort`` is.  (The Java articles count a candidate's on-board squares,
    visited or not; we count unvisited ones, which is Warnsdorff's rule.)

``a000-java`` ... ``a003-c-stack`` (``server/engine/articles.py``)
    The articles' programs, as written and corrected (:mod:`.article_orders`):
    open tours only, no pruning, no blocked squares (BoardError).  Both engines
    run them: the compiled core takes each rule from :data:`RULES` (its move
    order as a neighbour table, its sort, its last-move and root quirks), so
    that table stays their one definition; ``_walk`` is the reference.  The Python
    article as written (``a001-python``) never stops (``self.found`` is never
    set); the stream ends at its first success: Found when that is a tour; when
    its last move landed on the start, that Move (the start again, depth
    ``size - 1``) and then :class:`~.events.Declared` with the path it claims.

Closed tours (the last square a knight move from the start) always keep one
neighbour of the start unvisited until the last move; that rule is exact (the
last square is such a neighbour) and stops the closed search from wandering.

Pruning (``PRUNINGS``, off unless asked for; see :mod:`server.engine.pruning`) only
cuts positions that cannot be completed, so it never changes the tour found
(orderings depend only on the visited squares) and never adds nodes.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import filterfalse

from . import native
from .article_orders import RULES, Rule, ordered_neighbours
from .board import Board, BoardError
from .events import Backtrack, Budget, Declared, Event, Exhausted, Found, Move
from .pruning import colour_balanced, connectivity_tables, reaches_all, ways_ok

__all__ = [
    "BASE_ORDERINGS",
    "ORDERINGS",
    "PRUNINGS",
    "Resume",
    "SearchResult",
    "search_events",
    "solve",
    "summarize",
]

# Every option (closed tours, pruning) and both engines: the lesson's own orderings.
BASE_ORDERINGS = ("seed", "warnsdorff")
# The articles' programs follow (server/engine/articles.py): open and unpruned.
ORDERINGS = (*BASE_ORDERINGS, *RULES)
PRUNINGS = ("dead-ends", "parity", "connectivity")

# The time limit is read once per this many nodes (a clock read costs ~50 ns,
# a node ~250 ns); the event loop, whose nodes cost more, reads it more often.
CHECK_EVERY_FAST = 1024
CHECK_EVERY_EVENTS = 256
_NEVER = 1 << 62


@dataclass(frozen=True)
class Resume:
    """Where to pick a search up again: the state after some prefix of its events.

    ``path`` is the search's path at that moment (the prefix's squares included),
    ``after`` the square the last event backtracked from (the top square's next
    candidate follows it), or None when the last event was a move.  ``nodes`` and
    ``backtracks`` are the counts so far.  The search is deterministic, so picking
    it up from here yields exactly the events the uninterrupted search would have
    yielded next: a long demo is checkpointed by these few ints, not by its events.
    """

    path: tuple[int, ...]
    after: int | None
    nodes: int
    backtracks: int


@dataclass
class SearchResult:
    status: str  # "found" | "exhausted" | "budget" | "declared" (a001-python's false tour)
    tour: list[int] | None
    nodes: int
    backtracks: int
    seconds: float
    limit: str | None = None  # "nodes" | "time" when status == "budget"


# -- input ------------------------------------------------------------------------


def _check(
    board: Board,
    start: int,
    ordering: str,
    pruning: Collection[str],
    node_budget: int | None,
    time_limit: float | None,
    prefix: Sequence[int],
    closed: bool = False,
) -> tuple[list[int], frozenset[str]]:
    """The validated path to search from and the set of prunings; BoardError otherwise."""
    if ordering not in ORDERINGS:
        raise BoardError(f"unknown ordering {ordering!r}; choose one of {', '.join(ORDERINGS)}")
    names = frozenset([pruning] if isinstance(pruning, str) else pruning)
    unknown = sorted(str(name) for name in names - set(PRUNINGS))
    if unknown:
        raise BoardError(f"unknown pruning {unknown[0]!r}; choose from {', '.join(PRUNINGS)}")
    if ordering in RULES:
        # The articles' programs search open tours on a plain board, unpruned.
        if closed:
            raise BoardError(f"the article ordering {ordering!r} has no closed search")
        if names:
            raise BoardError(f"the article ordering {ordering!r} has no pruning")
        if board.blocked:
            raise BoardError(f"the article ordering {ordering!r} has no blocked squares")
    if node_budget is not None:
        if isinstance(node_budget, bool) or not isinstance(node_budget, int):
            raise BoardError(f"the node budget must be an integer, got {node_budget!r}")
        if node_budget < 0:
            raise BoardError(f"the node budget must not be negative, got {node_budget}")
    if time_limit is not None and not time_limit >= 0:
        raise BoardError(f"the time limit must not be negative, got {time_limit}")
    board.row_col(start)  # on the board, an int
    if start in board.blocked:
        raise BoardError(f"the start square {board.name(start)} is blocked")
    path = list(prefix) or [start]
    if path[0] != start:
        raise BoardError(f"the prefix starts at {path[0]!r}, not at the start square {start}")
    nbrs = board.neighbours
    for i, sq in enumerate(path):
        board.row_col(sq)
        if sq in board.blocked:
            raise BoardError(f"the prefix steps on the blocked square {board.name(sq)}")
        if i and sq not in nbrs[path[i - 1]]:
            raise BoardError(f"the prefix jumps from {path[i - 1]} to {sq}, not a knight move")
    if len(set(path)) != len(path):
        raise BoardError("the prefix visits a square twice")
    return path, names


class _Limits:
    """Node budget and deadline, consulted only every few nodes."""

    __slots__ = ("budget", "deadline", "every")

    def __init__(self, node_budget: int | None, time_limit: float | None, every: int) -> None:
        self.budget = node_budget
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.every = every

    def check(self, nodes: int) -> tuple[str | None, int]:
        """(the limit reached or None, the node count at which to check again)."""
        budget = self.budget
        if budget is not None and nodes >= budget:
            return "nodes", 0
        if self.deadline is None:
            return None, _NEVER if budget is None else budget
        if time.perf_counter() >= self.deadline:
            return "time", 0
        again = nodes + self.every
        return None, again if budget is None or again < budget else budget


# -- the fast path -----------------------------------------------------------------


def _seed_fast(
    board: Board,
    path: list[int],
    closed: bool,
    node_budget: int | None,
    time_limit: float | None,
    nbrs: tuple | None = None,
) -> tuple[str, list[int] | None, int, int, str | None]:
    """The plain search without events or pruning: (status, tour, nodes, backtracks, limit).

    ``nbrs`` replaces the seed move order (the C article's ``next()`` order).
    Each stack entry is the lazy iterator over the unvisited neighbours of one
    square; it reads ``visited`` when advanced, which is correct because all the
    squares entered below it have been left again by then.
    """
    nbrs = board.neighbours if nbrs is None else nbrs
    size = board.size
    start = path[0]
    base = len(path)
    visited = [0] * board.area
    for sq in path:
        visited[sq] = 1
    get = visited.__getitem__
    snbrs = nbrs[start]
    nsn = len(snbrs) - 1
    adjs = [0] * board.area  # in a closed search: neighbours of the start
    if closed:
        for v in snbrs:
            adjs[v] = 1
    limits = _Limits(node_budget, time_limit, CHECK_EVERY_FAST)
    limit, check_at = limits.check(0)
    if limit:
        return "budget", None, 0, 0, limit
    nodes = 1  # the root
    if closed and base < size and all(map(get, snbrs)):
        return "exhausted", None, 1, 1, None  # no way home is left
    path = list(path)
    push = path.append
    pop = path.pop
    stack: list[Iterator[int]] = []
    spush = stack.append
    spop = stack.pop
    top = filterfalse(get, nbrs[path[-1]])
    while True:
        for nxt in top:
            if adjs[nxt] and len(path) + 1 < size and sum(map(get, snbrs)) >= nsn:
                continue  # the start's last free neighbour must wait for the last move
            if nodes >= check_at:
                limit, check_at = limits.check(nodes)
                if limit:
                    return "budget", None, nodes, nodes - (len(path) - base + 1), limit
            visited[nxt] = 1
            push(nxt)
            spush(top)
            top = filterfalse(get, nbrs[nxt])
            nodes += 1
            break
        else:
            if len(path) == size and (not closed or path[-1] in snbrs):
                return "found", path, nodes, nodes - (size - base + 1), None
            if not stack:
                return "exhausted", None, nodes, nodes, None
            visited[pop()] = 0
            top = spop()


# -- the event loop ----------------------------------------------------------------


def _walk(
    board: Board,
    path: list[int],
    closed: bool,
    ordering: str,
    prunes: frozenset[str],
    node_budget: int | None,
    time_limit: float | None,
    emit: bool,
    resume: Resume | None = None,
) -> Iterator[Event]:
    """The search with every option; yields only the final event unless ``emit``.

    With ``resume`` it picks the search up where that state left it (see
    :class:`Resume`): the stack is rebuilt by walking down its path, without events.
    An article's ordering brings its program's rule (:mod:`.article_orders`): its move
    order, sort and last-move quirk replace the seed order.
    """
    rule: Rule | None = RULES.get(ordering)
    warnsdorff = ordering == "warnsdorff"
    nbrs = board.neighbours
    deg0 = board.degrees
    static = lands = keeps_root = False
    if rule is not None:
        keeps_root = rule.keeps_root
        nbrs = ordered_neighbours(board, rule.moves)
        warnsdorff = rule.sort == "onward"
        static = rule.sort == "static"
        lands = rule.lands_on_start
    dget = deg0.__getitem__
    size = board.size
    last = size - 1  # depth of the last square
    start = path[0]
    root = path[-1]
    base = len(path) - 1  # depth of the root
    visited = [0] * board.area
    for sq in path:
        visited[sq] = 1
    get = visited.__getitem__
    snbrs = nbrs[start]
    nsn = len(snbrs) - 1
    adjs = [0] * board.area
    if closed:
        for v in snbrs:
            adjs[v] = 1
    dead_ends = "dead-ends" in prunes
    connect = "connectivity" in prunes
    tnew = tuple.__new__  # builds the event tuples without NamedTuple.__new__'s Python frame

    limits = _Limits(node_budget, time_limit, CHECK_EVERY_EVENTS)
    limit, check_at = limits.check(0)
    if limit:
        yield Budget(limit, 0, 0)
        return
    if resume is not None and not resume.path:  # the root was left: the search is over
        yield Exhausted(resume.nodes, resume.backtracks)
        return
    if lands and resume is not None and _declared(resume.path, resume.after):
        yield Declared(tuple(resume.path), resume.nodes, resume.backtracks)
        return
    nodes = 1
    if emit and resume is None:
        yield tnew(Move, (root, base, (), None))

    # The root: complete already, or provably dead?
    short = 0  # open tours with dead-ends: unvisited squares with one way in
    free = 0  # connectivity: bitmask of the unvisited squares
    masks: list[int] = []
    shifts: list[tuple[int, int]] = []
    if base == last:
        alive = not closed or adjs[root] == 1
        if alive:
            yield Found(tuple(path), 1, 0)
            return
    else:
        alive = not (closed and all(map(get, snbrs)))
        if alive and "parity" in prunes:
            alive = colour_balanced(board, visited, root, closed)
        if alive and dead_ends:
            short = ways_ok(board, visited, root, start, closed)
            alive = short >= 0
        if alive and connect:
            masks, shifts, full = connectivity_tables(board)
            free = full
            for sq in path:
                free &= ~(1 << sq)
            alive = reaches_all(masks[root] & free, free, shifts)
    if not alive:
        if emit:
            yield tnew(Backtrack, (root, base))
        yield Exhausted(1, 1)
        return

    def open_ways(cur: int, nxt: int, short: int) -> int:
        """Short-square count after cur -> nxt, or -1 when a square is cut off."""
        for u in nbrs[cur]:
            if not visited[u] and u != nxt:
                ways = deg0[u] - sum(map(get, nbrs[u]))  # nxt, still unvisited, counts
                if ways <= 1:
                    if ways == 0:
                        return -1
                    short += 1
        return -1 if short > 1 else short

    def closed_ways(cur: int, nxt: int) -> bool:
        """After cur -> nxt, do cur's unvisited neighbours keep two ways (start included)?"""
        for u in nbrs[cur]:
            if not visited[u] and u != nxt and deg0[u] - sum(map(get, nbrs[u])) + adjs[u] < 2:
                return False
        return True

    backtracks = 0
    cur = root
    depth = base
    stack: list[tuple] = []
    spush = stack.append
    spop = stack.pop
    scratch = [0] * board.area  # onward counts, valid for the squares just ordered
    sget = scratch.__getitem__
    cands: tuple[int, ...] = tuple(filterfalse(get, nbrs[cur]))
    onward: tuple[int, ...] | None = None
    if lands and depth == last - 1:  # the start is a candidate for the last move
        cands = tuple(c for c in nbrs[cur] if c == start or not visited[c])
    if warnsdorff:
        for c in cands:
            scratch[c] = deg0[c] - sum(map(get, nbrs[c]))
        cands = tuple(sorted(cands, key=sget))  # stable: ties keep the articles' order
        onward = tuple(map(sget, cands))
    elif static:  # the Java articles' sort: every on-board move counts, visited or not
        cands = tuple(sorted(cands, key=dget))
        onward = tuple(map(dget, cands))
    it = iter(cands)
    if resume is not None:
        # Walk down the resumed path as the loop below would have moved, so every frame
        # holds what it held then: its candidates, its iterator just past the square
        # it moved to, and the pruning state (short squares, free mask).
        for nxt in resume.path[base + 1 :]:
            if nxt not in it:  # advances the iterator just past nxt
                raise BoardError(f"the resumed path does not follow the search at {nxt}")
            nd = depth + 1
            nshort = short
            nfree = free
            if nd < last:
                if dead_ends and not closed:
                    nshort = open_ways(cur, nxt, short)
                if connect:
                    nfree = free & ~(1 << nxt)
            visited[nxt] = 1
            spush((cur, cands, it, onward, short, free))
            cur = nxt
            depth = nd
            short = nshort
            free = nfree
            cands = tuple(filterfalse(get, nbrs[cur]))
            if lands and depth == last - 1:
                cands = tuple(c for c in nbrs[cur] if c == start or not visited[c])
            if warnsdorff:
                for c in cands:
                    scratch[c] = deg0[c] - sum(map(get, nbrs[c]))
                cands = tuple(sorted(cands, key=sget))
                onward = tuple(map(sget, cands))
            elif static:
                cands = tuple(sorted(cands, key=dget))
                onward = tuple(map(dget, cands))
            it = iter(cands)
        if resume.after is not None and resume.after not in it:
            raise BoardError(f"the resumed square {resume.after} is not a candidate of {cur}")
        nodes, backtracks = resume.nodes, resume.backtracks
        # The limits are read before the next move, where the uninterrupted search
        # reads them: the backtracks (or the Found) it yields first come first here too.
        check_at = nodes
        if depth == last and resume.after is None and (not closed or adjs[cur]):
            yield Found(tuple(resume.path), nodes, backtracks)
            return
    while True:
        for nxt in it:
            nd = depth + 1
            nshort = short
            nfree = free
            if nd < last:
                if closed and adjs[nxt] and sum(map(get, snbrs)) >= nsn:
                    continue  # the start's last free neighbour must wait for the last move
                if dead_ends:
                    if sum(map(get, nbrs[nxt])) == deg0[nxt]:
                        continue  # no way on from nxt, and squares remain
                    if closed:
                        if cur != start and not closed_ways(cur, nxt):
                            continue
                    else:
                        nshort = open_ways(cur, nxt, short)
                        if nshort < 0:
                            continue
                if connect:
                    nfree = free & ~(1 << nxt)
                    if not reaches_all(masks[nxt] & nfree, nfree, shifts):
                        continue
            if nodes >= check_at:
                limit, check_at = limits.check(nodes)
                if limit:
                    yield Budget(limit, nodes, backtracks)
                    return
            nodes += 1
            visited[nxt] = 1
            spush((cur, cands, it, onward, short, free))
            if emit:
                yield tnew(Move, (nxt, nd, cands, onward))
            if lands and nxt == start:  # a001-python's last move landed on the start
                claimed = (*path[:base], *[frame[0] for frame in stack], nxt)
                yield Declared(claimed, nodes, backtracks)
                return
            cur = nxt
            depth = nd
            short = nshort
            free = nfree
            if nd == last and (not closed or adjs[nxt]):
                tour = (*path[:base], *[frame[0] for frame in stack], nxt)
                yield Found(tour, nodes, backtracks)
                return
            cands = tuple(filterfalse(get, nbrs[cur]))
            if lands and depth == last - 1:
                cands = tuple(c for c in nbrs[cur] if c == start or not visited[c])
            if warnsdorff:
                for c in cands:
                    scratch[c] = deg0[c] - sum(map(get, nbrs[c]))
                cands = tuple(sorted(cands, key=sget))
                onward = tuple(map(sget, cands))
            elif static:
                cands = tuple(sorted(cands, key=dget))
                onward = tuple(map(dget, cands))
            it = iter(cands)
            break
        else:
            if keeps_root and not stack:  # the C article's traverse never clears its start
                yield Exhausted(nodes, backtracks)
                return
            backtracks += 1
            if emit:
                yield tnew(Backtrack, (cur, depth))
            visited[cur] = 0
            if not stack:
                yield Exhausted(nodes, backtracks)
                return
            cur, cands, it, onward, short, free = spop()
            depth -= 1


# -- public API --------------------------------------------------------------------


def search_events(
    board: Board,
    start: int,
    *,
    closed: bool = False,
    ordering: str = "seed",
    pruning: Collection[str] = (),
    node_budget: int | None = None,
    time_limit: float | None = None,
    prefix: Sequence[int] = (),
    resume: Resume | None = None,
) -> Iterator[Event]:
    """Every step of the search, to animate or replay it; the last event ends it.

    ``resume`` picks the search up from a state it passed through (:class:`Resume`):
    the events are those that followed that state, the root move is not repeated.

    Replaying: start from ``prefix[:-1]`` (or an empty path), append on Move, pop
    on Backtrack; on Found the path equals the tour.  Input is checked here, at
    the call.  The time limit runs on the wall clock from the first event
    requested, so a consumer that pauses between events uses it up: animations
    should bound the search with ``node_budget``.
    """
    path, prunes = _check(board, start, ordering, pruning, node_budget, time_limit, prefix, closed)
    if resume is not None:
        _check_resume(board, path, resume, ordering)
    core = native.core()
    if core is not None:
        return _compiled(
            core, board, path, closed, ordering, prunes, node_budget, time_limit, resume
        )
    return _walk(board, path, closed, ordering, prunes, node_budget, time_limit, True, resume)


def _declared(steps: Sequence[int], after: int | None) -> bool:
    """Whether a resumed state is a001-python's false tour: its last move onto the start."""
    return after is None and len(steps) > 1 and steps[-1] == steps[0]


def _check_resume(board: Board, path: list[int], resume: Resume, ordering: str) -> None:
    """The resumed path extends the search's own and is a knight's path; BoardError if not."""
    steps = resume.path
    if not steps:  # after the root's own backtrack: only the end is left
        return
    rule = RULES.get(ordering)
    if rule is not None and rule.lands_on_start and _declared(steps, resume.after):
        steps = steps[:-1]  # the start entered again by the last move: checked below
        if len(steps) != board.size - 1 or steps[0] not in board.neighbours[steps[-1]]:
            raise BoardError("the resumed path lands on the start before the last move")
    if tuple(steps[: len(path)]) != tuple(path):
        raise BoardError("the resumed path does not start with the search's path")
    nbrs = board.neighbours
    for i in range(len(path), len(steps)):
        if steps[i] not in nbrs[steps[i - 1]]:
            raise BoardError(f"the resumed path jumps from {steps[i - 1]} to {steps[i]}")
    if len(set(steps)) != len(steps):
        raise BoardError("the resumed path visits a square twice")
    if resume.nodes < 1 or resume.backtracks < 0:
        raise BoardError("the resumed counts are out of range")


def solve(
    board: Board,
    start: int,
    *,
    closed: bool = False,
    ordering: str = "seed",
    pruning: Collection[str] = (),
    node_budget: int | None = None,
    time_limit: float | None = None,
    prefix: Sequence[int] = (),
) -> SearchResult:
    """The search's outcome without its events: same tour and counts as the stream."""
    path, prunes = _check(board, start, ordering, pruning, node_budget, time_limit, prefix, closed)
    began = time.perf_counter()
    core = native.core()
    rule = RULES.get(ordering)
    # The article's own order without a sort or quirk (the C article) is the seed
    # search's loop on another neighbour table.
    plain_rule = rule is not None and rule.sort is None and not rule.lands_on_start
    if core is not None:
        if (ordering == "seed" and not prunes) or plain_rule:
            status, tour, nodes, backtracks, limit = core.solve_seed(
                native.tables(board, rule.moves if rule else None),
                path,
                closed,
                _budget(node_budget),
                _seconds(time_limit),
            )
            if status == "exhausted" and rule is not None and rule.keeps_root:
                backtracks -= 1  # the stream's: its start is never left
        else:
            search = _compiled(core, board, path, closed, ordering, prunes, node_budget, time_limit)
            result = _result(search.finish())
            status, tour, nodes, backtracks, limit = (
                result.status, result.tour, result.nodes, result.backtracks, result.limit
            )  # fmt: skip
        return SearchResult(status, tour, nodes, backtracks, time.perf_counter() - began, limit)
    if ordering == "seed" and not prunes:
        status, tour, nodes, backtracks, limit = _seed_fast(
            board, path, closed, node_budget, time_limit
        )
        return SearchResult(status, tour, nodes, backtracks, time.perf_counter() - began, limit)
    if plain_rule:
        status, tour, nodes, backtracks, limit = _seed_fast(
            board, path, closed, node_budget, time_limit, ordered_neighbours(board, rule.moves)
        )
        if status == "exhausted" and rule.keeps_root:
            backtracks -= 1  # the stream's: its start is never left
        return SearchResult(status, tour, nodes, backtracks, time.perf_counter() - began, limit)
    events = _walk(board, path, closed, ordering, prunes, node_budget, time_limit, False)
    result = _result(next(events))
    result.seconds = time.perf_counter() - began
    return result


# -- the compiled core ----------------------------------------------------------------


def _budget(node_budget: int | None) -> int:
    return -1 if node_budget is None else min(node_budget, _NEVER)


def _seconds(time_limit: float | None) -> float:
    return -1.0 if time_limit is None else float(time_limit)


def _compiled(
    core,
    board: Board,
    path: list[int],
    closed: bool,
    ordering: str,
    prunes: frozenset[str],
    node_budget: int | None,
    time_limit: float | None,
    resume: Resume | None = None,
    track: tuple | None = None,
):
    """The core's search over validated input: an iterator of the same events as _walk.

    ``track`` (the walker's state) makes it keep a Walker's path, heat and chart too.
    An article's rule goes in as its move order's neighbour table and (sort,
    lands_on_start, keeps_root).
    """
    rule = RULES.get(ordering)
    resumed = None
    if resume is not None:
        after = -1 if resume.after is None else resume.after
        resumed = (tuple(resume.path), after, resume.nodes, resume.backtracks)
    return core.Search(
        native.tables(board, None if rule is None else rule.moves),
        path,
        closed,
        ordering == "warnsdorff",
        "dead-ends" in prunes,
        "parity" in prunes,
        "connectivity" in prunes,
        _budget(node_budget),
        _seconds(time_limit),
        resumed,
        track,
        None if rule is None else (rule.sort, rule.lands_on_start, rule.keeps_root),
    )


def tracked_search(
    board: Board,
    start: int,
    *,
    closed: bool,
    ordering: str,
    pruning: Collection[str],
    node_budget: int | None,
    resume: Resume | None,
    track: tuple,
):
    """The core's search that also keeps a Walker's state (None on the Python engine)."""
    core = native.core()
    if core is None:
        return None
    path, prunes = _check(board, start, ordering, pruning, node_budget, None, (), closed)
    if resume is not None:
        _check_resume(board, path, resume, ordering)
    return _compiled(core, board, path, closed, ordering, prunes, node_budget, None, resume, track)


def summarize(events: Iterable[Event]) -> SearchResult:
    """Consume a stream from :func:`search_events` into the result :func:`solve` gives."""
    began = time.perf_counter()
    final = None
    for final in events:  # noqa: B007 - only the last event matters
        pass
    if final is None or final.kind in ("move", "backtrack"):
        raise BoardError("the event stream ended without a final event")
    result = _result(final)
    result.seconds = time.perf_counter() - began
    return result


def _result(final: Event) -> SearchResult:
    if isinstance(final, Found):
        return SearchResult("found", list(final.tour), final.nodes, final.backtracks, 0.0)
    if isinstance(final, Exhausted):
        return SearchResult("exhausted", None, final.nodes, final.backtracks, 0.0)
    if isinstance(final, Budget):
        return SearchResult("budget", None, final.nodes, final.backtracks, 0.0, final.limit)
    if isinstance(final, Declared):
        return SearchResult("declared", None, final.nodes, final.backtracks, 0.0)
    raise BoardError(f"not a final event: {final!r}")
