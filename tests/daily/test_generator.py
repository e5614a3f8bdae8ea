"""The daily puzzle: the same for everyone on a date, always solvable, within its bounds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from server.daily import generator
from server.engine.verdict import decide
from tests.witness import assert_puzzle_tour

FIRST = date(2025, 3, 1)
DATES = [(FIRST + timedelta(days=i)).isoformat() for i in range(60)]


def fresh(day: str) -> generator.Daily:
    generator.daily.cache_clear()
    return generator.daily(day)


def test_a_date_always_gives_the_same_puzzle():
    first = fresh("2025-06-14")
    again = fresh("2025-06-14")
    assert (first.code, first.attempt) == (again.code, again.attempt)


def test_another_process_with_another_hash_seed_draws_the_same_puzzles():
    script = (
        "import json, sys\n"
        "from server.daily.generator import daily\n"
        "print(json.dumps([daily(d).code for d in sys.argv[1:]]))\n"
    )
    days = DATES[:7]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", script, *days], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(out.stdout) == [fresh(d).code for d in days]


def test_dates_give_different_puzzles():
    codes = {generator.daily(d).code for d in DATES}
    assert len(codes) == len(DATES)


@pytest.mark.parametrize("day", DATES)
def test_every_date_has_a_tour_the_independent_checker_accepts(day):
    found = generator.daily(day)
    assert_puzzle_tour(found.puzzle, found.witness)


@pytest.mark.parametrize("day", DATES[:7])
def test_the_weekday_bounds_the_puzzle(day):
    found = generator.daily(day)
    rows, cols, closed = generator.WEEKDAYS[date.fromisoformat(day).weekday()]
    shape = found.puzzle.shape
    assert (shape.rows, shape.cols, found.puzzle.closed) == (rows, cols, closed)
    area = rows * cols
    assert area * generator.HOLES_MIN <= len(shape.holes) <= area * generator.HOLES_MAX
    assert (found.puzzle.start is None) == closed  # open puzzles fix their start


def test_the_seeds_before_the_chosen_one_have_no_tour():
    """'Retry with the next seed': the puzzle is the first seed that proves a tour."""
    found = next(f for f in map(generator.daily, DATES) if f.attempt > 0)
    for attempt in range(found.attempt):
        assert decide(generator.candidate(found.date, attempt)).tour is False
    assert generator.candidate(found.date, found.attempt) == found.puzzle


def test_today_is_the_utc_date():
    late_in_shanghai = datetime(2025, 5, 1, 23, 30, tzinfo=timezone(timedelta(hours=8)))
    assert generator.today(late_in_shanghai) == "2025-05-01"
    just_after_midnight_utc = datetime(2025, 5, 1, 0, 5, tzinfo=UTC)
    assert generator.today(just_after_midnight_utc - timedelta(minutes=10)) == "2025-04-30"


@pytest.mark.parametrize("bad", ["2025-13-01", "2025-1-1", "today", "", "2025-02-30"])
def test_a_text_that_is_no_date_is_refused(bad):
    with pytest.raises(ValueError):
        generator.daily(bad)


def test_the_byte_stream_is_uniform_enough_and_in_range():
    draw = generator.ByteStream("test")
    counts = [0] * 7
    for _ in range(7000):
        counts[draw.below(7)] += 1
    assert all(800 < n < 1200 for n in counts), counts
    assert sorted(draw.sample(list(range(10)), 10)) == list(range(10))
