"""The latest state, at most so often: what students cause on the teacher's page.

Every student who joins, leaves, enters a name, answers or solves changes what the
teacher's page shows (``presence``, ``quiz_scores``, ``quiz_tally``, ``leaderboard``).
Sent at each change, a script that enters 1,000 names sends the teacher's page 1,000
full score lists.  :class:`Throttle` sends each such event of a room at most once per
``interval``: the first at once, those that come sooner are folded into one send at the
end of the interval, whose data is read *then* (the latest state, never an old one).

A send of a key is serialised with the other sends of that key, so two never overtake
each other with older data.  No Flask here: the caller passes how to start a background
task and how to run a send inside the app.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

PURGE_EVERY = 256  # requests between two sweeps of the idle keys

log = logging.getLogger(__name__)


@dataclass
class _Slot:
    last: float = float("-inf")  # when the last send started
    pending: Callable[[], None] | None = None  # the send waiting for the interval's end
    sending: threading.Lock = field(default_factory=threading.Lock)


class Throttle:
    def __init__(
        self,
        interval: float,
        start_task: Callable[..., object],
        run: Callable[[Callable[[], None]], object] = lambda send: send(),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self.start_task = start_task
        self.run = run  # how a late send runs (inside the app's context)
        self.clock = clock
        self.sleep = sleep
        self._slots: dict[Hashable, _Slot] = {}
        self._lock = threading.Lock()
        self._requests = 0

    def request(self, key: Hashable, send: Callable[[], None]) -> None:
        """``send()`` now when the key's last send is an interval old, else once at the end
        of the interval (the newest ``send`` requested meanwhile; it reads the state then)."""
        with self._lock:
            self._requests += 1
            if self._requests % PURGE_EVERY == 0:
                self._purge()
            slot = self._slots.setdefault(key, _Slot())
            if slot.pending is not None:
                slot.pending = send  # one is due already: it will read the latest
                return
            wait = slot.last + self.interval - self.clock()
            if wait > 0:
                slot.pending = send
                self.start_task(self._later, key, slot, wait)
                return
            slot.last = self.clock()
        with slot.sending:
            send()

    def _later(self, key: Hashable, slot: _Slot, wait: float) -> None:
        self.sleep(wait)
        with self._lock:
            send, slot.pending = slot.pending, None
            slot.last = self.clock()
        if send is None:  # pragma: no cover - a slot is only scheduled with a send
            return
        with slot.sending:
            try:
                self.run(send)
            except Exception:  # a background task: nobody else would see it
                log.exception("a throttled send of %r failed", key)

    def forget(self, match: Callable[[Hashable], bool]) -> None:
        """Drop the idle keys ``match`` selects (a room that closed)."""
        with self._lock:
            for key in [k for k, s in self._slots.items() if match(k) and s.pending is None]:
                del self._slots[key]

    def _purge(self) -> None:
        old = self.clock() - 10 * self.interval
        for key in [k for k, s in self._slots.items() if s.pending is None and s.last < old]:
            del self._slots[key]
