"""Make the level data: ``python -m server.levels.build`` rewrites server/levels/levels.json.

Each candidate below is a named puzzle.  The build keeps it only when the engine's exact
verdict (server.engine.verdict) finds a tour, stores that tour as the level's witness,
measures the level's difficulty (server.levels.difficulty) and orders each chapter by it.
The data is committed; tests/levels/ checks every witness with the independent checker
and recomputes the measure, so an engine change cannot silently change a level.
"""

from __future__ import annotations

import json
import sys

from ..engine.shape import Puzzle, shape_from_art
from ..engine.verdict import decide
from .catalogue import DATA
from .difficulty import PLAYOUTS, measure
from .shapes import corners, cross, from_text, mirror4, punch, rect, ring

SEED = "levels-v1"
VERDICT_SECONDS = 60.0

# (id, English name, Chinese name, art, closed, fixed start or None)
CHAPTERS = [
    (
        "first-steps",
        "First steps",
        "初出茅庐",
        [
            ("step-3x4", "Three by four", "三乘四", rect(3, 4), False, None),
            ("step-3x7", "The corridor", "长廊", rect(3, 7), False, None),
            ("step-4x5", "Four by five", "四乘五", rect(4, 5), False, None),
            ("step-3x8", "The bench", "长凳", rect(3, 8), False, None),
            ("step-4x6", "Garden bed", "花圃", rect(4, 6), False, None),
            ("step-5x5", "The classic square", "五五方阵", rect(5, 5), False, None),
            ("step-5x6", "Courtyard", "庭院", rect(5, 6), False, None),
            ("step-4x8", "Bookshelf", "书架", rect(4, 8), False, None),
            ("step-6x6", "Six by six", "六六大顺", rect(6, 6), False, None),
        ],
    ),
    (
        "fixed-start",
        "Fixed start",
        "定点出发",
        [
            ("fix-4x5-a1", "From the corner", "从角落出发", rect(4, 5), False, "a1"),
            ("fix-5x5-c3", "From the centre", "从中心出发", rect(5, 5), False, "c3"),
            ("fix-3x8-d2", "Middle of the bench", "长凳正中", rect(3, 8), False, "d2"),
            ("fix-5x6-b2", "One step in", "向内一步", rect(5, 6), False, "b2"),
            ("fix-6x6-a1", "Corner of six", "六格之角", rect(6, 6), False, "a1"),
            ("fix-6x6-c3", "Near the middle", "靠近中央", rect(6, 6), False, "c3"),
            ("fix-5x8-e3", "Long table", "长桌", rect(5, 8), False, "e3"),
            ("fix-7x7-d4", "Heart of seven", "七七之心", rect(7, 7), False, "d4"),
            ("fix-6x7-a6", "Top left", "左上角", rect(6, 7), False, "a6"),
        ],
    ),
    (
        "holes",
        "Holes in the board",
        "破洞棋盘",
        [
            ("hole-donut", "Doughnut", "甜甜圈", punch(rect(5, 5), (2, 2)), False, None),
            ("hole-round", "Round table", "圆桌", corners(6, 6, 1), False, None),
            ("hole-slot", "Letterbox", "信箱", ring(6, 6, 2, 2, 1, 2), False, None),
            ("hole-plus", "Plus sign", "加号", cross(8, 2), False, None),
            ("hole-diamond", "Diamond", "钻石", corners(8, 8, 3), False, None),
            (
                "hole-ell",
                "The L",
                "L 形",
                from_text("...### ...### ...### ...... ...... ......"),
                False,
                None,
            ),
            (
                "hole-tee",
                "The T",
                "T 形",
                from_text("....... ....... ....... ##...## ##...## ##...##"),
                False,
                None,
            ),
            (
                "hole-stones",
                "Stepping stones",
                "踏脚石",
                mirror4(8, 8, (1, 1), (3, 2)),
                False,
                None,
            ),
            (
                "hole-windows",
                "Four windows",
                "四扇窗",
                mirror4(8, 8, (2, 2), (2, 3)),
                False,
                None,
            ),
        ],
    ),
    (
        "loops",
        "Back to the start",
        "回到起点",
        [
            ("loop-5x6", "Five by six, round", "五乘六回环", rect(5, 6), True, None),
            ("loop-3x10", "The long loop", "长圈", rect(3, 10), True, None),
            ("loop-6x6", "Round trip", "往返", rect(6, 6), True, None),
            ("loop-3x12", "Train track", "铁轨", rect(3, 12), True, None),
            ("loop-5x8", "Racetrack", "跑道", rect(5, 8), True, None),
            ("loop-round", "Round table loop", "圆桌一圈", corners(6, 6, 1), True, None),
            ("loop-6x7", "Six by seven", "六乘七", rect(6, 7), True, "a1"),
            ("loop-6x8", "Half a board", "半个棋盘", rect(6, 8), True, None),
            ("loop-8x8", "The full board", "完整棋盘", rect(8, 8), True, None),
            (
                "loop-heart",
                "Heart",
                "心形",
                from_text("#..##..# ........ ........ ........ #......# ##....## ###..###"),
                True,
                None,
            ),
        ],
    ),
    (
        "challenges",
        "Irregular loops",
        "奇形回环",
        [
            ("ring-castle", "Castle", "城堡", ring(8, 8, 3, 3, 2, 2), True, None),
            ("ring-cross", "Great cross", "大十字", cross(8, 2), True, None),
            ("ring-gem", "Gem", "宝石", corners(8, 8, 2), True, None),
            (
                "ring-star",
                "Star",
                "星星",
                from_text(
                    "###..### ##....## ........ ........ ........ ........ ##....## ###..###"
                ),
                True,
                None,
            ),
            (
                "ring-arrow",
                "Arrow",
                "箭头",
                from_text(
                    "###..### ##....## #......# ........ ........ ##....## ##....## ##....##"
                    " ##....##"
                ),
                True,
                None,
            ),
            (
                "ring-zigzag",
                "Zigzag",
                "之字形",
                from_text("......#### ......#### .......... .......... ####...... ####......"),
                True,
                None,
            ),
            (
                "ring-hourglass",
                "Hourglass",
                "沙漏",
                from_text(
                    "........ ........ #......# ##....## ##....## #......# ........ ........"
                ),
                True,
                None,
            ),
            ("ring-windows", "Four windows loop", "四窗回环", mirror4(8, 8, (2, 2)), True, "a1"),
            ("ring-compass", "Compass", "指南针", cross(10, 3), True, None),
            ("ring-moat", "Moat", "护城河", ring(9, 9, 3, 3, 3, 3), True, None),
            ("ring-arena", "Arena", "竞技场", ring(10, 10, 3, 3, 4, 4), True, "a1"),
            (
                "ring-fortress",
                "Fortress",
                "要塞",
                mirror4(10, 10, (0, 0), (0, 2), (2, 0), (3, 3), (3, 4), (4, 3), (4, 4)),
                True,
                "a2",
            ),
        ],
    ),
]


