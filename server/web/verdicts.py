"""The editor's verdict (server/engine/verdict.py) as ``POST /api/verdict`` answers it.

The puzzle comes back parsed (its canonical code, size, holes and start), so a page opened
with a code draws the shape the server read; the reason is worded in the request's
language from the verdict's code and params (``verdict.<code>`` in the catalogues, with
``.closed`` where the rule differs for closed tours, and for a proof by search the kind of
proof); the squares it names are
``[row, col]`` pairs.  The witness is sent only when asked for.
"""

from __future__ import annotations

from ..engine.shape import Puzzle
from ..engine.verdict import ShapeVerdict
from ..i18n import MESSAGES, reason_text, text

NAMED = 6  # squares a reason names in words; the rest are only highlighted
BY_MODE = ("dead-ends", "colour")  # codes whose rule (and words) differ for closed tours


def reason_key(verdict: ShapeVerdict, puzzle: Puzzle) -> str:
    """The catalogue key of the words for ``verdict`` on ``puzzle``."""
    if verdict.tour:
        return "verdict.tour"
    key = f"verdict.{verdict.code}"
    if puzzle.closed and verdict.code in BY_MODE:
        return f"{key}.closed"
    if verdict.code == "exhausted":
        if not puzzle.closed and puzzle.start is None and verdict.params.get("search") == "no-tour":
            return f"{key}.starts"  # every start square was ruled out, one by one
        if not verdict.nodes:
            return f"{key}.proof"  # ruled out at once: no positions to count
    return key


def reason(verdict: ShapeVerdict, puzzle: Puzzle, lang: str) -> str:
    """Why (not), in ``lang``; theory's own words for a plain rectangle it rules out."""
    if verdict.code == "theory":
        return reason_text(
            "theory", verdict.params.get("theory"), verdict.params, verdict.reason, lang
        )
    board = puzzle.shape.board
    names = [board.name(sq) for sq in verdict.squares]
    listed = ", ".join(names[:NAMED]) + (" …" if len(names) > NAMED else "")
    params = {**verdict.params, "squares": listed}
    key = reason_key(verdict, puzzle)
    if key not in MESSAGES:
        return verdict.reason
    return text(key, lang, params)


def verdict_json(puzzle: Puzzle, verdict: ShapeVerdict, lang: str, *, witness: bool) -> dict:
    shape = puzzle.shape
    cols = shape.cols
    board = shape.board

    def cell(sq: int) -> list[int]:
        return list(divmod(sq, cols))

    return {
        "puzzle": puzzle.code,
        "rows": shape.rows,
        "cols": cols,
        "closed": puzzle.closed,
        "start": None if puzzle.start is None else cell(puzzle.start),
        "holes": [cell(sq) for sq in sorted(shape.holes)],
        "size": shape.size,
        "tour": verdict.tour,
        "code": verdict.code,
        "reason": reason(verdict, puzzle, lang),
        "params": verdict.params,
        "squares": [cell(sq) for sq in verdict.squares],
        "names": [board.name(sq) for sq in verdict.squares],
        "nodes": verdict.nodes,
        "witness": [cell(sq) for sq in verdict.witness] if witness and verdict.witness else None,
    }
