"""How hard a level is: the traps a random player steps into (docs/levels.md).

The measure is *expected warnings*: a player who picks a legal move at random, and
undoes at once whenever the game's exact early warning says the position became dead,
steps into a trap with probability ``dead moves / legal moves`` at each position; the
sum of those probabilities along a finished tour is the number of warnings expected.
It is averaged over ``PLAYOUTS`` seeded playouts that always take a move that keeps the
tour possible (chosen at random among those), so every playout ends in a tour.

Every "dead" here is the engine's exact hint search (server.engine.hints), never a
heuristic, so the figure is the same with the compiled core or the Python engine and a
test can recompute it.  It grows with the board (more steps) and with the share of
traps per step, which is what makes a level feel hard.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.hints import hint
from ..engine.shape import Puzzle

PLAYOUTS = 24
SEARCH_SECONDS = 30.0  # per position; an undecided position is an error, not a guess


class Undecided(Exception):
    """The exact search ran out of time: the measure would not be exact."""


@dataclass(frozen=True)
class Measure:
    warnings: float  # expected warnings per tour for the random player (the measure)
    trap_share: float  # dead moves / legal moves over every position the playouts saw
    positions: int  # positions judged

    def as_json(self) -> dict:
        return {
            "warnings": self.warnings,
            "trap_share": self.trap_share,
            "positions": self.positions,
        }


def _alive(puzzle: Puzzle, path: list[int]) -> bool:
    board = puzzle.shape.board
    answer = hint(board, path, closed=puzzle.closed, time_limit=SEARCH_SECONDS)
    if answer.verdict == "unknown":
        raise Undecided(f"{puzzle.code}: {len(path)} squares in, undecided")
    return answer.verdict == "completable"


def _choices(puzzle: Puzzle, path: list[int]) -> list[int]:
    board = puzzle.shape.board
    if not path:
        return [puzzle.start] if puzzle.start is not None else list(board.squares())
    visited = set(path)
    return [sq for sq in board.neighbours[path[-1]] if sq not in visited]


def measure(puzzle: Puzzle, *, playouts: int = PLAYOUTS, seed: str = "") -> Measure:
    """The expected warnings of ``puzzle``, over ``playouts`` playouts seeded by ``seed``."""
    rng = random.Random(f"{seed}:{puzzle.code}")
    size = puzzle.shape.size
    total = 0.0
    dead_moves = legal_moves = positions = 0
    for _ in range(playouts):
        path: list[int] = []
        while len(path) < size:
            choices = _choices(puzzle, path)
            alive = [sq for sq in choices if _alive(puzzle, [*path, sq])]
            if not alive:
                raise Undecided(f"{puzzle.code}: a playout met a dead position")
            total += (len(choices) - len(alive)) / len(choices)
            dead_moves += len(choices) - len(alive)
            legal_moves += len(choices)
            positions += 1
            path.append(rng.choice(alive))
    return Measure(
        warnings=round(total / playouts, 3),
        trap_share=round(dead_moves / legal_moves, 3),
        positions=positions,
    )
