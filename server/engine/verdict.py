"""Does a puzzle have a tour, and if not, why not?  The editor's verdict.

Plain rectangles keep theory's O(1) verdicts (Schwenk for closed tours, Conrad
et al. for open ones).  On a shape with holes the answer is decided exactly: the
cheap obstacles are named first, because they are what a person drawing a shape
can fix (each names the squares to look at), then the engine's exact hint search
settles the rest with a witness or a proof that every way runs into a dead end.

Named obstacles, in the order they are checked:

* ``unreachable``: open squares no knight move reaches (their squares);
* ``split``: the open squares fall into pieces no knight move joins;
* ``dead-ends``: squares with one way in; a closed tour allows none, an open
  tour two (its ends), one if the start is fixed elsewhere;
* ``colour``: moves alternate colours, so a closed tour needs as many light as
  dark squares and an open tour at most one more of either;
  ``start-colour``: an open tour over one more light (dark) square must start
  on a light (dark) one;
* ``theory``: a plain rectangle that theory rules out (the ``theory`` param
  holds theory's own code, the other params are theory's, for its message);
* ``exhausted``: the search proved it, ``nodes`` positions searched.

``tour`` is None only when the search's time ran out (``code`` = ``time``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board
from .hints import hint
from .shape import Puzzle
from .theory import tour_verdict

DEFAULT_SECONDS = 2.0


@dataclass(frozen=True)
class ShapeVerdict:
    tour: bool | None  # None: not decided in time
    code: str | None  # why not (see the module's list); None when a tour exists
    reason: str  # English, for logs and the CLI; pages translate code + params
    params: dict = field(default_factory=dict)
    squares: tuple[int, ...] = ()  # the squares the reason points at
    witness: tuple[int, ...] | None = None  # a whole tour, start first
    nodes: int = 0

    def __bool__(self) -> bool:
        return bool(self.tour)

    def as_json(self, board: Board) -> dict:
        return {
            "tour": self.tour,
            "code": self.code,
            "reason": self.reason,
            "params": self.params,
            "squares": list(self.squares),
            "names": [board.name(sq) for sq in self.squares],
            "nodes": self.nodes,
        }


def _no(code: str, reason: str, squares=(), **params) -> ShapeVerdict:
    return ShapeVerdict(False, code, reason, params, tuple(sorted(squares)))


def _components(board: Board) -> list[list[int]]:
    seen: set[int] = set()
    parts = []
    for sq in board.squares():
        if sq in seen:
            continue
        part, todo = [], [sq]
        seen.add(sq)
        while todo:
            here = todo.pop()
            part.append(here)
            for nb in board.neighbours[here]:
                if nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        parts.append(part)
    return sorted(parts, key=len, reverse=True)


def obstacle(puzzle: Puzzle) -> ShapeVerdict | None:
    """A named reason there is no tour, found without searching; None if none applies."""
    board, closed, start = puzzle.shape.board, puzzle.closed, puzzle.start
    size = board.size
    if size == 1:
        if closed:
            return _no("too-small", "one square cannot make a closed tour", size=size)
        return None
    lonely = [sq for sq in board.squares() if not board.degrees[sq]]
    if lonely:
        return _no(
            "unreachable",
            f"no knight move reaches {', '.join(board.name(sq) for sq in lonely[:5])}",
            lonely,
            count=len(lonely),
        )
    parts = _components(board)
    if len(parts) > 1:
        cut = [sq for part in parts[1:] for sq in part]
        return _no(
            "split",
            f"the open squares fall into {len(parts)} pieces no knight move joins",
            cut,
            parts=len(parts),
        )
    ones = [sq for sq in board.squares() if board.degrees[sq] == 1]
    allowed = 0 if closed else (2 if start is None else 1 + (start in ones))
    if len(ones) > allowed:
        return _no(
            "dead-ends",
            f"{len(ones)} squares have only one way in; "
            + ("a closed tour allows none" if closed else f"an open tour allows {allowed}"),
            ones,
            count=len(ones),
            allowed=allowed,
        )
    dark_colour = (board.rows - 1) & 1  # a1 is dark
    dark = [sq for sq in board.squares() if board.colour(sq) == dark_colour]
    light = [sq for sq in board.squares() if board.colour(sq) != dark_colour]
    gap = len(light) - len(dark)
    if (closed and gap) or abs(gap) > 1:
        more = light if gap > 0 else dark
        return _no(
            "colour",
            f"{len(light)} light and {len(dark)} dark squares: knight moves alternate colours",
            more,
            light=len(light),
            dark=len(dark),
        )
    if (
        start is not None
        and gap
        and board.colour(start) != board.colour((light if gap > 0 else dark)[0])
    ):
        return _no(
            "start-colour",
            f"{len(light)} light and {len(dark)} dark squares: the tour must start on the "
            f"colour with more squares, and {board.name(start)} is not",
            [start],
            light=len(light),
            dark=len(dark),
            start=board.name(start),
        )
    if not board.blocked:
        theory = tour_verdict(board.rows, board.cols, closed=closed, start=start)
        if not theory:
            return _no("theory", theory.reason, theory=theory.code, **theory.params)
    return None


def decide(puzzle: Puzzle, *, time_limit: float = DEFAULT_SECONDS) -> ShapeVerdict:
    """The verdict with a witness tour when one exists, or the reason there is none."""
    found = obstacle(puzzle)
    if found is not None:
        return found
    board, start = puzzle.shape.board, puzzle.start
    if board.size == 1:
        only = next(iter(board.squares()))
        return ShapeVerdict(True, None, "a tour exists", witness=(only,))
    path = [] if start is None else [start]
    answer = hint(board, path, closed=puzzle.closed, time_limit=time_limit)
    if answer.verdict == "completable":
        witness = tuple(answer.witness) if start is None else (start, *answer.witness)
        if puzzle.closed and witness and witness[-1] == witness[0] and len(witness) > board.size:
            witness = witness[:-1]  # the jump back onto the start is implied
        return ShapeVerdict(True, None, "a tour exists", witness=witness, nodes=answer.nodes)
    if answer.verdict == "unknown":
        return ShapeVerdict(
            None, "time", answer.reason or "undecided", {"seconds": time_limit}, nodes=answer.nodes
        )
    nodes = answer.nodes
    return ShapeVerdict(
        False,
        "exhausted",
        f"every way runs into a dead end ({nodes} positions searched)",
        {"nodes": nodes, "search": answer.code},
        nodes=nodes,
    )
