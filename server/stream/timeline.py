"""One demo's events, computed once and served at any index.

A class room shows one search to everybody (server/classroom/feed.py).  Its
:class:`Timeline` runs that search forward (:meth:`Timeline.extend`), keeping a
:class:`~server.engine.walker.WalkerState` every ``spacing`` events: a checkpoint of a
few hundred ints from which the search resumes exactly.  From those it serves

* :meth:`Timeline.events`: the encoded events of any range (the room's live feed);
* :meth:`Timeline.snapshot`: what a viewer needs to draw index *i* at once (a late
  joiner, a reconnect, a seek, "jump to the end"): the path, the counters, the heat
  map, the depth chart, and the last events before *i* so it can step back a little.

Reaching any index costs at most one replay of ``spacing`` events from the checkpoint
below it, once per index, however many viewers ask: never a replay from event 0.

Memory is bounded: at most :data:`MAX_CHECKPOINTS` checkpoints (when there would be
more, every other one is dropped and the spacing doubles), each about
``2 * squares + 520`` ints (path, heat, 256 chart columns) packed four bytes an int
(:class:`Checkpoint`: a tuple of Python ints would take nine times that), plus
:data:`READERS` walkers and :data:`SNAPSHOT_CACHE` snapshots.  For 8×8 that is under
1 MB per timeline; for the largest board (30×30), about 2.5 MB, plus about 0.7 MB of
snapshots that :meth:`Timeline.shed` drops when nobody reads it for a while (a kept
/watch run).  :attr:`Timeline.nbytes` estimates it all, for the memory budget
(server/limits/memory.py).  See docs/protocol.md, "Class rooms".

Thread-safe; no Flask, no database (the caller persists checkpoints).
"""

from __future__ import annotations

import bisect
import sys
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, fields

from ..engine.article_orders import carries_onward
from ..engine.board import Board
from ..engine.search import PRUNINGS
from ..engine.walker import Walker, WalkerState

FIRST_SPACING = 20_000  # events between checkpoints, at first
MAX_CHECKPOINTS = 256
# events between clock reads of a timed slice: a few ms on the compiled core, and on
# the Python engine (~100 times slower per event) a few tens of ms
SLICE_EVENTS = {"compiled": 200_000, "python": 20_000}
SNAPSHOT_TAIL = 100  # events before the wanted index that a snapshot carries
READERS = 3  # walkers kept positioned for reads (the feed, a seek, a late joiner)
SNAPSHOT_CACHE = 8  # snapshots kept: a whole class asking for one index costs one
INT_BYTES = 36  # a Python int in a list: its pointer and, past 256, its own object
WALKER_BYTES = 200  # per square, a walker's board, path, heat and search frames (estimate)


@dataclass(frozen=True)
class Demo:
    """The settings a timeline runs: a board, a start and the search's options."""

    rows: int
    cols: int
    start: int  # square
    algorithm: str  # "seed" | "warnsdorff" | "construct" | an article's ordering
    closed: bool
    pruning: bool
    node_budget: int
    time_limit: float  # seconds of computing, in all
    holes: frozenset[int] = frozenset()  # squares the board does not have

    @property
    def counts(self) -> bool:
        return carries_onward(self.algorithm)

    @classmethod
    def of(cls, settings: object) -> Demo:
        """The demo of anything that carries these settings as attributes (a run's spec)."""
        return cls(**{field.name: getattr(settings, field.name) for field in fields(cls)})


class Checkpoint:
    """A :class:`WalkerState` packed into one array of machine ints (path, heat, chart).

    A checkpoint is only read to make a walker (or to be stored), rarely; kept as tuples
    of Python ints it would take about 36 bytes an int instead of 4.
    """

    __slots__ = ("after", "backtracks", "chart", "data", "index", "max_depth", "nodes", "sizes")

    def __init__(self, state: WalkerState) -> None:
        self.index = state.index
        self.after = state.after
        self.nodes = state.nodes
        self.backtracks = state.backtracks
        self.max_depth = state.max_depth
        span, length, fill, events, mins, maxs = state.chart
        self.chart = (span, length, fill, events)
        self.sizes = (len(state.path), len(state.heat), len(mins))
        values = (*state.path, *state.heat, *mins, *maxs)
        try:
            self.data = array("i", values)
        except OverflowError:  # a count past 2**31: 8 bytes an int
            self.data = array("q", values)

    def state(self) -> WalkerState:
        data = self.data
        path_len, heat_len, chart_len = self.sizes
        heat_end = path_len + heat_len
        mins_end = heat_end + chart_len
        return WalkerState(
            self.index,
            tuple(data[:path_len]),
            self.after,
            self.nodes,
            self.backtracks,
            self.max_depth,
            tuple(data[path_len:heat_end]),
            (*self.chart, tuple(data[heat_end:mins_end]), tuple(data[mins_end:])),
        )

    @property
    def nbytes(self) -> int:
        return sys.getsizeof(self.data) + 120


