"""The command line's parser, its one-line errors and its exit codes."""

from __future__ import annotations

import argparse
from importlib.metadata import PackageNotFoundError, version

from ..config import BY_NAME
from ..engine import native
from ..engine.board import Board, BoardError, parse_dims

EXIT_OK, EXIT_USAGE, EXIT_NO_TOUR, EXIT_BUDGET = 0, 2, 3, 4
EXIT_CANNOT_START = 1  # serve/db: the instance folder or the database is not usable
PORT = BY_NAME["PORT"]
BOARD_PRINT_LIMIT = 10_000  # larger boards print a summary; use --json for the tour


class UsageError(Exception):
    """Bad arguments: reported as one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        raise UsageError(message)


class VersionShown(Exception):
    """--version was printed: nothing else to do."""


def version_line() -> str:
    """The version and the engine that runs (the compiled core or the Python fallback)."""
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
        raise VersionShown


def parse_square(text: str, board: Board) -> int:
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


class CannotStartHere(Exception):
    """The app cannot start here (a read-only instance folder): one line, exit code 1."""


def dims_or_usage_error(text: str) -> tuple[int, int]:
    try:
        return parse_dims(text)
    except BoardError as err:
        raise UsageError(str(err)) from None
