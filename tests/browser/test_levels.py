"""The path of levels in a real browser, as the issue's player: on a phone, clear the first
three levels by clicks, earn stars; after a reload and a server restart the map still
shows the progress."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from server.levels.catalogue import catalogue
from tests.support.servers import start_servers

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667}
FIRST_THREE = catalogue().levels[:3]


def tile(page: Page, level_id: str):
    return page.locator(f'.lv-tile[data-level="{level_id}"]')


def click_witness(page: Page, level):
    """Click the level's stored tour, square by square, waiting for the server each time."""
    cols = level.puzzle.shape.cols
    squares = [*level.witness, *([level.witness[0]] if level.puzzle.closed else [])]
    for i, sq in enumerate(squares):
        row, col = divmod(sq, cols)
        square = page.locator(f'#board .sq[data-row="{row}"][data-col="{col}"]')
        square.click()
        if i < len(level.witness) - 1:
            expect(square).to_have_attribute("data-state", "current")
    expect(page.locator("#board")).to_have_attribute("data-status", "won")


def open_level_from_map(page: Page, level):
    tile(page, level.id).click()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#board")).to_have_attribute(
        "data-size", f"{level.puzzle.shape.rows}x{level.puzzle.shape.cols}"
    )
    expect(page.locator("#level-title")).to_contain_text(level.name["en"])


@pytest.fixture
def server_dir(tmp_path):
    return tmp_path / "levels-server"


def test_a_phone_player_clears_three_levels_and_the_map_remembers(browser, server_dir, artifacts):
    first, second, third = FIRST_THREE
    (server,) = start_servers(server_dir, 1, env={"RATE_LIMIT_GAMES": "0"})
    context = browser.new_context(viewport=PHONE, locale="en-US", reduced_motion="reduce")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/levels")
        expect(tile(page, first.id)).to_have_attribute("href", f"/?level={first.id}")
        expect(tile(page, second.id)).to_have_class("lv-tile is-locked")
        page.screenshot(path=str(artifacts / "levels-map-new-375.png"), full_page=True)

        # level 1, clean: three stars
        open_level_from_map(page, first)
        page.screenshot(path=str(artifacts / "levels-level-375.png"))
        click_witness(page, first)
        expect(page.locator("#level-win")).to_have_attribute("data-stars", "3")
        expect(page.locator("#level-win-stars")).to_have_text("★★★")
        page.screenshot(path=str(artifacts / "levels-win-375.png"))

        # level 2 through "next level", with a hint first: two stars
        page.locator("#level-next").click()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#level-title")).to_contain_text(second.name["en"])
        page.locator('.controls [data-action="hint"]').click()
        expect(page.locator("#hint-text")).to_be_visible()
        click_witness(page, second)
        expect(page.locator("#level-win")).to_have_attribute("data-stars", "2")
        expect(page.locator("#level-win-stars")).to_have_text("★☆★")

        # level 3 through "next level", clean
        page.locator("#level-next").click()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#level-title")).to_contain_text(third.name["en"])
        click_witness(page, third)
        expect(page.locator("#level-win")).to_have_attribute("data-stars", "3")

        fourth = catalogue().levels[3]
        expected = {first.id: "3", second.id: "2", third.id: "3", fourth.id: "0"}

        def map_shows_progress():
            for level_id, stars in expected.items():
                expect(tile(page, level_id)).to_have_attribute("data-stars", stars)
            expect(tile(page, fourth.id)).to_have_attribute("href", f"/?level={fourth.id}")
            expect(page.locator("#lv-total")).to_contain_text("8 of")

        page.goto(f"{server.url}/levels")
        map_shows_progress()
        page.reload()
        map_shows_progress()

        server.stop()
        (server,) = start_servers(server_dir, 1, env={"RATE_LIMIT_GAMES": "0"})
        page.goto(f"{server.url}/levels")
        map_shows_progress()
        page.screenshot(path=str(artifacts / "levels-map-progress-375.png"), full_page=True)
    finally:
        context.close()
        server.stop()
    assert not errors, errors
    assert "Traceback" not in server.stderr()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_level_won_on_a_phone_shows_its_buttons_apart_and_whole(new_page, lang):
    from .test_layout import PHONE as PHONE_CONTEXT
    from .test_layout import assert_win_dialog_holds_its_parts

    first = FIRST_THREE[0]
    page = new_page(**PHONE_CONTEXT)
    page.goto(f"/?lang={lang}&level={first.id}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    click_witness(page, first)
    expect(page.locator("#level-next")).to_be_visible()
    ids = [part["id"] for part in assert_win_dialog_holds_its_parts(page)]
    assert "level-next" in ids and "level-map" in ids
    new_game = page.locator('#win [data-action="show-setup"]')
    expect(new_game).to_be_in_viewport(ratio=1)
