"""The JSON API's request bodies (docs/api.md), as strict pydantic models.

A field missing or of the wrong type is 400 ``bad-request`` naming the field (worded by
server/web/refusals.py); a board out of range is ``bad-board``.  The game's rules
(server.game.rules) still decide everything that depends on a game: a move off the
board or onto a visited square, an undo past the start, a name.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, model_validator

from ..game.rules import MAX_SIDE, MIN_SIDE
from ..game.service import NAME_MAX
from ..validation import Message, flag, refuse, refused, whole

Side = whole(MIN_SIDE, MAX_SIDE, refused("bad-board", "error.bad-board"))
Closed = flag("closed tour: end a knight's move from the start")
Cell = Annotated[int, Strict(), Field(description="zero-based; off the board: `illegal-move`")]


class NewGame(Message):
    """``POST /api/games``."""

    rows: Side
    cols: Side
    closed: Closed = False


class Move(Message):
    """``POST /api/games/<id>/moves``: a square, or ``{"random": true}`` for the first move."""

    row: Cell | None = None
    col: Cell | None = None
    random: (
        Annotated[bool, Strict(), Field(description="only `true`, without `row`/`col`")] | None
    ) = None

    @model_validator(mode="after")
    def _a_square_or_random(self) -> Move:
        if "random" in self.model_fields_set:
            if self.random is not True or {"row", "col"} & self.model_fields_set:
                raise refuse("bad-request", "error.bad-request", field="random")
        else:
            for name in ("row", "col"):
                if getattr(self, name) is None:
                    raise refuse("bad-request", "error.bad-request", field=name)
        return self


class Undo(Message):
    """``POST /api/games/<id>/undo``."""

    count: Annotated[
        int, Strict(), Field(description="1 ≤ count ≤ moves made, else `bad-undo`")
    ] = 1


class Score(Message):
    """``POST /api/games/<id>/score``."""

    name: Annotated[
        str,
        Strict(),
        Field(description=f"1..{NAME_MAX} characters, no control characters, else `bad-name`"),
    ]


BODIES: dict[str, type[Message]] = {
    "POST /api/games": NewGame,
    "POST /api/games/<id>/moves": Move,
    "POST /api/games/<id>/undo": Undo,
    "POST /api/games/<id>/score": Score,
}
