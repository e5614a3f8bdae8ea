"""The daily puzzle won by clicks, shared as a replay that plays to its end, exported."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import Page, expect

from server.daily import generator
from tests.tourcheck import assert_tour

pytestmark = pytest.mark.browser


def cell(page: Page, row: int, col: int):
    return page.locator(f'#board .sq[data-row="{row}"][data-col="{col}"]')


def test_win_the_daily_by_clicks_share_it_and_watch_the_replay(new_page, artifacts):
    page = new_page(reduced_motion="no-preference")  # the replay page plays by itself
    page.goto("/daily")
    today = generator.daily(page.locator("#daily").get_attribute("data-date"))
    shape = today.puzzle.shape
    expect(page.locator('#daily-board .sq[data-state="hole"]')).to_have_count(len(shape.holes))
    expect(page.locator("#daily-lb-unassisted .lb-empty")).to_have_count(1)
    page.screenshot(path=str(artifacts / "daily-desktop-1280x800.png"))

    page.locator("#daily-play").click()
    page.wait_for_url("**/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board")).to_have_attribute("data-size", f"{shape.rows}x{shape.cols}")
    expect(page.locator('#board .sq[data-state="hole"]')).to_have_count(len(shape.holes))

    tour = [divmod(sq, shape.cols) for sq in today.witness]
    clicks = [*tour, tour[0]] if today.puzzle.closed else tour
    for row, col in clicks:
        cell(page, row, col).click()
        expect(cell(page, row, col)).to_have_attribute("data-state", "current")
    win = page.locator("#win")
    expect(win).to_be_visible()
    expect(win.locator("#replay .sq .num:not(:empty)")).to_have_count(shape.size)

    win.locator("#share-replay").click()
    link = win.locator("#share-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href.startswith("/replay/")
    game_id = page.evaluate("localStorage.getItem('knights-tour.game')")
    assert game_id not in href

    replay = new_page(reduced_motion="no-preference")  # someone the link was sent to
    replay.goto(href)
    view = replay.locator("#replay-page")
    steps = shape.size + today.puzzle.closed
    expect(view).to_have_attribute("data-steps", str(steps))
    expect(view).to_have_attribute("data-state", "ended", timeout=30_000)
    expect(view).to_have_attribute("data-shown", str(steps))
    numbered = replay.locator("#replay-board-view .sq .num:not(:empty)")
    expect(numbered).to_have_count(shape.size)
    order = replay.evaluate(
        """() => [...document.querySelectorAll('#replay-board-view .sq')]
             .filter((sq) => sq.querySelector('.num')?.textContent)
             .map((sq) => [Number(sq.querySelector('.num').textContent),
                           Number(sq.dataset.row), Number(sq.dataset.col)])"""
    )
    cells = [(r, c) for _, r, c in sorted(order)]
    assert_tour(shape.rows, shape.cols, cells, closed=today.puzzle.closed,
                start=today.puzzle.start, blocked=shape.holes)  # fmt: skip

    replay.screenshot(path=str(artifacts / "replay-desktop-1280x800.png"))
    replay.locator('[data-action="back"]').click()
    expect(view).to_have_attribute("data-shown", str(steps - 1))
    expect(view).to_have_attribute("data-state", "paused")

    svg_link = replay.locator("#replay-svg").get_attribute("href")
    answer = replay.request.get(svg_link)
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(answer.body())
    numbers = root.findall(".//{http://www.w3.org/2000/svg}text[@class='number']")
    assert len(numbers) == shape.size
    assert game_id.encode() not in answer.body()

    sheet = new_page()
    sheet.goto(replay.locator("a[href^='/worksheet']").get_attribute("href"))
    expect(sheet.locator("#sheet-solution svg text.number")).to_have_count(shape.size)
    sheet.emulate_media(media="print")
    sheet.screenshot(path=str(artifacts / "worksheet-print.png"), full_page=True)
