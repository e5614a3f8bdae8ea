"""Every board of every page is one of static/js/board/'s: the same layered structure (rows
of squares with their numbers, the lines' SVG), drawn by the same modules, and a board that
takes squares takes them from the keyboard too (a roving focus, arrows and Enter).
"""

from __future__ import annotations

import re

import pytest

from server.engine.board import Board
from server.engine.search import solve

from .conftest import playwright_sync
from .test_class import hand_out_puzzle, try_puzzle

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
STRUCTURE = """(root) => ({
    family: root.classList.contains("board"),
    kind: root.dataset.board,
    role: root.getAttribute("role"),
    size: root.dataset.size,
    squares: root.querySelectorAll(":scope > .board-row > .sq > .num").length,
    lines: root.querySelectorAll(":scope > svg.board-lines > .path-line").length,
    tabbable: root.querySelectorAll('.sq[tabindex="0"]').length,
    named: [...root.querySelectorAll(".sq")].every((sq) => sq.hasAttribute("aria-label")),
    modules: performance.getEntriesByType("resource")
        .map((entry) => new URL(entry.name).pathname)
        .map((path) => path.replace(/^[/]static[/]v[/][^/]+[/]/, "/static/"))
        .filter((path) => path.startsWith("/static/js/board/")).sort(),
})"""
MODULES = [
    f"/static/js/board/{name}.js"
    for name in (
        "board",
        "events",
        "labels",
        "layer-lines",
        "layer-pieces",
        "layer-squares",
        "render",
        "state",
    )
]


def structure(page, selector: str) -> dict:
    return page.eval_on_selector(selector, STRUCTURE)


def assert_board(found: dict, kind: str, rows: int, cols: int, takes_input: bool) -> None:
    assert found["family"] and found["kind"] == kind, found
    assert found["size"] == f"{rows}x{cols}"
    assert found["squares"] == rows * cols
    assert found["lines"] == 1
    assert set(MODULES) <= set(found["modules"]), found["modules"]
    if takes_input:
        assert (found["role"], found["tabbable"], found["named"]) == ("grid", 1, True), found
    else:
        assert (found["role"], found["tabbable"]) == ("img", 0), found


def test_play_and_its_win_replay(page):
    page.goto("/?lang=en")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert_board(structure(page, "#board"), "play", 8, 8, takes_input=True)
    assert_board(structure(page, "#replay"), "replay", 5, 5, takes_input=False)


def test_watch_lanes_take_the_start_square_from_the_keyboard(page):
    page.goto("/watch?lang=en&rows=6&cols=6")
    page.wait_for_selector("#watch[data-ready=true]")
    assert_board(structure(page, "[data-side=a] .board"), "watch", 6, 6, takes_input=True)
    assert_board(structure(page, "[data-side=b] .board"), "watch", 5, 5, takes_input=True)
    focused = page.locator('[data-side=a] .sq[tabindex="0"]')
    expect(focused).to_have_attribute("data-row", "5")  # a1 to begin with
    focused.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#w-start-name")).to_have_text("b2")
    expect(page.locator('[data-side=a] .sq[data-row="4"][data-col="1"]')).to_have_attribute(
        "data-start", "true"
    )
    expect(page.locator("[data-action=play]")).to_be_disabled()  # the keys stayed on the board


def test_class_pages_boards_and_keyboard_play_of_the_puzzle(new_page):
    teacher = new_page()
    teacher.goto("/class/new?lang=en")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    code = teacher.get_attribute("#class", "data-code")
    student = new_page(**PHONE)
    student.goto(f"/class/{code}?lang=en")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    assert_board(structure(teacher, ".c-lane .board"), "watch", 5, 5, takes_input=True)
    assert_board(structure(student, ".c-lane .board"), "watch", 5, 5, takes_input=False)

    hand_out_puzzle(teacher)
    try_puzzle(student, "Keys")
    board = "#c-puzzle-board"
    expect(student.locator(f'{board} .sq[data-row="4"][data-col="0"]')).to_have_attribute(
        "data-state", "current"
    )
    assert_board(structure(student, board), "puzzle", 5, 5, takes_input=True)
    expect(student.locator(f"{board} .knight:not(.ghost)")).to_be_visible()

    # The first jumps of a tour from a1, by keyboard only: walk the focus, press Enter.
    tour = [divmod(sq, 5) for sq in solve(Board(5, 5), 20).tour]
    student.locator(f'{board} .sq[tabindex="0"]').focus()
    here = tour[0]
    for row, col in tour[1:4]:
        for _ in range(abs(row - here[0])):
            student.keyboard.press("ArrowDown" if row > here[0] else "ArrowUp")
        for _ in range(abs(col - here[1])):
            student.keyboard.press("ArrowRight" if col > here[1] else "ArrowLeft")
        student.keyboard.press("Enter")
        square = student.locator(f'{board} .sq[data-row="{row}"][data-col="{col}"]')
        expect(square).to_have_attribute("data-state", "current")
        expect(square).to_have_attribute("aria-label", re.compile(r"knight here"))
        here = (row, col)
    expect(student.locator("#c-play-status")).to_contain_text("21 squares to go")
