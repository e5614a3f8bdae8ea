"""A game as JSON (docs/api.md): the one place that names a game's fields.

A game in play and its replay share the board, the path and the figures; each adds its
own few fields.  Squares are sent as ``[row, col]``.  Nothing here depends on the
request's language: server/web/api.py adds the words (the status line, the warning, the
verdict) and the stars of a level.
"""

from __future__ import annotations

from datetime import datetime

from .rules import GameState
from .service import Loaded


def cell(sq: int, cols: int) -> list[int]:
    return list(divmod(sq, cols))


def tour_json(state: GameState) -> dict:
    """The board, the path and the figures: what a game and its replay both answer."""
    cols, path = state.cols, state.path
    return {
        "rows": state.rows,
        "cols": cols,
        "closed": state.closed,
        "holes": [cell(sq, cols) for sq in sorted(state.holes)],
        "fixed_start": cell(state.start, cols) if state.start is not None else None,
        "puzzle": state.puzzle.code,
        "start": cell(path[0], cols) if path else None,
        "path": [cell(sq, cols) for sq in path],
        "returned": state.returned,
        "moves": state.moves,
        "hints": state.hints,
        "undos": state.undos,
        "level": state.level,
        "daily": state.daily,
    }


def state_json(loaded: Loaded, now: float) -> dict:
    """A game in play at clock ``now``, without its words: its id is the key to play on."""
    state = loaded.state
    return {
        **tour_json(state),
        "id": loaded.id,
        "status": state.status,
        "legal": [cell(sq, state.cols) for sq in state.legal()],
        "squares_left": state.squares_left,
        "elapsed": state.elapsed(now),
        "can_submit": state.won and not loaded.scored,
    }


def replay_json(replay_id: str, state: GameState, created_at: datetime) -> dict:
    """A won game's shared tour: under its replay id, never the game's own."""
    return {
        **tour_json(state),
        "id": replay_id,
        "status": "won",
        "seconds": state.elapsed(0),
        "created_at": created_at.isoformat(),
    }
