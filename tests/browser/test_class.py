"""Class rooms in a real browser: a teacher page and students' pages, each in its own
browser context (own storage and cookies, like separate devices), on the live server.

Students follow play / pause / step / step back / seek to the very event the teacher
shows; a late joiner lands where the class is; a student's solved puzzle appears on the
teacher's leaderboard.
"""

from __future__ import annotations

import re

import pytest

from server.engine.board import Board
from server.engine.search import solve

from .conftest import playwright_sync

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
BOARD_STATE = """els => els.map(e => `${e.dataset.state}:${e.textContent}`).join(",")"""


def open_class(new_page):
    teacher = new_page()
    teacher.goto("/class/new?lang=en")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    assert "#token" not in teacher.url  # the secret left the address bar
    code = teacher.get_attribute("#class", "data-code")
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    return teacher, code


def join(new_page, code: str, **options):
    student = new_page(**{**PHONE, **options})
    student.goto(f"/class/{code}?lang=en")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    return student


def board(page) -> str:
    return page.eval_on_selector_all(".c-lane .w-sq", BOARD_STATE)


def teacher_pos(teacher) -> int:
    return int(teacher.get_attribute("#class", "data-pos"))


def in_sync(teacher, students, pos: int | None = None) -> int:
    """Every student shows the teacher's event (same index, same board)."""
    pos = teacher_pos(teacher) if pos is None else pos
    for student in students:
        expect(student.locator("#class")).to_have_attribute("data-pos", str(pos))
    shown = board(teacher)
    for student in students:
        assert board(student) == shown
    return pos


def set_range(page, selector: str, value: int) -> None:
    page.eval_on_selector(
        selector,
        """(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));
                         el.dispatchEvent(new Event('change', {bubbles: true})); }""",
        value,
    )


def test_students_follow_the_teacher(new_page, artifacts):
    teacher, code = open_class(new_page)
    one = join(new_page, code)
    two = join(new_page, code, viewport={"width": 800, "height": 900}, is_mobile=False)
    expect(teacher.locator("#c-students")).to_have_text("2")

    # 6x6 plain backtracking from a6: 354k events, long enough to drive around in
    teacher.check('input[name="preset"][value="6x6"]', force=True)
    teacher.check('input[name="algorithm"][value="seed"]', force=True)
    teacher.click('.c-lane .w-sq[data-row="0"][data-col="0"]')
    set_range(teacher, "#w-speed", 50)  # about 100 events a second
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "true")
    teacher.wait_for_function("() => +document.querySelector('#class').dataset.pos > 60")
    for student in (one, two):
        expect(student.locator("#class")).to_have_attribute("data-follow", "playing")

    teacher.click('[data-action="play"]')  # pause
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "false")
    paused = in_sync(teacher, [one, two])
    assert paused > 60
    expect(one.locator("#class")).to_have_attribute("data-follow", "paused")

    teacher.click('[data-action="step"]')
    teacher.click('[data-action="step"]')
    in_sync(teacher, [one, two], paused + 2)
    teacher.click('[data-action="back"]')
    teacher.click('[data-action="back"]')
    teacher.click('[data-action="back"]')
    in_sync(teacher, [one, two], paused - 1)

    set_range(teacher, "#w-seek", 17)
    in_sync(teacher, [one, two], 17)
    teacher.screenshot(path=str(artifacts / "class-teacher-seek.png"))
    one.screenshot(path=str(artifacts / "class-student-seek.png"))

    # full speed to the tour; a student who joins afterwards lands on the last event at once
    teacher.click('[data-action="end"]')
    expect(teacher.locator(".c-lane")).to_have_attribute("data-status", "found", timeout=60_000)
    final = in_sync(teacher, [one, two])
    assert final > 300_000
    late = join(new_page, code)
    expect(late.locator("#class")).to_have_attribute("data-pos", str(final), timeout=30_000)
    assert board(late) == board(teacher)
    expect(teacher.locator("#c-students")).to_have_text("3")
    late.screenshot(path=str(artifacts / "class-student-late.png"))


def test_a_solved_class_puzzle_reaches_the_teachers_leaderboard(new_page, artifacts):
    teacher, code = open_class(new_page)
    student = join(new_page, code)
    expect(student.locator("#c-tab-puzzle")).to_be_hidden()

    teacher.fill('#c-puzzle-form input[name="rows"]', "5")
    teacher.fill('#c-puzzle-form input[name="cols"]', "5")
    teacher.fill('#c-puzzle-form input[name="start"]', "a1")
    teacher.click("#c-puzzle-go")
    expect(teacher.locator("#c-puzzle-now")).to_contain_text("5×5 open tour from a1")

    expect(student.locator("#c-tab-puzzle")).to_be_visible()
    student.click("#c-tab-puzzle")
    expect(student.locator("#c-puzzle-text")).to_have_text("5×5 open tour from a1")
    student.fill("#c-name", "<b>Ann</b>")
    student.click("#c-try")
    cell = '#c-puzzle-board .w-sq[data-row="{}"][data-col="{}"]'
    expect(student.locator(cell.format(4, 0))).to_have_attribute("data-state", "current")
    expect(teacher.locator("#c-board-counts")).to_have_text("0 solved · 1 trying")

    tour = solve(Board(5, 5), 20).tour  # a1 is row 4, column 0
    for sq in tour[1:]:
        row, col = divmod(sq, 5)
        student.click(cell.format(row, col))
        expect(student.locator(cell.format(row, col))).to_have_attribute("data-state", "current")
    expect(student.locator("#c-solved")).to_be_visible()
    expect(student.locator("#c-solved")).to_contain_text("#1")

    row = teacher.locator("#c-leaderboard tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("<b>Ann</b>")  # text, never HTML
    expect(teacher.locator("#c-board-counts")).to_have_text("1 solved · 1 trying")
    teacher.screenshot(path=str(artifacts / "class-teacher-leaderboard.png"), full_page=True)
    student.screenshot(path=str(artifacts / "class-student-puzzle.png"))


def test_the_student_page_is_bilingual_and_refuses_unknown_codes(new_page, artifacts):
    page = new_page(**PHONE)
    page.goto("/class/ZZZZZZ?lang=zh")
    expect(page.locator(".c-error")).to_contain_text("没有这个代码的课堂")
    page.fill("#c-code", "zzz")
    page.click(".c-join-form button")
    expect(page.locator(".c-error")).to_be_visible()
    _teacher, code = open_class(new_page)
    student = new_page(**PHONE)
    student.goto(f"/class?code={code.lower()}&lang=zh")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(student.locator("#c-follow")).to_contain_text("等待老师")
    student.screenshot(path=str(artifacts / "class-student-zh.png"))
