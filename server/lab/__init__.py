"""The code lab (/lab): the programs it offers to start from.  No HTTP.

Each is a Python file under ``programs/`` that runs as the lab runs it (static/py/lab_recorder.py):
with ``ROWS``, ``COLS``, ``START_ROW`` and ``START_COL`` given by the page.  ``start`` is the page's
starting text, in the style of the articles (a 2-D board, the seeds' move order, a recursive
``dfs(x, y, step)``); the others are examples to load.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

FOLDER = Path(__file__).with_name("programs")
# id -> file; the page offers them in this order (the catalogue's lab.example.<id> names them)
PROGRAMS = {
    "start": "start.py",
    "warnsdorff": "warnsdorff.py",
    "article-001": "article_001.py",
}


@cache
def program(name: str) -> str:
    """The text of the program ``name`` (one of :data:`PROGRAMS`)."""
    return (FOLDER / PROGRAMS[name]).read_text(encoding="utf-8")
