"""The run registry: one background task per watched run, paced by the viewer's credit.

Each run owns

* a ``threading.Event`` set by ``stop``, by the connection's disconnect or when the run
  is paused too long; the task checks it between batches, so it exits within one batch;
* a credit counter under a ``threading.Condition``: the task pulls events from the
  engine's generator only while it holds credit, so a viewer that stops granting
  pauses the search itself, and at most ``max_credit`` events are ever in flight
  (server memory stays flat however long the run);
* its counters (``nodes``, ``backtracks``, ``seq``), readable while it runs.

Batches hold at most ``batch_size`` events; ``done`` is always the run's last message
(none after a disconnect).  Time spent waiting for credit does not count against the
run's time limit.  The registry also enforces the per-connection, per-address and
global run limits and a per-connection message rate.

A fresh run (no game to continue) is backed by a
:class:`~server.stream.timeline.Timeline`: its stream is read from the timeline, and a
``seek`` makes the run's task compute forward (in slices, reporting ``progress``), send a
``snapshot`` at the wanted index (the end when asked) and stream on from there under the
same credit.  Once its stream has ended the run's task exits and the run is *parked*
(at most ``Limits.parked`` per connection, the oldest dropped): a later ``seek`` restarts
a task from its timeline's checkpoints, so stepping back from the end works.

Two budgets bound what runs cost, when the registry is given them:

* the CPU (``searches``, server/limits/budget.py): every computing step of a run's task
  (a batch, a seek's slice, a snapshot) is one search of its connection's client
  address, run in a search slot and charged with the CPU time it used; the task waits
  for the budget and a slot instead of failing.  A ``start`` or a ``seek`` while the
  address has no search time left is refused (``rate-limited``), while the search queue
  is full ``busy``;
* the memory (``memory``, server/limits/memory.py): a parked run's timeline is kept under the
  per-address and server-wide byte limits; when they overflow the least recently parked
  timelines are freed.  Such a run stays parked: a ``seek`` into it computes its
  timeline again (the search is deterministic: the same events).

Nothing here knows Flask or Socket.IO: the caller passes ``start_task`` (e.g.
``socketio.start_background_task``) and, per run, an ``emit(event, data)`` callable.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from ..limits.bucket import TokenBucket
from ..limits.budget import Busy, OverBudget, Searches
from ..limits.memory import Kept, MemoryBudget, release
from .encode import encode_batch
from .spec import ProtocolError, RunSpec, SeekMessage
from .timeline import Timeline

log = logging.getLogger(__name__)

Emit = Callable[[str, dict], None]

SEEK_SLICE = 0.1  # seconds of computing between two looks at stop, a newer seek, progress
PROGRESS_EVERY = 0.2  # seconds between two ``progress`` messages of a seek
RUN_TO_END = 10**12


class ClientGone(Exception):
    """Raised by a run's ``emit`` when the viewer's connection has closed under it."""


@dataclass(frozen=True)
class Limits:
    per_connection: int = 2  # race mode runs two side by side
    per_address: int = 4
    total: int = 32  # every run holds a thread
    batch_size: int = 1000
    max_credit: int = 20_000
    max_pause: float = 600.0  # seconds without credit before a run is stopped
    start_burst: int = 10  # start messages: a bucket of 10, refilled at 2 per second
    start_rate: float = 2.0
    message_burst: int = 2000  # every message: a bucket of 2000, refilled at 1000 per second
    message_rate: float = 1000.0
    recent_runs: int = 32  # finished run ids whose late credit/stop is ignored quietly
    parked: int = 2  # ended runs per connection kept (their timelines) for a seek back
    gate_timeout: float = 2.0


@dataclass
class Connection:
    sid: str
    address: str
    lang: str
    start_bucket: TokenBucket
    message_bucket: TokenBucket
    runs: dict[str, Run] = field(default_factory=dict)
    recent: deque = field(default_factory=deque)
    closed: bool = False
    last_rate_error: float = float("-inf")
    parked: dict[str, Run] = field(default_factory=dict)  # ended runs a seek can restart
    computing: threading.Lock = field(default_factory=threading.Lock)  # one seek at a time


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
    ) -> None:
        self.spec = spec
        self.id = spec.run
        self._events = events
        self._emit = emit
        self._limits = limits
        self._gate = gate
        self._clock = clock
        self._on_exit = on_exit
        self._make_timeline = timeline
        self._searches = searches
        self.timeline: Timeline | None = None
        self.kept: Kept | None = None  # its place in the memory budget while parked
        self.closed = False  # its timeline freed for good
        self.counts = spec.counts
        self.stop_event = threading.Event()
        self.finished = threading.Event()
        self._cond = threading.Condition()
        self.credit = spec.window
        self.window = spec.window
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
        self.connection: Connection | None = None
        self._seek: SeekMessage | None = None  # a seek the task has not taken yet
        self.accepting = True  # whether the task still takes seeks (else: restart it)
        self.seeking = False  # computing towards a seek's index
        self.restart_wanted = False  # a seek came while the task was ending

    @property
    def seekable(self) -> bool:
        return self._make_timeline is not None

    # -- called from handler threads ---------------------------------------------------
    def grant(self, events: int) -> int:
        """Add credit, capped at the outstanding maximum; how much was added."""
        with self._cond:
            before = self.credit
            self.credit = min(self.credit + events, self._limits.max_credit)
            self._cond.notify_all()
            return self.credit - before

    def stop(self, *, silent: bool = False) -> None:
        if silent:
            self.silent = True
        self.stop_event.set()
        with self._cond:
            self._cond.notify_all()

    def request_seek(self, seek: SeekMessage, gate: threading.Thread | None = None) -> bool:
        """Hand ``seek`` to the running task (replacing one not taken yet); False when the
        task is ending, and the run must be restarted for it."""
        with self._cond:
            if not self.accepting:
                self._seek = seek  # for the restart
                return False
            self._seek = seek
            if gate is not None:
                self._gate = gate
            self._cond.notify_all()
            return True

    def prepare_restart(self, gate: threading.Thread | None) -> None:
        """Before a parked run's task runs again for the seek it was given."""
        with self._cond:
            self.accepting = True
            self.restart_wanted = False
            self._gate = gate
            self.finished.clear()
            self.status = self.limit = self.tour = None

    @property
    def active_seconds(self) -> float:
        if self.started_at is None:
            return 0.0
        end = self._clock() if self.exited_at is None else self.exited_at
        return end - self.started_at - self.paused_seconds

    # -- the task ----------------------------------------------------------------------
    def _wait_for_credit(self) -> int:
        """Events the next batch may hold; 0 when the run must stop or a seek waits."""
        with self._cond:
            if self.stop_event.is_set() or self._seek is not None:
                return 0
            if self.credit > 0:
                return min(self.credit, self._limits.batch_size)
            paused_at = self._clock()
            try:
                while self.credit <= 0 and not self.stop_event.is_set() and self._seek is None:
                    left = paused_at + self._limits.max_pause - self._clock()
                    if left <= 0:
                        self.stop_event.set()  # paused too long
                        break
                    self._cond.wait(timeout=min(left, 1.0))
            finally:
                self.paused_seconds += self._clock() - paused_at
            if self.stop_event.is_set() or self._seek is not None:
                return 0
            return min(self.credit, self._limits.batch_size)

    def _send(self, event: str, data: dict) -> None:
        if self.silent:
            return
        if self._gate is not None:
            # The handler's thread sends its acknowledgement after the handler returns;
            # waiting for it keeps the ack ahead of the first batch (or snapshot).
            gate, self._gate = self._gate, None
            if gate is not threading.current_thread():
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
            with self._cond:
                self.accepting = False
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
        if self._searches is None or self.connection is None:
            return work()
        return self._searches.compute(self.connection.address, work, self.stop_event)

    @property
    def stopped(self) -> bool:
        return self.stop_event.is_set() or self.status == "stopped"

    def _loop(self, events: Iterator | None) -> None:
        counts = self.counts
        time_limit = self.spec.time_limit
        timeline = self.timeline
        while True:
            if self._seek is not None:
                if not self._run_seek():
                    self.status = "stopped"
                    return
                if self._at_end():
                    return
                continue
            room = self._wait_for_credit()
            if room <= 0:
                if self._seek is not None and not self.stop_event.is_set():
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
                with self._cond:
                    self.credit -= taken
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
        with self._cond:
            if self._seek is not None:
                return False
            self.accepting = False
        self.status, self.limit, self.tour = end["status"], end["limit"], end["tour"]
        self.nodes, self.backtracks = end["nodes"], end["backtracks"]
        return True

    def _run_seek(self) -> bool:
        """Compute towards the newest seek's index, then stand there: a ``snapshot``, and
        the stream goes on from it.  False when the run was stopped meanwhile."""
        timeline = self.timeline
        conn = self.connection
        with self._cond:
            seek, self._seek = self._seek, None
        goal = RUN_TO_END if seek.index is None else seek.index
        self.seeking = True
        reported = self._clock()
        try:
            while timeline.end is None and timeline.frontier < goal:
                if self.stop_event.is_set():
                    return False
                if self._seek is not None:  # a newer seek replaces this one
                    return True
                if conn is not None:
                    with conn.computing:  # one connection computes one slice at a time
                        self._compute(lambda: timeline.extend(goal, seconds=SEEK_SLICE))
                else:
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
        with self._cond:
            if seek.window is not None:
                self.window = seek.window
            self.credit = self.window
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
        self._lock = threading.Lock()
        self._connections: dict[str, Connection] = {}
        self._live: set[Run] = set()

    # -- connections ---------------------------------------------------------------------
    def connect(self, sid: str, address: str, lang: str) -> Connection:
        limits = self.limits
        conn = Connection(
            sid,
            address,
            lang,
            TokenBucket(limits.start_burst, limits.start_rate, self._clock),
            TokenBucket(limits.message_burst, limits.message_rate, self._clock),
        )
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

    # -- rate ------------------------------------------------------------------------------
    def admit(self, conn: Connection, *, start: bool = False) -> None:
        """Count one message; ProtocolError("rate-limited") when the connection floods."""
        with self._lock:
            ok = conn.message_bucket.take() and (not start or conn.start_bucket.take())
        if not ok:
            raise ProtocolError("rate-limited")

    # -- runs ------------------------------------------------------------------------------
    def _check_searches(self, conn: Connection, run_id: str) -> None:
        """ProtocolError when the address may not start computing now (its search time is
        used up, or the search queue is full)."""
        if self.searches is None:
            return
        try:
            self.searches.check(conn.address)
        except OverBudget as err:
            key = "watch.error.rate-limited.searches"
            raise ProtocolError("rate-limited", key, run_id, seconds=err.retry_after) from None
        except Busy as err:
            raise ProtocolError("busy", None, run_id, seconds=err.retry_after) from None

    def _check_room(self, conn: Connection, run_id: str) -> None:
        """ProtocolError unless one more live run fits (call with the lock held)."""
        limits = self.limits
        if len(conn.runs) >= limits.per_connection:
            raise ProtocolError("too-many-runs", None, run_id, max=limits.per_connection)
        same_address = sum(1 for r in self._live if r.connection.address == conn.address)
        if same_address >= limits.per_address:
            raise ProtocolError(
                "too-many-runs", "watch.error.too-many-runs.address", run_id, max=limits.per_address
            )
        if len(self._live) >= limits.total:
            raise ProtocolError("too-many-runs", "watch.error.too-many-runs.server", run_id)

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
            on_exit=self._exited,
            timeline=timeline,
            searches=self.searches,
        )
        run.connection = conn
        self._check_searches(conn, spec.run)
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
        self._launch(run)
        return run

    def _launch(self, run: Run) -> None:
        try:
            run.thread = self._start_task(run.execute)
        except Exception:
            self._exited(run)
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
            self._check_searches(conn, seek.run)
        with self._lock:
            run = conn.runs.get(seek.run)
            if run is not None:
                if not run.seekable:
                    key = "watch.error.bad-request.seek-game"
                    raise ProtocolError("bad-request", key, seek.run)
                if not run.request_seek(seek, gate):
                    run.restart_wanted = True  # its task is ending: _exited restarts it
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
        self._launch(run)
        return run

    def _exited(self, run: Run) -> None:
        dropped: list[Run] = []
        evicted: list[Kept] = []
        restart = False
        with self._lock:
            conn = run.connection
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
                    evicted = self._keep(run)
                else:
                    dropped.append(run)
        for old in dropped:
            self._drop(old)
        if self.memory is not None:
            self.memory.evict(evicted)
        if restart:
            self._launch(run)

    # -- memory ------------------------------------------------------------------------------
    def _keep(self, run: Run) -> list[Kept]:
        """Count a parked run's timeline against the memory budget (lock held); what to
        evict for it."""
        if self.memory is None or run.timeline is None:
            return []
        run.timeline.shed()  # its snapshots and readers: only a speed-up while watched
        run.kept, evicted = self.memory.keep(
            run.connection.address, run.timeline.nbytes, lambda: self._evict(run)
        )
        return evicted

    def _evict(self, run: Run) -> None:
        """The memory budget frees a parked run's timeline; the run stays, a seek into it
        computes the timeline again."""
        with self._lock:
            if run.connection.parked.get(run.id) is not run:
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
