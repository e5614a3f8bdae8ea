"""A won game's tour, checked again before it is ranked or shared.

``GameState.won`` is what the rules concluded move by move; a slip in them (a win check
that forgets a condition) would rank a game that is no tour.  :func:`is_tour` replays the
stored path against the definition alone, with its own arithmetic and nothing of the
rules or the engine: every open square once, knight moves between them, a fixed start
kept, and in closed mode the jump back onto the start made and a knight move.
"""

from __future__ import annotations

import logging
from itertools import pairwise

from .rules import GameState, RuleError

log = logging.getLogger(__name__)


def _knight_move(a: int, b: int, cols: int) -> bool:
    (row_a, col_a), (row_b, col_b) = divmod(a, cols), divmod(b, cols)
    return sorted((abs(row_a - row_b), abs(col_a - col_b))) == [1, 2]


def is_tour(state: GameState) -> bool:
    """Whether the game's path is a whole knight's tour of its board, in its mode."""
    path, cols, squares = state.path, state.cols, state.rows * state.cols
    if len(path) != squares - len(state.holes) or len(set(path)) != len(path):
        return False
    if any(not 0 <= sq < squares or sq in state.holes for sq in path):
        return False
    if state.start is not None and path[0] != state.start:
        return False
    if state.returned != state.closed:  # only a closed game jumps back, and it must
        return False
    jumps = [*pairwise(path), *([(path[-1], path[0])] if state.closed else [])]
    return all(_knight_move(a, b, cols) for a, b in jumps)


def check_won(game_id: str, state: GameState, detail: str | None = None) -> None:
    """RuleError ``not-won`` (with ``detail``) unless the rules saw the win and the path bears
    it out; a win the path does not bear out is logged: a bug in the rules, or a row changed
    by hand."""
    if not state.won:
        raise RuleError("not-won", detail)
    if not is_tour(state):
        log.warning("game %s: won by the rules, but its path is no tour: refused", game_id)
        raise RuleError("not-won", detail)
