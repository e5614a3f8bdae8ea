"""The code lab's recorder: a student's knight's-tour program, run with its board watched.

Runs inside Pyodide in the lab's Web Worker (static/js/lab/worker.js), and under CPython in
the tests (tests/lab/).  Nothing here knows the browser: the worker hands :func:`run` the
program, the page's board, a budget and a ``flush`` callable, and posts what comes back.
The program is made ready by lab_program.py: each grid write ``a[i][j] = v`` becomes a
call of this module's setter, ``__lab_set__(a, i, j, v, site)``.

How a move is seen.  The setter does the write and, when ``a`` is the board, records it: a
value other than 0 enters square (i, j), 0 leaves it.  The board is the first list of
``ROWS`` lists of ``COLS`` that the program writes a number other than 0 into
(``board[row][col] = step``); other grids (a ``visited`` list of booleans) are written as
usual and not recorded.  An event is taken ready made from ``site`` (lab_program.py) and
appended to a list; a chunk of them is joined into bytes for ``flush`` (the worker posts it
to the page).  No tracing: ``sys.settrace`` costs every line of the program, this costs one
call per write of a grid.

What is refused, each with its line (the student's own numbering):  a write off the board
(``board[-1][2]``: Python would wrap it round), a move that is no knight's jump from the
knight's square, onto a square already on the path, or a first move off the page's start
square; clearing a square that is on the path but not the knight's; an import outside
:data:`ALLOWED`.  Every write is checked as it is made, so the program stops at its bad
write.  The run ends at the first full board (the tour; whether it closes is the page's
verdict), at the program's next write of a grid after it, so a program that goes on
searching (the Python article's never sets its ``found``) stops where the engine stops.
"""

from __future__ import annotations

import functools
import operator
import sys

from lab_program import (
    ALLOWED,
    BACK,
    FILENAME,
    LINE,
    NARROW_LINES,
    SETTER,
    LabError,
    Output,
    instrument,
    sandbox,
)

__all__ = ["ALLOWED", "BACK", "LINE", "NARROW_LINES", "LabError", "Run", "run"]

MAX_SQUARES = BACK  # boards up to 32 x 32 fit an event's square bits (searches stop at 30)
BLOCK = 256  # backtracks between two looks at the chunk and the budget


class _Stop(BaseException):
    """Ends the run from inside the program (a BaseException: ``except Exception`` in the
    program does not catch it)."""


def _grid(squares, rows: int, cols: int) -> list:
    """A list of lists that a write's (row, col) indexes: the square there when it is one of
    ``squares``, else None.  Each list is padded with None to twice its length, so that a
    negative index Python would wrap round lands on None, or (below minus the board's size)
    on a square where the board's own write raises IndexError, or past the padding raises
    IndexError at once."""
    blank = [None] * (2 * cols)
    out = [blank] * (2 * rows)
    for sq in squares:
        row, col = divmod(sq, cols)
        if out[row] is blank:
            out[row] = blank.copy()
        out[row][col] = sq
    return out


