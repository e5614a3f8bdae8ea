"""The events a search yields, one module that both engines build them from.

:func:`~server.engine.search.search_events` yields :class:`Move` and
:class:`Backtrack` steps and ends with exactly one :class:`Found`,
:class:`Exhausted` or :class:`Budget`; the compiled core makes the same tuples from
these classes (:mod:`.native` hands them over).  They live apart from both engines so
that neither engine module has to import the other to know them.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "END_OF_STREAM",
    "Backtrack",
    "Budget",
    "Declared",
    "Event",
    "Exhausted",
    "Found",
    "Move",
]


class Move(NamedTuple):
    """The search enters ``square``, which becomes tour position ``depth`` (start = 0).

    ``candidates`` are the unvisited neighbours of the square it came from, in
    the order the ordering tries them (``square`` is one of them: those before it
    were tried, or cut by pruning, those after it wait their turn); ``onward``
    holds their onward-move counts at that moment when the ordering uses them
    (``warnsdorff``), else None.  The root of the search (the start, or the last
    square of a prefix) is entered with empty candidates.
    """

    kind = "move"
    square: int
    depth: int
    candidates: tuple[int, ...]
    onward: tuple[int, ...] | None


class Backtrack(NamedTuple):
    """The search leaves ``square`` (tour position ``depth``), the last square entered."""

    kind = "backtrack"
    square: int
    depth: int


class Found(NamedTuple):
    """A tour, prefix included; the last event of the stream."""

    kind = "found"
    tour: tuple[int, ...]
    nodes: int = 0
    backtracks: int = 0


class Exhausted(NamedTuple):
    """Every path was tried (or provably cut): no tour extends the prefix."""

    kind = "exhausted"
    nodes: int = 0
    backtracks: int = 0


class Budget(NamedTuple):
    """Stopped by the node budget (``limit == "nodes"``) or the time limit (``"time"``)."""

    kind = "budget"
    limit: str
    nodes: int = 0
    backtracks: int = 0


class Declared(NamedTuple):
    """The program declared success on a path that is not a tour; the last event.

    Only the Python article as written (``a001-python``) ends so: its last move may
    land on the start (``isCorrect``'s ``count == N*N + 1``), which it then prints
    as a solution.  ``path`` is what it claims: every square it entered, in order,
    the start again at the end (one square of the board never entered).
    """

    kind = "declared"
    path: tuple[int, ...]
    nodes: int = 0
    backtracks: int = 0


Event = Move | Backtrack | Found | Exhausted | Budget | Declared


class _StreamEnd:
    """What a batch reports when its stream ended with no final event left to take."""

    kind = "exhausted"

    def __repr__(self) -> str:
        return "END_OF_STREAM"


END_OF_STREAM = _StreamEnd()
