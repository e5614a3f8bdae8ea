"""A puzzle's verdict, decided once per puzzle code: an LRU with a bound.

The engine's verdict on a shape (server/engine/verdict.py) may search for seconds, and
the same puzzle is asked about again and again: the game's state on every move, the
worksheet and its pictures, the editor.  :class:`VerdictCache` keeps the last
``size`` verdicts by puzzle code, compactly (the witness as an array of squares).  A
verdict decided (a tour, or a proof there is none) answers every later question; one
left undecided by its time limit answers the questions with that limit or a shorter
one.  Asked the same puzzle at the same moment, one request searches and the others
wait for its answer.  A miss searches under :func:`server.limits.budget.searching`: refused
(``Busy``, ``OverBudget``) when the asker has no search time left.

Process-wide (:data:`verdicts`); ``VERDICT_CACHE`` sets its size at the app's start.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict

from ..engine.shape import Puzzle
from ..engine.verdict import ShapeVerdict, decide
from ..limits.budget import searching

DEFAULT_SIZE = 1024


class _Entry:
    __slots__ = ("code", "nodes", "params", "reason", "seconds", "squares", "tour", "witness")

    def __init__(self, verdict: ShapeVerdict, seconds: float) -> None:
        self.tour, self.code, self.reason = verdict.tour, verdict.code, verdict.reason
        self.params, self.nodes, self.seconds = verdict.params, verdict.nodes, seconds
        self.squares = array("H", verdict.squares)
        self.witness = None if verdict.witness is None else array("H", verdict.witness)

    def answers(self, seconds: float) -> bool:
        return self.tour is not None or seconds <= self.seconds

    def verdict(self) -> ShapeVerdict:
        return ShapeVerdict(
            self.tour,
            self.code,
            self.reason,
            dict(self.params),
            tuple(self.squares),
            None if self.witness is None else tuple(self.witness),
            self.nodes,
        )


class VerdictCache:
    """See the module docstring."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._deciding: dict[str, threading.Event] = {}
        self.hits = 0
        self.misses = 0

    def decide(self, puzzle: Puzzle, *, time_limit: float) -> ShapeVerdict:
        """The verdict on ``puzzle``, searching at most ``time_limit`` seconds on a miss."""
        key = puzzle.code
        while True:
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None and entry.answers(time_limit):
                    self._entries.move_to_end(key)
                    self.hits += 1
                    return entry.verdict()
                deciding = self._deciding.get(key)
                if deciding is None:
                    done = self._deciding[key] = threading.Event()
                    self.misses += 1
                    break
            deciding.wait()  # another request is searching this very puzzle
        try:
            with searching():
                verdict = decide(puzzle, time_limit=time_limit)
            with self._lock:
                if self.size > 0:
                    self._entries[key] = _Entry(verdict, time_limit)
                    self._entries.move_to_end(key)
                    while len(self._entries) > self.size:
                        self._entries.popitem(last=False)
            return verdict
        finally:
            with self._lock:
                del self._deciding[key]
            done.set()

    def resize(self, size: int) -> None:
        with self._lock:
            self.size = size
            while len(self._entries) > max(size, 0):
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


verdicts = VerdictCache()
