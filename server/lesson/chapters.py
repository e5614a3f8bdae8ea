"""The lesson's chapters (chapters.json) and the one figure the page asks the server for.

The chapters are data: the page gets them as they are and runs each demo through the
/watch stream like any viewer, so a chapter is checked by the server's own start
validation (tests/web/test_lesson.py). Narration lives in the translations
(``lesson.<chapter>.<n>``), so both languages come from one catalogue.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path

from ..engine.construct import construct_tour

DATA = Path(__file__).with_name("chapters.json")
HUGE_SIDES = (1000,)  # the only sizes the page may ask for: the answer is cached per process


def load_chapters(path: Path = DATA) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["chapters"]


CHAPTERS: list[dict] = load_chapters()


def run_payload(settings: dict, run: str = "lesson", algorithm: str | None = None) -> dict:
    """The /watch `start` a chapter's demo sends (static/js/lanes/setup.js runParams)."""
    return {
        "run": run,
        "rows": settings["rows"],
        "cols": settings["cols"],
        "start": settings["start"],
        "algorithm": algorithm or settings["algorithm"],
        "closed": settings["closed"],
        "pruning": settings.get("pruning", False),
        "window": 4000,
    }


@lru_cache(maxsize=len(HUGE_SIDES))
def huge_tour(side: int) -> dict:
    """A closed tour of side x side built (not searched) and checked: its figures.

    Built once per process, so asking again costs nothing; ``ms`` is the construction's
    time, ``check_ms`` that of checking every jump.
    """
    if side not in HUGE_SIDES:
        raise ValueError(f"no huge board of side {side}")
    began = time.perf_counter()
    tour = construct_tour(side, side, 0, closed=True)
    built = time.perf_counter()
    checked = is_closed_tour(tour, side)
    return {
        "rows": side,
        "cols": side,
        "squares": len(tour),
        "closed": checked,
        "ms": round((built - began) * 1000),
        "check_ms": round((time.perf_counter() - built) * 1000),
    }


def is_closed_tour(tour: list[int], side: int) -> bool:
    """Every square once, every step (the last back to the first included) a knight's jump."""
    if len(tour) != side * side or len(set(tour)) != len(tour):
        return False
    for a, b in zip(tour, tour[1:] + tour[:1], strict=True):
        dr, dc = abs(a // side - b // side), abs(a % side - b % side)
        if {dr, dc} != {1, 2}:
            return False
    return True
