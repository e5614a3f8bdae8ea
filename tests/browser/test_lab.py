"""The code lab (/lab) in chromium: a student's Python runs under Pyodide in a worker, and
what it did plays on a Watch lane, event for event the engine's (server/engine/search.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from server.engine.board import Board
from server.engine.search import search_events
from server.lab import program
from server.stream.encode import encode

PHONE = {"width": 375, "height": 667}
LAPTOP = {"width": 1280, "height": 800}
LOAD_MS = 90_000  # Pyodide's first load on a busy 2-core machine
FIXED_SORT = ("key=cmp_to_key(lambda x,y: x.wayout < y.wayout)", "key=lambda n: n.wayout")


def engine_ints(rows, cols, start, ordering, counts=False) -> list[int]:
    board = Board(rows, cols)
    sq = start[0] * cols + start[1]
    events = [
        e for e in search_events(board, sq, ordering=ordering) if e.kind in ("move", "backtrack")
    ]
    return encode(events, counts)


def open_lab(new_page, viewport):
    page = new_page(viewport=viewport, has_touch=viewport is PHONE)
    page.goto("/lab?test&lang=en")
    expect(page.locator("#lab")).to_have_attribute("data-ready", "true")
    expect(page.locator("#lab")).to_have_attribute("data-python", "ready", timeout=LOAD_MS)
    return page


def type_program(page, text):
    """Replace the editor's text as a keyboard does (select all, then the text typed in)."""
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def set_board(page, rows, cols, start=None):
    page.fill("#lab-rows", str(rows))
    page.locator("#lab-rows").dispatch_event("change")
    page.fill("#lab-cols", str(cols))
    page.locator("#lab-cols").dispatch_event("change")
    if start is not None:
        row, col = start
        square = f'[data-side="a"] .sq[data-row="{row}"][data-col="{col}"]'
        page.locator(square).click()
        expect(page.locator("#lab-start-name")).to_have_text(f"{chr(97 + col)}{rows - row}")


def run(page, status="found"):
    page.click("#lab-run")
    expect(page.locator("#lab")).to_have_attribute("data-run-status", status, timeout=60_000)


def shown_ints(page) -> list[int]:
    """Every event the lab's lane plays, as the player holds them, played to the end."""
    return page.evaluate(
        """async () => {
            const lane = window.testHook.lanes[0];
            const out = [];
            let chunk = 0;
            for (let tries = 0; tries < 100000 && !lane.player.finished; tries++) {
                lane.player.advance(5000);
                await new Promise((resolve) => setTimeout(resolve, 0));
            }
            for (const c of lane.player.chunks) out.push(...c.data);
            return out;
        }"""
    )


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_starting_program_on_6x6_plays_the_seed_ordering_s_events(new_page, viewport):
    page = open_lab(new_page, viewport)
    type_program(page, program("start"))
    set_board(page, 6, 6)  # the start stays a1: row 5, column 0
    run(page)
    expect(page.locator("#lab")).to_have_attribute("data-rule", "plain")
    expected = engine_ints(6, 6, (5, 0), "seed")
    # a few steps by the transport: the board follows the engine's path
    page.locator('[data-action="play"]').click()  # pause
    page.locator('[data-action="play"]').click()
    path: list[int] = []
    events = list(_split(expected))
    for _ in range(3):
        page.locator('[data-action="step"]').click()
    shown = page.evaluate("window.testHook.lanes[0].player.pos")
    for event in events[:shown]:
        path.pop() if event[0] < 0 else path.append(event[0])
    board_path = page.evaluate(
        "(() => { const p = window.testHook.lanes[0].player;"
        " return Array.from(p.path.subarray(0, p.depth)); })()"
    )
    assert board_path == path
    # the editor lights the line that wrote the event shown
    lit = page.locator(".lab-line-running")
    expect(lit).to_have_count(1)
    assert "board[x][y]" in lit.inner_text()
    assert shown_ints(page) == expected
    expect(page.locator("#lab-verdict")).to_have_attribute("data-tour", "open")


