"""A search's position at one event index, as a page first draws it.

The students' page of a class is rendered with the room's snapshot (docs/protocol.md): the
state after ``at`` events and the encoded events after it.  Its scripts replay those events
up to the class's index and draw the board; this module does the same on the server, so
the page's HTML already holds that frame and a phone shows the class's position before its
scripts have loaded (templates/board_macros.html draws it).

What a square shows mirrors the browser's board state (static/js/board/state.js:
``markSearch``, ``squareKind``, ``squareNumber``) and the narration mirrors
static/js/stream/narrate.js; a browser test compares the two frames square by square.
No Flask here: words come through the ``t`` callable given to :func:`narration`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.board import Board
from .encode import decode
from .timeline import Demo

# What a square can show, as the board's cells say it in data-state.
HOLE, EMPTY, VISITED, CURRENT = "hole", "empty", "visited", "current"
CANDIDATE, TRIED, DEAD = "candidate", "tried", "dead"


@dataclass(frozen=True)
class Cell:
    """One square as drawn: its state, the number on it (0: none), whether it is the start."""

    row: int
    col: int
    state: str
    number: int
    start: bool

    @property
    def shade(self) -> str:
        return "dark" if (self.row + self.col) % 2 else "light"

    @property
    def file(self) -> str:
        return file_name(self.col)


@dataclass(frozen=True)
class LastEvent:
    """The event the frame stands after: a move (with the candidates it chose from, in the
    order tried, and their onward counts when the run carries them) or a backtrack."""

    move: int = -1
    back: int = -1
    candidates: tuple[int, ...] = ()
    counts: tuple[int, ...] | None = None

    @property
    def tried(self) -> int:
        return self.candidates.index(self.move) if self.move in self.candidates else 0


@dataclass(frozen=True)
class Frame:
    """The position after ``pos`` events of the run ``demo`` (on ``board``, the engine's)."""

    demo: Demo
    board: Board
    pos: int
    path: tuple[int, ...]
    nodes: int
    backtracks: int
    max_depth: int
    last: LastEvent | None  # None: the event before ``pos`` is not known (or there is none)
    end: dict | None  # the run's outcome (status, nodes, ...) when ``pos`` is its last event

    @property
    def rows(self) -> int:
        return self.demo.rows

    @property
    def cols(self) -> int:
        return self.demo.cols

    @property
    def start(self) -> int:
        return self.demo.start

    @property
    def depth(self) -> int:
        return len(self.path)

    @property
    def squares(self) -> int:
        return self.rows * self.cols

    def name(self, sq: int) -> str:
        """The square's chess name, as static/js/core/squares.js writes it (files a..z, aa..)."""
        row, col = divmod(sq, self.cols)
        return f"{file_name(col)}{self.rows - row}"

    def onward(self, sq: int) -> int:
        """Knight moves from ``sq`` to squares off the path and the holes (Warnsdorff's count)."""
        on_path = set(self.path)
        return sum(1 for target in self.board.neighbours[sq] if target not in on_path)

    def cells(self) -> list[list[Cell]]:
        """Every square, row by row, as the board draws it."""
        order = {sq: i + 1 for i, sq in enumerate(self.path)}
        knight = self.path[-1] if self.path else -1
        marks: dict[int, tuple[str, int]] = {}  # square -> (mark, number on it)
        last = self.last
        if last is not None and self.end is None:
            if last.back >= 0 and last.back not in order:
                marks[last.back] = (DEAD, -1)
            for i, sq in enumerate(last.candidates):
                if sq in order:
                    continue
                note = last.counts[i] if last.counts is not None else self.onward(sq)
                marks[sq] = (TRIED if i < last.tried else CANDIDATE, note)
        grid = []
        for row in range(self.rows):
            line = []
            for col in range(self.cols):
                sq = row * self.cols + col
                state, number = _square(sq, knight, order, marks, self.board.blocked)
                line.append(Cell(row, col, state, number, sq == self.start))
            grid.append(line)
        return grid

    def line_points(self) -> str:
        """The path's polyline in board units (a square is 1 x 1), as layer-lines.js draws it."""
        if self.depth < 2:
            return ""
        return " ".join(f"{sq % self.cols + 0.5:g},{sq // self.cols + 0.5:g}" for sq in self.path)

    @property
    def status(self) -> str:
        """The lane's badge: the run's outcome at its end, else paused or running."""
        return self.end["status"] if self.end is not None else ""


def _square(sq, knight, order, marks, holes) -> tuple[str, int]:
    if sq in holes:
        return HOLE, 0
    if sq == knight:
        return CURRENT, order[sq]
    if sq in order:
        return VISITED, order[sq]
    mark, note = marks.get(sq, (EMPTY, -1))
    return mark, max(note, 0)


def file_name(col: int) -> str:
    """Column -> file letters: a..z, then aa, ab, ..."""
    name = ""
    c = col
    while True:
        name = chr(97 + c % 26) + name
        c = c // 26 - 1
        if c < 0:
            return name


def frame_at(snapshot: dict, demo: Demo, *, end: dict | None = None) -> Frame:
    """The frame at ``snapshot["index"]`` of ``demo``'s run: the snapshot's state with its
    events up to the index replayed (at most its tail, a hundred or so).  ``end`` is the
    room's outcome, if the search has ended; the frame carries it when it stands on the
    last event.  ValueError when the snapshot's events do not fit its path (a corrupt one)."""
    index, at = snapshot["index"], snapshot["at"]
    path = list(snapshot["path"])
    on_path = set(path)
    nodes, backtracks, max_depth = snapshot["nodes"], snapshot["backtracks"], snapshot["max_depth"]
    last = None
    taken = 0
    for event in decode(snapshot["events"], demo.counts):
        if at + taken >= index:
            break
        taken += 1
        if event.kind == "move":
            if event.square in on_path:
                raise ValueError(f"event {at + taken - 1} moves onto the path")
            path.append(event.square)
            on_path.add(event.square)
            nodes += 1
            max_depth = max(max_depth, len(path))
            last = LastEvent(move=event.square, candidates=event.candidates, counts=event.onward)
        else:
            if not path or path[-1] != event.square:
                raise ValueError(
                    f"event {at + taken - 1} backs out of a square the knight is not on"
                )
            path.pop()
            on_path.discard(event.square)
            backtracks += 1
            last = LastEvent(back=event.square)
    if at + taken != index:
        raise ValueError("the snapshot does not reach its index")
    ended = end if end is not None and index >= end["total"] else None
    return Frame(
        demo=demo,
        board=Board(demo.rows, demo.cols, demo.holes),
        pos=index,
        path=tuple(path),
        nodes=nodes,
        backtracks=backtracks,
        max_depth=max_depth,
        last=last,
        end=ended,
    )


def narration(frame: Frame, t: Callable[..., str]) -> str | None:
    """The lane's sentence for the frame (static/js/stream/narrate.js), or None: none known."""
    if frame.end is not None:
        done = frame.end
        params = {
            "squares": format_number(frame.squares),
            "nodes": format_number(done["nodes"]),
            "backtracks": format_number(done["backtracks"]),
            "square": frame.name(frame.start),
        }
        if done["status"] == "budget":
            key = (
                "watch.ui.narr.budget.time"
                if done.get("limit") == "time"
                else "watch.ui.narr.budget"
            )
            return t(key, **params)
        return t(f"watch.ui.narr.{done['status']}", **params)
    last = frame.last
    if last is None:
        return None
    if last.move >= 0:
        square = frame.name(last.move)
        if not last.candidates:
            if frame.demo.algorithm == "construct" and frame.depth > 1:
                return t("watch.ui.narr.place", n=frame.depth, square=square)
            return t("watch.ui.narr.start", square=square)
        n = last.counts[last.tried] if last.counts is not None else frame.onward(last.move)
        return t("watch.ui.narr.try.one" if n == 1 else "watch.ui.narr.try", square=square, n=n)
    square = frame.name(last.back)
    if frame.depth > 0:
        return t("watch.ui.narr.back", square=square, to=frame.name(frame.path[-1]))
    return t("watch.ui.narr.back.root", square=square)


def format_number(n: int) -> str:
    """As the pages write counters (static/js/core/i18n.js): digits grouped by commas."""
    return f"{n:,}"
