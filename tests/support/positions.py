"""Random-play positions: the fixed corpus `make bench`'s hint rows time and the hint tests
replay (each a random start, random legal moves until stuck, cut at a random length)."""

from __future__ import annotations

import random

from server.engine.board import Board

SEED = 20240611
CORPUS_SIZE = 1000


def corpus(rows: int, cols: int, size: int = CORPUS_SIZE, seed: int = SEED) -> list[list[int]]:
    """The fixed list of random-play positions (paths of board squares)."""
    rng = random.Random(f"{seed}:{rows}x{cols}")
    board = Board(rows, cols)
    out = []
    while len(out) < size:
        walk = [rng.randrange(board.area)]
        seen = {walk[0]}
        while True:
            moves = [n for n in board.neighbours[walk[-1]] if n not in seen]
            if not moves:
                break
            walk.append(rng.choice(moves))
            seen.add(walk[-1])
        if len(walk) < 2:
            continue
        out.append(walk[: rng.randint(1, len(walk) - 1) + 1])
    return out
