"""A token bucket: how often one client may do a thing, with a burst.

/watch counts each connection's starts and messages with it (server/stream/), a class
room each member's messages (server/classroom/hub.py).  Not thread-safe by itself: each
caller takes it under its own lock.  The clock is injected so tests step time by hand.
"""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` a second; one taken per action."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float]) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Take a token if there is one: whether the action may go ahead."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
