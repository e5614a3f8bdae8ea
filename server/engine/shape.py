"""Board shapes (a rectangle with holes) and puzzles as short text.

A shape travels in links, the CLI, the API and level data, so it has one
canonical text, its *code*: ``6x6`` for a plain rectangle, ``6x6~<mask>`` with
holes, where ``<mask>`` is the holes as a bitmask (bit ``i`` = square ``i``,
little-endian bytes) in unpadded base64url.  A 20x20 shape fits in 73
characters.  Two equal shapes always have the same code, so the code is also a
leaderboard key.

Humans may write holes by name (``5x5:c3,a1``) or draw the shape as rows of
``.`` (open) and ``#`` (hole) separated by ``/`` (``..../.#../....``); both
parse to the same :class:`Shape`.

A :class:`Puzzle` is a shape plus the rules: open or closed, and a fixed start
or a free one.  Its code appends ``.o`` or ``.c`` and, for a fixed start, the
start's name: ``6x6~AAAgAAA.c.a1``.

Every refusal is a :class:`ShapeError` with a stable ``code`` (the API's and the
CLI's error code) and ``params`` for the translated message.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from functools import cached_property

from .board import Board, BoardError

MAX_SHAPE_SIDE = 20  # the play limit; the engine's boards go further
MAX_CODE_LENGTH = 500  # longer text is refused before any parsing

_DIMS = re.compile(r"(\d{1,4})x(\d{1,4})")
_NAME = re.compile(r"[a-z][1-9]\d?")


class ShapeError(BoardError):
    """A shape or puzzle text that cannot be played; ``code`` names the reason."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Shape:
    """A rows x cols rectangle with holes; squares are ints, ``row * cols + col``."""

    rows: int
    cols: int
    holes: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        for label, value in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ShapeError("shape-malformed", f"{label} must be an integer", side=label)
        if not (1 <= self.rows <= MAX_SHAPE_SIDE and 1 <= self.cols <= MAX_SHAPE_SIDE):
            raise ShapeError(
                "shape-too-big",
                f"a shape is 1 to {MAX_SHAPE_SIDE} squares a side, not {self.rows}x{self.cols}",
                max=MAX_SHAPE_SIDE,
                rows=self.rows,
                cols=self.cols,
            )
        object.__setattr__(self, "holes", frozenset(self.holes))
        area = self.rows * self.cols
        for sq in self.holes:
            if isinstance(sq, bool) or not isinstance(sq, int) or not 0 <= sq < area:
                raise ShapeError("shape-malformed", f"hole {sq!r} is off the board", square=sq)
        if len(self.holes) >= area:
            raise ShapeError("shape-empty", "the shape has no open square")

    @cached_property
    def board(self) -> Board:
        return Board(self.rows, self.cols, self.holes)

    @property
    def size(self) -> int:
        """Open squares: the ones a tour visits."""
        return self.rows * self.cols - len(self.holes)

    @property
    def code(self) -> str:
        dims = f"{self.rows}x{self.cols}"
        if not self.holes:
            return dims
        mask = sum(1 << sq for sq in self.holes)
        raw = mask.to_bytes(_mask_bytes(self.rows * self.cols), "little")
        return f"{dims}~{base64.urlsafe_b64encode(raw).decode().rstrip('=')}"

    def art(self) -> list[str]:
        """Rows top to bottom, ``.`` open and ``#`` a hole (level data, the CLI)."""
        return [
            "".join("#" if r * self.cols + c in self.holes else "." for c in range(self.cols))
            for r in range(self.rows)
        ]

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class Puzzle:
    """A shape and its rules: open or closed, and a fixed start (a square) or a free one."""

    shape: Shape
    closed: bool = False
    start: int | None = None

    def __post_init__(self) -> None:
        if self.start is None:
            return
        if isinstance(self.start, bool) or not isinstance(self.start, int):
            raise ShapeError("start-off-board", "the start must be a square", start=self.start)
        if not 0 <= self.start < self.shape.rows * self.shape.cols:
            raise ShapeError("start-off-board", "the start is off the board", start=self.start)
        if self.start in self.shape.holes:
            name = self.shape.board.name(self.start)
            raise ShapeError("start-on-hole", f"the start {name} is a hole", start=name)

    @property
    def code(self) -> str:
        text = f"{self.shape.code}.{'c' if self.closed else 'o'}"
        if self.start is not None:
            text += f".{self.shape.board.name(self.start)}"
        return text

    def __str__(self) -> str:
        return self.code


