"""The one percentile every benchmark reports (docs/benchmarks.md, at the top).

The nearest-rank method: the p-th percentile of n values is the smallest value that at
least p % of them do not exceed, ``sorted(values)[ceil(p * n) - 1]``.  It is always one of
the measured values (never an interpolation between two), so a p95 of 20 samples is the
19th fastest, and a p99 of fewer than 100 samples is the slowest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], share: float) -> float:
    """The ``share`` (0 < share <= 1) percentile by nearest rank; NaN when there are none."""
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share!r}")
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
