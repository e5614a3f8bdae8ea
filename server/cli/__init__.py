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

import os
import sys
from collections.abc import Sequence

from ..engine.board import BoardError
from . import puzzles
from .usage import (
    EXIT_CANNOT_START,
    EXIT_OK,
    EXIT_USAGE,
    CannotStartHere,
    UsageError,
    VersionShown,
    build_parser,
)


def _server_command(name: str):
    def run(args):
        # imported here so that solve, hint and verdict start without Flask and the
        # database (about 0.4 s a run, and a puzzle command needs neither)
        from . import server_commands

        return getattr(server_commands, name)(args)

    return run


COMMANDS = {
    "serve": _server_command("cmd_serve"),
    "solve": puzzles.cmd_solve,
    "hint": puzzles.cmd_hint,
    "verdict": puzzles.cmd_verdict,
    "db": _server_command("cmd_db"),
}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except VersionShown:
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
    except CannotStartHere as err:
        print(f"knights-tour: cannot start: {err}", file=sys.stderr)
        return EXIT_CANNOT_START
