"""The levels as the game reads them: server/levels/levels.json, loaded once.

A level is a puzzle (shape, open or closed, a fixed start or a free one) with a stable
id, names in both languages, a stored witness tour and its difficulty (see
server/levels/difficulty.py).  Chapters group them for the map.

Unlock rule (docs/levels.md): the first level of the first chapter is always open; a
level opens when the one before it in its chapter is finished; the first level of a
chapter opens when the first level of the chapter before is finished.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from ..engine.shape import Puzzle, shape_from_art

DATA = Path(__file__).with_name("levels.json")


@dataclass(frozen=True)
class Level:
    id: str
    chapter: str
    number: int  # 1-based within its chapter
    name: dict[str, str]
    puzzle: Puzzle
    witness: tuple[int, ...]  # a whole tour, start first (squares)
    difficulty: float
    trap_share: float

    @property
    def art(self) -> list[str]:
        return self.puzzle.shape.art()


@dataclass(frozen=True)
class Chapter:
    id: str
    name: dict[str, str]
    levels: tuple[Level, ...]


@dataclass(frozen=True)
class Catalogue:
    chapters: tuple[Chapter, ...]
    measure: dict

    @property
    def levels(self) -> list[Level]:
        return [level for chapter in self.chapters for level in chapter.levels]

    def get(self, level_id: object) -> Level | None:
        return self._by_id.get(level_id) if isinstance(level_id, str) else None

    @cached_property
    def _by_id(self) -> dict[str, Level]:
        return {level.id: level for level in self.levels}

    def unlocked(self, finished: set[str]) -> set[str]:
        """The ids a player may play, given the ids of the levels they finished."""
        open_ids = set(finished) & set(self._by_id)
        for i, chapter in enumerate(self.chapters):
            if i == 0 or self.chapters[i - 1].levels[0].id in finished:
                open_ids.add(chapter.levels[0].id)
            for before, level in itertools.pairwise(chapter.levels):
                if before.id in finished:
                    open_ids.add(level.id)
        return open_ids

    def next_after(self, level_id: str) -> Level | None:
        """The level after this one on the path (the next chapter's first after a chapter)."""
        order = self.levels
        for i, level in enumerate(order[:-1]):
            if level.id == level_id:
                return order[i + 1]
        return None


def _level(chapter: str, number: int, raw: dict) -> Level:
    shape = shape_from_art(raw["art"])
    board = shape.board
    start = None if raw["start"] is None else board.parse_name(raw["start"])
    return Level(
        id=raw["id"],
        chapter=chapter,
        number=number,
        name=dict(raw["name"]),
        puzzle=Puzzle(shape, bool(raw["closed"]), start),
        witness=tuple(board.parse_name(name) for name in raw["witness"].split()),
        difficulty=float(raw["difficulty"]),
        trap_share=float(raw["trap_share"]),
    )


@cache
def catalogue() -> Catalogue:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    chapters = tuple(
        Chapter(
            chapter["id"],
            dict(chapter["name"]),
            tuple(_level(chapter["id"], i, level) for i, level in enumerate(chapter["levels"], 1)),
        )
        for chapter in raw["chapters"]
    )
    return Catalogue(chapters, dict(raw["measure"]))
