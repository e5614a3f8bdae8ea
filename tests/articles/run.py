"""Run the articles' own programs (tests/articles/programs/) and read what they print.

Each program is instrumented with print statements only: ``E r c`` when it enters a
square (writes a step number on its board), ``L r c`` when it leaves one (writes 0),
``r`` being our row (see :mod:`server.engine.articles` for which index that is in
each article).  Everything else a program prints (its board dumps, timings) is kept
as ``output``.

Board size and start.  The programs hold them as constants; to run one on another
board, :func:`source_for` writes a copy with those constants replaced, each
replacement checked to hit its text exactly once, so the search itself is never
edited.  Java is compiled with ``javac`` and run with ``java``, C with ``gcc``; the
Python port runs under this interpreter.  Builds go to a temporary directory, one per
distinct source text.

Stopping.  A program runs until it exits, prints ``max_events`` events, shows its
first success (``stop_on_success``: the Python article never stops by itself), or
runs out of ``timeout`` seconds (then it is killed and :class:`Run` says so).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PROGRAMS = Path(__file__).parent / "programs"
JDK_HINT = "`make jdk` installs Debian's default-jdk-headless"
GCC_HINT = "`make core` installs build-essential (gcc)"

Start = tuple[int, int]
Substitute = Callable[[str, int, int, Start], str]


class ToolMissing(RuntimeError):
    """A compiler or runtime the program needs is not installed (the message says how)."""


def replace_once(text: str, old: str, new: str) -> str:
    """``text`` with its one ``old`` replaced; fails loudly when ``old`` is not there once."""
    count = text.count(old)
    if count != 1:
        raise ValueError(f"expected {old!r} once in the program, found it {count} times")
    return text.replace(old, new)


def _a000(text: str, rows: int, cols: int, start: Start) -> str:
    # X is the number of columns, Y of rows; traversalChessboard(chess, row, col, 1).
    text = replace_once(text, "        X = 8;\n", f"        X = {cols};\n")
    text = replace_once(text, "        Y = 8;\n", f"        Y = {rows};\n")
    return replace_once(
        text,
        "traversalChessboard(chess, 2, 0, 1);",
        f"traversalChessboard(chess, {start[0]}, {start[1]}, 1);",
    )


def _a002(text: str, rows: int, cols: int, start: Start) -> str:
    # main's row and col are 1-based (it passes row - 1, col - 1).
    text = replace_once(text, "int X = 6;", f"int X = {cols};")
    text = replace_once(text, "int Y = 6;", f"int Y = {rows};")
    first = "int row = 6;\n        int col = 1;"  # the first listing's start
    final = "int row = 2;\n        int col = 2;"  # the final listing's start
    own = first if first in text else final
    return replace_once(text, own, f"int row = {start[0] + 1};\n        int col = {start[1] + 1};")


def _a001(text: str, rows: int, cols: int, start: Start) -> str:
    text = replace_once(text, "\nN = 6\n", f"\nN = {rows}\n")
    return replace_once(text, "h.greedyWalk(4,3)", f"h.greedyWalk({start[0]},{start[1]})")


def _c_board(text: str, rows: int, cols: int) -> str:
    # chess[X][Y]: X rows, Y columns (print_chess prints chess[i] per line).
    text = replace_once(text, "#define X 5", f"#define X {rows}")
    return replace_once(text, "#define Y 5", f"#define Y {cols}")


def _c_start(text: str, start: Start) -> str:
    r, c = start
    text = replace_once(text, "    chess[2][0]=1;", f"    chess[{r}][{c}]=1;")
    return replace_once(text, 'printf("E %d %d\\n",2,0);', f'printf("E %d %d\\n",{r},{c});')


def _a003(text: str, rows: int, cols: int, start: Start) -> str:
    text = _c_start(_c_board(text, rows, cols), start)
    return replace_once(
        text, "int result=traverse(2,0,2);", f"int result=traverse({start[0]},{start[1]},2);"
    )


def _a003_loop(text: str, rows: int, cols: int, start: Start) -> str:
    """方法二: main's own switch, 方法一's lines commented out and 方法二's line uncommented."""
    text = _a003(text, rows, cols, start)
    for line in (
        f"    chess[{start[0]}][{start[1]}]=1;",
        f'    printf("E %d %d\\n",{start[0]},{start[1]}); // [trace]',
        f"    int result=traverse({start[0]},{start[1]},2);",
    ):
        text = replace_once(text, line + "\n", "    //" + line.lstrip() + "\n")
    return replace_once(
        text,
        "    //int result=traverse_chess(2,0,1);",
        f"    int result=traverse_chess({start[0]},{start[1]},1);",
    )


