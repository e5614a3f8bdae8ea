"""The daily puzzle won by clicks, shared as a replay that plays to its end, exported."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import Page, expect

from server.daily import generator
from server.i18n import MESSAGES
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
    replay.locator('.share-speeds label:has([value="16"])').click()  # the fastest speed
    expect(replay.locator('[name="replay-speed"][value="16"]')).to_be_checked()
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


def shared_replay(page: Page) -> str:
    """A 5x5 tour won through the API and shared: its replay's address."""
    from server.engine.board import Board
    from server.engine.search import solve

    tour = [divmod(sq, 5) for sq in solve(Board(5, 5), 0).tour]
    page.goto("/")
    return page.evaluate(
        """async (tour) => {
            const post = (url, body) => fetch(url, {method: 'POST', body: JSON.stringify(body),
              headers: {'Content-Type': 'application/json'}}).then((r) => r.json());
            const game = await post('/api/games', {rows: 5, cols: 5, closed: false});
            for (const [row, col] of tour) await post(`/api/games/${game.id}/moves`, {row, col});
            return (await post(`/api/games/${game.id}/replay`, {})).url;
        }""",
        tour,
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_controls_are_touch_sized_with_a_speed_to_tap(new_page, lang):
    page = new_page(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page.goto(f"{shared_replay(page)}?lang={lang}")
    view = page.locator("#replay-page")
    expect(view).to_have_attribute("data-state", "ended")  # reduced motion: at the end
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.share-transport .btn, .share-speed .chip')]
              .map((el) => { const r = el.getBoundingClientRect();
                             return [el.getAttribute('aria-label') ?? el.textContent.trim(),
                                     r.width, r.height, r.right <= innerWidth]; })"""
    )
    assert len(sizes) == 10
    for name, width, height, inside in sizes:
        assert width >= 44 and height >= 44 and inside, (name, width, height)
    speeds = page.get_by_role("radiogroup", name=MESSAGES["ui.replay.speed"][lang])
    expect(speeds.get_by_role("radio")).to_have_count(5)
    expect(speeds.get_by_role("radio", name="4×")).to_be_checked()
    speeds.locator("label", has_text="16×").tap()
    expect(speeds.get_by_role("radio", name="16×")).to_be_checked()
    expect(speeds.get_by_role("radio", name="4×")).not_to_be_checked()

    toggle = page.locator("#replay-toggle")
    expect(toggle).to_have_attribute("aria-label", MESSAGES["ui.replay.play"][lang])
    page.locator('[data-action="first"]').tap()
    expect(view).to_have_attribute("data-shown", "0")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-label", MESSAGES["ui.replay.pause"][lang])
    expect(view).to_have_attribute("data-state", "ended", timeout=20_000)
    expect(toggle).to_have_attribute("aria-label", MESSAGES["ui.replay.play"][lang])
