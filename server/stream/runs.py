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

from .encode import encode_batch
from .spec import ProtocolError, RunSpec

log = logging.getLogger(__name__)

Emit = Callable[[str, dict], None]


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
    gate_timeout: float = 2.0


class TokenBucket:
    def __init__(self, burst: int, rate: float, clock: Callable[[], float]) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


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


class Run:
    """One watched run; its task is :meth:`execute`."""

    def __init__(
        self,
        spec: RunSpec,
        events: Callable[[], Iterator],
        emit: Emit,
        limits: Limits,
        *,
        gate: threading.Thread | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_exit: Callable[[Run], None] | None = None,
    ) -> None:
        self.spec = spec
        self.id = spec.run
        self._events = events
        self._emit = emit
        self._limits = limits
        self._gate = gate
        self._clock = clock
        self._on_exit = on_exit
        self.counts = spec.counts
        self.stop_event = threading.Event()
        self.finished = threading.Event()
        self._cond = threading.Condition()
        self.credit = spec.window
        self.silent = False  # set on disconnect: nobody to tell
        self.nodes = 0
        self.backtracks = 0
        self.events_sent = 0
        self.seq = 0
        self.paused_seconds = 0.0
        self.started_at: float | None = None
        self.status: str | None = None
        self.limit: str | None = None
        self.tour: list[int] | None = None
        self.thread = None  # whatever start_task returned
        self.connection: Connection | None = None

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

    @property
    def active_seconds(self) -> float:
        if self.started_at is None:
            return 0.0
        return self._clock() - self.started_at - self.paused_seconds

    # -- the task ----------------------------------------------------------------------
    def _wait_for_credit(self) -> int:
        """Events the next batch may hold; 0 when the run must stop."""
        with self._cond:
            if self.credit > 0 or self.stop_event.is_set():
                return 0 if self.stop_event.is_set() else min(self.credit, self._limits.batch_size)
            paused_at = self._clock()
            try:
                while self.credit <= 0 and not self.stop_event.is_set():
                    left = paused_at + self._limits.max_pause - self._clock()
                    if left <= 0:
                        self.stop_event.set()  # paused too long
                        break
                    self._cond.wait(timeout=min(left, 1.0))
            finally:
                self.paused_seconds += self._clock() - paused_at
            if self.stop_event.is_set():
                return 0
            return min(self.credit, self._limits.batch_size)

    def _send(self, event: str, data: dict) -> None:
        if self.silent:
            return
        if self._gate is not None:
            # The start handler's thread sends the acknowledgement after the handler
            # returns; waiting for it keeps the ack ahead of the first batch.
            gate, self._gate = self._gate, None
            if gate is not threading.current_thread():
                gate.join(self._limits.gate_timeout)
        self._emit(event, data)

    def execute(self) -> None:
        threading.current_thread().name = f"watch-run-{self.id}"
        self.started_at = self._clock()
        events = None
        try:
            events = self._events()
            self._loop(events)
        except ClientGone:  # the viewer left while a batch was on its way: a stop
            self.stop_event.set()
            self.status, self.limit = "stopped", None
        except Exception:
            log.exception("watch run %s failed", self.id)
            self.status, self.limit = "stopped", None
        finally:
            if events is not None and hasattr(events, "close"):
                try:
                    events.close()
                except Exception:  # pragma: no cover - a generator that refuses to close
                    log.exception("closing the events of run %s", self.id)
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

    def _loop(self, events: Iterator) -> None:
        counts = self.counts
        time_limit = self.spec.time_limit
        while True:
            room = self._wait_for_credit()
            if room <= 0:
                self.status = "stopped"
                return
            if self.active_seconds >= time_limit:
                self.status, self.limit = "budget", "time"
                return
            out: list[int] = []
            taken, nodes, terminal = encode_batch(events, room, out, counts)
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
                self.events_sent += taken
            if terminal is not None:
                self._finish(terminal)
                return

    def _finish(self, terminal) -> None:
        kind = terminal.kind
        if kind == "found":
            self.status, self.tour = "found", list(terminal.tour)
        elif kind == "budget":
            self.status, self.limit = "budget", terminal.limit
        else:  # "exhausted", or the generator simply ended
            self.status = "exhausted"


class RunRegistry:
    """Every live run of one app, by connection; thread-safe."""

    def __init__(
        self,
        start_task: Callable,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._start_task = start_task
        self.limits = limits or Limits()
        self._clock = clock
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
        for run in runs:
            run.stop(silent=True)
        return runs

    # -- rate ------------------------------------------------------------------------------
    def admit(self, conn: Connection, *, start: bool = False) -> None:
        """Count one message; ProtocolError("rate-limited") when the connection floods."""
        with self._lock:
            ok = conn.message_bucket.take() and (not start or conn.start_bucket.take())
        if not ok:
            raise ProtocolError("rate-limited")

    # -- runs ------------------------------------------------------------------------------
    def start(
        self,
        conn: Connection,
        spec: RunSpec,
        events: Callable[[], Iterator],
        emit: Emit,
        gate: threading.Thread | None = None,
    ) -> Run:
        limits = self.limits
        run = Run(spec, events, emit, limits, gate=gate, clock=self._clock, on_exit=self._exited)
        run.connection = conn
        with self._lock:
            if conn.closed:
                raise ProtocolError("unknown-run", None, spec.run)  # pragma: no cover
            if spec.run in conn.runs:
                raise ProtocolError(
                    "bad-request", "watch.error.bad-request.duplicate-run", spec.run
                )
            if len(conn.runs) >= limits.per_connection:
                raise ProtocolError("too-many-runs", None, spec.run, max=limits.per_connection)
            same_address = sum(1 for r in self._live if r.connection.address == conn.address)
            if same_address >= limits.per_address:
                raise ProtocolError(
                    "too-many-runs",
                    "watch.error.too-many-runs.address",
                    spec.run,
                    max=limits.per_address,
                )
            if len(self._live) >= limits.total:
                raise ProtocolError("too-many-runs", "watch.error.too-many-runs.server", spec.run)
            conn.runs[spec.run] = run
            self._live.add(run)
        try:
            run.thread = self._start_task(run.execute)
        except Exception:
            self._exited(run)
            raise
        return run

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
        run = self._find(conn, run_id)
        if run is not None:
            run.stop()
        return run

    def _exited(self, run: Run) -> None:
        with self._lock:
            self._live.discard(run)
            conn = run.connection
            if conn.runs.get(run.id) is run:
                del conn.runs[run.id]
            conn.recent.append(run.id)
            while len(conn.recent) > self.limits.recent_runs:
                conn.recent.popleft()

    # -- introspection (tests, benchmarks) ---------------------------------------------------
    def live_runs(self) -> list[Run]:
        with self._lock:
            return list(self._live)

    def live_count(self) -> int:
        with self._lock:
            return len(self._live)
