"""Per-client HTTP rate limits for costly intentions, on Flask-Limiter.

A view names the setting that holds its limit::

    @bp.post("/games")
    @rate_limited("RATE_LIMIT_GAMES")
    def create_game(): ...

and :func:`init_app` gives each app its own ``flask_limiter.Limiter`` and puts that
limiter's decorator on every such view, with the rate the setting holds.  One limiter
per app (not one per process) because each app has its own settings and, in memory, its
own counts: tests build many apps and must never share counts.  A refused request raises
``flask_limiter.RateLimitExceeded`` (a 429), which the view's blueprint answers in the
request's language; :func:`retry_after` says how long to wait.

The rates are Flask-Limiter's syntax (``"10 per hour"``, ``"60/minute"``,
``"5 per 10 seconds"``, several joined by ``;``); ``0`` switches a limit off.  The
window moves (the ``moving-window`` strategy): a client may make ``count`` requests in
any period, and refusals are not counted.  Responses of limited views carry
Flask-Limiter's ``X-RateLimit-*`` headers; a refusal carries ``Retry-After`` in whole
seconds, never 0.

The counts live in ``RATE_LIMIT_STORAGE``, else in the Socket.IO message queue when that
is Redis (several server processes count together: a client cannot multiply its
allowance by landing on other workers), else in this app's memory.  A shared store that
does not answer lets requests through (:class:`StoreHealth`): a broken limiter must not
take the game down.

What is not a view (a Socket.IO message, a page's answer known only once the view ran)
counts with :func:`charge` and asks with :func:`exceeded`, on the same store; a count it
shares with a view (``RATE_LIMIT_GAMES``: the class puzzle's games and ``POST
/api/games``) is that view's very count.

The client is ``request.remote_addr``; behind a reverse proxy set ``PROXY_FIX`` (see
server/app.py) so that is the real client, not the proxy.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable

from flask import Flask, current_app, g
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many
from limits.storage import Storage

from ..limits.rates import MEMORY, SHARED_SCHEMES, parse_rate

log = logging.getLogger(__name__)

RECHECK_AFTER = 5.0  # seconds between health checks of a shared store
WARN_EVERY = 60.0  # seconds between two warnings that it is down


def storage_uri(config) -> str:
    """``RATE_LIMIT_STORAGE``, else the message queue when it is Redis, else memory."""
    configured = config.get("RATE_LIMIT_STORAGE")
    if configured:
        return str(configured)
    queue = str(config.get("SOCKETIO_MESSAGE_QUEUE") or "")
    if queue.split("://", 1)[0] in SHARED_SCHEMES and "://" in queue:
        return queue
    return MEMORY


def rate_limited(
    setting: str,
    exempt_when: Callable[[], bool] | None = None,
    key: Callable[[], str] | None = None,
) -> Callable:
    """Mark a view as limited by the rate in config key ``setting`` (see :func:`init_app`);
    a request for which ``exempt_when()`` is true is neither counted nor refused.  ``key``
    says whose allowance a request uses (default: the client's address); a view may carry
    several limits, each with its own key (a device's and, more loosely, an address's)."""

    def mark(view: Callable) -> Callable:
        # innermost first: Flask-Limiter tests a view's limits in that order (for equal
        # periods) and stops at the first refusal, so a device refused is not also
        # charged to its address
        view.rate_limits = (*getattr(view, "rate_limits", ()), (setting, exempt_when, key))
        view.rate_limit_setting = setting  # the outermost: the address's
        return view

    return mark


def setting_of(endpoint: str | None) -> str | None:
    """The setting that limits the view at ``endpoint`` by address (None when it is not)."""
    view = current_app.view_functions.get(endpoint or "")
    return getattr(view, "rate_limit_setting", None)


class StoreHealth:
    """Fail open: while the shared store does not answer, requests are not counted.

    A Flask-Limiter request filter (it exempts a request when it returns True).  It asks
    the store (``Storage.check``, a ping) at most every few seconds, so while the store
    is down or wedged, requests neither fail nor each wait for its timeout; a warning is
    logged at most once a minute.  A failure between two checks is swallowed by
    Flask-Limiter (``swallow_errors``) and noticed at the next check.
    """

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        self.clock = clock
        self.healthy = True
        self._next_check = float("-inf")
        self._last_warning = float("-inf")
        self._checking = threading.Lock()

    def store_is_down(self) -> bool:
        now = self.clock()
        if now >= self._next_check and self._checking.acquire(blocking=False):
            try:
                self.healthy = bool(self.storage.check())
                self._next_check = self.clock() + RECHECK_AFTER
                if not self.healthy and now - self._last_warning >= WARN_EVERY:
                    self._last_warning = now
                    log.warning("rate limits: storage unavailable, not limiting")
            finally:
                self._checking.release()
        return not self.healthy


def init_app(app: Flask) -> Limiter:
    """Give ``app`` its limiter and limit each marked view by its setting's rate."""
    uri = storage_uri(app.config)
    # a request must never hang on an unreachable Redis: short timeouts unless the URL
    # sets its own (redis-py lets the URL's options win)
    options = {} if uri == MEMORY else {"socket_connect_timeout": 1, "socket_timeout": 1}

    @app.after_request
    def whole_seconds(response):
        """Flask-Limiter rounds ``Retry-After`` down (to 0 within the last second), and
        puts its own window's on every response of a view it limits, a 503 "busy" too.

        Registered before the limiter's own hook, so it runs after it (Flask runs
        after_request hooks in reverse) and has the last word on a refusal: whatever
        set ``g.retry_after`` (a rate limit, a spent search budget, no free search slot).
        """
        if "retry_after" in g:
            response.headers["Retry-After"] = str(g.retry_after)
        return response

    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=uri,
        storage_options=options,
        strategy="moving-window",
        headers_enabled=True,
        swallow_errors=True,
        key_prefix="knights-tour",
    )
    health = None
    if uri != MEMORY:
        health = StoreHealth(limiter.storage)
        limiter.request_filter(health.store_is_down)
    for endpoint, view in list(app.view_functions.items()):
        limited = view
        for setting, exempt_when, key in getattr(view, "rate_limits", ()):
            rate = parse_rate(app.config.get(setting))
            if rate:
                limited = limiter.limit(rate, key_func=key, exempt_when=exempt_when)(limited)
        app.view_functions[endpoint] = limited
    app.extensions["ratelimit"] = limiter
    app.extensions["ratelimit_health"] = health
    return limiter


