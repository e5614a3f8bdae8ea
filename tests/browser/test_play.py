"""The Play page in a real browser: the player's journeys from the issue."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.tourcheck import assert_tour

pytestmark = pytest.mark.browser


# -- helpers --------------------------------------------------------------------
def cell(page: Page, row: int, col: int):
    return page.locator(f'#board .sq[data-row="{row}"][data-col="{col}"]')


def open_play(page: Page, path: str = "/"):
    page.goto(path)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def new_game(page: Page, size: str, closed: bool = False, rows: int = 0, cols: int = 0):
    """Start a game through the setup form, as a player would."""
    page.locator(f'#setup input[name=size][value="{size}"]').check(force=True)
    if size == "custom":
        page.locator("#setup input[name=rows]").fill(str(rows))
        page.locator("#setup input[name=cols]").fill(str(cols))
    mode = "closed" if closed else "open"
    page.locator(f'#setup input[name=mode][value="{mode}"]').check(force=True)
    rows, cols = (rows, cols) if size == "custom" else map(int, size.split("x"))
    start = page.locator("#start-game")
    expect(start).to_be_enabled()
    previous = page.evaluate("localStorage.getItem('knights-tour.game')")
    start.click()
    page.wait_for_function("id => localStorage.getItem('knights-tour.game') !== id", arg=previous)
    expect(page.locator("#board")).to_have_attribute("data-size", f"{rows}x{cols}")
    expect(page.locator("#board")).to_have_attribute("data-status", "new")
    expect(page.locator("#board .sq")).to_have_count(rows * cols)


def play(page: Page, row: int, col: int):
    """Click a square and wait until the server's answer shows the knight there."""
    cell(page, row, col).click()
    expect(cell(page, row, col)).to_have_attribute("data-state", "current")


def tour(rows: int, cols: int, start: tuple[int, int]) -> list[tuple[int, int]]:
    """An open tour to click through: Warnsdorff's rule with backtracking (small boards).

    Kept apart from ``server.engine`` on purpose; the server validates every click.
    """
    jumps = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

    def moves(square, seen):
        r, c = square
        return [
            (r + dr, c + dc)
            for dr, dc in jumps
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in seen
        ]

    path, seen = [start], {start}

    def extend() -> bool:
        if len(path) == rows * cols:
            return True
        options = sorted(moves(path[-1], seen), key=lambda sq: len(moves(sq, seen)))
        for square in options:
            path.append(square)
            seen.add(square)
            if extend():
                return True
            seen.discard(path.pop())
        return False

    assert extend(), f"no open tour of {rows}x{cols} from {start}"
    assert_tour(rows, cols, path, start=start)
    return path


def status(page: Page):
    return page.get_by_role("status")


def game_state(page: Page) -> dict:
    """The server's state for the page's game (read-only, to choose test moves)."""
    return page.evaluate(
        """async () => {
            const id = localStorage.getItem("knights-tour.game");
            return (await fetch(`/api/games/${id}`)).json();
        }"""
    )


