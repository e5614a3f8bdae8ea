"""What the handler threads hand a run's task, under one condition: credit, stop, a seek.

The Socket.IO handlers run in threads of their own and a run's task in another
(server/stream/run.py).  Everything they share is here, behind one
``threading.Condition``, so the task can sleep while it has nothing to do and wake at
once when a handler gives it something:

* credit: the events the viewer allows in flight; the task takes a batch only while it
  has some, so a viewer that stops granting pauses the search itself;
* the stop flag, set by ``stop``, by a disconnect or when the run is paused too long;
* a seek the task has not taken yet (a newer one replaces it), and whether the task
  still takes seeks: once it is ending, a seek waits for the run to be restarted;
* the gate: the handler's thread whose acknowledgement must reach the viewer before the
  task's next message does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .spec import SeekMessage


class Flow:
    """One run's credit, stop flag, waiting seek and gate; thread-safe."""

    def __init__(
        self,
        window: int,
        *,
        max_credit: int,
        batch_size: int,
        max_pause: float,
        clock: Callable[[], float],
        gate: threading.Thread | None = None,
    ) -> None:
        self.credit = window
        self.window = window
        self.stop_event = threading.Event()
        self.seek: SeekMessage | None = None  # a seek the task has not taken yet
        self.gate = gate
        self.accepting = True  # whether the task still takes seeks (else: restart it)
        self.restart_wanted = False  # a seek came while the task was ending
        self._max_credit = max_credit
        self._batch_size = batch_size
        self._max_pause = max_pause
        self._clock = clock
        self._cond = threading.Condition()

    @property
    def stopped(self) -> bool:
        return self.stop_event.is_set()

    # -- the handler threads ---------------------------------------------------------------
    def grant(self, events: int) -> int:
        """Add credit, capped at the outstanding maximum; how much was added."""
        with self._cond:
            before = self.credit
            self.credit = min(self.credit + events, self._max_credit)
            self._cond.notify_all()
            return self.credit - before

    def stop(self) -> None:
        self.stop_event.set()
        with self._cond:
            self._cond.notify_all()

    def offer(self, seek: SeekMessage, gate: threading.Thread | None = None) -> bool:
        """Hand ``seek`` to the task (replacing one not taken yet); False when the task is
        ending, and the run must be restarted for it (the seek is kept for the restart)."""
        with self._cond:
            self.seek = seek
            if not self.accepting:
                self.restart_wanted = True
                return False
            if gate is not None:
                self.gate = gate
            self._cond.notify_all()
            return True

    def reopen(self, gate: threading.Thread | None) -> None:
        """Before the task runs again (a parked run, or one restarted for a seek)."""
        with self._cond:
            self.accepting = True
            self.restart_wanted = False
            self.gate = gate

    # -- the task ------------------------------------------------------------------------------
    def room(self) -> tuple[int, float]:
        """(events the next batch may hold, seconds spent waiting for them); the room is 0
        when the run must stop or a seek waits."""
        with self._cond:
            if self.stop_event.is_set() or self.seek is not None:
                return 0, 0.0
            if self.credit > 0:
                return min(self.credit, self._batch_size), 0.0
            paused_at = self._clock()
            while self.credit <= 0 and not self.stop_event.is_set() and self.seek is None:
                left = paused_at + self._max_pause - self._clock()
                if left <= 0:
                    self.stop_event.set()  # paused too long
                    break
                self._cond.wait(timeout=min(left, 1.0))
            paused = self._clock() - paused_at
            if self.stop_event.is_set() or self.seek is not None:
                return 0, paused
            return min(self.credit, self._batch_size), paused

    def spend(self, events: int) -> None:
        with self._cond:
            self.credit -= events

    def take_seek(self) -> SeekMessage | None:
        with self._cond:
            seek, self.seek = self.seek, None
            return seek

    def refill(self, window: int | None) -> None:
        """After a snapshot: the credit is the seek's window (or the one before) again."""
        with self._cond:
            if window is not None:
                self.window = window
            self.credit = self.window

    def take_gate(self) -> threading.Thread | None:
        gate, self.gate = self.gate, None
        return gate

    def close_unless_seeking(self) -> bool:
        """At the stream's end: stop taking seeks, unless one waits (then False)."""
        with self._cond:
            if self.seek is not None:
                return False
            self.accepting = False
            return True

    def close(self) -> None:
        """The task is ending: a seek from now on restarts the run."""
        with self._cond:
            self.accepting = False