def _puzzle(art: list[str], closed: bool, start: str | None) -> Puzzle:
    shape = shape_from_art(art)
    return Puzzle(shape, closed, None if start is None else shape.board.parse_name(start))


def build_level(level_id, en, zh, art, closed, start) -> dict:
    puzzle = _puzzle(art, closed, start)
    verdict = decide(puzzle, time_limit=VERDICT_SECONDS)
    if not verdict.tour:
        raise SystemExit(f"{level_id}: no tour ({verdict.code}: {verdict.reason})")
    board = puzzle.shape.board
    found = measure(puzzle, seed=SEED)
    return {
        "id": level_id,
        "name": {"en": en, "zh": zh},
        "art": puzzle.shape.art(),
        "closed": closed,
        "start": start,
        "witness": " ".join(board.name(sq) for sq in verdict.witness),
        "difficulty": found.warnings,
        "trap_share": found.trap_share,
    }


def build() -> dict:
    chapters = []
    for chapter_id, en, zh, candidates in CHAPTERS:
        levels = [build_level(*candidate) for candidate in candidates]
        levels.sort(key=lambda level: level["difficulty"])
        for level in levels:
            print(f"{chapter_id:12} {level['id']:16} {level['difficulty']:7.3f}", file=sys.stderr)
        chapters.append({"id": chapter_id, "name": {"en": en, "zh": zh}, "levels": levels})
    return {
        "measure": {"name": "expected-warnings", "playouts": PLAYOUTS, "seed": SEED},
        "chapters": chapters,
    }


def main() -> None:
    data = build()
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    count = sum(len(chapter["levels"]) for chapter in data["chapters"])
    print(f"{count} levels written to {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
