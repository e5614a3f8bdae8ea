"""A tour as plain geometry: squares, holes, the path's lines, move numbers, labels.

One layout, two painters: server/share/svg.py writes it as SVG text and
server/share/png.py paints it with Pillow, so both pictures show the same thing.
No Flask, no database; coordinates are in picture units (pixels at scale 1).
"""

from __future__ import annotations

import itertools
import string
from dataclasses import dataclass, field

CELL = 48  # one square
MARGIN = 22  # room for the file letters and rank numbers

PALETTES = {
    # the Play page's board (static/css/app.css): for slides
    "board": {
        "light": "#f0d9b5",
        "dark": "#b58863",
        "hole": "#ffffff",
        "hatch": "#9a9a9a",
        "line": "#1d4ed8",
        "badge": "#ffffff",
        "number": "#111827",
        "label": "#4b5563",
        "start": "#15803d",
        "frame": "#6b4f35",
    },
    # white and grey, thin ink: for worksheets on a printer
    "print": {
        "light": "#ffffff",
        "dark": "#e5e7eb",
        "hole": "#ffffff",
        "hatch": "#6b7280",
        "line": "#111827",
        "badge": "#ffffff",
        "number": "#111827",
        "label": "#374151",
        "start": "#111827",
        "frame": "#111827",
    },
}


@dataclass(frozen=True)
class Square:
    row: int
    col: int
    x: float
    y: float
    dark: bool
    hole: bool


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    kind: str  # "number" (a move number on its square), "file", "rank"


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    cell: int
    squares: list[Square] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    start: tuple[float, float] | None = None  # centre of the marked start square
    colours: dict = field(default_factory=dict)
    title: str = ""


def _centre(row: int, col: int) -> tuple[float, float]:
    return MARGIN + col * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2


def layout(
    rows: int,
    cols: int,
    *,
    holes=(),
    path=(),
    closed: bool = False,
    returned: bool = False,
    start: tuple[int, int] | None = None,
    palette: str = "board",
    title: str = "",
) -> Layout:
    """The picture of a board: ``holes`` and ``path`` as (row, col) pairs.

    Every square of ``path`` carries its move number (1 = the start) and a line joins
    each pair of consecutive squares; a closed tour that ``returned`` also draws the
    jump back to the start.  ``start`` marks a square with a ring (the path's first
    square when not given).
    """
    holes = {tuple(h) for h in holes}
    path = [tuple(p) for p in path]
    width, height = MARGIN * 2 + cols * CELL, MARGIN * 2 + rows * CELL
    squares = [
        Square(r, c, MARGIN + c * CELL, MARGIN + r * CELL, bool((r + c) & 1), (r, c) in holes)
        for r in range(rows)
        for c in range(cols)
    ]
    hops = list(itertools.pairwise(path))
    if closed and returned and len(path) > 1:
        hops.append((path[-1], path[0]))
    lines = [Line(*_centre(*a), *_centre(*b)) for a, b in hops]
    labels = [Label(*_centre(*sq), str(i), "number") for i, sq in enumerate(path, 1)]
    if cols <= 26:
        for c in range(cols):
            x = MARGIN + c * CELL + CELL / 2
            labels.append(Label(x, height - MARGIN / 2, string.ascii_lowercase[c], "file"))
        for r in range(rows):
            y = MARGIN + r * CELL + CELL / 2
            labels.append(Label(MARGIN / 2, y, str(rows - r), "rank"))
    marked = start if start is not None else (path[0] if path else None)
    return Layout(
        width=width,
        height=height,
        cell=CELL,
        squares=squares,
        lines=lines,
        labels=labels,
        start=_centre(*marked) if marked is not None else None,
        colours=PALETTES[palette],
        title=title,
    )
