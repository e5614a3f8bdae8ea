"""The run registry: every live /watch run of one app, by connection; thread-safe.

The Socket.IO handlers (server/web/watch_socket.py) call it for every message: it
admits the message (server/stream/admission.py: rates, the per-connection, per-address
and server-wide run limits, the search budget), then starts, credits, seeks or stops
the connection's runs (server/stream/run.py), each in a task of its own.

Once a fresh run's stream has ended its task exits and the run is *parked* (at most
``Limits.parked`` per connection, the oldest dropped): a later ``seek`` restarts a task
from its timeline's checkpoints, so stepping back from the end works.  With the memory
budget (server/limits/memory.py) a parked run's timeline is kept under the per-address
and server-wide byte limits; when they overflow the least recently parked timelines are
freed.  Such a run stays parked: a ``seek`` into it computes its timeline again (the
search is deterministic: the same events).

Nothing here knows Flask or Socket.IO: the caller passes ``start_task`` (e.g.
``socketio.start_background_task``) and, per run, an ``emit(event, data)`` callable.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from ..limits.budget import Searches
from ..limits.memory import Kept, MemoryBudget, release
from .admission import Admission, Limits, Rates
from .run import Emit, Run
from .spec import ProtocolError, RunSpec, SeekMessage
from .timeline import Timeline


@dataclass
class Connection:
    """One viewer's connection: its rates, its live runs and the ended ones it keeps."""

    sid: str
    address: str
    lang: str
    rates: Rates
    runs: dict[str, Run] = field(default_factory=dict)
    recent: deque = field(default_factory=deque)
    closed: bool = False
    last_rate_error: float = float("-inf")
    parked: dict[str, Run] = field(default_factory=dict)  # ended runs a seek can restart
    computing: threading.Lock = field(default_factory=threading.Lock)  # one seek at a time


