"""Per-client rate limits for costly intentions, on the ``limits`` library (Flask-Limiter's core).

Usage in a view::

    from .ratelimit import limit

    @bp.post("/games")
    def create_game():
        limit("RATE_LIMIT_GAMES")  # raises RateLimited beyond the configured rate
        ...

The config value is ``"<count>/<period>"`` (period: ``second``, ``minute``, ``hour``,
``day`` or a whole number of seconds, e.g. ``"30/minute"``, ``"5/10"``), a bare count per
minute (``30``), or ``None`` / ``0`` / ``""`` to switch the limit off.

The window moves (``limits``' moving-window strategy): a client may make ``count``
requests in any ``period`` seconds, and ``Retry-After`` is the time until its oldest
counted request leaves the window.

Where the counts live is ``RATE_LIMIT_STORAGE``, a ``limits`` storage URI.  By default
it is this process's memory, or, when the Socket.IO message queue is a Redis URL, that
Redis, so several server processes count together (a client cannot multiply its
allowance by landing on other workers).  Each app has its own in-memory storage, so
tests never share counts.  If the shared store is unreachable the limit lets requests
through (logged, and the store is not asked again for a few seconds, so requests do
not each wait for its timeout): a broken limiter must not take the game down.

The client is ``request.remote_addr``; behind a reverse proxy set ``PROXY_FIX`` (see
server/app.py) so that is the real client, not the proxy.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time

from flask import Flask, current_app, request
from limits import RateLimitItemPerSecond
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
RATE = re.compile(r"\s*(\d+)\s*(?:/|per)\s*(\d+|[a-z]+)\s*")
MEMORY = "memory://"
RETRY_STORAGE_AFTER = 5.0  # seconds without asking a store that just failed
_CREATE = threading.Lock()


class RateLimited(Exception):
    """Too many requests; ``retry_after`` whole seconds until the next one is allowed."""

    def __init__(self, name: str, retry_after: float) -> None:
        super().__init__(f"{name}: retry after {retry_after:.1f} s")
        self.name = name
        self.retry_after = max(1, math.ceil(retry_after))


def parse_rate(value) -> tuple[int, int] | None:
    """``"30/minute"`` -> (30, 60); None when the limit is off; ValueError when malformed."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(f"a rate limit must be like '30/minute', got {value!r}")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)  # from the environment: a bare count per minute
    if isinstance(value, int):
        count, period = value, 60
    else:
        match = RATE.fullmatch(str(value).lower())
        if not match:
            raise ValueError(f"a rate limit must be like '30/minute', got {value!r}")
        count, unit = int(match[1]), match[2]
        if unit.isdigit():
            period = int(unit)
        elif unit.removesuffix("s") in PERIODS:
            period = PERIODS[unit.removesuffix("s")]
        else:
            raise ValueError(f"unknown period in rate limit {value!r}")
    if count < 0 or not period > 0:
        raise ValueError(f"a rate limit needs a count >= 0 and a period > 0, got {value!r}")
    return (count, period) if count else None


def storage_uri(config) -> str:
    """``RATE_LIMIT_STORAGE``, else the message queue when it is Redis, else memory."""
    configured = config.get("RATE_LIMIT_STORAGE")
    if configured:
        return str(configured)
    queue = config.get("SOCKETIO_MESSAGE_QUEUE") or ""
    if str(queue).startswith(("redis://", "rediss://", "unix://")):
        return str(queue)
    return MEMORY


def check_storage_uri(uri: str) -> None:
    """ValueError for a URI ``limits`` cannot use (checked at start, not per request)."""
    scheme = uri.split("://", 1)[0] if "://" in uri else ""
    if scheme not in ("memory", "redis", "rediss", "unix"):
        raise ValueError(f"RATE_LIMIT_STORAGE must be memory:// or a redis:// URL, got {uri!r}")


class Limit:
    """At most ``count`` hits per client in any ``period`` seconds, for config key ``name``."""

    def __init__(self, name: str, count: int, period: int, storage: Storage) -> None:
        self.name, self.count, self.period = name, count, period
        self.item = RateLimitItemPerSecond(count, period, namespace="knights-tour")
        self.strategy = MovingWindowRateLimiter(storage)
        self._last_warning = float("-inf")
        self._down_until = float("-inf")

    def hit(self, key: str) -> float | None:
        """Count one hit for ``key``: None when allowed, else seconds until one would be."""
        if time.monotonic() < self._down_until:  # it failed a moment ago: don't wait again
            return None
        try:
            if self.strategy.hit(self.item, self.name, key):
                return None
            reset_at = self.strategy.get_window_stats(self.item, self.name, key).reset_time
        except Exception:  # the shared store is down: let requests through, say so
            now = time.monotonic()
            self._down_until = now + RETRY_STORAGE_AFTER
            if now - self._last_warning > 60:
                self._last_warning = now
                log.warning("rate limit %s: storage unavailable, not limiting", self.name)
            return None
        return max(0.0, reset_at - time.time())

    def reset(self) -> None:
        self.strategy.storage.reset()


def _storage(app: Flask) -> Storage:
    state = app.extensions.setdefault("ratelimit", {})
    if "storage" not in state:
        uri = storage_uri(app.config)
        # a request must never hang on an unreachable Redis: short timeouts unless the
        # URL sets its own (redis-py lets the URL's options win)
        options = {} if uri == MEMORY else {"socket_connect_timeout": 1, "socket_timeout": 1}
        state["storage"] = storage_from_string(uri, **options)
    return state["storage"]


def limiter(app: Flask, name: str) -> Limit | None:
    """The app's limit for config key ``name`` (None when that limit is off)."""
    state = app.extensions.setdefault("ratelimit", {})
    limits = state.setdefault("limits", {})
    if name not in limits:
        with _CREATE:
            if name not in limits:
                rate = parse_rate(app.config.get(name))
                limits[name] = Limit(name, *rate, _storage(app)) if rate else None
    return limits[name]


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