# -- journeys -------------------------------------------------------------------
def test_full_open_tour_5x5_by_clicking_then_leaderboard(page: Page, artifacts):
    open_play(page)
    new_game(page, "5x5")
    squares = tour(5, 5, (0, 0))
    for number, (row, col) in enumerate(squares, 1):
        play(page, row, col)
        expect(cell(page, row, col).locator(".num")).to_have_text(str(number))
        if number < len(squares):
            expect(status(page)).to_contain_text(str(number - 1))  # moves made

    win = page.locator("#win")
    expect(win).to_be_visible()
    expect(win.locator("#win-moves")).to_have_text("24")
    expect(win.locator("#win-hints")).to_have_text("0")
    expect(win.locator("#win-undos")).to_have_text("0")
    expect(win.locator("#win-time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    # the replay draws the whole tour (reduced motion: at once)
    expect(win.locator("#replay .sq .num:not(:empty)")).to_have_count(25)
    expect(page.locator("#board")).to_have_attribute("data-status", "won")
    expect(status(page)).to_contain_text("complete")
    page.screenshot(path=str(artifacts / "win-desktop-1280x800.png"))

    name = "<b>Ada</b> & co"
    win.locator("#score-name").fill(name)
    win.get_by_role("button", name="Submit").click()
    expect(win.locator("#score-result")).to_contain_text("#1")
    expect(win.locator("#score-form")).to_be_hidden()
    win.get_by_role("button", name="Close").click()
    expect(win).to_be_hidden()
    first = page.locator("#lb-unassisted li").first
    expect(first.locator(".lb-name")).to_have_text(name)  # text, never markup
    expect(page.locator("#lb-unassisted b")).to_have_count(0)
    expect(page.locator("#lb-assisted li")).to_have_class("lb-empty")


def test_closed_tour_6x6_by_following_hints(page: Page):
    open_play(page)
    new_game(page, "6x6", closed=True)
    hint_button = page.locator('.controls [data-action="hint"]')
    hinted = page.locator('#board .sq[data-hint="true"]')
    for step in range(37):
        hint_button.click()
        expect(hinted).to_have_count(1)
        row = int(hinted.get_attribute("data-row"))
        col = int(hinted.get_attribute("data-col"))
        expect(page.locator("#hint-text")).not_to_be_empty()
        hinted.click()
        if step == 36:
            break
        expect(cell(page, row, col)).to_have_attribute("data-state", "current")
        expect(hinted).to_have_count(0)
    else:  # pragma: no cover - the loop always breaks
        pytest.fail("no win after 37 hinted moves")

    win = page.locator("#win")
    expect(win).to_be_visible()
    expect(win.locator("#win-moves")).to_have_text("36")  # 35 jumps + the closing return
    expect(win.locator("#win-hints")).to_have_text("37")
    expect(page.locator("#board .path-return")).to_be_attached()
    win.locator("#score-name").fill("Hinted")
    win.locator("#score-form button[type=submit]").click()
    expect(win.locator("#score-result")).to_contain_text("hints")
    win.get_by_role("button", name="Close").click()
    expect(page.locator("#lb-assisted li .lb-name").first).to_have_text("Hinted")


def test_undo_restart_and_early_warning(page: Page, artifacts):
    open_play(page)
    new_game(page, "5x5")
    play(page, 0, 0)
    play(page, 1, 2)
    play(page, 0, 4)
    expect(cell(page, 1, 2)).to_have_attribute("aria-label", "c4, visited as move 2")

    page.locator('.controls [data-action="undo"]').click()
    expect(cell(page, 0, 4)).to_have_attribute("data-state", "legal")
    expect(cell(page, 1, 2)).to_have_attribute("data-state", "current")
    expect(page.locator("#stat-moves")).to_have_text("1")

    # wander (always the first legal square) until the server warns or the knight is stuck
    warning = page.locator("#warning")
    for _ in range(24):
        if warning.is_visible():
            break
        legal = page.locator('#board .sq[data-state="legal"]')
        if legal.count() == 0:
            break
        target = legal.first
        row, col = int(target.get_attribute("data-row")), int(target.get_attribute("data-col"))
        play(page, row, col)
    expect(warning).to_be_visible()
    expect(status(page)).to_contain_text("No tour can be completed from here")
    page.screenshot(path=str(artifacts / "warning-desktop-1280x800.png"))
    # a hint now says so, and the way out stays on offer
    page.locator('.controls [data-action="hint"]').click()
    expect(page.locator("#hint-text")).to_contain_text("No tour can be completed from here")
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(0)
    state = game_state(page)
    assert state["hints"] == 1
    undo = state["dead"]["undo"]
    button = page.locator("#warning-undo")
    expect(button).to_have_text(f"Undo {undo} move" + ("s" if undo > 1 else ""))
    button.click()
    expect(page.locator("#stat-moves")).to_have_text(str(state["moves"] - undo))
    expect(warning).to_be_hidden()

    page.locator('.controls [data-action="restart"]').click()
    expect(page.locator('#board .sq[data-state="current"]')).to_have_count(1)
    expect(cell(page, 0, 0)).to_have_attribute("data-state", "current")  # the start is kept
    expect(page.locator("#stat-moves")).to_have_text("0")


def test_reload_resumes_the_same_game(page: Page):
    open_play(page)
    new_game(page, "6x6")
    squares = tour(6, 6, (5, 0))
    for row, col in squares[:4]:
        play(page, row, col)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board")).to_have_attribute("data-size", "6x6")
    for number, (row, col) in enumerate(squares[:4], 1):
        expect(cell(page, row, col).locator(".num")).to_have_text(str(number))
    play(page, *squares[4])
    expect(page.locator("#stat-moves")).to_have_text("4")
    expect(page.locator("#setup input[value='6x6']")).to_be_checked()


def test_language_switch_translates_page_and_server_messages(new_page):
    page = new_page(locale="en-US")
    open_play(page)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    undo = page.locator('.controls [data-action="undo"]')
    expect(undo).to_contain_text("Undo")
    new_game(page, "5x5")
    play(page, 0, 0)
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", re.compile(r"^a5, knight here"))

    page.get_by_role("link", name="中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(undo).to_contain_text("撤销")
    expect(status(page)).to_contain_text("还剩 24 格")
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", re.compile(r"^a5，马在这里"))
    play(page, 1, 2)
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", "a5，第 1 步")
    # an error from the server arrives in the chosen language
    cell(page, 4, 4).click()
    expect(page.locator("#toast")).to_contain_text("不是马能一步跳到的格子")

    page.reload()  # the cookie keeps the choice
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(undo).to_contain_text("撤销")
    page.get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(undo).to_contain_text("Undo")
    expect(status(page)).to_contain_text("23 squares to go")


def test_default_language_follows_accept_language(new_page):
    page = new_page(locale="zh-CN")
    open_play(page)
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator(".brand-name")).to_have_text("马踏棋盘")
    page = new_page(locale="en-GB")
    open_play(page, "/?lang=zh")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")


def test_impossible_boards_and_starts_are_marked_before_play(page: Page):
    open_play(page)
    page.locator('#setup input[name=mode][value="closed"]').check(force=True)
    chip = page.locator('.chip[data-preset="5x5"]')
    expect(chip).to_have_attribute("data-impossible", "true")
    expect(page.locator('.chip[data-preset="6x6"]')).to_have_attribute("data-impossible", "false")
    page.locator('#setup input[name=size][value="5x5"]').check(force=True)
    expect(page.locator("#theory")).to_contain_text("Impossible on 5×5")
    expect(page.locator("#start-game")).to_be_disabled()

    new_game(page, "5x5", closed=False)
    cell(page, 0, 1).click()  # b5: the minority colour, no open tour starts there
    expect(status(page)).to_contain_text("No tour starts from b5")
    expect(cell(page, 0, 1)).to_have_attribute("data-warn", "true")
    expect(cell(page, 0, 1)).to_have_attribute("data-state", "legal")  # not placed yet
    cell(page, 0, 1).click()  # a second click starts there anyway
    expect(cell(page, 0, 1)).to_have_attribute("data-state", "current")
    expect(page.locator("#warning")).to_be_visible()


def test_keyboard_play_with_roving_focus(page: Page):
    open_play(page)
    new_game(page, "5x5")
    focused = page.locator('#board .sq[tabindex="0"]')
    expect(focused).to_have_count(1)
    focused.focus()
    # walk the focus to the top-left corner, place the knight, then jump to c4
    for _ in range(5):
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowLeft")
    expect(cell(page, 0, 0)).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell(page, 0, 0)).to_have_attribute("data-state", "current")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(cell(page, 1, 2)).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell(page, 1, 2)).to_have_attribute("data-state", "current")
    expect(page.locator('#board .sq[tabindex="0"]')).to_have_count(1)
    expect(cell(page, 0, 0)).to_have_attribute("aria-label", "a5, visited as move 1")


def test_random_start_and_big_board(page: Page):
    open_play(page)
    new_game(page, "custom", rows=20, cols=20)
    page.locator('.controls [data-action="random"]').click()
    expect(page.locator('#board .sq[data-state="current"]')).to_have_count(1)
    expect(page.locator('.controls [data-action="random"]')).to_be_hidden()
    # 20 quick moves on a 400-square board: each answer only touches changed squares
    for _ in range(20):
        target = page.locator('#board .sq[data-state="legal"]').first
        row, col = int(target.get_attribute("data-row")), int(target.get_attribute("data-col"))
        play(page, row, col)
    expect(page.locator('#board .sq[data-state="visited"]')).to_have_count(20)
