"""A memory budget for what the server keeps only to be quick: kept search timelines.

A finished /watch run keeps its timeline so its viewer can seek back into it
(server/stream/runs.py).  Such a thing is *kept*, not needed: dropping it costs a
recomputation later, never an answer.  Each kept thing is registered here with its
owner's client address and its size (an estimate,
:attr:`server.stream.timeline.Timeline.nbytes`); when an address keeps more than
``per_address`` bytes, or everybody together more than ``total``, the least recently
used are evicted (their ``evict`` callback frees them) until both fit again.  So one
address cannot fill the server's memory, and the whole server keeps at most ``total``
bytes of them however many connections come.

A class room's demo is *in use* while the room has members here
(server/classroom/feed.py): its timeline is *pinned* (:meth:`MemoryBudget.pin`), counted
against the address that opened the room and the total like a kept thing, but never
evicted.  Pinned bytes push kept ones out instead, and an address whose pinned bytes
alone fill its share has no room (:meth:`MemoryBudget.has_room`): its rooms' searches
wait rather than grow.  The number of rooms is capped too (server/classroom/rooms.py),
so pinned memory is bounded however the rooms are used.

Freed memory goes back to the system: CPython and glibc's malloc keep freed blocks
for reuse, so after a large release (a crowd of connections gone) :func:`trim_heap`
asks glibc (``malloc_trim``) to return what it can, at most once a second.

Thread-safe; no Flask.  A budget of 0 bytes keeps nothing; ``None`` does not limit.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

MB = 1024 * 1024
TRIM_AFTER = 8 * MB  # bytes released before the heap is trimmed
TRIM_DELAY = 1.0  # seconds: releases that come together are trimmed once


@dataclass(eq=False)
class Kept:
    """One kept thing: whose it is, how big, and how to free it (None: pinned)."""

    address: str
    nbytes: int
    evict: Callable[[], None] | None

    @property
    def pinned(self) -> bool:
        return self.evict is None


class MemoryBudget:
    """Bytes of kept things per client address and in all; the oldest evicted first."""

    def __init__(self, per_address: int | None, total: int | None) -> None:
        self.per_address = per_address
        self.total = total
        self._lock = threading.Lock()
        self._kept: OrderedDict[Kept, None] = OrderedDict()  # least recently used first
        self._by_address: dict[str, int] = {}
        self._pinned_by_address: dict[str, int] = {}
        self._used = 0

    def keep(self, address: str, nbytes: int, evict: Callable[[], None]) -> tuple[Kept, list[Kept]]:
        """Register a kept thing (the most recently used): it, and the things to evict
        (maybe it) so the limits hold again.  The caller runs :meth:`evict` on those once
        it holds no lock of its own (the callbacks may take them)."""
        return self._add(Kept(address, max(0, int(nbytes)), evict))

    def pin(self, address: str, nbytes: int) -> tuple[Kept, list[Kept]]:
        """Register a thing in use: counted, never evicted; the kept things to evict."""
        return self._add(Kept(address, max(0, int(nbytes)), None))

    def resize(self, item: Kept, nbytes: int) -> list[Kept]:
        """``item`` (still registered) is now ``nbytes``; the kept things to evict."""
        nbytes = max(0, int(nbytes))
        with self._lock:
            if item not in self._kept:
                return []
            self._count(item, -1)
            item.nbytes = nbytes
            self._count(item, +1)
            return self._over_limits(item.address)

    def has_room(self, address: str) -> bool:
        """Whether ``address``'s pinned things leave room in its share (they may grow)."""
        with self._lock:
            pinned = self._pinned_by_address.get(address, 0)
        return self.per_address is None or pinned < self.per_address

    def _add(self, item: Kept) -> tuple[Kept, list[Kept]]:
        with self._lock:
            self._kept[item] = None
            self._count(item, +1)
            return item, self._over_limits(item.address)

    def touch(self, item: Kept) -> None:
        """``item`` was used: the last to be evicted."""
        with self._lock:
            if item in self._kept:
                self._kept.move_to_end(item)

    def forget(self, item: Kept | None) -> bool:
        """``item`` is no longer kept (freed, or in use again); whether it was."""
        if item is None:
            return False
        with self._lock:
            if item not in self._kept:
                return False
            self._remove(item)
        release(item.nbytes)
        return True

    def used(self, address: str | None = None) -> int:
        with self._lock:
            return self._used if address is None else self._by_address.get(address, 0)

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    # -- inside the lock --------------------------------------------------------------------
    def _remove(self, item: Kept) -> None:
        del self._kept[item]
        self._count(item, -1)

    def _count(self, item: Kept, step: int) -> None:
        counters = (self._by_address, self._pinned_by_address)
        for counter in counters if item.pinned else counters[:1]:
            left = counter.get(item.address, 0) + step * item.nbytes
            if left:
                counter[item.address] = left
            else:
                counter.pop(item.address, None)
        self._used += step * item.nbytes

    def _over_limits(self, address: str) -> list[Kept]:
        evicted = []
        if self.per_address is not None:
            for item in [k for k in self._kept if k.address == address and not k.pinned]:
                if self._by_address.get(address, 0) <= self.per_address:
                    break
                self._remove(item)
                evicted.append(item)
        if self.total is not None and self._used > self.total:
            for item in [k for k in self._kept if not k.pinned]:
                if self._used <= self.total:
                    break
                self._remove(item)
                evicted.append(item)
        return evicted

    @staticmethod
    def evict(evicted: list[Kept]) -> None:
        """Free what :meth:`keep` said to evict."""
        for item in evicted:
            try:
                item.evict()
            except Exception:  # pragma: no cover - a bug in a callback must not spread
                log.exception("evicting a kept item")
            release(item.nbytes)


# -- giving memory back -------------------------------------------------------------------
def _load_malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim  # glibc only (not musl, not macOS)
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_malloc_trim = _load_malloc_trim()
_released = 0
_timer: threading.Timer | None = None
_guard = threading.Lock()
trims = 0  # how many times the heap was trimmed (tests, benchmarks)


def release(nbytes: int) -> None:
    """``nbytes`` were just freed: once enough were, trim the heap (soon, and once)."""
    global _released, _timer
    if _malloc_trim is None:
        return
    with _guard:
        _released += nbytes
        if _released < TRIM_AFTER or _timer is not None:
            return
        _timer = threading.Timer(TRIM_DELAY, _trim_now)
        _timer.daemon = True
        _timer.name = "trim-heap"
        _timer.start()


def _trim_now() -> None:
    global _released, _timer
    with _guard:
        _released = 0
        _timer = None
    trim_heap()


def trim_heap() -> bool:
    """Give the freed parts of the C heap back to the system (glibc); whether it could.

    ctypes releases the GIL during the call, so other threads go on meanwhile.
    """
    global trims
    if _malloc_trim is None:
        return False
    began = time.perf_counter()
    _malloc_trim(0)
    trims += 1
    log.debug("malloc_trim took %.1f ms", (time.perf_counter() - began) * 1000)
    return True
