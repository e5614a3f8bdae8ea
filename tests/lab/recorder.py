"""The lab's recorder (static/py/lab_recorder.py, Python the browser runs under Pyodide),
loaded here under CPython, and the engine's events to hold its recordings to."""

from __future__ import annotations

import importlib.util
import sys
from array import array
from itertools import islice
from pathlib import Path

from server.engine.board import Board
from server.engine.search import search_events

FOLDER = Path(__file__).resolve().parents[2] / "static" / "py"


def _load(name: str):
    """A module of static/py by its file, under its own name as the worker imports it."""
    spec = importlib.util.spec_from_file_location(name, FOLDER / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_load("lab_program")  # the recorder imports it
recorder = _load("lab_recorder")


def record(source, rows, cols, start, *, budget=50_000_000, chunk=4096):
    """(the run's result, its events as ints) for ``source`` from ``start`` = (row, col).

    The ints are the page's (static/js/lab/recording.js): ``line * LINE + BACK (when it
    leaves) + square``, each chunk's events read through the program's ``lines``."""
    events: list[int] = []

    def flush(data, size, lines):
        codes = array("H" if size == 2 else "i", data)
        if sys.byteorder == "big":
            codes.byteswap()  # the recorder packs them little-endian, as the page reads them
        for code in codes:
            events.append(lines[code // recorder.LINE] * recorder.LINE + code % recorder.LINE)

    result = recorder.run(source, rows, cols, *start, budget, chunk, flush)
    assert result["total"] == len(events)
    return result, events


def steps(events) -> list[tuple[int, bool]]:
    """Each recorded event as (square, whether it leaves the square)."""
    return [(code % recorder.BACK, bool(code & recorder.BACK)) for code in events]


def lines(events) -> list[int]:
    return [code // recorder.LINE for code in events]


def engine_steps(rows, cols, start, ordering, *, limit=None):
    """The engine's moves and backtracks, as (square, leaves), the first ``limit`` of them."""
    board = Board(rows, cols)
    stream = search_events(board, start[0] * cols + start[1], ordering=ordering)
    out = []
    for event in islice(stream, limit):
        if event.kind in ("move", "backtrack"):
            out.append((event.square, event.kind == "backtrack"))
    return out
