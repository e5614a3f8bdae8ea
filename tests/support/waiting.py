"""Polling until something happens: the one loop the tests and benchmarks share."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(predicate: Callable[[], object], timeout: float = 5.0, interval: float = 0.01):
    """Whether ``predicate()`` came true within ``timeout`` seconds (checked once more at last)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
