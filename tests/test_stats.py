"""tests/support/stats.py: the nearest-rank percentile every benchmark reports."""

from __future__ import annotations

import math

import pytest

from tests.support.stats import percentile


def test_the_nearest_rank_is_one_of_the_values():
    values = list(range(1, 21))  # 1..20
    assert percentile(values, 0.95) == 19  # ceil(0.95 * 20) = 19th
    assert percentile(values, 0.5) == 10
    assert percentile(values, 1.0) == 20
    assert percentile(reversed(values), 0.05) == 1


def test_a_p99_of_fewer_than_a_hundred_values_is_the_largest():
    assert percentile([3.0, 1.0, 2.0], 0.99) == 3.0


def test_none_and_bad_shares():
    assert math.isnan(percentile([], 0.95))
    with pytest.raises(ValueError):
        percentile([1.0], 95)
