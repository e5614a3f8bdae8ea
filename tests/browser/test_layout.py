"""The board fits phones and desktops without scrolling; screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_play import cell, new_game, open_play, play

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 375, "height": 667},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
OPENING = [(7, 0), (5, 1), (3, 0), (1, 1), (0, 3), (1, 5), (0, 7), (2, 6), (4, 7)]


def assert_fits(page: Page):
    """No horizontal scrolling, and the whole board inside the first screen."""
    fits = page.evaluate(
        """() => {
            const box = document.querySelector("#board").getBoundingClientRect();
            return {
                scrollWidth: document.scrollingElement.scrollWidth,
                innerWidth: window.innerWidth,
                innerHeight: window.innerHeight,
                box: {left: box.left, top: box.top, right: box.right, bottom: box.bottom},
            };
        }"""
    )
    assert fits["scrollWidth"] <= fits["innerWidth"], fits
    box = fits["box"]
    assert box["left"] >= 0 and box["top"] >= 0, fits
    assert box["right"] <= fits["innerWidth"] and box["bottom"] <= fits["innerHeight"], fits
    return box


def play_opening(page: Page, tap: bool):
    for row, col in OPENING:
        target = cell(page, row, col)
        if tap:
            target.tap()
            expect(target).to_have_attribute("data-state", "current")
        else:
            play(page, row, col)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_8x8_is_playable_without_zooming(new_page, artifacts, scheme):
    page = new_page(**PHONE, color_scheme=scheme)
    open_play(page)
    new_game(page, "8x8")
    page.evaluate("window.scrollTo(0, 0)")
    box = assert_fits(page)
    assert box["right"] - box["left"] >= 320  # squares of 40 px and more: tappable
    play_opening(page, tap=True)
    page.locator('.controls [data-action="hint"]').tap()
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(1)
    page.evaluate("window.scrollTo(0, 0)")
    assert_fits(page)
    page.screenshot(path=str(artifacts / f"play-phone-375x667-{scheme}.png"))
    page.screenshot(path=str(artifacts / f"play-phone-375x667-{scheme}-full.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_desktop_layout(new_page, artifacts, scheme):
    page = new_page(**DESKTOP, color_scheme=scheme)
    open_play(page)
    new_game(page, "8x8")
    play_opening(page, tap=False)
    assert_fits(page)
    page.screenshot(path=str(artifacts / f"play-desktop-1280x800-{scheme}.png"))


def test_phone_20x20_and_win_screen_fit(new_page, artifacts):
    page = new_page(**PHONE)
    open_play(page)
    new_game(page, "custom", rows=20, cols=20)
    page.evaluate("window.scrollTo(0, 0)")
    assert_fits(page)
    page.locator('.controls [data-action="random"]').tap()
    expect(page.locator('#board .sq[data-state="current"]')).to_have_count(1)
    page.screenshot(path=str(artifacts / "play-phone-375x667-20x20.png"))


def test_desktop_zh_and_custom_setup(new_page, artifacts):
    page = new_page(**DESKTOP, locale="zh-CN")
    open_play(page)
    new_game(page, "custom", rows=5, cols=9)
    play(page, 0, 0)
    play(page, 1, 2)
    page.locator('#setup input[name=mode][value="closed"]').check(force=True)
    expect(page.locator('.chip[data-preset="5x5"]')).to_have_attribute("data-impossible", "true")
    assert_fits(page)
    page.screenshot(path=str(artifacts / "play-desktop-1280x800-zh-5x9.png"))