def _a003_stack(text: str, rows: int, cols: int, start: Start) -> str:
    text = _c_start(_c_board(text, rows, cols), start)
    return replace_once(
        text,
        "int result=traverse_stack(2,0);",
        f"int result=traverse_stack({start[0]},{start[1]});",
    )


@dataclass(frozen=True)
class Program:
    """One instrumented program and how to build and run a copy of it on any board."""

    name: str
    language: str  # "java" | "python" | "c"
    path: str  # under programs/
    substitute: Substitute
    square_only: bool = False  # the program indexes a [X][Y] array as [row][col]
    main_class: str = ""  # java
    stop_on_success: bool = False  # never stops by itself: stop at its first success

    @property
    def file(self) -> Path:
        return PROGRAMS / self.path


PROGRAMS_BY_NAME: dict[str, Program] = {
    p.name: p
    for p in (
        # 000 declares visit = new boolean[X][Y] and indexes it [row][col]: square boards.
        Program(
            "a000", "java", "a000/HorseChessboard.java", _a000, True, "algorithm.HorseChessboard"
        ),
        Program(
            "a000-fixed",
            "java",
            "a000_fixed/HorseChessboard.java",
            _a000,
            True,
            "algorithm.HorseChessboard",
        ),
        Program("a001", "python", "a001_port.py", _a001, True, stop_on_success=True),
        Program("a001-fixed", "python", "a001_fixed.py", _a001, True, stop_on_success=True),
        Program("a002", "java", "a002/HorseChessBoard.java", _a002, main_class="HorseChessBoard"),
        Program(
            "a002-unsorted",
            "java",
            "a002_unsorted/HorseChessBoard.java",
            _a002,
            main_class="HorseChessBoard",
        ),
        Program(
            "a002-fixed",
            "java",
            "a002_fixed/HorseChessBoard.java",
            _a002,
            main_class="HorseChessBoard",
        ),
        Program("a003", "c", "a003_horse.c", _a003),
        Program("a003-loop", "c", "a003_horse.c", _a003_loop),
        Program("a003-stack", "c", "a003_stack.c", _a003_stack),
    )
}

SUCCESS_LINE = "====================="  # the Python article's success() ends with it


@dataclass
class Run:
    """What a program printed: its events (``("enter" | "leave", square)``) and the rest."""

    events: list[tuple[str, int]] = field(default_factory=list)
    output: list[str] = field(default_factory=list)  # every other line, in order
    ended: str = "exit"  # "exit" | "events" (max_events) | "success" | "timeout"
    returncode: int | None = None

    @property
    def nodes(self) -> int:
        return sum(1 for kind, _ in self.events if kind == "enter")


def source_for(program: Program, rows: int, cols: int, start: Start) -> str:
    """The program's text with its board and start replaced (the search untouched)."""
    if program.square_only and rows != cols:
        raise ValueError(f"{program.name} runs on square boards only, not {rows}x{cols}")
    return program.substitute(program.file.read_text(encoding="utf-8"), rows, cols, start)


# The JVM for short runs: the quick compiler only and the plain collector start javac and
# the articles' programs with about a third less CPU; what a program prints is the same.
JVM_QUICK = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


