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

from .board import Board

__all__ = ["END_OF_STREAM", "ENV", "available", "core", "describe", "engine", "tables", "use"]

ENV = "KNIGHTS_TOUR_ENGINE"


class _StreamEnd:
    """What a batch reports when its stream ended with no final event left to take."""

    kind = "exhausted"

    def __repr__(self) -> str:
        return "END_OF_STREAM"


END_OF_STREAM = _StreamEnd()


def _load() -> tuple[ModuleType | None, str]:
    """(the core or None, why the Python engine runs)."""
    choice = os.environ.get(ENV, "").strip().lower()
    if choice == "python":
        return None, f"{ENV}=python"
    try:
        from . import _core
    except ImportError as err:
        if choice == "compiled":
            raise ImportError(
                f"{ENV}=compiled, but the compiled core does not load: {err}"
            ) from err
        return None, "the compiled core is not built"
    from .board import BoardError
    from .search import Backtrack, Budget, Exhausted, Found, Move

    _core.configure(Move, Backtrack, Found, Exhausted, Budget, BoardError, END_OF_STREAM)
    return _core, ""


_loaded: ModuleType | None = None
_why = ""
_active: ModuleType | None = None
_ready = False


def _ensure() -> None:
    """Load on first use: the core needs the event classes of .search, which imports us."""
    global _loaded, _why, _active, _ready
    if not _ready:
        _loaded, _why = _load()
        _active = _loaded
        _ready = True


def core() -> ModuleType | None:
    """The compiled core when it is the active engine, else None."""
    if not _ready:
        _ensure()
    return _active


def engine() -> str:
    """``"compiled"`` or ``"python"``."""
    return "compiled" if core() is not None else "python"


def describe() -> str:
    """One line for ``knights-tour --version`` and the bench."""
    if core() is not None:
        return "compiled C core"
    if _loaded is not None:
        return "python (the compiled core is switched off)"
    return f"python ({_why})"


def available() -> bool:
    """Whether the compiled core was built and loaded (active or not)."""
    _ensure()
    return _loaded is not None


@contextmanager
def use(name: str) -> Iterator[None]:
    """Run the block on one engine (``"compiled"`` or ``"python"``): tests and benchmarks."""
    global _active
    _ensure()
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


def tables(board: Board):
    """The core's neighbour table for ``board``, kept on the board as its neighbours are."""
    found = board.__dict__.get("_core_tables")
    if found is None:
        found = _loaded.Tables(board.rows, board.cols, board.neighbours, sorted(board.blocked))
        board.__dict__["_core_tables"] = found
    return found
