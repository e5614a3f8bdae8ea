"""The code lab's recorder: a student's knight's-tour program, run with its board watched.

Runs inside Pyodide in the lab's Web Worker (static/js/lab/worker.js), and under CPython in
the tests (tests/lab/).  Nothing here knows the browser: the worker hands :func:`run` the
program, the page's board, a budget and a ``flush`` callable, and posts what comes back.
The program is made ready by lab_program.py (its rewrite, its sandbox).

How a move is seen.  The program is parsed with :mod:`ast` and every statement of the form
``a[i][j] = v`` becomes a call ``__lab_set__(a, i, j, v, line)``, which does the write and,
when ``a`` is the board, records it: a value other than 0 enters square (i, j), 0 leaves
it.  The board is the first list of ``ROWS`` lists of ``COLS`` that the program writes a
number other than 0 into (``board[row][col] = step``); other grids (a ``visited`` list of
booleans) are written as usual and not recorded.  A recorded event is one int in a
preallocated ``array('i')``: ``line * 2048 + 1024 * (it leaves) + square``, the square
``row * COLS + col``.  Each full chunk goes to ``flush`` (the worker posts it to the page)
and is reused.  No tracing: ``sys.settrace`` costs every line of the program, this costs
one call per write of a grid.

What is refused, each with its line (the student's own numbering):  a write off the board
(``board[-1][2]``: Python would wrap it round), a move that is no knight's jump from the
knight's square, onto a square already on the path, or a first move off the page's start
square; clearing a square that is on the path but not the knight's; an import outside
:data:`ALLOWED`.  The run ends at the first full board (the tour; whether it closes is the
page's verdict), at the program's next write of a grid after it, so a program that goes on
searching (the Python article's never sets its ``found``) stops where the engine stops.
"""

from __future__ import annotations

import sys
from array import array

from lab_program import (
    ALLOWED,
    BACK,
    FILENAME,
    LINE,
    SETTER,
    LabError,
    Output,
    instrument,
    sandbox,
)

__all__ = ["ALLOWED", "BACK", "LINE", "LabError", "Run", "run"]

MAX_SQUARES = BACK  # boards up to 32 x 32 fit an event's square bits (searches stop at 30)


class _Stop(BaseException):
    """Ends the run from inside the program (a BaseException: ``except Exception`` in the
    program does not catch it)."""


def _knight_table(rows: int, cols: int) -> bytearray:
    """``table[a * squares + b]`` is 1 when b is a knight's jump from a."""
    squares = rows * cols
    table = bytearray(squares * squares)
    for a in range(squares):
        r, c = divmod(a, cols)
        for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                table[a * squares + (r + dr) * cols + c + dc] = 1
    return table


