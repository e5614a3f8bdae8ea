"""The ``knights-tour`` command: serve, solve, hint, verdict.

``solve`` and ``hint`` take a board as ``ROWSxCOLS``, a shape (``--shape``: a code such
as ``5x5~ABAAAA``, ``5x5:c3`` or art ``..../.#../....``) or a puzzle code (``5x5:c3.c.a1``:
the shape, the mode and a fixed start), plus ``--holes a1,c3`` for more holes.

Exit codes are a contract other tools rely on (see README):
0 found / completable, 2 bad arguments, 3 no tour (dead), 4 budget ran out (unknown);
``serve`` and ``db`` exit 1 when they cannot start (a port taken, a read-only instance).
Rows and columns are zero-based from the top-left.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence

from .config import BY_NAME
from .engine.board import Board, BoardError, parse_dims
from .engine.shape import Puzzle, Shape, ShapeError, parse_puzzle, parse_shape

EXIT_OK, EXIT_USAGE, EXIT_NO_TOUR, EXIT_BUDGET = 0, 2, 3, 4
EXIT_CANNOT_START = 1  # serve/db: the instance folder or the database is not usable
PORT = BY_NAME["PORT"]
BOARD_PRINT_LIMIT = 10_000  # larger boards print a summary; use --json for the tour


class UsageError(Exception):
    """Bad arguments: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message)


class _Shown(Exception):
    """--version was printed: nothing else to do."""


def version_line() -> str:
    """The version and the engine that runs (the compiled core or the Python fallback)."""
    from importlib.metadata import PackageNotFoundError, version

    from .engine import native

    try:
        number = version("knights-tour")
    except PackageNotFoundError:  # pragma: no cover - run from a bare source tree
        number = "unknown"
    return f"knights-tour {number} (engine: {native.describe()})"


