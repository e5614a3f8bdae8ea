"""The code lab's ready-made class exercises: what a teacher picks from (``lab_exercise``).

Data only.  Each preset is a board, a start, a goal and the lab's starting program
(``example``: one of the /lab page's examples, static/js/lab/), with its words in the
catalogues (``class.lab.preset.<id>.title`` and ``.prompt``).  Every preset's goal is
reachable: the corrected programs of the lesson reach it (tests/classroom/test_lab.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    id: str
    example: str  # the /lab example the students start from
    rows: int
    cols: int
    start: tuple[int, int]  # (row, col), 0-based
    closed: bool
    limit: int | None  # at most this many moves + backtracks; None: any


PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        # article 001's Python sorts the next squares, but the sort never takes effect:
        # fixed, it is Warnsdorff's rule (64 moves, no backtrack from a corner of 8x8)
        Preset("python-sort", "article-001", 8, 8, (0, 0), closed=False, limit=100),
        # the lesson's plain depth-first search, as it starts on /lab
        Preset("plain-dfs", "start", 6, 6, (0, 0), closed=False, limit=None),
        # from the plain search to Warnsdorff's rule
        Preset("warnsdorff", "start", 8, 8, (0, 0), closed=False, limit=100),
    )
}