def require(tool: str, hint: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise ToolMissing(f"{tool} is not installed: {hint}")
    return found


_BUILD_ROOT: Path | None = None
_BUILDS: dict[str, list[str]] = {}
_BUILD_LOCK = threading.Lock()


def _build_dir() -> Path:
    global _BUILD_ROOT
    if _BUILD_ROOT is None:
        _BUILD_ROOT = Path(tempfile.mkdtemp(prefix="knights-articles-"))
    return _BUILD_ROOT


def build(program: Program, rows: int, cols: int, start: Start) -> list[str]:
    """Compile a copy for this board (once per distinct text); the command that runs it."""
    text = source_for(program, rows, cols, start)
    key = hashlib.sha256(f"{program.language}\0{text}".encode()).hexdigest()[:16]
    with _BUILD_LOCK:
        if key in _BUILDS:
            return _BUILDS[key]
        where = _build_dir() / key
        where.mkdir(exist_ok=True)
        source = where / Path(program.path).name
        source.write_text(text, encoding="utf-8")
        if program.language == "java":
            javac = require("javac", JDK_HINT)
            java = require("java", JDK_HINT)
            quick = [f"-J{flag}" for flag in JVM_QUICK]
            _compile([javac, *quick, "-encoding", "UTF-8", "-d", str(where), str(source)])
            classes = ["-cp", str(where), program.main_class]
            command = [java, *JVM_QUICK, "-Dfile.encoding=UTF-8", *classes]
        elif program.language == "c":
            gcc = require("gcc", GCC_HINT)
            binary = where / "horse"
            # The article names its entry point main23; -D renames it without editing it.
            _compile([gcc, "-O2", "-w", "-Dmain23=main", "-o", str(binary), str(source)])
            command = [str(binary)]
        else:
            command = [sys.executable, str(source)]
        _BUILDS[key] = command
        return command


def _compile(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def run(
    program: Program,
    rows: int,
    cols: int,
    start: Start,
    *,
    max_events: int = 200_000,
    max_output_lines: int = 10_000,
    timeout: float = 120.0,
) -> Run:
    """Build and run the program on this board, reading its events as it prints them."""
    command = build(program, rows, cols, start)
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=env,
        start_new_session=True,
    )
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        _stop(proc)

    timer = threading.Timer(timeout, kill)
    timer.start()
    result = Run()
    try:
        assert proc.stdout is not None
        result.ended = _read(proc.stdout, program, cols, result, max_events, max_output_lines)
    finally:
        timer.cancel()
        if result.ended != "exit":
            _stop(proc)
        proc.stdout.close()
        result.returncode = proc.wait()
    if timed_out.is_set() and result.ended == "exit":
        result.ended = "timeout"
    return result


def _read(stream, program: Program, cols: int, result: Run, max_events: int, max_lines: int) -> str:
    events = result.events
    for line in stream:
        kind, _, rest = line.partition(" ")
        if kind in ("E", "L") and rest:
            r, c = rest.split()
            events.append(("enter" if kind == "E" else "leave", int(r) * cols + int(c)))
            if len(events) >= max_events:
                return "events"
            continue
        line = line.rstrip("\n")
        result.output.append(line)
        if program.stop_on_success and events and line == SUCCESS_LINE:
            return "success"
        if len(result.output) >= max_lines:
            return "events"
    return "exit"


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(proc.pid, signal.SIGKILL)


def replay(events: list[tuple[str, int]], area: int) -> list[int]:
    """The board the events leave: each entered square holds its step (1 = the first).

    A square entered while already on the board (the Python article landing on its
    start) takes the new step, as the program's own assignment does.
    """
    board = [0] * area
    path: list[int] = []
    for kind, square in events:
        if kind == "enter":
            path.append(square)
            board[square] = len(path)
        else:
            board[square] = 0
            path.pop()
    return board


def board_dump(program: Program, output: list[str], rows: int) -> list[int] | None:
    """The last board the program printed, flattened row by row (None if it printed none)."""
    rows_seen: list[list[int]] = []
    grids: list[list[int]] = []
    for line in output:
        cells = line.strip().strip("[]").replace(",", " ").split()
        if cells and all(cell.isdigit() for cell in cells) and (len(cells) > 1 or rows_seen):
            rows_seen.append([int(cell) for cell in cells])
            if len(rows_seen) == rows:
                grids.append([v for row in rows_seen for v in row])
                rows_seen = []
        else:
            rows_seen = []
    return grids[-1] if grids else None