@functools.lru_cache(maxsize=4)
def _grids(rows: int, cols: int) -> tuple[list, list]:
    """``(cells, jumps)``: the :func:`_grid` of every square, and ``jumps[a]`` that of the
    knight's jumps from a.  Read only, so kept for the next run on the board."""
    jumps = []
    for a in range(rows * cols):
        r, c = divmod(a, cols)
        to = [
            (r + dr) * cols + c + dc
            for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        jumps.append(_grid(to, rows, cols))
    return _grid(range(rows * cols), rows, cols), jumps


class Run:
    """One run's board, path and recording; :meth:`setter` is the program's ``__lab_set__``."""

    def __init__(self, rows, cols, start, budget, chunk, flush, lines, size) -> None:
        if rows * cols > MAX_SQUARES:
            raise ValueError(f"{rows}x{cols} is too big for the lab")
        self.rows, self.cols, self.start = rows, cols, start
        self.chunk, self.flush, self.lines, self.size = chunk, flush, lines, size
        self.stop = chunk * max(1, -(-budget // chunk))  # the first chunk's end past the budget
        self.log: list[bytes] = []  # the events not handed over yet, each packed
        self.flushed = 0  # events handed to flush before them
        self.ended: str | None = None  # "found" | "declared": the run ends at the next write

    @property
    def total(self) -> int:
        return self.flushed + len(self.log)

    def finish(self) -> None:
        """Hand the events recorded since the last chunk over."""
        if self.log:
            self.flush(b"".join(self.log), self.size, self.lines)
            self.flushed += len(self.log)
            self.log.clear()

    def setter(self):
        """The program's ``__lab_set__``: the hot path, one call per grid write.

        Kept lean (it runs millions of times a second), every check a list lookup: ``head``,
        the knight's jumps, gives the square a move lands on or None; ``came[sq]`` says
        whether sq is on the path by holding the jumps of the square the knight came from,
        which a backtrack restores.  No length is taken: a move compares the path's
        ``depth`` with ``top`` (the full board), a backtrack counts ``left`` down, and
        :func:`mark` sees to the chunk and the budget, lowering both near the budget's end so
        that the run stops at its exact event.  A rarer case goes to ``odd``.
        """
        rows, cols, squares, start = self.rows, self.cols, self.rows * self.cols, self.start
        cells, jumps = _grids(rows, cols)
        root = _grid([start], rows, cols)  # before the first move: the start only
        came: list = [None] * squares  # None: off the path
        log = self.log
        board = None
        head = root
        depth = 0  # squares on the path
        run = self

        def other(a, i, j, v, site) -> None:
            """A write of another grid: the board's first (the first rows x cols grid given
            a number), any other grid's, or the first write after the run ended."""
            nonlocal board
            if run.ended:
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
                return setter(a, i, j, v, site)
            a[i][j] = v
            return None

        def odd(a, i, j, v, site) -> None:
            """A board write the fast path did not take: off the board, a move the path
            does not allow (an error, or the Python article's landing), clearing a square
            behind the knight, or indices that are not plain ints (Python's own error, or
            the same write through ints)."""
            nonlocal board, depth
            line = site[-1]
            try:
                row, col = int(operator.index(i)), int(operator.index(j))
            except TypeError:
                a[i][j] = v  # no list takes such an index: Python says so
                return None
            if not (0 <= row < rows and 0 <= col < cols):
                raise LabError("range", line, row=i, col=j, rows=rows, cols=cols)
            sq = row * cols + col
            name = _name(sq, rows, cols)
            if v and not depth and sq != start:
                raise LabError("start", line, square=name, start=_name(start, rows, cols))
            if v and depth and head[row][col] is None:
                knight = next(s for s in range(squares) if jumps[s] is head)
                raise LabError("jump", line, square=name, head=_name(knight, rows, cols))
            if not v and came[sq] is not None and head is not jumps[sq]:
                raise LabError("clear", line, square=name)
            if v and came[sq] is not None:
                if sq != start or depth != squares - 1:
                    raise LabError("again", line, square=name)
                a[i][j] = v  # its last move lands on its start: a false tour, recorded
                log.append(site[sq])
                depth += 1
                run.ended = "declared"
                board = None  # the next write of any grid goes through other(): it stops
                return None
            return setter(a, row, col, v, site)

        def off(a, i, j, v, site) -> None:
            """The board's own write raised IndexError: off the board, or a row the program
            made shorter (Python's error, raised again)."""
            row, col = operator.index(i), operator.index(j)
            if not (0 <= row < rows and 0 <= col < cols):
                raise LabError("range", site[-1], row=i, col=j, rows=rows, cols=cols)
            a[i][j] = v

        def mark() -> None:
            """A full board (the run ends), or time to see to the chunk and the budget."""
            nonlocal board, top, left
            if depth == squares:
                run.ended = "found"
                board = None  # the next write of any grid goes through other(): it stops
                return
            if run.total >= run.stop:
                run.finish()
                run.ended = "budget"
                raise _Stop
            if len(log) >= run.chunk:
                run.finish()
            top, left = pace()

        def pace() -> tuple[int, int]:
            """(top, left) till the next mark(): within BLOCK backtracks, and as many moves
            plus a path; closer to the budget's end, each backtrack and its exact move."""
            room = run.stop - run.total
            if room > 2 * BLOCK + squares:
                return squares, BLOCK
            return min(squares, depth + room), 1

        top, left = pace()  # the depth a move calls mark() at, the backtracks till one does

        def setter(a, i, j, v, site):
            nonlocal head, depth, left
            if a is not board:
                return other(a, i, j, v, site)
            if v:
                try:
                    sq = head[i][j]
                except (IndexError, TypeError):
                    return odd(a, i, j, v, site)
                if sq is None or came[sq] is not None:
                    return odd(a, i, j, v, site)
                try:
                    a[i][j] = v
                except IndexError:
                    return off(a, i, j, v, site)
                came[sq] = head
                head = jumps[sq]
                log.append(site[sq])
                depth += 1
                if depth == top:
                    mark()
                return None
            try:
                sq = cells[i][j]
            except (IndexError, TypeError):
                return odd(a, i, j, v, site)
            if sq is None:
                return odd(a, i, j, v, site)
            back = came[sq]
            if back is None:
                try:
                    a[i][j] = v  # 0 on a square off the path: no event
                except IndexError:
                    return off(a, i, j, v, site)
                return None
            if head is not jumps[sq]:
                return odd(a, i, j, v, site)
            try:
                a[i][j] = v
            except IndexError:
                return off(a, i, j, v, site)
            came[sq] = None
            head = back
            log.append(site[squares + sq])
            depth -= 1
            left -= 1
            if not left:
                mark()
            return None

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
    ``error`` (``code`` says which, ``line`` where).  ``flush(events, size, lines)`` gets
    each chunk of events (``chunk`` of them and at most a few hundred more, the last one
    fewer): bytes, ``size`` of them an event (2 or 4, little-endian), whose line is
    ``lines[event // LINE]``.
    """
    result = {"status": "ended", "code": None, "line": None, "params": {}, "message": ""}
    output = Output()
    try:
        code, lines, size = instrument(source, rows * cols)
    except SyntaxError as error:
        result.update(status="error", code="syntax", line=error.lineno, message=error.msg)
        return {**result, "total": 0, "output": ""}
    recording = Run(rows, cols, start_row * cols + start_col, budget, chunk, flush, lines, size)
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
    if recording.ended:
        result["status"] = recording.ended
    recording.finish()
    if result["status"] == "ended" and recording.total == 0:
        result.update(status="error", code="no-board", params={"rows": rows, "cols": cols})
    return {**result, "total": recording.total, "output": output.text()}
