"""The engine event stream a :class:`~.spec.RunSpec` asks for.

Searches come straight from :func:`server.engine.search.search_events`: the first
event is a Move onto the root (the start, or the last square of the game's path) with
no candidates, and the last one is Found, Exhausted or Budget.  The construction has
no search to show, so its stream is the finished tour replayed as the same kind of
events: one Move per square (no candidates), then Found.

The run's time limit is not handed to the engine: the engine's clock would keep
running while the viewer pauses, and the protocol does not count paused time, so the
run registry enforces it between batches instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.board import Board
from ..engine.construct import construct_tour
from ..engine.events import Found, Move
from ..engine.search import PRUNINGS, search_events
from .spec import RunSpec


def root_prefix(spec: RunSpec) -> list[int]:
    """The path before the stream's first event (that event re-enters the last square)."""
    return list(spec.prefix[:-1])


def open_events(spec: RunSpec) -> Iterator:
    """A fresh event iterator for the run (call it in the run's own task)."""
    if spec.algorithm == "construct":
        return _construction(spec)
    return search_events(
        Board(spec.rows, spec.cols, spec.holes),
        spec.start,
        closed=spec.closed,
        ordering=spec.algorithm,
        pruning=PRUNINGS if spec.pruning else (),
        node_budget=spec.node_budget,
        prefix=spec.prefix,
    )


def _construction(spec: RunSpec) -> Iterator:
    tour = construct_tour(spec.rows, spec.cols, spec.start, closed=spec.closed)
    for depth, square in enumerate(tour):
        yield Move(square, depth, (), None)
    yield Found(tuple(tour), len(tour), 0)