def _mask_bytes(area: int) -> int:
    return (area + 7) // 8


def _malformed(text: str, why: str) -> ShapeError:
    return ShapeError("shape-malformed", f"{text[:40]!r} is not a shape: {why}", why=why)


def _dims(text: str, whole: str) -> tuple[int, int]:
    match = _DIMS.fullmatch(text)
    if not match:
        raise _malformed(whole, "it must start with the size, e.g. 6x6")
    return int(match[1]), int(match[2])


def _check_length(text: object) -> str:
    if not isinstance(text, str):
        raise ShapeError("shape-malformed", "a shape is text, e.g. 6x6 or 6x6:a1,c3")
    if len(text) > MAX_CODE_LENGTH:
        raise ShapeError(
            "shape-too-big", f"shape text over {MAX_CODE_LENGTH} characters", max=MAX_SHAPE_SIDE
        )
    return text.strip()


def shape_from_art(lines: list[str] | str) -> Shape:
    """Rows of ``.`` and ``#`` (a list, or one string with ``/`` between rows)."""
    if isinstance(lines, str):
        lines = _check_length(lines).split("/")
    if not lines or any(not isinstance(line, str) for line in lines):
        raise _malformed(str(lines), "draw rows of . and #")
    width = len(lines[0])
    if len(lines) > MAX_SHAPE_SIDE or width > MAX_SHAPE_SIDE:
        raise ShapeError(
            "shape-too-big",
            f"a shape is at most {MAX_SHAPE_SIDE} squares a side",
            max=MAX_SHAPE_SIDE,
            rows=len(lines),
            cols=width,
        )
    if width == 0 or any(len(line) != width for line in lines):
        raise _malformed("/".join(lines), "every row must be as long as the first")
    holes = set()
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == "#":
                holes.add(r * width + c)
            elif ch != ".":
                raise _malformed("/".join(lines), f"{ch!r} is neither . nor #")
    return Shape(len(lines), width, frozenset(holes))


def parse_shape(text: str) -> Shape:
    """A shape from its code, from ``RxC:name,name`` or from art; ShapeError if none."""
    text = _check_length(text)
    if "/" in text or (text and set(text) <= {".", "#"}):
        return shape_from_art(text)
    if "~" in text:
        dims, mask = text.split("~", 1)
        rows, cols = _dims(dims, text)
        shape = Shape(rows, cols)  # validates the size before decoding
        area = rows * cols
        try:
            raw = base64.urlsafe_b64decode(mask + "=" * (-len(mask) % 4))
        except (binascii.Error, ValueError):
            raise _malformed(text, "the holes are not base64url") from None
        if not re.fullmatch(r"[A-Za-z0-9_-]*", mask) or len(raw) != _mask_bytes(area):
            raise _malformed(text, f"the holes need {_mask_bytes(area)} bytes")
        bits = int.from_bytes(raw, "little")
        if bits >> area:
            raise _malformed(text, "holes beyond the board")
        return Shape(shape.rows, shape.cols, frozenset(i for i in range(area) if bits >> i & 1))
    if ":" in text:
        dims, names = text.split(":", 1)
        rows, cols = _dims(dims, text)
        board = Shape(rows, cols).board
        holes = set()
        for name in filter(None, (part.strip() for part in names.split(","))):
            try:
                holes.add(board.parse_name(name))
            except BoardError:
                raise _malformed(text, f"{name} is not a square of {rows}x{cols}") from None
        return Shape(rows, cols, frozenset(holes))
    rows, cols = _dims(text, text)
    return Shape(rows, cols)


def parse_puzzle(text: str) -> Puzzle:
    """A puzzle from its code: ``<shape>.o`` or ``<shape>.c``, then ``.<start>`` if fixed.

    The shape part is a code or ``RxC:names`` (art uses ``.`` and cannot be a part).
    """
    parts = _check_length(text).split(".")
    if len(parts) not in (2, 3) or parts[1] not in ("o", "c"):
        raise _malformed(text, "a puzzle is <shape>.o or <shape>.c, then .<start> if fixed")
    shape = parse_shape(parts[0])
    start = None
    if len(parts) == 3:
        name = parts[2]
        try:
            if not _NAME.fullmatch(name):
                raise BoardError(name)
            start = shape.board.parse_name(name)
        except BoardError:
            raise ShapeError(
                "start-off-board", f"{name[:8]!r} is not a square", start=name[:8]
            ) from None
    return Puzzle(shape, parts[1] == "c", start)
