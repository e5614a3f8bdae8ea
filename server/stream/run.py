"""One watched run: a background task that streams a search at the viewer's pace.

The task (:meth:`Run.execute`) takes batches of at most ``batch_size`` events only while
the viewer's credit allows (server/stream/flow.py), so a viewer that stops granting
pauses the search itself and at most ``max_credit`` events are ever in flight: server
memory stays flat however long the run.  It looks at the stop flag between batches, so
it exits within one batch.  ``done`` is always the run's last message (none after a
disconnect), and time spent waiting for credit does not count against the time limit.
The counters (``nodes``, ``backtracks``, ``seq``) are readable while it runs.

A fresh run (no game to continue) is backed by a
:class:`~server.stream.timeline.Timeline`: its stream is read from the timeline, and a
``seek`` makes the task compute forward (in slices, reporting ``progress``), send a
``snapshot`` at the wanted index (the end when asked) and stream on from there under the
same credit.  Once its stream has ended the task exits; the registry may park the run,
and a later ``seek`` runs the task again from its timeline's checkpoints.

Every computing step of the task (a batch, a seek's slice, a snapshot) is one search of
the viewer's address when the run is given the search budget (server/limits/budget.py):
run in a search slot, charged with the CPU time it used; the task waits for the budget
and a slot instead of failing.

Nothing here knows Flask or Socket.IO: the registry passes an ``emit(event, data)``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial

from ..limits.budget import Searches
from ..limits.memory import Kept
from .admission import Limits
from .encode import encode_batch
from .flow import Flow
from .spec import RunSpec, SeekMessage
from .timeline import Timeline

log = logging.getLogger(__name__)

Emit = Callable[[str, dict], None]

SEEK_SLICE = 0.1  # seconds of computing between two looks at stop, a newer seek, progress
PROGRESS_EVERY = 0.2  # seconds between two ``progress`` messages of a seek
RUN_TO_END = 10**12


class ClientGone(Exception):
    """Raised by a run's ``emit`` when the viewer's connection has closed under it."""


class Run:
    """One watched run; its task is :meth:`execute` (run again by a seek once parked)."""

    def __init__(
        self,
        spec: RunSpec,
        events: Callable[[], Iterator] | None,
        emit: Emit,
        limits: Limits,
        *,
        gate: threading.Thread | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_exit: Callable[[Run], None] | None = None,
        timeline: Callable[[], Timeline] | None = None,
        searches: Searches | None = None,
        address: str = "",
        computing: threading.Lock | None = None,
    ) -> None:
        self.spec = spec
        self.id = spec.run
        self._events = events
        self._emit = emit
        self._limits = limits
        self._clock = clock
        self._on_exit = on_exit
        self._make_timeline = timeline
        self._searches = searches
        self.address = address  # the viewer's client address: who pays for the computing
        self._computing = computing or threading.Lock()  # its connection's: one at a time
        self.timeline: Timeline | None = None
        self.kept: Kept | None = None  # its place in the memory budget while parked
        self.closed = False  # its timeline freed for good
        self.counts = spec.counts
        self.flow = Flow(
            spec.window,
            max_credit=limits.max_credit,
            batch_size=limits.batch_size,
            max_pause=limits.max_pause,
            clock=clock,
            gate=gate,
        )
        self.stop_event = self.flow.stop_event
        self.finished = threading.Event()
        self.silent = False  # set on disconnect: nobody to tell
        self.nodes = 0
        self.backtracks = 0
        self.position = 0  # the stream's next event index
        self.events_sent = 0
        self.seq = 0
        self.paused_seconds = 0.0
        self.started_at: float | None = None
        self.exited_at: float | None = None
        self.status: str | None = None
        self.limit: str | None = None
        self.tour: list[int] | None = None
        self.thread = None  # whatever start_task returned
        self.seeking = False  # computing towards a seek's index

    @property
    def seekable(self) -> bool:
        return self._make_timeline is not None

    @property
    def credit(self) -> int:
        return self.flow.credit

    @property
    def restart_wanted(self) -> bool:
        """Whether a seek came while the task was ending: run it again for that seek."""
        return self.flow.restart_wanted

    # -- called from handler threads ---------------------------------------------------
    def grant(self, events: int) -> int:
        """Add credit, capped at the outstanding maximum; how much was added."""
        return self.flow.grant(events)

    def stop(self, *, silent: bool = False) -> None:
        if silent:
            self.silent = True
        self.flow.stop()

    def request_seek(self, seek: SeekMessage, gate: threading.Thread | None = None) -> bool:
        """Hand ``seek`` to the running task (replacing one not taken yet); False when the
        task is ending, and the run must be restarted for it."""
        return self.flow.offer(seek, gate)

    def prepare_restart(self, gate: threading.Thread | None) -> None:
        """Before a parked run's task runs again for the seek it was given."""
        self.flow.reopen(gate)
        self.finished.clear()
        self.status = self.limit = self.tour = None

    @property
    def active_seconds(self) -> float:
        if self.started_at is None:
            return 0.0
        end = self._clock() if self.exited_at is None else self.exited_at
        return end - self.started_at - self.paused_seconds

    # -- the task ----------------------------------------------------------------------
    def _send(self, event: str, data: dict) -> None:
        if self.silent:
            return
        gate = self.flow.take_gate()
        if gate is not None and gate is not threading.current_thread():
            # The handler's thread sends its acknowledgement after the handler returns;
            # waiting for it keeps the ack ahead of the first batch (or snapshot).
            gate.join(self._limits.gate_timeout)
        self._emit(event, data)

    def execute(self) -> None:
        threading.current_thread().name = f"watch-run-{self.id}"
        now = self._clock()
        if self.started_at is None:
            self.started_at = now
        else:  # a parked run restarted by a seek: the time parked was not the run's
            self.paused_seconds += now - self.exited_at
        self.exited_at = None
        events = None
        try:
            if self._make_timeline is not None:
                if self.timeline is None:
                    self.timeline = self._make_timeline()
            else:
                events = self._events()
            self._loop(events)
        except ClientGone:  # the viewer left while a batch was on its way: a stop
            self.stop_event.set()
            self.status, self.limit = "stopped", None
        except Exception:
            log.exception("watch run %s failed", self.id)
            self.status, self.limit = "stopped", None
            self.stop_event.set()
        finally:
            self.flow.close()
            self.seeking = False
            if events is not None and hasattr(events, "close"):
                try:
                    events.close()
                except Exception:  # pragma: no cover - a generator that refuses to close
                    log.exception("closing the events of run %s", self.id)
            self.exited_at = self._clock()
            try:
                self._send(
                    "done",
                    {
                        "run": self.id,
                        "status": self.status or "stopped",
                        "tour": self.tour,
                        "limit": self.limit,
                        "nodes": self.nodes,
                        "backtracks": self.backtracks,
                        "seconds": round(self.active_seconds, 3),
                    },
                )
            except ClientGone:
                pass  # nobody is left to tell
            except Exception:
                log.exception("sending done for run %s", self.id)
            finally:
                self.finished.set()
                if self._on_exit is not None:
                    self._on_exit(self)

    def close(self) -> int:
        """Free the run's timeline (a run that ended, or a parked one dropped); its bytes."""
        timeline = self.timeline
        if timeline is None or self.closed:
            return 0
        self.closed = True
        nbytes = timeline.nbytes
        timeline.close()
        return nbytes

    def _compute(self, work: Callable[[], object]):
        """``work()`` (a computing step) as one search of the viewer's address: it waits
        for the address's budget and a search slot; None when the run is stopped meanwhile."""
        if self._searches is None:
            return work()
        return self._searches.compute(self.address, work, self.stop_event)

    @property
    def stopped(self) -> bool:
        return self.stop_event.is_set() or self.status == "stopped"

    def _loop(self, events: Iterator | None) -> None:
        counts = self.counts
        time_limit = self.spec.time_limit
        timeline = self.timeline
        flow = self.flow
        while True:
            if flow.seek is not None:
                if not self._run_seek():
                    self.status = "stopped"
                    return
                if self._at_end():
                    return
                continue
            room, paused = flow.room()
            self.paused_seconds += paused
            if room <= 0:
                if flow.seek is not None and not flow.stopped:
                    continue
                self.status = "stopped"
                return
            out: list[int] = []
            if timeline is not None:  # the timeline bounds the computing time itself
                read = self._compute(partial(timeline.read, self.position, room, out))
                if read is None:
                    self.status = "stopped"
                    return
                taken, nodes, backtracks = read
                if taken:
                    self.nodes, self.backtracks = nodes, backtracks
                terminal = None
            else:
                if self.active_seconds >= time_limit:
                    self.status, self.limit = "budget", "time"
                    return
                batch = self._compute(partial(encode_batch, events, room, out, counts))
                if batch is None:
                    self.status = "stopped"
                    return
                taken, nodes, terminal = batch
                self.nodes += nodes
                self.backtracks += taken - nodes
            if taken:
                flow.spend(taken)
                self._send(
                    "batch",
                    {
                        "run": self.id,
                        "seq": self.seq,
                        "events": out,
                        "nodes": self.nodes,
                        "backtracks": self.backtracks,
                    },
                )
                self.seq += 1
                self.position += taken
                self.events_sent += taken
            if timeline is not None:
                if self._at_end():
                    return
            elif terminal is not None:
                self._finish(terminal)
                return

    def _at_end(self) -> bool:
        """Whether a timeline run's stream has reached the search's end (then say how),
        unless a seek is waiting."""
        end = self.timeline.end
        if end is None or self.position < end["total"]:
            return False
        if not self.flow.close_unless_seeking():
            return False
        self.status, self.limit, self.tour = end["status"], end["limit"], end["tour"]
        self.nodes, self.backtracks = end["nodes"], end["backtracks"]
        return True

    def _run_seek(self) -> bool:
        """Compute towards the newest seek's index, then stand there: a ``snapshot``, and
        the stream goes on from it.  False when the run was stopped meanwhile."""
        timeline = self.timeline
        seek = self.flow.take_seek()
        goal = RUN_TO_END if seek.index is None else seek.index
        self.seeking = True
        reported = self._clock()
        try:
            while timeline.end is None and timeline.frontier < goal:
                if self.stop_event.is_set():
                    return False
                if self.flow.seek is not None:  # a newer seek replaces this one
                    return True
                with self._computing:  # one connection computes one slice at a time
                    self._compute(lambda: timeline.extend(goal, seconds=SEEK_SLICE))
                now = self._clock()
                if now - reported >= PROGRESS_EVERY and timeline.end is None:
                    reported = now
                    index, nodes, backtracks = timeline.counters
                    self._send(
                        "progress",
                        {
                            "run": self.id,
                            "target": seek.index,
                            "index": index,
                            "nodes": nodes,
                            "backtracks": backtracks,
                        },
                    )
        finally:
            self.seeking = False
        if self.stop_event.is_set():
            return False
        index = timeline.frontier if seek.index is None else min(seek.index, timeline.frontier)
        snapshot = self._compute(lambda: timeline.snapshot(index))
        if snapshot is None:
            return False
        tail = snapshot["events"]
        moves = _moves_in(tail, self.counts)
        self.nodes = snapshot["nodes"] + moves
        self.backtracks = snapshot["backtracks"] + snapshot["count"] - moves
        self.position = snapshot["at"] + snapshot["count"]
        self.flow.refill(seek.window)
        end = timeline.end
        self._send(
            "snapshot",
            {
                "run": self.id,
                **snapshot,
                "end": None if end is None else {k: v for k, v in end.items() if k != "tour"},
            },
        )
        return True

    def _finish(self, terminal) -> None:
        kind = terminal.kind
        if kind == "found":
            self.status, self.tour = "found", list(terminal.tour)
        elif kind == "declared":  # an article's program claims a path that is no tour
            self.status, self.tour = "declared", list(terminal.path)
        elif kind == "budget":
            self.status, self.limit = "budget", terminal.limit
        else:  # "exhausted", or the generator simply ended
            self.status = "exhausted"


def _moves_in(events: list[int], counts: bool) -> int:
    """How many moves a list of encoded events holds."""
    i = moves = 0
    step = 2 if counts else 1
    while i < len(events):
        head = events[i]
        if head < 0:
            i += 1
        else:
            moves += 1
            i += 2 + step * events[i + 1]
    return moves
