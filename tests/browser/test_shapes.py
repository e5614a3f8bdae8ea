"""Shapes on the /watch and /class pages in a real browser: holes drawn through the shared
board state, a puzzle code handed from a link to the class, solved by a student.
"""

from __future__ import annotations

import pytest

from server.engine.search import solve
from server.engine.shape import parse_puzzle
from tests.tourcheck import assert_tour

from .conftest import playwright_sync
from .test_class import PHONE, join, play_tour, puzzle_square, try_puzzle
from .test_watch import board, open_watch, path_squares, wait_status

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

CODE = "5x5:c3.o.a5"  # the centre is a hole; the knight starts top-left


def test_watch_runs_a_shape_from_its_code(page):
    open_watch(page, "&puzzle=6x6~IAAAAAA.o&start=0,0&algorithm=seed&speed=max&go=1")
    expect(page.locator("#w-rows")).to_be_disabled()  # the code decides the size
    expect(page.locator('[data-side=a] .sq[data-row="0"][data-col="5"]')).to_have_attribute(
        "data-state", "hole"
    )
    wait_status(page, "found", timeout=60_000)
    cells = board(page)
    assert cells[(0, 5)][0] == "hole"
    shown = path_squares(cells)
    tour = [r * 6 + c for (r, c), _ in sorted(shown.items(), key=lambda item: item[1])]
    assert_tour(6, 6, tour, start=0, blocked={5})


def test_watch_says_why_a_code_cannot_be_read(page):
    open_watch(page, "&puzzle=5x5:c9.o")
    expect(page.locator("#w-form-error")).to_contain_text("not a puzzle code")


def test_a_puzzle_code_handed_to_the_class_is_solved_by_a_student(new_page, artifacts):
    teacher = new_page()
    teacher.goto(f"/class/new?lang=en&puzzle={CODE}")
    expect(teacher.locator("#c-puzzle-ready")).to_contain_text(CODE)
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(teacher.locator("#c-puzzle-code")).to_have_value(CODE)  # prefilled: one click
    code = teacher.get_attribute("#class", "data-code")
    student = join(new_page, code, **PHONE)

    teacher.click("#c-puzzle-go")
    expect(teacher.locator("#c-puzzle-now")).to_contain_text("5×5 open tour from a5, holes: 1")
    try_puzzle(student, "Ann", reads="5×5 open tour from a5, holes: 1")
    expect(puzzle_square(student, 0, 0)).to_have_attribute("data-state", "current")
    expect(puzzle_square(student, 2, 2)).to_have_attribute("data-state", "hole")

    tour = solve(parse_puzzle(CODE).shape.board, 0).tour
    play_tour(student, tour)
    expect(student.locator("#c-solved")).to_contain_text("#1")
    expect(puzzle_square(student, 2, 2)).to_have_attribute("data-state", "hole")
    row = teacher.locator("#c-leaderboard tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("Ann")
    student.screenshot(path=str(artifacts / "class-student-shape.png"))