def retry_after() -> int:
    """Whole seconds (at least 1) until the limit this request broke lets one more through."""
    breached = current_app.extensions["ratelimit"].current_limit
    if breached is None:  # not refused by a limit of this app's limiter
        return 60
    try:
        wait = breached.window.reset_time - time.time()
    except Exception:  # the store failed meanwhile: the whole period is a safe answer
        wait = breached.limit.get_expiry()
    g.retry_after = max(1, math.ceil(wait))
    return g.retry_after


# -- counts outside a view -------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _items(rate: str) -> tuple[RateLimitItem, ...]:
    return tuple(sorted(parse_many(rate)))


def _scope(setting: str) -> str:
    """The bucket a count outside a view goes to: the view's own when a view is limited by
    ``setting`` per address (so both count together), else the setting's name."""
    for endpoint, view in current_app.view_functions.items():
        if getattr(view, "rate_limit_setting", None) == setting:
            return endpoint
    return setting


def _counted(setting: str, key: str, count: bool) -> int | None:
    rate = parse_rate(current_app.config.get(setting))
    limiter: Limiter | None = current_app.extensions.get("ratelimit")
    if not rate or limiter is None:
        return None
    health: StoreHealth | None = current_app.extensions.get("ratelimit_health")
    if health is not None and health.store_is_down():
        return None
    args: tuple[str, ...] = (key, _scope(setting))
    if limiter._key_prefix:  # the key Flask-Limiter gives a view's count (private, pinned)
        args = (limiter._key_prefix, *args)
    strategy = limiter.limiter
    try:
        for item in _items(rate):
            if not (strategy.hit if count else strategy.test)(item, *args):
                reset = strategy.get_window_stats(item, *args).reset_time
                return max(1, math.ceil(reset - time.time()))
    except Exception:  # the store failed between two health checks: fail open
        log.warning("rate limits: %s could not be counted", setting, exc_info=True)
    return None


def charge(setting: str, key: str) -> int | None:
    """Count one against the limit in config key ``setting`` for ``key`` (e.g. the client's
    address): None when admitted (or the limit is off, or its store is down), else the
    whole seconds (at least 1) until one more is let through; a refusal is not counted."""
    return _counted(setting, key, count=True)


def exceeded(setting: str, key: str) -> int | None:
    """As :func:`charge`, without counting: the wait when one more would be refused."""
    return _counted(setting, key, count=False)