def _split(ints):
    i = 0
    while i < len(ints):
        if ints[i] < 0:
            yield ints[i : i + 1]
            i += 1
        else:
            k = ints[i + 1]
            yield ints[i : i + 2 + k]
            i += 2 + k


def test_fixing_the_python_article_s_sort_gives_its_corrected_twin(new_page):
    # from the lesson's chapter on the Python article: its program, board and start
    page = new_page(viewport=LAPTOP)
    page.goto("/lesson?lang=en#fix-python/1")
    expect(page.locator("#lesson")).to_have_attribute("data-chapter", "fix-python")
    link = page.locator('[data-role="lab"] a')
    expect(link).to_be_visible()
    address = "/lab?example=article-001&rows=5&cols=5&start=c3"
    expect(link).to_have_attribute("href", address)
    page.goto(f"{address}&test&lang=en")
    expect(page.locator("#lab")).to_have_attribute("data-python", "ready", timeout=LOAD_MS)
    expect(page.locator("#lab-example")).to_have_value("article-001")
    expect(page.locator("#lab-start-name")).to_have_text("c3")
    assert page.evaluate("window.testHook.editor.text") == program("article-001")
    run(page, status="declared")  # as written: its sort sorts nothing, its "tour" is false
    type_program(page, program("article-001").replace(*FIXED_SORT))
    run(page)
    expect(page.locator("#lab")).to_have_attribute("data-rule", "onward")
    assert shown_ints(page) == engine_ints(5, 5, (2, 2), "a001-python-fixed", counts=True)


def test_stop_ends_a_loop_a_recursion_points_at_its_line_and_the_page_runs_on(new_page):
    """A student's bad programs one after another on one page, as in a lesson."""
    page = open_lab(new_page, LAPTOP)
    type_program(page, "board = [[0] * COLS for _ in range(ROWS)]\nwhile True:\n    pass\n")
    page.click("#lab-run")
    expect(page.locator("#lab")).to_have_attribute("data-running", "true")
    page.click("#lab-stop")
    expect(page.locator("#lab")).to_have_attribute("data-run-status", "stopped")
    expect(page.locator("#lab-message")).to_have_attribute("data-kind", "stopped")
    expect(page.locator("#lab-message")).to_contain_text("Stop button ended the program")
    # a fresh worker loads; a runaway recursion is said on its line
    expect(page.locator("#lab")).to_have_attribute("data-python", "ready", timeout=LOAD_MS)
    type_program(page, "def f(n):\n    return f(n + 1)\n\n\nf(0)\n")
    run(page, status="error")
    message = page.locator("#lab-message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("Line 2: the recursion is too deep")
    error = page.locator(".lab-line-error")
    expect(error).to_have_count(1)
    assert "return f(n + 1)" in error.inner_text()
    type_program(page, program("start"))  # and the next program runs
    run(page)


def test_a_blocked_import_is_said_in_chinese(new_page):
    page = new_page(viewport=LAPTOP)
    page.goto("/lab?test&lang=zh")
    expect(page.locator("#lab")).to_have_attribute("data-python", "ready", timeout=LOAD_MS)
    type_program(page, "import os\n")
    run(page, status="error")
    expect(page.locator("#lab-message")).to_contain_text("第 1 行：实验室里不能导入 os")


def test_a_lab_program_races_a_built_in_search(new_page):
    page = open_lab(new_page, LAPTOP)
    set_board(page, 6, 6)
    page.select_option("#lab-race", "warnsdorff")
    run(page)
    page.locator("[data-action=end]").click()
    expect(page.locator("#w-race-result")).to_be_visible(timeout=60_000)
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found")
    expect(page.locator("[data-side=b]")).to_have_attribute("data-algorithm", "warnsdorff")
    expect(page.locator("[data-side=b]")).to_have_attribute("data-winner", "true")
    expect(page.locator("#w-race-result")).to_contain_text("36 nodes against 5,422")
