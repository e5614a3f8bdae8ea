"""A small in-process sliding-window rate limiter, per client, for costly intentions.

Usage in a view::

    from .ratelimit import limit

    @bp.post("/games")
    def create_game():
        limit("RATE_LIMIT_GAMES")  # raises RateLimited beyond the configured rate
        ...

The config value is ``"<count>/<period>"`` (period: ``second``, ``minute``, ``hour``,
``day`` or a number of seconds, e.g. ``"30/minute"``, ``"5/10"``), a bare count per
minute (``30``), or ``None`` / ``0`` / ``""`` to switch the limit off.  Each app has its
own limiters (``app.extensions["ratelimit"]``), so tests never share counts.

The window slides: a client may make ``count`` requests in any ``period`` seconds; the
``Retry-After`` is the time until its oldest counted request leaves the window.
Memory is bounded: at most ``count`` timestamps per client and ``MAX_CLIENTS`` clients
(idle clients are forgotten first).  Counts live in this process: with several worker
processes each one counts on its own (a shared store would be needed for a global
limit).  The client is ``request.remote_addr``; behind a reverse proxy wrap the app in
werkzeug's ``ProxyFix`` so that is the real client, not the proxy.

Reusable outside HTTP views (Socket.IO handlers): ``limiter(app, name).hit(key)``
returns ``None`` when allowed, else the seconds to wait.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from flask import Flask, current_app, request

PERIODS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}
RATE = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+(?:\.\d+)?|[a-z]+)\s*")
MAX_CLIENTS = 10_000
_CREATE = threading.Lock()


class RateLimited(Exception):
    """Too many requests; ``retry_after`` whole seconds until the next one is allowed."""

    def __init__(self, name: str, retry_after: float) -> None:
        super().__init__(f"{name}: retry after {retry_after:.1f} s")
        self.name = name
        self.retry_after = max(1, math.ceil(retry_after))


def parse_rate(value) -> tuple[int, float] | None:
    """``"30/minute"`` -> (30, 60.0); None when the limit is off."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(f"a rate limit must be like '30/minute', got {value!r}")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)  # from the environment: a bare count per minute
    if isinstance(value, int):
        count, period = value, 60.0
    else:
        match = RATE.fullmatch(str(value).lower())
        if not match:
            raise ValueError(f"a rate limit must be like '30/minute', got {value!r}")
        count, unit = int(match[1]), match[2]
        if unit[0].isdigit():
            period = float(unit)
        elif unit.removesuffix("s") in PERIODS:
            period = PERIODS[unit.removesuffix("s")]
        else:
            raise ValueError(f"unknown period in rate limit {value!r}")
    if count < 0 or not period > 0:
        raise ValueError(f"a rate limit needs a count >= 0 and a period > 0, got {value!r}")
    return (count, period) if count else None


class SlidingWindowLimiter:
    """At most ``count`` hits per key in any ``period`` seconds."""

    def __init__(
        self,
        count: int,
        period: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_CLIENTS,
    ) -> None:
        self.count, self.period, self.clock, self.max_keys = count, period, clock, max_keys
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()

    def hit(self, key: str) -> float | None:
        """Count one hit for ``key``: None when allowed, else seconds until one would be."""
        now = self.clock()
        with self._lock:
            hits = self._hits.get(key)
            if hits is None:
                self._make_room(now)
                hits = self._hits[key] = deque()
            else:
                self._hits.move_to_end(key)
            while hits and hits[0] <= now - self.period:
                hits.popleft()
            if len(hits) >= self.count:
                return hits[0] + self.period - now
            hits.append(now)
            return None

    def _make_room(self, now: float) -> None:
        """Forget idle clients, and the least recent ones beyond ``max_keys``: O(1) amortised.

        Clients are kept in the order they were last seen, so the idle ones are in front.
        """
        while self._hits:
            key, hits = next(iter(self._hits.items()))
            if len(self._hits) < self.max_keys and hits and hits[-1] > now - self.period:
                return
            del self._hits[key]

    def reset(self) -> None:
        with self._lock:
            self._hits.clear()

    def __len__(self) -> int:
        return len(self._hits)


def limiter(app: Flask, name: str) -> SlidingWindowLimiter | None:
    """The app's limiter for config key ``name`` (None when that limit is off)."""
    limiters = app.extensions.setdefault("ratelimit", {})
    if name not in limiters:
        with _CREATE:
            if name not in limiters:
                rate = parse_rate(app.config.get(name))
                limiters[name] = SlidingWindowLimiter(*rate) if rate else None
    return limiters[name]


def client_key() -> str:
    return request.remote_addr or "unknown"


def limit(name: str, key: str | None = None) -> None:
    """Count this request against limit ``name``; raise :class:`RateLimited` beyond it."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    active = limiter(app, name)
    if active is None:
        return
    wait = active.hit(key or client_key())
    if wait is not None:
        raise RateLimited(name, wait)
