"""Where the articles' programs enter and leave a square: their line map.

Each instrumented program in ``programs/`` prints ``E r c`` right after the statements
that enter a square (write its step number, and where the program keeps one, mark it
visited) and ``L r c`` right after those that leave it (write 0).  The trace lines end
in ``// [trace]`` or ``# [trace]``.  The statements a trace line follows are the run of
plain assignments just before it, at its indentation (comment lines between them
skipped): the code the code panel lights
for a ``Move`` (tagged ``mark`` / ``start``) and a ``Backtrack`` (``reset``).

:func:`traced_statements` reads them from the program's text, so a test can check a
listing (``tests/articles/test_listings.py``) or a lit line on a page against the
program itself.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["normalise", "traced_statements"]

# A trace line's kind: the print's first letter, E (enter) or L (leave).
_TRACE_KIND = re.compile(r"""["']([EL]) """)
# A plain assignment to a name or an array element: `chess[x1][y1]=count;`,
# `visit[row][col] = true;`, `chessBoard[ox][oy]=1`; not a declaration, call or test.
_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.]*(\[.*\])?\s*=(?!=)")
# A function's definition: `def f(`, `int f(...)` (C, without a `;`), `public static void f(...) {`.
_DEFINITION = re.compile(r"^\s*(?:def\s+(\w+)\s*\(|(?:[\w<>\[\],]+\s+)+\**(\w+)\s*\([^;]*$)")
_NOT_DEFINITIONS = ("if", "else", "while", "for", "switch", "return", "case")


def normalise(code: str) -> str:
    """``code`` with its runs of whitespace as one space, stripped: how lines compare."""
    return " ".join(code.split())


def _code(line: str, comment: str) -> str:
    at = line.find(comment)
    return line if at < 0 else line[:at]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _function(lines: list[str], index: int) -> str | None:
    """The name of the function the line at ``index`` is in."""
    depth = _indent(lines[index])
    for line in reversed(lines[:index]):
        if not line.strip() or _indent(line) >= depth:
            continue
        match = _DEFINITION.match(line)
        if match and line.split()[0] not in _NOT_DEFINITIONS:
            return match.group(1) or match.group(2)
    return None


def traced_statements(
    program_path: str | Path, within: tuple[str, ...] | None = None
) -> dict[str, list[str]]:
    """The statements that enter and leave a square in the program at ``program_path``.

    ``{"enter": [...], "leave": [...]}``, each statement once, in the program's order,
    comments stripped and whitespace normalised (:func:`normalise`).  ``within``: only
    the traces inside these functions (the C article's file holds both of its searches).
    """
    path = Path(program_path)
    comment = "#" if path.suffix == ".py" else "//"
    lines = path.read_text(encoding="utf-8").splitlines()
    found: dict[str, list[str]] = {"enter": [], "leave": []}
    for index, line in enumerate(lines):
        if not line.rstrip().endswith("[trace]"):
            continue
        kind = _TRACE_KIND.search(line)
        if kind is None:
            raise ValueError(f"{path.name}:{index + 1}: a trace line without E or L: {line}")
        if within is not None and _function(lines, index) not in within:
            continue
        statements: list[str] = []
        for before in reversed(lines[:index]):
            code = normalise(_code(before, comment))
            if before.strip() and not code:
                continue  # a comment between the statements (article 002's)
            if _indent(before) != _indent(line) or not _ASSIGNMENT.match(code):
                break
            statements.insert(0, code)
        if not statements:
            raise ValueError(f"{path.name}:{index + 1}: no statement before the trace line")
        bucket = found["enter" if kind.group(1) == "E" else "leave"]
        bucket.extend(s for s in statements if s not in bucket)
    return found
