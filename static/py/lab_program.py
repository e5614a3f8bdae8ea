"""The code lab's program, made ready to run: its grid writes rewritten into recording
calls, and the sandbox it runs in.  Used by the recorder (lab_recorder.py, which the lab's
Web Worker loads with this module under Pyodide, and the tests under CPython).

The rewrite.  The program is parsed with :mod:`ast` and every statement of the form
``a[i][j] = v`` becomes a call ``__lab_set__(a, i, j, v, site)``.  ``site`` is a constant of
the call's line: every event the line can record, ready made, so that recording one is a
list append.  An event is ``index * LINE + BACK * (it leaves) + square``, ``index`` the
place of the writing line in the program's ``lines`` (the lines holding a grid write, in
order): 16 bits when there are at most :data:`NARROW_LINES` of them, else 32.

The sandbox: builtins without files, ``exec`` or ``input``, imports of :data:`ALLOWED` only,
print() into an :class:`Output` of :data:`OUTPUT_CHARS` characters.
"""

from __future__ import annotations

import ast
import builtins
import io
import struct

ALLOWED = frozenset({"math", "random", "itertools", "functools", "collections", "heapq", "sys"})
LINE = 2048  # an event: (its line's index) * LINE + BACK (when it leaves) + square
BACK = 1024
NARROW_LINES = 32  # a program writing grids from at most this many lines gets 16-bit events
OUTPUT_CHARS = 20_000  # print() output kept for the page
SETTER = "__lab_set__"  # a dunder: not mangled inside a class body
FILENAME = "<lab>"


class LabError(Exception):
    """A bad program: ``code`` names the message (``lab.error.<code>`` in the catalogues)."""

    def __init__(self, code: str, line: int | None = None, **params) -> None:
        super().__init__(code)
        self.code = code
        self.line = line
        self.params = params


def _is_grid(target: ast.expr) -> bool:
    """``a[i][j]``: a subscript of a subscript, neither a slice."""
    return (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Subscript)
        and not isinstance(target.slice, ast.Slice)
        and not isinstance(target.value.slice, ast.Slice)
    )


class _Rewrite:
    """``a[i][j] = v`` -> ``__lab_set__(a, i, j, v, site)``; chained targets through a
    temporary.  Line numbers stay the program's own; ``sites`` lists each call's ``site``
    constant with its line, for :func:`instrument` to fill in.  Only statement lists are
    walked (an assignment is a statement): the program's expressions are left unvisited."""

    BODIES = ("body", "orelse", "finalbody")

    def __init__(self) -> None:
        self.sites: list[tuple[ast.Constant, int]] = []

    def body(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for node in statements:
            for name in self.BODIES:
                inner = getattr(node, name, None)
                if isinstance(inner, list):
                    setattr(node, name, self.body(inner))
            for holder in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
                holder.body = self.body(holder.body)
            if isinstance(node, ast.Assign) and any(_is_grid(t) for t in node.targets):
                out.extend(self.assign(node))
            else:
                out.append(node)
        return out

    def assign(self, node: ast.Assign) -> list[ast.stmt]:
        if len(node.targets) == 1:
            out: list[ast.stmt] = [ast.Expr(self._set(node.targets[0], node.value, node))]
        else:
            temp = ast.Name("__lab_value__", ast.Store())
            out = [ast.Assign([temp], node.value)]
            for target in node.targets:
                value = ast.Name("__lab_value__", ast.Load())
                if _is_grid(target):
                    out.append(ast.Expr(self._set(target, value, node)))
                else:
                    out.append(ast.Assign([target], value))
        for statement in out:
            ast.fix_missing_locations(ast.copy_location(statement, node))
        return out

    def _set(self, target: ast.Subscript, value: ast.expr, node: ast.stmt) -> ast.Call:
        grid = target.value
        assert isinstance(grid, ast.Subscript)
        site = ast.Constant(None)
        self.sites.append((site, node.lineno))
        load = _Load()
        return ast.Call(
            ast.Name(SETTER, ast.Load()),
            [load.visit(grid.value), grid.slice, target.slice, value, site],
            [],
        )


class _Load(ast.NodeTransformer):
    """The grid's expression as a value (it was the target's, in a Store context)."""

    def generic_visit(self, node):
        if hasattr(node, "ctx"):
            node.ctx = ast.Load()
        return super().generic_visit(node)


def _site(index: int, line: int, squares: int, size: int) -> tuple:
    """The events line ``index`` of the program can record, packed: ``site[sq]`` enters sq,
    ``site[squares + sq]`` leaves it; ``site[-1]`` is the line's number."""
    pack = struct.Struct("<H" if size == 2 else "<i").pack
    base = index * LINE
    moves = [pack(base + sq) for sq in range(squares)]
    backs = [pack(base + BACK + sq) for sq in range(squares)]
    return (*moves, *backs, line)


def instrument(source: str, squares: int):
    """``(code, lines, size)``: the program's code object with its grid writes rewritten, the
    lines holding them and the bytes of an event; SyntaxError as Python says."""
    tree = ast.parse(source, FILENAME)
    rewrite = _Rewrite()
    tree.body = rewrite.body(tree.body)
    lines = sorted({line for _, line in rewrite.sites})
    size = 2 if len(lines) <= NARROW_LINES else 4
    sites = {line: _site(index, line, squares, size) for index, line in enumerate(lines)}
    for constant, line in rewrite.sites:
        constant.value = sites[line]
    return compile(tree, FILENAME, "exec"), tuple(lines), size


class Output(io.TextIOBase):
    """print()'s output, the first :data:`OUTPUT_CHARS` characters of it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = OUTPUT_CHARS - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        if len(text) > room:
            self.cut = True
        return len(text)

    def text(self) -> str:
        return "".join(self.parts) + ("\n…" if self.cut else "")


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.partition(".")[0]
    if level or top not in ALLOWED:
        raise LabError("import", None, module=name, allowed=", ".join(sorted(ALLOWED)))
    return __import__(name, globals, locals, fromlist, level)


def _no_input(*args, **kwargs):
    raise LabError("input")


def sandbox() -> dict:
    """The program's builtins: no files, no ``exec``, no ``input``, guarded imports."""
    allowed = dict(vars(builtins))
    allowed["__import__"] = _guarded_import
    allowed["input"] = _no_input
    for name in ("open", "exec", "eval", "compile", "breakpoint", "help", "exit", "quit"):
        allowed.pop(name, None)
    return allowed