def state_to_json(state: WalkerState) -> list:
    return [
        state.index,
        list(state.path),
        state.after,
        state.nodes,
        state.backtracks,
        state.max_depth,
        list(state.heat),
        list(state.chart),
    ]


def state_from_json(data: list) -> WalkerState:
    index, path, after, nodes, backtracks, max_depth, heat, chart = data
    span, length, fill, events, mins, maxs = chart
    return WalkerState(
        index,
        tuple(path),
        after,
        nodes,
        backtracks,
        max_depth,
        tuple(heat),
        (span, length, fill, events, tuple(mins), tuple(maxs)),
    )


class Timeline:
    """The events of one demo, computed once; see the module docstring."""

    def __init__(self, demo: Demo, checkpoints: Iterable[WalkerState] = ()) -> None:
        self.demo = demo
        self.board = Board(demo.rows, demo.cols, demo.holes)
        self._lock = threading.RLock()
        self.spacing = FIRST_SPACING
        self._states: list[Checkpoint] = [
            Checkpoint(state) for state in sorted(checkpoints, key=lambda s: s.index)
        ]
        while len(self._states) > MAX_CHECKPOINTS:
            self._thin()
        latest = self._states[-1].state() if self._states else None
        self._head = self._walker(latest)
        self.end: dict | None = None  # the search's outcome once it ended
        self.seconds = 0.0  # computing time so far
        self._readers: list[Walker] = []
        self._snapshots: OrderedDict[tuple[int, int], dict] = OrderedDict()

    def _walker(self, state: WalkerState | None) -> Walker:
        demo = self.demo
        return Walker(
            self.board,
            demo.start,
            algorithm=demo.algorithm,
            closed=demo.closed,
            pruning=PRUNINGS if demo.pruning else (),
            node_budget=demo.node_budget,
            state=state,
        )

    # -- computing ------------------------------------------------------------------------
    @property
    def frontier(self) -> int:
        """Events computed so far."""
        return self._head.index

    def extend(
        self, upto: int, *, seconds: float | None = None, out: list[int] | None = None
    ) -> list[WalkerState]:
        """Compute up to event ``upto`` (or the end, or for about ``seconds``).

        Returns the checkpoints made on the way, for the caller to persist.  Once the
        search has ended, :attr:`end` says how.  ``out`` receives the computed events,
        encoded (a live stream at the search's head walks them once, not twice).
        """
        made: list[WalkerState] = []
        began = time.perf_counter()
        with self._lock:
            head = self._head
            while self.end is None and head.index < upto:
                next_mark = (head.index // self.spacing + 1) * self.spacing
                step = min(upto, next_mark) - head.index
                if seconds is not None:  # a slice: the clock is read every few ms
                    step = min(step, SLICE_EVENTS[head.engine])
                taken = head.advance(step, out)
                if taken < step:
                    head.advance(1, out)  # lets the walker see the search's final event
                    if head.end is not None:
                        self._finish(head)
                if head.index == next_mark and self.end is None:
                    made.append(self._keep(head.state()))
                elapsed = time.perf_counter() - began
                if self.end is None and self.seconds + elapsed >= self.demo.time_limit:
                    self._finish(head, limit="time")
                if seconds is not None and elapsed >= seconds:
                    break
            self.seconds += time.perf_counter() - began
        return made

    def _finish(self, head: Walker, limit: str | None = None) -> None:
        final = head.end
        status = "budget" if limit else final.kind
        claimed = {"found": "tour", "declared": "path"}.get(status)  # a program's false tour
        self.end = {
            "status": status,
            "total": head.index,
            "nodes": head.nodes,
            "backtracks": head.backtracks,
            "limit": limit or (final.limit if status == "budget" else None),
            "tour": list(getattr(final, claimed)) if claimed else None,
        }

    def _keep(self, state: WalkerState) -> WalkerState:
        self._states.append(Checkpoint(state))
        if len(self._states) > MAX_CHECKPOINTS:
            self._thin()
        return state

    def _thin(self) -> None:
        """Keep every other checkpoint: the spacing doubles, memory stays bounded."""
        self.spacing *= 2
        self._states = [s for s in self._states if s.index % self.spacing == 0]

    def checkpoints(self) -> list[WalkerState]:
        """Every checkpoint, unpacked (to store them): milliseconds on a large board."""
        with self._lock:
            return [checkpoint.state() for checkpoint in self._states]

    @property
    def latest_checkpoint(self) -> int:
        """The index of the last checkpoint (0 without any), without unpacking it."""
        with self._lock:
            return self._states[-1].index if self._states else 0

    # -- reading ----------------------------------------------------------------------------
    def _reader(self, index: int) -> Walker:
        """A walker standing exactly at ``index`` (<= frontier), moved there cheaply."""
        best = None
        for reader in self._readers:
            if reader.index <= index and (best is None or reader.index > best.index):
                best = reader
        if best is None or index - best.index > self.spacing:
            keys = [s.index for s in self._states]
            at = bisect.bisect_right(keys, index) - 1
            kept = self._states[at] if at >= 0 else None
            if best is None or (kept is not None and kept.index > best.index):
                best = self._walker(kept.state() if kept is not None else None)
                self._readers.append(best)
                if len(self._readers) > READERS:
                    self._readers.pop(0)
        else:
            self._readers.remove(best)  # most recently used last
            self._readers.append(best)
        best.advance(index - best.index)
        return best

    @property
    def engine(self) -> str:
        """``"compiled"`` or ``"python"``: the engine computing it (chosen when it was made)."""
        return self._head.engine

    @property
    def counters(self) -> tuple[int, int, int]:
        """(events, nodes, backtracks) computed so far: a long computation's progress."""
        with self._lock:
            head = self._head
            return head.index, head.nodes, head.backtracks

    def read(self, start: int, count: int, out: list[int]) -> tuple[int, int, int]:
        """Encode up to ``count`` events from ``start`` into ``out``, computing them if needed.

        A watched run's stream: at the search's head the events are computed and encoded
        in one walk; behind it (after a seek back) they are replayed from a checkpoint.
        Returns ``(taken, nodes, backtracks)``, the counters after the events taken.
        """
        with self._lock:
            if start == self.frontier:
                self.extend(start + count, out=out)
                head = self._head
                return head.index - start, head.nodes, head.backtracks
            self.extend(start + count)
            stop = min(start + count, self.frontier)
            if start >= stop:
                return 0, 0, 0
            reader = self._reader(start)
            reader.advance(stop - start, out)
            return stop - start, reader.nodes, reader.backtracks

    def events(self, start: int, stop: int) -> list[int]:
        """The encoded events ``[start, stop)``, within what has been computed."""
        out: list[int] = []
        with self._lock:
            stop = min(stop, self.frontier)
            if start < stop:
                self._reader(start).advance(stop - start, out)
        return out

    def snapshot(self, index: int, *, tail: int = SNAPSHOT_TAIL, ahead: int = 0) -> dict:
        """What a viewer needs to stand at ``index`` (clamped to what is computed).

        The state is the one after ``at`` events, ``at`` = up to ``tail`` events before
        ``index``; ``events`` holds the encoded events from ``at`` to ``index`` (the
        viewer can step back that far) and up to ``ahead`` more (computed ones only).
        The same request is computed once.
        """
        with self._lock:
            index = max(0, min(index, self.frontier))
            stop = min(index + ahead, self.frontier)
            key = (index, tail, stop)
            cached = self._snapshots.get(key)
            if cached is not None:
                self._snapshots.move_to_end(key)
                return cached
            at = max(0, index - tail)
            events: list[int] = []
            if at == self.frontier:  # a keyframe of the search's head: no replay
                state = self._head.state()
            else:
                reader = self._reader(at)
                state = reader.state()
                reader.advance(stop - at, events)
            span, length, fill, count, mins, maxs = state.chart
            snapshot = {
                "index": index,
                "at": at,
                "path": list(state.path),
                "nodes": state.nodes,
                "backtracks": state.backtracks,
                "max_depth": state.max_depth,
                "heat": list(state.heat),
                "chart": {
                    "span": span,
                    "length": length,
                    "fill": fill,
                    "events": count,
                    "min": list(mins),
                    "max": list(maxs),
                },
                "events": events,
                "count": stop - at,
            }
            self._snapshots[key] = snapshot
            if len(self._snapshots) > SNAPSHOT_CACHE:
                self._snapshots.popitem(last=False)
            return snapshot

    # -- memory -----------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        """About how many bytes the timeline holds: checkpoints, walkers, snapshots."""
        with self._lock:
            squares = self.board.area
            total = sum(checkpoint.nbytes for checkpoint in self._states)
            total += (1 + len(self._readers)) * WALKER_BYTES * squares
            for snapshot in self._snapshots.values():
                ints = len(snapshot["path"]) + len(snapshot["heat"]) + len(snapshot["events"])
                total += (ints + 2 * len(snapshot["chart"]["min"])) * INT_BYTES + 1000
            return total

    def shed(self) -> None:
        """Drop what is only kept for speed (snapshots, readers): the checkpoints stay."""
        with self._lock:
            for walker in self._readers:
                walker.close()
            self._readers.clear()
            self._snapshots.clear()

    def close(self) -> None:
        with self._lock:
            for walker in [self._head, *self._readers]:
                walker.close()
            self._readers.clear()
            self._snapshots.clear()
            self._states = []
