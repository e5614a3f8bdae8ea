"""Issue 15's teacher story end to end: a shape drawn in the editor is handed to a class,
solved by a student on a phone, and appears on the class leaderboard (server-checked)."""

from __future__ import annotations

import pytest

from server.engine.shape import parse_puzzle
from tests.witness import checked_witness

from .conftest import playwright_sync
from .test_class import PHONE, join, play_tour, puzzle_square, try_puzzle
from .test_editor import cell, settled

expect = playwright_sync.expect

pytestmark = pytest.mark.browser


def test_a_shape_drawn_in_the_editor_is_solved_by_a_student_of_the_class(new_page):
    teacher = new_page()
    teacher.goto("/editor?lang=en&puzzle=5x5.o")
    expect(teacher.locator("#editor")).to_have_attribute("data-ready", "true")
    settled(teacher, "true")
    cell(teacher, "c3").click()  # the centre becomes a hole
    settled(teacher, "true")
    teacher.get_by_label("sets the start").check(force=True)
    cell(teacher, "a5").click()
    settled(teacher, "true")
    code = teacher.locator("#editor").get_attribute("data-puzzle")
    puzzle = parse_puzzle(code)
    assert puzzle.shape.holes == {12} and puzzle.start == 0 and not puzzle.closed

    teacher.locator("#class-link").click()  # "hand to my class": opens a room with it
    expect(teacher.locator("#c-puzzle-ready")).to_contain_text(code)
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(teacher.locator("#c-puzzle-code")).to_have_value(code)
    room = teacher.get_attribute("#class", "data-code")
    student = join(new_page, room, **PHONE)
    teacher.click("#c-puzzle-go")
    expect(teacher.locator("#c-puzzle-now")).to_contain_text("holes: 1")

    try_puzzle(student, "Mei")
    expect(puzzle_square(student, 2, 2)).to_have_attribute("data-state", "hole")
    _, tour = checked_witness(code)
    play_tour(student, tour)
    expect(student.locator("#c-solved")).to_contain_text("#1")
    entry = teacher.locator("#c-leaderboard tbody tr")
    expect(entry).to_have_count(1)
    expect(entry.locator("td").nth(1)).to_have_text("Mei")