class Run:
    """One run's board, path and recording; :meth:`setter` is the program's ``__lab_set__``."""

    def __init__(self, rows, cols, start, budget, chunk, flush) -> None:
        if rows * cols > MAX_SQUARES:
            raise ValueError(f"{rows}x{cols} is too big for the lab")
        self.rows, self.cols, self.start = rows, cols, start
        self.budget, self.chunk, self.flush = budget, chunk, flush
        self.buffer = array("i", bytes(4 * chunk))
        self.filled = 0  # ints in the buffer
        self.flushed = 0  # events handed to flush before them
        self.path: list[int] = []
        self.ended: str | None = None  # "found" | "declared": the run ends at the next write

    @property
    def total(self) -> int:
        return self.flushed + self.filled

    def finish(self) -> None:
        """Hand the last, partial chunk over."""
        if self.filled:
            self.flush(self.buffer, self.filled)
            self.flushed += self.filled
            self.filled = 0

    def setter(self):
        """The program's ``__lab_set__``: the hot path, one call per grid write.

        Kept lean (it runs millions of times a second): the knight's square is held as
        ``head``, its row's offset in the jump table, whose extra last row allows only the
        start (the path is empty); a full board or a full chunk is one comparison,
        ``filled == mark``, checked before anything else is done about it.
        """
        rows, cols = self.rows, self.cols
        squares = rows * cols
        root = squares * squares  # the jump table's row for "no path yet": the start only
        knight = _knight_table(rows, cols) + bytearray(squares)
        knight[root + self.start] = 1
        on = bytearray(squares)
        path = self.path
        push, pop = path.append, path.pop
        buffer, chunk = self.buffer, self.chunk
        board = None
        filled = 0
        head = root
        run = self

        def other(a, i, j, v, line) -> None:
            """A write of another grid: the board's first (the first rows x cols grid given
            a number), any other grid's, or the first write after the run ended."""
            nonlocal board
            if run.ended:
                run.filled = filled
                raise _Stop
            if (
                board is None
                and v
                and type(v) is not bool
                and isinstance(v, int)
                and type(a) is list
                and len(a) == rows
                and all(type(row) is list and len(row) == cols for row in a)
            ):
                board = a
                setter(a, i, j, v, line)
                return
            a[i][j] = v

        def odd(sq: int, line: int) -> None:
            """A move the path does not allow: the Python article's landing, or an error."""
            name = _name(sq, rows, cols)
            if not path:
                raise LabError("start", line, square=name, start=_name(run.start, rows, cols))
            if not knight[head + sq]:
                raise LabError("jump", line, square=name, head=_name(path[-1], rows, cols))
            if sq == path[0] and len(path) == squares - 1:
                run.ended = "declared"  # its last move lands on its start: a false tour
                return
            raise LabError("again", line, square=name)

        def mark() -> None:
            """A full chunk (hand it over, mind the budget) or a full board (the run ends)."""
            nonlocal filled, board
            if len(path) == squares and not run.ended:
                run.ended = "found"
            if run.ended:
                run.filled = filled
                board = None  # the next write of any grid goes through other(): it stops
            elif filled == chunk:
                run.filled = filled
                run.finish()
                filled = 0
                if run.flushed >= run.budget:
                    run.ended = "budget"
                    raise _Stop

        def setter(a, i, j, v, line):
            nonlocal filled, head
            if a is not board:
                return other(a, i, j, v, line)
            if not (0 <= i < rows and 0 <= j < cols):
                raise LabError("range", line // LINE, row=i, col=j, rows=rows, cols=cols)
            sq = i * cols + j
            if v:
                if on[sq] or not knight[head + sq]:
                    odd(sq, line // LINE)
                on[sq] = 1
                push(sq)
                head = sq * squares
                buffer[filled] = line + sq
                a[i][j] = v
                filled += 1
                if filled == chunk or len(path) == squares:
                    mark()
            elif on[sq]:
                if path[-1] != sq:
                    raise LabError("clear", line // LINE, square=_name(sq, rows, cols))
                on[sq] = 0
                pop()
                head = path[-1] * squares if path else root
                buffer[filled] = line + BACK + sq
                a[i][j] = v
                filled += 1
                if filled == chunk:
                    mark()
            else:
                a[i][j] = v  # 0 on a square off the path: no event

        def sync() -> None:  # the closure's count, for finish() after the program
            run.filled = filled

        self.sync = sync
        return setter


def _name(sq: int, rows: int, cols: int) -> str:
    row, col = divmod(sq, cols)
    return f"{chr(ord('a') + col)}{rows - row}"


def _error_line(error: BaseException) -> int | None:
    """The program's line the error happened at: the innermost frame of the program."""
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def run(source, rows, cols, start_row, start_col, budget, chunk, flush) -> dict:
    """Run ``source`` on a rows x cols board from (start_row, start_col); returns how it ended:
    ``{"status", "total", "output", "code", "line", "params", "message"}``.

    ``status``: ``found`` (a full board), ``declared`` (the last move landed on the start),
    ``ended`` (the program returned without a tour), ``budget`` (``budget`` events),
    ``error`` (``code`` says which, ``line`` where).  ``flush(buffer, n)`` gets each chunk
    of events: the first ``n`` ints of ``buffer``, valid during the call only.
    """
    recording = Run(rows, cols, start_row * cols + start_col, budget, chunk, flush)
    result = {"status": "ended", "code": None, "line": None, "params": {}, "message": ""}
    output = Output()
    try:
        code = instrument(source)
    except SyntaxError as error:
        result.update(status="error", code="syntax", line=error.lineno, message=error.msg)
        return {**result, "total": 0, "output": ""}
    names = {
        "__name__": "__main__",
        "__builtins__": sandbox(),
        SETTER: recording.setter(),
        "ROWS": rows,
        "COLS": cols,
        "START_ROW": start_row,
        "START_COL": start_col,
    }
    saved = sys.stdout, sys.stderr, sys.getrecursionlimit()
    sys.stdout = sys.stderr = output
    try:
        exec(code, names)  # the student's own program, in the student's own browser
    except _Stop:
        pass
    except LabError as error:
        line = error.line if error.line is not None else _error_line(error)
        result.update(status="error", code=error.code, line=line, params=error.params)
    except RecursionError as error:
        result.update(status="error", code="recursion", line=_error_line(error))
    except Exception as error:  # the program's own error, said as Python says it
        message = f"{type(error).__name__}: {error}"
        result.update(status="error", code="exception", line=_error_line(error), message=message)
    finally:
        sys.stdout, sys.stderr = saved[:2]
        sys.setrecursionlimit(saved[2])
        recording.sync()
    if recording.ended:
        result["status"] = recording.ended
    recording.finish()
    if result["status"] == "ended" and recording.total == 0:
        result.update(status="error", code="no-board", params={"rows": rows, "cols": cols})
    return {**result, "total": recording.total, "output": output.text()}
