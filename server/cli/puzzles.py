"""``solve``, ``hint`` and ``verdict``: a board, a shape or a puzzle code from the command
line, searched by the engine, printed as a grid or as JSON."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence

from ..engine.board import Board, BoardError
from ..engine.hints import hint
from ..engine.search import solve
from ..engine.shape import Puzzle, Shape, ShapeError, parse_puzzle, parse_shape
from ..engine.solver import SolveOutcome, solve_tour
from ..engine.verdict import decide
from .usage import (
    BOARD_PRINT_LIMIT,
    EXIT_BUDGET,
    EXIT_NO_TOUR,
    EXIT_OK,
    UsageError,
    dims_or_usage_error,
    parse_square,
)


def _shape_error(err: ShapeError) -> UsageError:
    return UsageError(f"{err.code}: {err}")


def _puzzle_of_args(args: argparse.Namespace) -> Puzzle:
    """The board of ``solve``/``hint``: size, shape or puzzle, ``--holes`` added, as a puzzle
    (``--closed`` wins over an open puzzle's mode)."""
    if args.shape is not None and args.dims is not None:
        raise UsageError("give the board either as ROWSxCOLS / a puzzle code or with --shape")
    text = args.shape if args.shape is not None else args.dims
    if text is None:
        raise UsageError("the board is missing: ROWSxCOLS, a puzzle code or --shape")
    try:
        if args.shape is None and _looks_like_dims(text):
            rows, cols = dims_or_usage_error(text)
            puzzle = Puzzle(Shape(rows, cols) if max(rows, cols) <= 20 else _Large(rows, cols))
        else:
            try:
                puzzle = Puzzle(parse_shape(text))
            except ShapeError:
                if not _PUZZLE_TAIL.search(text):
                    raise
                puzzle = parse_puzzle(text)  # the shape, the mode and maybe a fixed start
        if args.holes:
            shape = puzzle.shape
            extra = {_hole(shape.board, name) for name in args.holes.split(",") if name.strip()}
            puzzle = Puzzle(
                Shape(shape.rows, shape.cols, shape.holes | extra), puzzle.closed, puzzle.start
            )
    except ShapeError as err:
        raise _shape_error(err) from None
    if args.closed and not puzzle.closed:
        puzzle = Puzzle(puzzle.shape, True, puzzle.start)
    return puzzle


_PUZZLE_TAIL = re.compile(r"\.[oc](\.[a-z]\w*)?$")


class _Large:
    """A plain board over the shapes' 20-square side: only the size matters."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.holes = rows, cols, frozenset()
        self.board = Board(rows, cols)


def _looks_like_dims(text: str) -> bool:
    return "." not in text and "~" not in text and ":" not in text and "/" not in text


def _hole(board: Board, name: str) -> int:
    try:
        return board.parse_name(name)
    except BoardError:
        raise UsageError(f"--holes: {name.strip()!r} is not a square of {board.dims}") from None


def format_board(board: Board, tour: Sequence[int]) -> str:
    """The board with move numbers, tab-separated, as the articles print it (``#``: a hole)."""
    numbers = [0] * board.area
    for step, sq in enumerate(tour, 1):
        numbers[sq] = step
    lines = []
    for row in range(board.rows):
        cells = numbers[row * board.cols : (row + 1) * board.cols]
        holes = board.blocked
        base = row * board.cols
        lines.append("\t".join("#" if base + i in holes else str(n) for i, n in enumerate(cells)))
    return "\n".join(lines)


def _cells(board: Board, squares: Sequence[int] | None) -> list[list[int]] | None:
    if squares is None:
        return None
    cols = board.cols
    return [list(divmod(sq, cols)) for sq in squares]


_TOUR_SLOT = "\0tour\0"


def _dump_json(doc: dict, board: Board, tour: Sequence[int] | None) -> None:
    """Print ``doc`` with ``"tour"`` as [[r, c], ...], written as text directly.

    A 1000x1000 tour is a million pairs: building a list per pair for ``json`` costs
    seconds and a few hundred MB, formatting them straight into one string does not.
    """
    if tour is None:
        doc["tour"] = None
        text = json.dumps(doc, separators=(",", ":"))
    else:
        doc["tour"] = _TOUR_SLOT
        cols = board.cols
        pairs = ",".join([f"[{sq // cols},{sq % cols}]" for sq in tour])
        text = json.dumps(doc, separators=(",", ":")).replace(
            json.dumps(_TOUR_SLOT), f"[{pairs}]", 1
        )
    sys.stdout.write(text + "\n")


def cmd_solve(args: argparse.Namespace) -> int:

    puzzle = _puzzle_of_args(args)
    args.closed = puzzle.closed
    board = puzzle.shape.board
    start = _start(args, puzzle)
    if board.blocked:
        outcome = _solve_shape(args, board, start)
    else:
        outcome = solve_tour(
            board, start, closed=args.closed, algorithm=args.algorithm, **_limits(args)
        )
    return _report(args, board, outcome)


def _limits(args: argparse.Namespace) -> dict:
    """The search's limits as the command line gives them (``--budget``, ``--time-limit``)."""
    return {"node_budget": args.budget, "time_limit": args.time_limit}


def _report(args: argparse.Namespace, board: Board, outcome: SolveOutcome) -> int:
    """Print the outcome (the board and a line, or ``--json``); its exit code."""
    if args.json:
        doc = {"rows": board.rows, "cols": board.cols}
        if board.blocked:
            doc["holes"] = _cells(board, sorted(board.blocked))
        doc |= {
            "closed": args.closed,
            "algorithm": outcome.algorithm,
            "tour": None,
            "stats": {
                "nodes": outcome.nodes,
                "backtracks": outcome.backtracks,
                "seconds": round(outcome.seconds, 6),
            },
        }
        if outcome.status != "found":
            doc["reason"] = outcome.reason
        _dump_json(doc, board, outcome.tour)
    elif outcome.status == "found":
        kind = "closed" if args.closed else "open"
        if board.blocked:
            shape = f"{board.dims} with {len(board.blocked)} holes"
            effort = f"{outcome.nodes} nodes"
        else:
            shape = board.dims
            effort = f"{outcome.nodes} nodes, {outcome.backtracks} backtracks"
        if board.blocked or board.area <= BOARD_PRINT_LIMIT:
            print(format_board(board, outcome.tour))
        print(f"{kind} tour of {shape} by {outcome.algorithm}: {effort}, {outcome.seconds:.3f} s")
    if outcome.status != "found":
        print(f"knights-tour: {outcome.reason}", file=sys.stderr)
    return {"found": EXIT_OK, "budget": EXIT_BUDGET}.get(outcome.status, EXIT_NO_TOUR)


def _start(args: argparse.Namespace, puzzle: Puzzle) -> int | None:
    """The start square; None on a shape left free: the exact search recommends one."""
    board = puzzle.shape.board
    if args.start is None:
        if puzzle.start is not None:
            return puzzle.start
        if not board.blocked:
            return 0
        return None if args.algorithm == "auto" else min(board.squares())
    else:
        start = parse_square(args.start, board)
        if puzzle.start is not None and start != puzzle.start:
            raise UsageError(f"this puzzle starts on {board.name(puzzle.start)}")
    if start in board.blocked:
        raise UsageError(f"start-on-hole: the start {board.name(start)} is a hole")
    return start


def _solve_shape(args: argparse.Namespace, board: Board, start: int | None) -> SolveOutcome:
    """A board with holes: the exact hint search (auto), or the plain searches."""

    if args.algorithm == "construct":
        raise UsageError("the construction builds whole rectangles: it takes no holes")
    began = time.perf_counter()
    if args.algorithm == "auto":
        limit = args.time_limit if args.time_limit is not None else 60.0
        path = [] if start is None else [start]  # no start: the search recommends one
        answer = hint(board, path, closed=args.closed, time_limit=limit)
        status = {"completable": "found", "dead": "exhausted"}.get(answer.verdict, "budget")
        tour = [*path, *answer.witness] if status == "found" else None
        if tour and args.closed and len(tour) > board.size:
            tour = tour[: board.size]  # the jump back onto the start is implied
        algorithm, nodes, backtracks, reason = "exact", answer.nodes, 0, answer.reason
    else:
        result = solve(board, start, closed=args.closed, ordering=args.algorithm, **_limits(args))
        tour = result.tour
        status = result.status if result.status in ("found", "exhausted") else "budget"
        algorithm, nodes, backtracks = args.algorithm, result.nodes, result.backtracks
        reason = None if status == "found" else f"search ended: {result.status}"
    seconds = time.perf_counter() - began
    if status == "exhausted" and not reason:
        reason = "no tour from this start"
    return SolveOutcome(status, algorithm, tour, reason, nodes, backtracks, seconds)


def cmd_verdict(args: argparse.Namespace) -> int:
    """A puzzle's verdict: a tour (``--witness`` prints one) or the named reason there is none."""

    try:
        puzzle = parse_puzzle(args.puzzle)
    except ShapeError as err:
        raise _shape_error(err) from None
    board = puzzle.shape.board
    verdict = decide(puzzle, time_limit=args.time_limit)
    if args.json:
        doc = {"puzzle": puzzle.code, **verdict.as_json(board)}
        doc["witness"] = _cells(board, verdict.witness) if args.witness else None
        json.dump(doc, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        if verdict.tour:
            print(f"{puzzle.code}: a tour exists")
            if args.witness:
                print(format_board(board, verdict.witness))
        elif verdict.tour is None:
            print(f"{puzzle.code}: undecided: {verdict.reason}")
        else:
            where = ", ".join(board.name(sq) for sq in verdict.squares[:12])
            print(f"{puzzle.code}: no tour ({verdict.code}): {verdict.reason}")
            if where:
                print(f"look at: {where}")
    return EXIT_OK if verdict.tour else EXIT_BUDGET if verdict.tour is None else EXIT_NO_TOUR


def cmd_hint(args: argparse.Namespace) -> int:

    puzzle = _puzzle_of_args(args)
    args.closed = puzzle.closed
    board = puzzle.shape.board
    path = [parse_square(text, board) for text in args.path]
    if puzzle.start is not None and path and path[0] != puzzle.start:
        raise UsageError(f"this puzzle starts on {board.name(puzzle.start)}")
    try:
        answer = hint(board, path, closed=args.closed, time_limit=args.time_limit)
    except BoardError as err:
        raise UsageError(str(err)) from None
    if args.json:
        doc = {
            "verdict": answer.verdict,
            "next": list(divmod(answer.next, board.cols)) if answer.next is not None else None,
            "witness": _cells(board, answer.witness),
            "reason": answer.reason,
        }
        json.dump(doc, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
    elif answer.verdict == "completable":
        if answer.next is None:
            print("the tour is already complete")
        else:
            row, col = divmod(answer.next, board.cols)
            print(f"next: {row},{col} ({board.name(answer.next)})")
            if board.area <= BOARD_PRINT_LIMIT:
                print(format_board(board, [*path, *answer.witness]))
    else:
        print(f"{answer.verdict}: {answer.reason}")
    return {"completable": EXIT_OK, "dead": EXIT_NO_TOUR}.get(answer.verdict, EXIT_BUDGET)
