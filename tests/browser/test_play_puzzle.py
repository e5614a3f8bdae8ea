"""The Play page on a puzzle link (`/?puzzle=<code>`), in a real browser on a phone viewport:
holes drawn and not playable, the fixed start marked, a win by clicks, a bad code said."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from server.engine.shape import Puzzle, parse_puzzle
from server.engine.verdict import decide
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667}
SHAPE = "4x5:a1"  # 4 rows, 5 columns, a hole at a1 (row 3, column 0): 19 squares


def cell(page: Page, row: int, col: int):
    return page.locator(f'#board .sq[data-row="{row}"][data-col="{col}"]')


def open_link(page: Page, code: str):
    page.goto(f"/?puzzle={quote(code, safe='')}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def fixed_start_puzzle() -> tuple[Puzzle, list[int]]:
    """The shape with a fixed start from which the engine's verdict has a witness tour
    (checked by the independent checker): the test clicks that tour."""
    free = parse_puzzle(f"{SHAPE}.o")
    start = decide(free, time_limit=5.0).witness[0]
    puzzle = Puzzle(free.shape, False, start)
    verdict = decide(puzzle, time_limit=5.0)
    assert verdict.tour, verdict
    shape = puzzle.shape
    assert_tour(shape.rows, shape.cols, verdict.witness, start=start, blocked=shape.holes)
    return puzzle, list(verdict.witness)


def test_a_puzzle_link_is_won_by_clicks_on_a_phone(new_page, artifacts):
    puzzle, witness = fixed_start_puzzle()
    cols = puzzle.shape.cols
    page = new_page(viewport=PHONE)
    moves_sent = []
    page.on(
        "request",
        lambda request: (
            request.method == "POST"
            and request.url.split("?")[0].endswith("/moves")
            and moves_sent.append(request.url)
        ),
    )
    open_link(page, puzzle.code)
    board = page.locator("#board")
    expect(board).to_have_attribute("data-size", "4x5")
    expect(board).to_have_attribute("data-status", "new")
    hole = cell(page, 3, 0)
    expect(hole).to_have_attribute("data-state", "hole")
    expect(page.locator('#board .sq[data-state="hole"]')).to_have_count(1)
    start_row, start_col = divmod(puzzle.start, cols)
    start = cell(page, start_row, start_col)
    expect(start).to_have_attribute("data-start", "true")
    expect(page.locator('#board .sq[data-state="legal"]')).to_have_count(1)
    expect(start).to_have_attribute("data-state", "legal")
    info = page.locator("#puzzle-info")
    expect(info).to_be_visible()
    expect(info).to_contain_text("4×5")
    expect(info).to_contain_text("19 squares")
    expect(info).to_contain_text(f"starts on {puzzle.shape.board.name(puzzle.start)}")
    expect(info.locator(".puzzle-code")).to_have_text(puzzle.code)
    expect(page.locator('.controls [data-action="random"]')).to_be_hidden()  # the start is set
    page.screenshot(path=str(artifacts / "puzzle-phone-375x667.png"))

    hole.click()  # not a square: nothing is sent, nothing changes
    expect(hole).to_have_attribute("data-state", "hole")
    expect(board).to_have_attribute("data-status", "new")

    for number, sq in enumerate(witness, 1):
        row, col = divmod(sq, cols)
        cell(page, row, col).click()
        expect(cell(page, row, col)).to_have_attribute("data-state", "current")
        expect(cell(page, row, col).locator(".num")).to_have_text(str(number))
        if number == 1:
            assert len(moves_sent) == 1  # the hole's click sent nothing
            hole.click()  # a knight's move away or not, a hole is never played
            expect(hole).to_have_attribute("data-state", "hole")
    assert len(moves_sent) == len(witness)

    win = page.locator("#win")
    expect(win).to_be_visible()
    expect(win.locator("#win-moves")).to_have_text(str(len(witness) - 1))
    expect(win.locator('#replay .sq[data-state="hole"]')).to_have_count(1)
    game_id = page.evaluate("localStorage.getItem('knights-tour.game')")
    game = page.request.get(f"/api/games/{game_id}").json()
    assert game["status"] == "won" and game["puzzle"] == puzzle.code
    assert_tour(4, cols, game["path"], start=game["fixed_start"], blocked=game["holes"])

    win.locator("#score-name").fill("Pip")
    win.get_by_role("button", name="Submit").click()
    expect(win.locator("#score-result")).to_contain_text("#1")
    win.get_by_role("button", name="Close").click()
    expect(page.locator("#lb-board")).to_contain_text("Puzzle")
    expect(page.locator("#lb-unassisted li .lb-name")).to_have_text(["Pip"])
    ranked = page.request.get(f"/api/leaderboard?puzzle={quote(puzzle.code, safe='')}").json()
    assert [entry["name"] for entry in ranked["unassisted"]] == ["Pip"]


def test_a_reload_goes_on_with_the_linked_game(new_page):
    puzzle, witness = fixed_start_puzzle()
    page = new_page(viewport=PHONE)
    open_link(page, f"{SHAPE}.o")  # a free start: any open square but the hole
    expect(page.locator('#board .sq[data-state="legal"]')).to_have_count(19)
    row, col = divmod(witness[0], puzzle.shape.cols)
    cell(page, row, col).click()
    expect(cell(page, row, col)).to_have_attribute("data-state", "current")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(cell(page, row, col)).to_have_attribute("data-state", "current")
    expect(cell(page, 3, 0)).to_have_attribute("data-state", "hole")


def test_a_bad_puzzle_link_says_why_in_both_languages(new_page):
    page = new_page(viewport=PHONE, locale="en-US")
    open_link(page, "5x5:c3.o.c3")  # the start on a hole
    error = page.locator("#puzzle-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("cannot be played")
    expect(error).to_contain_text("c3 is a hole")
    expect(page.locator('#board .sq[data-state="hole"]')).to_have_count(0)  # a plain board
    page.get_by_role("link", name="中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(error).to_contain_text("无法开局")
    expect(error).to_contain_text("起点 c3 是空洞")
    # another game clears it
    page.locator('#setup input[name=size][value="5x5"]').check(force=True)
    page.locator("#start-game").click()
    expect(error).to_be_hidden()
    assert "puzzle=" not in page.url


def test_show_me_on_a_puzzle_searches_the_shape_and_hints_a_move_of_a_tour(new_page):
    """Show me streams the search of the game's own board: its trail never enters a hole,
    and the move it ends on completes to a tour of the shape (the engine's hint checks)."""
    from server.engine.hints import hint

    puzzle, witness = fixed_start_puzzle()
    shape, cols = puzzle.shape, puzzle.shape.cols
    page = new_page()
    open_link(page, puzzle.code)
    for sq in witness[:3]:
        row, col = divmod(sq, cols)
        cell(page, row, col).click()
        expect(cell(page, row, col)).to_have_attribute("data-state", "current")
    hole = cell(page, 3, 0)
    page.locator('.controls [data-action="show-me"]').click()
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 3")
    expect(hole).to_have_attribute("data-state", "hole")
    expect(hole.locator(".num")).to_be_empty()
    board = page.locator("#board")
    expect(board).not_to_have_attribute("data-showme", "running", timeout=30_000)
    expect(board).not_to_have_attribute("data-showme", "holding", timeout=5_000)
    hinted = page.locator('#board .sq[data-hint="true"]')
    expect(hinted).to_have_count(1)
    row, col = int(hinted.get_attribute("data-row")), int(hinted.get_attribute("data-col"))
    answer = hint(shape.board, [*witness[:3], row * cols + col], time_limit=5.0)
    assert answer.verdict == "completable", answer
    expect(hole).to_have_attribute("data-state", "hole")
