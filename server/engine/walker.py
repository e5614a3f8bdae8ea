"""A resumable walk through a search's events that keeps what a viewer draws.

A class demo is one search streamed to a whole room, where anyone may land at any
event index: a late joiner, a seek, "jump to the end".  The :class:`Walker` steps
through :func:`~server.engine.search.search_events` (or a construction's moves) and
keeps, after every event, exactly what the browser's player keeps:

* the path (and with it the move numbers on the board),
* the move and backtrack counts and the deepest path so far,
* ``heat``: how often each square was entered (the heat map),
* the depth chart: :class:`DepthChart`, the same columns as the browser's chart.

:meth:`Walker.state` freezes all of it into a :class:`WalkerState` of a few
hundred ints, and a walker made from that state continues with exactly the events
the uninterrupted one would have produced (:class:`~server.engine.search.Resume`).
A long demo is checkpointed by those states, never stored event by event.

Events can be encoded while walking into the protocol's flat int form (a move
``sq, k, c1..ck[, n1..nk]``, a backtrack ``-1 - sq``; ``docs/protocol.md``), or
skipped, which is what a seek costs.  No Flask, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .article_orders import carries_onward
from .board import Board, BoardError
from .construct import construct_tour
from .events import Backtrack, Found, Move
from .search import Resume, search_events, tracked_search

__all__ = ["CHART_COLUMNS", "DepthChart", "Walker", "WalkerState"]

CHART_COLUMNS = 256  # as static/js/lanes/stats.js: DepthChart's default


class DepthChart:
    """Depth over the event index in at most ``capacity`` columns of (min, max).

    The browser's ``DepthChart`` (static/js/lanes/stats.js) step for step: each
    column spans ``span`` consecutive events; when the columns fill up, pairs merge
    and ``span`` doubles, so any run fits and the state stays small.
    """

    __slots__ = ("capacity", "events", "fill", "length", "maxs", "mins", "span")

    def __init__(self, capacity: int = CHART_COLUMNS) -> None:
        self.capacity = capacity
        self.mins = [0] * capacity
        self.maxs = [0] * capacity
        self.span = 1
        self.length = 0  # complete columns
        self.fill = 0  # events in the open column
        self.events = 0

    def push(self, depth: int) -> None:
        i = self.length
        if self.fill == 0:
            self.mins[i] = depth
            self.maxs[i] = depth
        else:
            if depth < self.mins[i]:
                self.mins[i] = depth
            if depth > self.maxs[i]:
                self.maxs[i] = depth
        self.events += 1
        self.fill += 1
        if self.fill == self.span:
            self.fill = 0
            self.length += 1
            if self.length == self.capacity:
                self._halve()

    def _halve(self) -> None:
        mins, maxs = self.mins, self.maxs
        half = self.capacity >> 1
        for j in range(half):
            a, b = 2 * j, 2 * j + 1
            mins[j] = mins[a] if mins[a] < mins[b] else mins[b]
            maxs[j] = maxs[a] if maxs[a] > maxs[b] else maxs[b]
        self.length = half
        self.span *= 2

    def columns(self) -> int:
        """Columns in use: the complete ones and the open one."""
        return self.length + (1 if self.fill else 0)

    def freeze(self) -> tuple:
        n = self.columns()
        return (
            self.span,
            self.length,
            self.fill,
            self.events,
            tuple(self.mins[:n]),
            tuple(self.maxs[:n]),
        )

    @classmethod
    def thaw(cls, frozen: tuple, capacity: int = CHART_COLUMNS) -> DepthChart:
        span, length, fill, events, mins, maxs = frozen
        chart = cls(capacity)
        chart.span, chart.length, chart.fill, chart.events = span, length, fill, events
        chart.mins[: len(mins)] = mins
        chart.maxs[: len(maxs)] = maxs
        return chart


@dataclass(frozen=True)
class WalkerState:
    """Everything a walker holds after ``index`` events (a checkpoint)."""

    index: int
    path: tuple[int, ...]
    after: int | None  # the square the last event backtracked from (None: a move)
    nodes: int  # move events so far, the root's included
    backtracks: int
    max_depth: int
    heat: tuple[int, ...]  # entries per square
    chart: tuple  # DepthChart.freeze()

    @property
    def events(self) -> int:
        return self.index


class Walker:
    """Steps through one demo's events from any state it reached before.

    ``algorithm`` is a search ordering (``seed``, ``warnsdorff`` or an article's, see
    :func:`~server.engine.search.search_events`) or ``construct`` (the construction's
    tour, one move per square).  ``counts``: whether encoded moves carry their
    candidates' onward counts (the protocol does for Warnsdorff).

    On the compiled core a search's walk runs in C, path, heat and chart included
    (about 500 M events for the lesson's 8x8 search take seconds, not minutes);
    :attr:`path`, :attr:`heat` and :attr:`chart` are then read from it as copies.
    """

    def __init__(
        self,
        board: Board,
        start: int,
        *,
        algorithm: str,
        closed: bool = False,
        pruning=(),
        node_budget: int | None = None,
        state: WalkerState | None = None,
    ) -> None:
        self.board = board
        self.start = start
        self.algorithm = algorithm
        self.closed = closed
        self.pruning = tuple(pruning)
        self.node_budget = node_budget
        self.counts = carries_onward(algorithm)
        self._end = None  # the final event (Found / Exhausted / Budget) once reached
        if state is None:
            self._index = 0
            self._path: list[int] = []
            self._after = None
            self._nodes = self._backtracks = self._max_depth = 0
            self._heat = [0] * board.area
            self._chart = DepthChart()
        else:
            if len(state.heat) != board.area:
                raise BoardError("the walker state belongs to another board")
            self._index = state.index
            self._path = list(state.path)
            self._after = state.after
            self._nodes, self._backtracks = state.nodes, state.backtracks
            self._max_depth = state.max_depth
            self._heat = list(state.heat)
            self._chart = DepthChart.thaw(state.chart)
        self._core = None
        if algorithm != "construct":
            self._core = tracked_search(
                board,
                start,
                closed=closed,
                ordering=algorithm,
                pruning=self.pruning,
                node_budget=node_budget,
                resume=self._resume(),
                track=(
                    self._index,
                    self._nodes,
                    self._backtracks,
                    self._max_depth,
                    self._heat,
                    None if state is None else state.chart,
                    CHART_COLUMNS,
                ),
            )
        self._events = None if self._core is not None else self._open()

    def _resume(self) -> Resume | None:
        if not self._index:
            return None
        return Resume(tuple(self._path), self._after, self._nodes, self._backtracks)

    def _open(self) -> Iterator:
        if self.algorithm == "construct":
            return self._construction()
        return search_events(
            self.board,
            self.start,
            closed=self.closed,
            ordering=self.algorithm,
            pruning=self.pruning,
            node_budget=self.node_budget,
            resume=self._resume(),
        )

    def _construction(self) -> Iterator:
        tour = construct_tour(self.board.rows, self.board.cols, self.start, closed=self.closed)
        for depth in range(self._index, len(tour)):
            yield Move(tour[depth], depth, (), None)
        yield Found(tuple(tour), len(tour), 0)

    # -- what the viewer keeps -------------------------------------------------------------
    @property
    def engine(self) -> str:
        """``"compiled"`` when the walk runs in the C core, else ``"python"``."""
        return "python" if self._core is None else "compiled"

    @property
    def end(self):
        """The final event (Found / Exhausted / Budget / Declared) once reached, else None."""
        return self._end if self._core is None else self._core.end

    @property
    def index(self) -> int:
        """Events taken so far."""
        return self._index if self._core is None else self._core.counts[0]

    @property
    def nodes(self) -> int:
        """Move events so far, the root's included."""
        return self._nodes if self._core is None else self._core.counts[1]

    @property
    def backtracks(self) -> int:
        return self._backtracks if self._core is None else self._core.counts[2]

    @property
    def max_depth(self) -> int:
        return self._max_depth if self._core is None else self._core.counts[3]

    @property
    def after(self) -> int | None:
        """The square the last event backtracked from (None: the last event was a move)."""
        if self._core is None:
            return self._after
        after = self._core.counts[4]
        return None if after < 0 else after

    @property
    def path(self) -> list[int]:
        return self._path if self._core is None else list(self._core.path)

    @property
    def heat(self) -> list[int]:
        """How often each square was entered."""
        return self._heat if self._core is None else self._core.heat

    @property
    def chart(self) -> DepthChart:
        return self._chart if self._core is None else DepthChart.thaw(self._core.state()[7])

    # -- walking ---------------------------------------------------------------------------
    def advance(self, n: int, out: list[int] | None = None) -> int:
        """Take up to ``n`` events (fewer when the search ends); encode them into ``out``.

        Returns how many were taken.  Once the search has ended, :attr:`end` holds its
        final event and every further call takes none.
        """
        if self._core is not None:
            return self._core.walk(n, out, self.counts)
        if self._end is not None or n <= 0:
            return 0
        path, heat, chart = self._path, self._heat, self._chart
        push, pop, chart_push = path.append, path.pop, chart.push
        counts = self.counts
        taken = 0
        max_depth = self._max_depth
        nodes = self._nodes
        backtracks = self._backtracks
        after = self._after
        for event in self._events:
            kind = type(event)
            if kind is Move:
                sq = event.square
                push(sq)
                heat[sq] += 1
                nodes += 1
                after = None
                depth = len(path)
                if depth > max_depth:
                    max_depth = depth
                if out is not None:
                    cands = event.candidates
                    out.append(sq)
                    out.append(len(cands))
                    out.extend(cands)
                    if counts and cands:
                        out.extend(event.onward)
            elif kind is Backtrack:
                after = pop()
                backtracks += 1
                depth = len(path)
                if out is not None:
                    out.append(-1 - after)
            else:
                self._end = event
                break
            chart_push(depth)
            taken += 1
            if taken >= n:
                break
        self._index += taken
        self._nodes, self._backtracks = nodes, backtracks
        self._max_depth, self._after = max_depth, after
        return taken

    def state(self) -> WalkerState:
        if self._core is not None:
            index, path, after, nodes, backtracks, max_depth, heat, chart = self._core.state()
            return WalkerState(index, path, after, nodes, backtracks, max_depth, heat, chart)
        return WalkerState(
            self._index,
            tuple(self._path),
            self._after,
            self._nodes,
            self._backtracks,
            self._max_depth,
            tuple(self._heat),
            self._chart.freeze(),
        )

    def close(self) -> None:
        events = self._core if self._core is not None else self._events
        close = getattr(events, "close", None)
        if close is not None:
            close()
