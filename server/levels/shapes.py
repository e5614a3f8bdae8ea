"""Drawing helpers for the level candidates (server/levels/build.py): shapes as art rows."""

from __future__ import annotations


def rect(rows: int, cols: int) -> list[str]:
    return ["." * cols for _ in range(rows)]


def punch(art: list[str], *cells: tuple[int, int]) -> list[str]:
    """``art`` with holes at (row, col) ``cells``."""
    grid = [list(line) for line in art]
    for r, c in cells:
        grid[r][c] = "#"
    return ["".join(line) for line in grid]


def mirror4(rows: int, cols: int, *cells: tuple[int, int]) -> list[str]:
    """A rectangle with holes at ``cells`` and their mirror images (a symmetric shape)."""
    holes = set()
    for r, c in cells:
        holes |= {(r, c), (rows - 1 - r, c), (r, cols - 1 - c), (rows - 1 - r, cols - 1 - c)}
    return punch(rect(rows, cols), *holes)


def corners(rows: int, cols: int, cut: int) -> list[str]:
    """A rectangle with each corner cut as a staircase of ``cut`` squares' depth."""
    cells = [(r, c) for r in range(cut) for c in range(cut - r)]
    return mirror4(rows, cols, *cells)


def cross(side: int, arm: int) -> list[str]:
    """A plus sign: a ``side`` square whose four corner blocks of ``arm`` x ``arm`` are gone."""
    return mirror4(side, side, *[(r, c) for r in range(arm) for c in range(arm)])


def ring(rows: int, cols: int, top: int, left: int, height: int, width: int) -> list[str]:
    """A rectangle with a rectangular hole ``height`` x ``width`` at (top, left)."""
    cells = [(top + r, left + c) for r in range(height) for c in range(width)]
    return punch(rect(rows, cols), *cells)


def diamond(side: int, keep: int) -> list[str]:
    """A square whose corners are cut so that ``keep`` squares remain on the edge rows."""
    cut = (side - keep) // 2
    return corners(side, side, cut)


def from_text(text: str) -> list[str]:
    """Art written as one string, rows separated by spaces or ``/``."""
    return text.replace("/", " ").split()
