"""Which engine runs: the compiled core (``server.engine._core``) or the pure-Python one.

The core is a small C extension built with the package (``setup.py``, the system
compiler, nothing downloaded).  It transcribes the hot loops of :mod:`.search`,
:mod:`.walker`, the stream's batch encoding and :mod:`.hints` step for step, so
both engines give the same events, counts, tours and witnesses; the Python code
stays the reference the tests hold the core to.

The core runs when it was built and loads.  Otherwise, or when the environment
sets ``KNIGHTS_TOUR_ENGINE=python``, the Python engine runs: everything works,
only slower.  ``KNIGHTS_TOUR_ENGINE=compiled`` insists on the core and fails at
import when it is missing (CI uses it so a broken build cannot pass unnoticed).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .article_orders import ordered_neighbours
from .board import SEED_MOVES, Board, BoardError
from .events import END_OF_STREAM, Backtrack, Budget, Declared, Exhausted, Found, Move

__all__ = ["ENV", "available", "core", "describe", "engine", "tables", "use"]

ENV = "KNIGHTS_TOUR_ENGINE"


def _load() -> tuple[ModuleType | None, str]:
    """(the core or None, why the Python engine runs)."""
    choice = os.environ.get(ENV, "").strip().lower()
    if choice == "python":
        return None, f"{ENV}=python"
    try:
        from . import _core  # optional: a C extension that may not have been built
    except ImportError as err:
        if choice == "compiled":
            raise ImportError(
                f"{ENV}=compiled, but the compiled core does not load: {err}"
            ) from err
        return None, "the compiled core is not built"
    _core.configure(Move, Backtrack, Found, Exhausted, Budget, Declared, BoardError, END_OF_STREAM)
    return _core, ""


_loaded, _why = _load()
_active = _loaded


def core() -> ModuleType | None:
    """The compiled core when it is the active engine, else None."""
    return _active


def engine() -> str:
    """``"compiled"`` or ``"python"``."""
    return "compiled" if _active is not None else "python"


def describe() -> str:
    """One line for ``knights-tour --version`` and the bench."""
    if _active is not None:
        return "compiled C core"
    if _loaded is not None:
        return "python (the compiled core is switched off)"
    return f"python ({_why})"


def available() -> bool:
    """Whether the compiled core was built and loaded (active or not)."""
    return _loaded is not None


@contextmanager
def use(name: str) -> Iterator[None]:
    """Run the block on one engine (``"compiled"`` or ``"python"``): tests and benchmarks."""
    global _active
    if name not in ("compiled", "python"):
        raise ValueError(f"unknown engine {name!r}")
    if name == "compiled" and _loaded is None:
        raise RuntimeError(f"the compiled core is not available: {_why}")
    before = _active
    _active = _loaded if name == "compiled" else None
    try:
        yield
    finally:
        _active = before


def tables(board: Board, moves: tuple[tuple[int, int], ...] | None = None):
    """The core's neighbour table for ``board``, kept on the board as its neighbours are.

    ``moves``: an article's move order (:mod:`.article_orders`), whose table lists
    each square's neighbours in that order; None for the board's own (seed) order.
    """
    if moves is not None and moves != SEED_MOVES:
        kept = board.__dict__.setdefault("_core_article_tables", {})
        found = kept.get(moves)
        if found is None:
            neighbours = ordered_neighbours(board, moves)
            found = _loaded.Tables(board.rows, board.cols, neighbours, sorted(board.blocked))
            kept[moves] = found
        return found
    found = board.__dict__.get("_core_tables")
    if found is None:
        found = _loaded.Tables(board.rows, board.cols, board.neighbours, sorted(board.blocked))
        board.__dict__["_core_tables"] = found
    return found
