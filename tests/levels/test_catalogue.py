"""The level data: every level solvable by its stored witness, ordered by its measure."""

from __future__ import annotations

import json
import string

import pytest

from server.engine.shape import parse_puzzle
from server.levels.catalogue import DATA, catalogue
from server.levels.difficulty import measure
from tests.tourcheck import assert_tour

RAW = json.loads(DATA.read_text(encoding="utf-8"))
RAW_LEVELS = [level for chapter in RAW["chapters"] for level in chapter["levels"]]


def cell(name: str, rows: int) -> tuple[int, int]:
    """Algebraic name to (row, col), a1 bottom-left: written here, not the engine's."""
    return rows - int(name[1:]), string.ascii_lowercase.index(name[0])


def test_at_least_forty_levels_with_unique_ids_and_both_names():
    assert len(RAW_LEVELS) >= 40
    ids = [level["id"] for level in RAW_LEVELS]
    assert len(set(ids)) == len(ids)
    assert all(1 <= len(level_id) <= 32 for level_id in ids)  # games.level is 32 wide
    for item in [*RAW["chapters"], *RAW_LEVELS]:
        assert item["name"]["en"].strip() and item["name"]["zh"].strip()
        assert item["name"]["en"] != item["name"]["zh"]


def test_the_path_runs_from_a_3x4_open_to_closed_irregular_challenges():
    first = RAW_LEVELS[0]
    assert first["art"] == ["....", "....", "...."] and not first["closed"]
    last_chapter = RAW["chapters"][-1]["levels"]
    assert all(level["closed"] for level in last_chapter)
    assert all(any("#" in row for row in level["art"]) for level in last_chapter)


@pytest.mark.parametrize("level", RAW_LEVELS, ids=lambda level: level["id"])
def test_every_level_has_a_tour_its_witness(level):
    art = level["art"]
    rows, cols = len(art), len(art[0])
    holes = [(r, c) for r in range(rows) for c in range(cols) if art[r][c] == "#"]
    tour = [cell(name, rows) for name in level["witness"].split()]
    start = cell(level["start"], rows) if level["start"] else None
    assert_tour(rows, cols, tour, closed=level["closed"], start=start, blocked=holes)


def test_each_chapter_is_ordered_by_difficulty():
    for chapter in RAW["chapters"]:
        scores = [level["difficulty"] for level in chapter["levels"]]
        assert scores == sorted(scores), chapter["id"]


@pytest.mark.parametrize("level", catalogue().levels, ids=lambda level: level.id)
def test_the_stored_difficulty_is_the_measure(level):
    found = measure(level.puzzle, playouts=RAW["measure"]["playouts"], seed=RAW["measure"]["seed"])
    assert (found.warnings, found.trap_share) == (level.difficulty, level.trap_share)


def test_the_catalogue_reads_the_data_as_puzzles():
    levels = catalogue().levels
    assert [level.id for level in levels] == [level["id"] for level in RAW_LEVELS]
    fixed = next(level for level in levels if level.puzzle.start is not None)
    assert parse_puzzle(fixed.puzzle.code) == fixed.puzzle
    assert fixed.witness[0] == fixed.puzzle.start


def test_unlock_rule():
    cat = catalogue()
    chapters = cat.chapters
    first, second = chapters[0].levels[0], chapters[0].levels[1]
    assert cat.unlocked(set()) == {first.id}
    after_first = cat.unlocked({first.id})
    assert after_first == {first.id, second.id, chapters[1].levels[0].id}
    assert chapters[0].levels[2].id not in after_first
    # a finished level stays open; the next chapter's first needs this chapter's first
    assert cat.unlocked({second.id}) == {first.id, second.id, chapters[0].levels[2].id}
    assert cat.next_after(chapters[0].levels[-1].id) == chapters[1].levels[0]
    assert cat.next_after(chapters[-1].levels[-1].id) is None
