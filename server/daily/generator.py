"""The daily puzzle, made from the date alone: the same shape for everyone on a UTC date.

Everything random comes from SHA-256 (``daily:YYYY-MM-DD``, then ``daily:YYYY-MM-DD:1``,
``:2``, ... for the next tries), read as a byte stream with rejection sampling, so the
puzzle depends on no library's random-number generator and no Python version.  A try is
kept only when the engine's exact verdict (server/engine/verdict.py) proves a tour and
hands back a witness; otherwise the next seed is tried.

The weekday (of the UTC date) bounds the difficulty: the board's size, open or closed,
and holes on 5 to 15 % of the squares (docs/daily.md has the table).  No Flask, no
database: server/game and server/web call it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache

from ..engine.shape import Puzzle, Shape
from ..engine.verdict import decide

# weekday (Monday = 0): rows, cols, closed; open puzzles also fix their start square
WEEKDAYS = (
    (6, 6, False),
    (6, 7, False),
    (7, 7, False),
    (7, 8, False),
    (8, 8, False),
    (6, 8, True),
    (8, 8, True),
)
HOLES_MIN, HOLES_MAX = 0.05, 0.15  # share of the squares that are holes
SEARCH_SECONDS = 10.0  # per try: far above what these sizes take (docs/daily.md)
MAX_TRIES = 1000  # a guard only: solvable tries come every few seeds


@dataclass(frozen=True)
class Daily:
    """One date's puzzle with the proof that it has a tour."""

    date: str  # YYYY-MM-DD, a UTC date
    puzzle: Puzzle
    witness: tuple[int, ...]  # a whole tour, start first (never sent before a win)
    attempt: int  # which seed made it (0: the date's own)

    @property
    def code(self) -> str:
        return self.puzzle.code


class ByteStream:
    """Whole numbers drawn from SHA-256(seed, counter): portable and reproducible."""

    def __init__(self, seed: str) -> None:
        self.seed = seed.encode()
        self.counter = 0
        self.pool = b""

    def _byte(self) -> int:
        if not self.pool:
            block = self.seed + b":" + self.counter.to_bytes(8, "big")
            self.pool = hashlib.sha256(block).digest()
            self.counter += 1
        value, self.pool = self.pool[0], self.pool[1:]
        return value

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling over whole bytes)."""
        if n <= 0:
            raise ValueError("n must be positive")
        width = max(1, math.ceil(math.log2(n) / 8)) if n > 1 else 1
        span = 256**width
        limit = span - span % n
        while True:
            value = 0
            for _ in range(width):
                value = value << 8 | self._byte()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """Uniform in low..high, both included."""
        return low + self.below(high - low + 1)

    def sample(self, items: list[int], k: int) -> list[int]:
        """``k`` distinct items (a partial Fisher-Yates shuffle)."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def seed_text(day: str, attempt: int) -> str:
    return f"daily:{day}" if attempt == 0 else f"daily:{day}:{attempt}"


def candidate(day: str, attempt: int) -> Puzzle:
    """The puzzle one seed draws (solvable or not)."""
    rows, cols, closed = WEEKDAYS[date.fromisoformat(day).weekday()]
    draw = ByteStream(seed_text(day, attempt))
    area = rows * cols
    count = draw.between(math.ceil(area * HOLES_MIN), math.floor(area * HOLES_MAX))
    holes = frozenset(draw.sample(list(range(area)), count))
    shape = Shape(rows, cols, holes)
    start = None
    if not closed:
        open_squares = sorted(shape.board.squares())
        start = open_squares[draw.below(len(open_squares))]
    return Puzzle(shape, closed, start)


def check_date(day: str) -> str:
    """``day`` as YYYY-MM-DD; ValueError for anything else."""
    if not isinstance(day, str) or len(day) != 10:
        raise ValueError(f"not a date: {day!r}")
    return date.fromisoformat(day).isoformat()


@lru_cache(maxsize=32)
def daily(day: str) -> Daily:
    """The puzzle of ``day`` (YYYY-MM-DD): the first seed whose puzzle has a proved tour."""
    day = check_date(day)
    for attempt in range(MAX_TRIES):
        puzzle = candidate(day, attempt)
        verdict = decide(puzzle, time_limit=SEARCH_SECONDS)
        if verdict.tour:
            return Daily(day, puzzle, verdict.witness, attempt)
    raise RuntimeError(f"no solvable daily puzzle for {day} in {MAX_TRIES} tries")


def today(now: datetime | None = None) -> str:
    """Today's date in UTC: the daily puzzle changes at midnight UTC for everyone."""
    return (now or datetime.now(UTC)).astimezone(UTC).date().isoformat()
