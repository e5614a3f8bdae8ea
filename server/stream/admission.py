"""What the run registry lets in: messages, runs and computing, each under its limit.

A viewer's connection is counted three ways before a run of it may start or compute:

* its messages: a token bucket for every message and a smaller one for ``start`` s
  (:class:`Rates`); a flood is refused ``rate-limited``;
* its runs: at most :attr:`Limits.per_connection` live runs (race mode runs two side
  by side), :attr:`Limits.per_address` from one client address and :attr:`Limits.total`
  on the server, since every live run holds a thread (``too-many-runs``);
* its computing, when the registry is given the search budget (server/limits/budget.py):
  a ``start`` or a ``seek`` while the address has no search time left is refused
  ``rate-limited``, while the search queue is full ``busy``.

:class:`Limits` also holds what paces a run once it is in (server/stream/run.py).  The
registry (server/stream/runs.py) counts the live runs under its lock and asks here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..limits.bucket import TokenBucket
from ..limits.budget import Busy, OverBudget, Searches
from .spec import ProtocolError


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
class Rates:
    """One connection's buckets: every message takes from ``messages``, a start from both."""

    starts: TokenBucket
    messages: TokenBucket

    def take(self, start: bool) -> bool:
        return self.messages.take() and (not start or self.starts.take())


class Admission:
    """The checks of :class:`Limits` and of the search budget; each refuses with a
    :class:`~server.stream.spec.ProtocolError`."""

    def __init__(
        self, limits: Limits, clock: Callable[[], float], searches: Searches | None = None
    ) -> None:
        self.limits = limits
        self.searches = searches
        self._clock = clock

    def rates(self) -> Rates:
        """Full buckets for a new connection."""
        limits = self.limits
        return Rates(
            TokenBucket(limits.start_burst, limits.start_rate, self._clock),
            TokenBucket(limits.message_burst, limits.message_rate, self._clock),
        )

    @staticmethod
    def message(rates: Rates, *, start: bool = False) -> None:
        """Count one message (call it under the registry's lock: a bucket is not
        thread-safe); ``rate-limited`` when the connection floods."""
        if not rates.take(start):
            raise ProtocolError("rate-limited")

    def computing(self, address: str, run_id: str) -> None:
        """Refuse when ``address`` may not start computing now: its search time is used
        up, or the search queue is full."""
        if self.searches is None:
            return
        try:
            self.searches.check(address)
        except OverBudget as err:
            key = "watch.error.rate-limited.searches"
            raise ProtocolError("rate-limited", key, run_id, seconds=err.retry_after) from None
        except Busy as err:
            raise ProtocolError("busy", None, run_id, seconds=err.retry_after) from None

    def room(self, run_id: str, *, own: int, same_address: int, everyone: int) -> None:
        """Refuse one more live run beside the connection's ``own``, its address's
        ``same_address`` and the server's ``everyone``."""
        limits = self.limits
        if own >= limits.per_connection:
            raise ProtocolError("too-many-runs", None, run_id, max=limits.per_connection)
        if same_address >= limits.per_address:
            raise ProtocolError(
                "too-many-runs", "watch.error.too-many-runs.address", run_id, max=limits.per_address
            )
        if everyone >= limits.total:
            raise ProtocolError("too-many-runs", "watch.error.too-many-runs.server", run_id)
