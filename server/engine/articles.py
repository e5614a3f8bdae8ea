"""The four articles the product grew from, as orderings of the search (issue 24).

Each article's program, run as written, is an ordering of
:func:`~server.engine.search.search_events` (its own move order, sort and stopping
rule, bugs included), and most have a corrected twin that fixes the bug and nothing
else.  :data:`ARTICLES` gives each ordering id the article's own board and start.

Squares are ours (``row * cols + col``, row 0 at the top).  Which of a program's
indices is our row is read from how the program prints its board, row by row:

* ``000`` (Java): ``chess[row][col]``, printed ``chess[i]`` per line; ``Point.x`` is
  the column, ``Point.y`` the row.  ``traversalChessboard(chess, 2, 0, 1)``: row 2,
  column 0, 0-based.
* ``001`` (Python 2): ``chessBoard[x][y]``, printed ``chessBoard[i][j]`` with ``i``
  per line, so ``x`` is our row.  ``greedyWalk(4, 3)``: row 4, column 3.
* ``002`` (Java): ``chessBoard[row][col]``, printed one row per line.  ``main`` says
  ``row = 6; col = 1`` and passes ``row - 1, col - 1``: 1-based, so our (5, 0).
  (Its "final code" starts from ``row = 2; col = 2``, our (1, 1); the issue's
  figures use the first listing's start.)
* ``003`` (C): ``chess[x][y]``, printed ``chess[i][j]`` with ``i`` per line, so
  ``x`` is our row (``X`` rows, ``Y`` columns).  ``traverse(2, 0, 2)``: row 2,
  column 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from .article_orders import RULES

__all__ = ["ARTICLES", "Article", "browser_table"]


@dataclass(frozen=True)
class Article:
    """One ordering id: which article's program it runs, on that program's own board.

    ``fixed_of`` names the as-written ordering this one corrects (None for the
    programs as written).  ``start`` is (row, col), 0-based, our rows.
    """

    id: str
    article: str  # "000".."003": the seed file's number
    language: str  # "java" | "python" | "c"
    rows: int
    cols: int
    start: tuple[int, int]
    fixed_of: str | None = None
    # how the program keeps its path: recursive calls, an explicit stack array (the
    # corrected non-recursive C), or each square's tag (the C article's traverse_chess)
    path_kept: str = "calls"  # "calls" | "array" | "tags"


def _entries() -> dict[str, Article]:
    table = (
        Article("a000-java", "000", "java", 8, 8, (2, 0)),
        Article("a000-java-fixed", "000", "java", 8, 8, (2, 0), "a000-java"),
        Article("a001-python", "001", "python", 6, 6, (4, 3)),
        Article("a001-python-fixed", "001", "python", 6, 6, (4, 3), "a001-python"),
        Article("a002-java", "002", "java", 6, 6, (5, 0)),
        Article("a002-java-fixed", "002", "java", 6, 6, (5, 0), "a002-java"),
        Article("a003-c", "003", "c", 5, 5, (2, 0)),
        Article("a003-c-loop", "003", "c", 5, 5, (2, 0), path_kept="tags"),
        # For C the corrected version is the iterative search with an explicit
        # stack (the item 5): the same events as the recursive traverse.
        Article("a003-c-stack", "003", "c", 5, 5, (2, 0), "a003-c", path_kept="array"),
    )
    return {entry.id: entry for entry in table}


ARTICLES: dict[str, Article] = _entries()


def browser_table() -> dict[str, dict]:
    """Each article ordering as the browser needs it, as JSON: its program's board and
    start, and the rule its call stack and code panel follow (static/js/core/orderings.js).
    The one copy of these facts is here and in :mod:`.article_orders`."""
    table = {}
    for ordering, article in ARTICLES.items():
        rule = RULES[ordering]
        table[ordering] = {
            "article": article.article,
            "language": article.language,
            "rows": article.rows,
            "cols": article.cols,
            "start": list(article.start),
            "fixed_of": article.fixed_of,
            "fixed": next((k for k, a in ARTICLES.items() if a.fixed_of == ordering), None),
            "moves": [list(move) for move in rule.moves],
            "sort": rule.sort,
            "lands_on_start": rule.lands_on_start,
            "keeps_root": rule.keeps_root,
            "path_kept": article.path_kept,
        }
    return table