class _Version(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and the engine")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_line())
        raise _Shown


def _parse_square(text: str, board: Board) -> int:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise UsageError(f"a square must look like R,C (zero-based row,column), got {text!r}")
    row, col = (int(p) for p in parts)
    try:
        return board.square(row, col)
    except BoardError as err:
        raise UsageError(str(err)) from None


def _positive_int(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(text)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="knights-tour", description="Knight's Tour Studio (马踏棋盘)")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    serve = sub.add_parser("serve", help="run the web app")
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--host", default=None, help="default 127.0.0.1 (this machine only)")
    where.add_argument(
        "--lan",
        action="store_true",
        help="serve a class: listen on all interfaces, print the link for students' phones",
    )
    serve.add_argument("--port", type=_positive_int, default=None, help="default $PORT or 5000")
    serve.add_argument("--message-queue", default=None, help="e.g. redis://127.0.0.1:6379/0")

    solve = sub.add_parser("solve", help="find a tour")
    _board_arguments(solve)
    solve.add_argument("--start", default=None, metavar="R,C", help="default 0,0 (a puzzle's own)")
    solve.add_argument("--closed", action="store_true")
    solve.add_argument(
        "--algorithm", default="auto", choices=("auto", "seed", "warnsdorff", "construct")
    )
    solve.add_argument("--budget", type=_positive_int, default=None, metavar="NODES")
    solve.add_argument("--time-limit", type=_positive_float, default=None, metavar="SECONDS")
    solve.add_argument("--json", action="store_true")

    database = sub.add_parser("db", help="the database's schema (migrations)")
    database.add_argument(
        "action",
        choices=("upgrade", "status"),
        help="upgrade: apply the migrations this release needs; status: say where it stands",
    )

    hint = sub.add_parser("hint", help="is this partial tour completable? what next?")
    _board_arguments(hint)
    hint.add_argument("--path", nargs="+", required=True, metavar="R,C")
    hint.add_argument("--closed", action="store_true")
    hint.add_argument("--time-limit", type=_positive_float, default=1.0, metavar="SECONDS")
    hint.add_argument("--json", action="store_true")

    verdict = sub.add_parser("verdict", help="does this puzzle have a tour? if not, why not?")
    verdict.add_argument(
        "puzzle", metavar="PUZZLE", help="a puzzle code, e.g. 5x5:c3.o or 6x6.c.a1"
    )
    verdict.add_argument("--witness", action="store_true", help="print a tour when there is one")
    verdict.add_argument("--time-limit", type=_positive_float, default=2.0, metavar="SECONDS")
    verdict.add_argument("--json", action="store_true")
    return parser


def _board_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dims", nargs="?", metavar="BOARD", help="ROWSxCOLS or a puzzle code")
    parser.add_argument("--shape", default=None, metavar="SHAPE", help="a shape code or art")
    parser.add_argument("--holes", default=None, metavar="a1,c3", help="squares taken out")


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
            rows, cols = _dims(text)
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
    from .engine.solver import solve_tour

    puzzle = _puzzle_of_args(args)
    args.closed = puzzle.closed
    board = puzzle.shape.board
    start = _start(args, puzzle)
    if board.blocked:
        return _solve_shape(args, board, start)
    outcome = solve_tour(
        board,
        start,
        closed=args.closed,
        algorithm=args.algorithm,
        node_budget=args.budget,
        time_limit=args.time_limit,
    )
    code = {"found": EXIT_OK, "budget": EXIT_BUDGET}.get(outcome.status, EXIT_NO_TOUR)
    if args.json:
        doc = {
            "rows": board.rows,
            "cols": board.cols,
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
        if board.area <= BOARD_PRINT_LIMIT:
            print(format_board(board, outcome.tour))
        print(
            f"{kind} tour of {board.dims} by {outcome.algorithm}: "
            f"{outcome.nodes} nodes, {outcome.backtracks} backtracks, {outcome.seconds:.3f} s"
        )
    if outcome.status != "found":
        print(f"knights-tour: {outcome.reason}", file=sys.stderr)
    return code


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
        start = _parse_square(args.start, board)
        if puzzle.start is not None and start != puzzle.start:
            raise UsageError(f"this puzzle starts on {board.name(puzzle.start)}")
    if start in board.blocked:
        raise UsageError(f"start-on-hole: the start {board.name(start)} is a hole")
    return start


def _solve_shape(args: argparse.Namespace, board: Board, start: int | None) -> int:
    """A board with holes: the exact hint search (auto), or the plain searches."""
    import time

    from .engine.hints import hint
    from .engine.search import solve

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
        result = solve(
            board,
            start,
            closed=args.closed,
            ordering=args.algorithm,
            node_budget=args.budget,
            time_limit=args.time_limit,
        )
        tour = result.tour
        status = result.status if result.status in ("found", "exhausted") else "budget"
        algorithm, nodes, backtracks = args.algorithm, result.nodes, result.backtracks
        reason = None if status == "found" else f"search ended: {result.status}"
    seconds = time.perf_counter() - began
    if status == "exhausted" and not reason:
        reason = "no tour from this start"
    code = {"found": EXIT_OK, "budget": EXIT_BUDGET}.get(status, EXIT_NO_TOUR)
    if args.json:
        doc = {
            "rows": board.rows,
            "cols": board.cols,
            "holes": _cells(board, sorted(board.blocked)),
            "closed": args.closed,
            "algorithm": algorithm,
            "tour": None,
            "stats": {"nodes": nodes, "backtracks": backtracks, "seconds": round(seconds, 6)},
        }
        if status != "found":
            doc["reason"] = reason
        _dump_json(doc, board, tour)
    elif status == "found":
        kind = "closed" if args.closed else "open"
        print(format_board(board, tour))
        print(
            f"{kind} tour of {board.dims} with {len(board.blocked)} holes by {algorithm}: "
            f"{nodes} nodes, {seconds:.3f} s"
        )
    if status != "found":
        print(f"knights-tour: {reason}", file=sys.stderr)
    return code


def cmd_verdict(args: argparse.Namespace) -> int:
    """A puzzle's verdict: a tour (``--witness`` prints one) or the named reason there is none."""
    from .engine.verdict import decide

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
    from .engine.hints import hint

    puzzle = _puzzle_of_args(args)
    args.closed = puzzle.closed
    board = puzzle.shape.board
    path = [_parse_square(text, board) for text in args.path]
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


class _CannotStart(Exception):
    """The app cannot start here (a read-only instance folder): one line, exit code 1."""


def _app(config: dict | None = None):
    from .app import CannotStart, create_app

    try:
        return create_app(config or {})
    except ValueError as err:  # a bad setting, e.g. RATE_LIMIT_GAMES=often
        raise UsageError(f"bad configuration: {err}") from None
    except CannotStart as err:
        raise _CannotStart(str(err)) from None


def cmd_db(args: argparse.Namespace) -> int:
    """``db upgrade`` / ``db status`` on DATABASE_URL (the embedded SQLite file by default)."""
    from .db import current_revision, head_revision, upgrade_schema

    app = _app()
    with app.app_context():
        if args.action == "upgrade":
            before, after = upgrade_schema()
            if before == after:
                print(f"the database schema is current ({after})")
            else:
                print(f"the database schema was upgraded from {before or 'nothing'} to {after}")
            return EXIT_OK
        current, head = current_revision(), head_revision()
        state = "current" if current == head else "stale: run `knights-tour db upgrade`"
        print(f"database schema {current or 'none'}, this release needs {head}: {state}")
        return EXIT_OK if current == head else 1


def cmd_serve(args: argparse.Namespace) -> int:
    from .app import CannotStart
    from .serving import BadConfiguration, BadSchema, serve

    port = args.port
    if port is None:
        try:
            port = PORT.parse(os.environ.get("PORT") or PORT.default)
        except ValueError as err:
            raise UsageError(f"PORT: {err}") from None
    if port > 65535:
        raise UsageError(f"port must be at most 65535, got {port}")
    config = {}
    if args.message_queue:
        config["SOCKETIO_MESSAGE_QUEUE"] = args.message_queue
    host = "0.0.0.0" if args.lan else (args.host or "127.0.0.1")
    try:
        return serve(host, port, config, lan=args.lan)
    except BadConfiguration as err:
        raise UsageError(f"bad configuration: {err}") from None
    except BadSchema as err:
        print(f"knights-tour: {err}", file=sys.stderr)
        return EXIT_USAGE
    except CannotStart as err:
        raise _CannotStart(str(err)) from None


def _dims(text: str) -> tuple[int, int]:
    try:
        return parse_dims(text)
    except BoardError as err:
        raise UsageError(str(err)) from None


COMMANDS = {
    "serve": cmd_serve,
    "solve": cmd_solve,
    "hint": cmd_hint,
    "verdict": cmd_verdict,
    "db": cmd_db,
}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except _Shown:
        return EXIT_OK
    except BrokenPipeError:  # e.g. `knights-tour solve 1000x1000 --json | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except UsageError as err:
        print(f"knights-tour: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BoardError as err:
        print(f"knights-tour: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except _CannotStart as err:
        print(f"knights-tour: cannot start: {err}", file=sys.stderr)
        return EXIT_CANNOT_START


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
