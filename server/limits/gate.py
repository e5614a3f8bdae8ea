"""Turns at the class's message handlers: a few at a time, the fairest first.

A script from one address can keep a hundred class messages in flight; each is handled
in a thread of its own, and most write to the database.  Run all at once they queue on
SQLite's one writer, whose busy handler polls (the next writer is whoever wakes first,
not whoever came first), and on the GIL, and the teacher's next click waits behind
them all.  :class:`FairGate` lets ``slots`` handlers run at a time; a freed slot goes
to the waiter of the highest priority (a room's teacher), then to the one whose key
(client address) holds the fewest slots, then to the earliest.  One address's flood so
waits behind its own messages while every other address's go by.

A key may keep at most ``per_key`` waiters (more are refused at once), and a waiter
waits at most ``wait`` seconds: the threads and the time a flood can hold are bounded.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field


class GateBusy(Exception):
    """No turn: the key's queue is full, or no slot came free in time."""


@dataclass(eq=False)
class _Waiter:
    key: Hashable
    priority: int
    seq: int
    granted: threading.Event = field(default_factory=threading.Event)


class FairGate:
    def __init__(self, slots: int, *, wait: float, per_key: int) -> None:
        self.slots = slots
        self.wait = wait
        self.per_key = per_key
        self._lock = threading.Lock()
        self._running = 0
        self._held: Counter = Counter()  # key: slots it holds
        self._queued: Counter = Counter()  # key: its waiters
        self._waiters: list[_Waiter] = []
        self._seq = itertools.count()

    def acquire(self, key: Hashable, priority: int = 0) -> None:
        """Take one slot (call :meth:`release` after); :class:`GateBusy` when none can be had."""
        with self._lock:
            if self._running < self.slots and not self._waiters:
                self._take(key)
                return
            if self._queued[key] >= self.per_key:
                raise GateBusy
            waiter = _Waiter(key, priority, next(self._seq))
            self._waiters.append(waiter)
            self._queued[key] += 1
        if waiter.granted.wait(self.wait):
            return
        with self._lock:
            if waiter.granted.is_set():  # granted as the wait ran out: the slot is ours
                return
            self._waiters.remove(waiter)
            self._dequeued(key)
        raise GateBusy

    def release(self, key: Hashable) -> None:
        with self._lock:
            self._running -= 1
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]
            if self._waiters:
                best = min(self._waiters, key=lambda w: (-w.priority, self._held[w.key], w.seq))
                self._waiters.remove(best)
                self._dequeued(best.key)
                self._take(best.key)
                best.granted.set()

    def _take(self, key: Hashable) -> None:
        self._running += 1
        self._held[key] += 1

    def _dequeued(self, key: Hashable) -> None:
        self._queued[key] -= 1
        if self._queued[key] <= 0:
            del self._queued[key]

    @property
    def waiting(self) -> int:
        with self._lock:
            return len(self._waiters)