class RunRegistry:
    """Every live run of one app, by connection; thread-safe."""

    def __init__(
        self,
        start_task: Callable,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        searches: Searches | None = None,
        memory: MemoryBudget | None = None,
    ) -> None:
        self._start_task = start_task
        self.limits = limits or Limits()
        self._clock = clock
        self.searches = searches
        self.memory = memory
        self.admission = Admission(self.limits, clock, searches)
        self._lock = threading.Lock()
        self._connections: dict[str, Connection] = {}
        self._live: set[Run] = set()

    # -- connections ---------------------------------------------------------------------
    def connect(self, sid: str, address: str, lang: str) -> Connection:
        conn = Connection(sid, address, lang, self.admission.rates())
        with self._lock:
            self._connections[sid] = conn
        return conn

    def connection(self, sid: str) -> Connection | None:
        with self._lock:
            return self._connections.get(sid)

    def disconnect(self, sid: str) -> list[Run]:
        """Stop every run of the connection (silently: nobody is listening)."""
        with self._lock:
            conn = self._connections.pop(sid, None)
            if conn is None:
                return []
            conn.closed = True
            runs = list(conn.runs.values())
            parked = list(conn.parked.values())
            conn.parked.clear()
        for run in runs:
            run.stop(silent=True)
        for run in parked:
            self._drop(run)
        return runs

    # -- admission -------------------------------------------------------------------------
    def admit(self, conn: Connection, *, start: bool = False) -> None:
        """Count one message; ProtocolError("rate-limited") when the connection floods."""
        with self._lock:
            self.admission.message(conn.rates, start=start)

    def _check_room(self, conn: Connection, run_id: str) -> None:
        """ProtocolError unless one more live run fits (call with the lock held)."""
        same_address = sum(1 for r in self._live if r.address == conn.address)
        self.admission.room(
            run_id, own=len(conn.runs), same_address=same_address, everyone=len(self._live)
        )

    # -- runs ------------------------------------------------------------------------------
    def start(
        self,
        conn: Connection,
        spec: RunSpec,
        events: Callable[[], Iterator] | None,
        emit: Emit,
        gate: threading.Thread | None = None,
        timeline: Callable[[], Timeline] | None = None,
    ) -> Run:
        """Start a run: from ``timeline`` (seekable) when given, else from ``events``."""
        run = Run(
            spec,
            events,
            emit,
            self.limits,
            gate=gate,
            clock=self._clock,
            on_exit=partial(self._exited, conn),
            timeline=timeline,
            searches=self.searches,
            address=conn.address,
            computing=conn.computing,
        )
        self.admission.computing(conn.address, spec.run)
        with self._lock:
            if conn.closed:
                raise ProtocolError("unknown-run", None, spec.run)  # pragma: no cover
            if spec.run in conn.runs:
                raise ProtocolError(
                    "bad-request", "watch.error.bad-request.duplicate-run", spec.run
                )
            self._check_room(conn, spec.run)
            dropped = conn.parked.pop(spec.run, None)  # the id is taken by a new run
            conn.runs[spec.run] = run
            self._live.add(run)
        if dropped is not None:
            self._drop(dropped)
        self._launch(conn, run)
        return run

    def _launch(self, conn: Connection, run: Run) -> None:
        try:
            run.thread = self._start_task(run.execute)
        except Exception:
            self._exited(conn, run)
            raise

    def _find(self, conn: Connection, run_id: str) -> Run | None:
        with self._lock:
            run = conn.runs.get(run_id)
            if run is None and run_id not in conn.recent:
                raise ProtocolError("unknown-run", None, run_id)
            return run

    def grant(self, conn: Connection, run_id: str, events: int) -> int | None:
        """Add credit: the events granted (fewer when capped); None (quietly) for a run
        that has just finished."""
        run = self._find(conn, run_id)
        return run.grant(events) if run is not None else None

    def stop(self, conn: Connection, run_id: str) -> Run | None:
        """Stop a live run, or drop a parked one (its timeline is freed)."""
        with self._lock:
            parked = conn.parked.pop(run_id, None)
        if parked is not None:
            self._drop(parked)
            return None
        run = self._find(conn, run_id)
        if run is not None:
            run.stop()
        return run

    def seek(
        self, conn: Connection, seek: SeekMessage, gate: threading.Thread | None = None
    ) -> Run:
        """Hand ``seek`` to the run's task, or restart a parked run's task for it."""
        if seek.run in conn.runs or seek.run in conn.parked:
            self.admission.computing(conn.address, seek.run)
        with self._lock:
            run = conn.runs.get(seek.run)
            if run is not None:
                if not run.seekable:
                    key = "watch.error.bad-request.seek-game"
                    raise ProtocolError("bad-request", key, seek.run)
                run.request_seek(seek, gate)  # False: its task is ending, _exited restarts it
                return run
            run = conn.parked.get(seek.run)
            if run is None:
                raise ProtocolError("unknown-run", None, seek.run)
            self._check_room(conn, seek.run)
            del conn.parked[seek.run]
            conn.runs[seek.run] = run
            self._live.add(run)
            run.request_seek(seek)
            run.prepare_restart(gate)
            kept, run.kept = run.kept, None
        if self.memory is not None:
            self.memory.forget(kept)  # in use again: no longer merely kept
        self._launch(conn, run)
        return run

    def _exited(self, conn: Connection, run: Run) -> None:
        dropped: list[Run] = []
        evicted: list[Kept] = []
        restart = False
        with self._lock:
            keep = run.seekable and not run.stopped and not conn.closed
            if keep and run.restart_wanted:
                run.prepare_restart(None)
                restart = True
            else:
                self._live.discard(run)
                if conn.runs.get(run.id) is run:
                    del conn.runs[run.id]
                conn.recent.append(run.id)
                while len(conn.recent) > self.limits.recent_runs:
                    conn.recent.popleft()
                if keep:
                    conn.parked[run.id] = run
                    while len(conn.parked) > self.limits.parked:
                        dropped.append(conn.parked.pop(next(iter(conn.parked))))
                    evicted = self._keep(conn, run)
                else:
                    dropped.append(run)
        for old in dropped:
            self._drop(old)
        if self.memory is not None:
            self.memory.evict(evicted)
        if restart:
            self._launch(conn, run)

    # -- memory ------------------------------------------------------------------------------
    def _keep(self, conn: Connection, run: Run) -> list[Kept]:
        """Count a parked run's timeline against the memory budget (lock held); what to
        evict for it."""
        if self.memory is None or run.timeline is None:
            return []
        run.timeline.shed()  # its snapshots and readers: only a speed-up while watched
        run.kept, evicted = self.memory.keep(
            conn.address, run.timeline.nbytes, lambda: self._evict(conn, run)
        )
        return evicted

    def _evict(self, conn: Connection, run: Run) -> None:
        """The memory budget frees a parked run's timeline; the run stays, a seek into it
        computes the timeline again."""
        with self._lock:
            if conn.parked.get(run.id) is not run:
                return  # restarted or dropped meanwhile
            timeline, run.timeline, run.kept = run.timeline, None, None
        if timeline is not None:
            timeline.close()

    def _drop(self, run: Run) -> None:
        """Free a run that ended for good, or a parked one dropped."""
        kept, run.kept = run.kept, None
        freed = run.close()
        if self.memory is None or not self.memory.forget(kept):
            release(freed)  # (forget releases the bytes it counted)

    # -- introspection (tests, benchmarks) ---------------------------------------------------
    def live_runs(self) -> list[Run]:
        with self._lock:
            return list(self._live)

    def live_count(self) -> int:
        with self._lock:
            return len(self._live)
