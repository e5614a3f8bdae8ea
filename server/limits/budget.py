"""The CPU the searches may take: a budget per client address, and one search per core.

Some requests search (a worksheet's solution, a hint, the early warning after a move,
the editor's verdict, a /watch run computing).  Each search is bounded in time, but
nothing bounded how many: one client looping over them kept every core busy and made
the pages everybody else loads slow.  Two limits, shared by every search of a process:

* :class:`SearchBudget`: each client address has a bucket of search-seconds
  (``burst``, refilled at ``refill`` seconds per second), charged with the CPU time its
  searches actually used (``time.thread_time``: a cached answer or a wait costs
  nothing).  While the bucket is empty the address's searches are refused
  (:class:`OverBudget`, with the seconds until it has some again).
* :class:`SearchSlots`: at most ``slots`` searches run at once (one per core), at most
  ``per_address`` of them from one address, so an address never holds every core.  The
  others wait their turn for at most ``wait`` seconds in a bounded queue, else are
  refused (:class:`Busy`); a free slot goes to the waiting address served least
  recently, so one address's searches queued in a row do not keep the others waiting.

:class:`Searches` holds both.  The web layer names who pays for the searches of a
request with :func:`charged_to`; the code that searches (server/game/rules.py,
server/game/verdicts.py) wraps each search in :func:`searching`, which does nothing
when nobody pays (the CLI, a script).  A /watch run's task calls
:meth:`Searches.compute`, which waits for the budget and a slot instead of refusing.

Thread-safe; no Flask.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import TypeVar

T = TypeVar("T")

FORGET_AFTER = 4096  # addresses in the budget before the full buckets are forgotten
RUN_WAIT = 0.5  # seconds a run's task waits for a slot between two looks at its stop


class Refused(Exception):
    """A search that may not run now; ``retry_after`` whole seconds (at least 1)."""

    code = ""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"{self.code}: retry in {self.retry_after} s")


class OverBudget(Refused):
    """The client address has used its search-seconds."""

    code = "over-budget"


class Busy(Refused):
    """Every search slot is taken and the wait for one ran out (or the queue is full)."""

    code = "busy"


class SearchBudget:
    """A bucket of search-seconds per client address (see the module docstring)."""

    def __init__(
        self, burst: float, refill: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst, self.refill, self.clock = float(burst), float(refill), clock
        self._lock = threading.Lock()
        self._buckets: dict[str, list[float]] = {}  # address -> [level, when]

    def _level(self, address: str, now: float) -> list[float]:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= FORGET_AFTER:
                self._forget_full(now)
            bucket = self._buckets[address] = [self.burst, now]
        else:
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.refill)
            bucket[1] = now
        return bucket

    def _forget_full(self, now: float) -> None:
        """A full bucket says nothing: forget those (the memory stays bounded)."""
        for address, (level, when) in list(self._buckets.items()):
            if level + (now - when) * self.refill >= self.burst:
                del self._buckets[address]

    def level(self, address: str) -> float:
        """The search-seconds ``address`` has now (below 0: its debt)."""
        with self._lock:
            return self._level(address, self.clock())[0]

    def check(self, address: str) -> None:
        """OverBudget unless ``address`` has search-seconds left."""
        with self._lock:
            level = self._level(address, self.clock())[0]
        if level <= 0:
            raise OverBudget(-level / self.refill if self.refill else 3600)

    def charge(self, address: str, seconds: float) -> None:
        with self._lock:
            self._level(address, self.clock())[0] -= seconds

    def __len__(self) -> int:
        with self._lock:
            return len(self._buckets)


class _Waiter:
    __slots__ = ("address", "counted", "event", "granted")

    def __init__(self, address: str, counted: bool) -> None:
        self.address = address
        self.counted = counted  # against the queue's bounds (a run's task is not)
        self.event = threading.Event()
        self.granted = False


class SearchSlots:
    """At most ``slots`` searches at once, ``per_address`` from one address; a bounded,
    first-come-first-served queue waits at most ``wait`` seconds (see the module)."""

    def __init__(
        self,
        slots: int,
        *,
        wait: float,
        per_address: int | None = None,
        queue: int | None = None,
        queue_per_address: int | None = None,
    ) -> None:
        self.slots = max(1, slots)
        self.per_address = per_address or max(1, self.slots // 2)
        self.wait = wait
        self.queue = queue if queue is not None else 16 * self.slots
        self.queue_per_address = queue_per_address or 4 * self.slots
        self._lock = threading.Lock()
        self._free = self.slots
        self._running: dict[str, int] = {}
        self._waiting: deque[_Waiter] = deque()
        self._queued = 0  # waiters counted against the queue's bounds
        self._waiting_by: dict[str, int] = {}
        self._turn = 0
        self._turns: dict[str, int] = {}  # address -> the turn it last got a slot

    def acquire(self, address: str, wait: float | None = None, *, counted: bool = True) -> None:
        """Take a slot for ``address``, waiting at most ``wait`` seconds; Busy otherwise.

        A waiter that is not ``counted`` (a /watch run's task, which waits as long as it
        must) takes its turn like the others but never fills the queue for requests.
        """
        wait = self.wait if wait is None else wait
        with self._lock:
            # after every release the queue got what it could: a free slot now means
            # nobody waiting may take it, so a newcomer that may does not jump the queue
            if self._free and self._running.get(address, 0) < self.per_address:
                self._take(address)
                return
            if wait <= 0 or (
                counted
                and (
                    self._queued >= self.queue
                    or self._waiting_by.get(address, 0) >= self.queue_per_address
                )
            ):
                raise Busy(max(wait, 1.0))
            waiter = _Waiter(address, counted)
            self._waiting.append(waiter)
            if counted:
                self._queued += 1
                self._waiting_by[address] = self._waiting_by.get(address, 0) + 1
        waiter.event.wait(wait)
        with self._lock:
            if waiter.granted:
                return
            self._waiting.remove(waiter)
            self._unwait(waiter)
            if address not in self._running and not self._waits(address):
                self._turns.pop(address, None)
        raise Busy(wait)

    def release(self, address: str) -> None:
        with self._lock:
            left = self._running[address] - 1
            if left:
                self._running[address] = left
            else:
                del self._running[address]
            self._free += 1
            while self._free:
                waiter = self._next_waiter()
                if waiter is None:
                    break
                self._waiting.remove(waiter)
                self._unwait(waiter)
                self._take(waiter.address)
                waiter.granted = True
                waiter.event.set()
            if address not in self._running and not self._waits(address):
                self._turns.pop(address, None)

    def _next_waiter(self) -> _Waiter | None:
        """The waiter whose address was served least recently (in turn among equals):
        one address's queue of searches does not keep another's behind it all."""
        best, best_turn = None, None
        for waiter in self._waiting:
            if self._running.get(waiter.address, 0) >= self.per_address:
                continue
            turn = self._turns.get(waiter.address, -1)
            if best is None or turn < best_turn:
                best, best_turn = waiter, turn
        return best

    def _waits(self, address: str) -> bool:
        return any(waiter.address == address for waiter in self._waiting)

    def _take(self, address: str) -> None:
        self._free -= 1
        self._running[address] = self._running.get(address, 0) + 1
        self._turn += 1
        self._turns[address] = self._turn

    def _unwait(self, waiter: _Waiter) -> None:
        if not waiter.counted:
            return
        self._queued -= 1
        address = waiter.address
        left = self._waiting_by[address] - 1
        if left:
            self._waiting_by[address] = left
        else:
            del self._waiting_by[address]

    def running(self, address: str | None = None) -> int:
        with self._lock:
            if address is None:
                return self.slots - self._free
            return self._running.get(address, 0)

    def waiting(self) -> int:
        """Requests waiting (runs' tasks not counted)."""
        with self._lock:
            return self._queued

    def full(self) -> bool:
        with self._lock:
            return self._queued >= self.queue

    @contextmanager
    def hold(self, address: str, wait: float | None = None) -> Iterator[None]:
        """A slot for the block (tests hold them to make the server busy)."""
        self.acquire(address, wait)
        try:
            yield
        finally:
            self.release(address)


class Searches:
    """The budget and the slots of one app (either may be None: not limited)."""

    def __init__(self, budget: SearchBudget | None, slots: SearchSlots | None) -> None:
        self.budget = budget
        self.slots = slots
        self._lock = threading.Lock()
        self.searches = 0  # how many ran, and their CPU seconds (tests, benchmarks)
        self.seconds = 0.0

    def check(self, address: str) -> None:
        """Before starting something that will search: OverBudget while the address has
        no search-seconds, Busy while the queue for a slot is full."""
        if self.budget is not None:
            self.budget.check(address)
        slots = self.slots
        if slots is not None and slots.full():
            raise Busy(slots.wait)

    @contextmanager
    def search(self, address: str, wait: float | None = None, *, counted=True) -> Iterator[None]:
        """One search for ``address``: admitted by its budget, in a slot, charged.
        (``counted``: see :meth:`SearchSlots.acquire`.)"""
        if self.budget is not None:
            self.budget.check(address)
        if self.slots is not None:
            self.slots.acquire(address, wait, counted=counted)
        began = time.thread_time()
        try:
            yield
        finally:
            used = time.thread_time() - began
            if self.slots is not None:
                self.slots.release(address)
            self._charge(address, used)

    def _charge(self, address: str, used: float) -> None:
        if self.budget is not None:
            self.budget.charge(address, used)
        with self._lock:
            self.searches += 1
            self.seconds += used

    def attempt(self, address: str, work: Callable[[], T], wait: float) -> T:
        """``work()`` as one search of ``address`` if a slot comes within ``wait``
        seconds: the background's way in (a /watch run's task, a class room's feed),
        taking turns with requests but never filling their queue.  Refused otherwise."""
        with self.search(address, wait, counted=False):
            return work()

    def compute(self, address: str, work: Callable[[], T], stop: threading.Event) -> T | None:
        """``work()`` as one search of ``address``, waiting (not refused) for the budget
        and a slot; None, without running it, once ``stop`` is set meanwhile."""
        while not stop.is_set():
            try:
                return self.attempt(address, work, RUN_WAIT)
            except OverBudget as err:
                stop.wait(min(err.retry_after, 1.0))
            except Busy:  # waited RUN_WAIT: look at the stop, then wait again
                continue
        return None


def default_slots(engine: str) -> int:
    """One per core; one when the Python engine runs (its searches hold the GIL)."""
    if engine == "python":
        return 1
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# -- who pays for the searches of this request ---------------------------------------------
_payer: ContextVar[tuple[Searches, str] | None] = ContextVar("search_payer", default=None)
_inside: ContextVar[bool] = ContextVar("inside_a_search", default=False)


def start_paying(searches: Searches | None, address: str) -> Token:
    """From now on this context's searches are ``address``'s, limited by ``searches``
    (until :func:`stop_paying` with the token returned)."""
    return _payer.set(None if searches is None else (searches, address))


def stop_paying(token: Token) -> None:
    _payer.reset(token)


@contextmanager
def charged_to(searches: Searches | None, address: str) -> Iterator[None]:
    """The searches of the block are ``address``'s, limited by ``searches``."""
    token = start_paying(searches, address)
    try:
        yield
    finally:
        stop_paying(token)


def payer() -> tuple[Searches, str] | None:
    return _payer.get()


@contextmanager
def searching() -> Iterator[None]:
    """Run the block as one search of whoever pays (see :func:`charged_to`).

    Refused with OverBudget or Busy; nothing happens when nobody pays, or inside
    another search (that one holds the slot and is charged for it all).
    """
    who = _payer.get()
    if who is None or _inside.get():
        yield
        return
    searches, address = who
    with searches.search(address):
        token = _inside.set(True)
        try:
            yield
        finally:
            _inside.reset(token)
