"""A lesson's race in a class room, in a real browser: the teacher (zh, 1280x800) runs the
"fix the Java article" chapter, the article's corrected program against it as written; the
teacher's page and a phone both show the two searches side by side, each lane standing on
the engine's own position at the class's index (or on its own end), and the verdict once
both have ended. Screenshots: the teacher's page, its projector view and the phone.
"""

from __future__ import annotations

import pytest

from server.classroom.clock import lesson_settings
from server.engine.board import Board
from server.engine.walker import Walker
from server.lesson.chapters import CHAPTERS

from .conftest import playwright_sync
from .test_class import settled
from .test_class_articles import open_class_zh

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

CHAPTER = "fix-java1"
SETTINGS = lesson_settings(next(c for c in CHAPTERS if c["id"] == CHAPTER))


def walk(algorithm: str, index: int) -> Walker:
    """The engine's search of ``algorithm`` on the chapter's board, ``index`` events on."""
    rows, cols = SETTINGS["rows"], SETTINGS["cols"]
    row, col = SETTINGS["start"]
    walker = Walker(Board(rows, cols), row * cols + col, algorithm=algorithm, closed=False)
    walker.advance(index)
    return walker


def engine_digest(algorithm: str, index: int) -> tuple[int, str]:
    """(events taken, "depth:hash") of the engine's path after ``index`` events, hashed as
    static/js/class/stage.js's ``pathDigest`` (FNV-1a): what a page showing it exposes."""
    walker = walk(algorithm, index)
    digest = 0x811C9DC5
    for square in walker.path:
        digest = ((digest ^ square) * 0x01000193) & 0xFFFFFFFF
    return walker.index, f"{len(walker.path)}:{digest:x}"


def shows(page, index: int) -> None:
    """Each lane of ``page`` shows the engine's position at ``index`` (or at its end)."""
    for algorithm, pos, path in (
        (SETTINGS["algorithm"], "data-pos", "data-path"),
        (SETTINGS["race"], "data-race-pos", "data-race-path"),
    ):
        taken, digest = engine_digest(algorithm, index)
        room = page.locator("#class")
        expect(room).to_have_attribute(pos, str(taken))
        expect(room).to_have_attribute(path, digest)


def test_a_race_chapter_shows_both_searches_on_every_page_to_the_verdict(new_page, artifacts):
    teacher, phone = open_class_zh(new_page)  # at 1280x800, and a phone
    teacher.select_option("#c-lesson-select", CHAPTER)  # the setup is open before a demo
    teacher.click("#c-lesson-start")
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-chapter", CHAPTER)
    for page in (teacher, phone):
        expect(page.locator("#class")).to_have_attribute("data-race", SETTINGS["race"])
        expect(page.locator(".c-lane-b")).to_be_visible()
        expect(page.locator(".c-lane-b")).to_have_attribute("data-algorithm", SETTINGS["race"])
        expect(page.locator(".c-lane")).to_have_attribute("data-algorithm", SETTINGS["algorithm"])
    start = settled(teacher)  # where the chapter's first step stands
    for _ in range(5):
        teacher.click('[data-action="step"]')
    index = settled(teacher)
    assert index == start + 5
    for page in (teacher, phone):
        shows(page, index)
        # both boards side by side, the same size, inside the screen
        boards = [
            page.locator(f"{lane} .w-board").bounding_box() for lane in (".c-lane", ".c-lane-b")
        ]
        assert boards[0]["x"] + boards[0]["width"] <= boards[1]["x"] + 1  # beside, not over
        assert boards[1]["x"] + boards[1]["width"] <= page.viewport_size["width"] + 1
        assert abs(boards[0]["width"] - boards[1]["width"]) <= 2

    teacher.click('[data-action="end"]')  # to the end: the corrected search ends first
    short, _ = engine_digest(SETTINGS["algorithm"], 10**7)
    long, _ = engine_digest(SETTINGS["race"], 10**7)
    assert short < long
    for page in (teacher, phone):
        expect(page.locator("#class")).to_have_attribute("data-follow", "ended", timeout=30_000)
        shows(page, long)
        expect(page.locator(".c-lane")).to_have_attribute("data-status", "found")
        # the verdict: the corrected program won, with both searches' nodes
        note = page.locator('#c-lesson [data-role="note"]')
        expect(note).to_be_visible()
        for algorithm in (SETTINGS["algorithm"], SETTINGS["race"]):
            expect(note).to_contain_text(f"{walk(algorithm, 10**7).nodes:,}")
    teacher.screenshot(path=str(artifacts / "class-race-teacher-zh.png"))
    phone.screenshot(path=str(artifacts / "class-race-phone-zh.png"))
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.keyboard.press("p")  # the projector view
    expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
    teacher.screenshot(path=str(artifacts / "class-race-projector-zh.png"))

    # stepping back before the corrected search's end: both lanes step back with the class
    teacher.click('[data-action="back"]')
    back = settled(teacher)
    assert back == long - 1
    shows(phone, back)
