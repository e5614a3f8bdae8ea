"""The board editor (/editor) in chromium: a shape drawn by clicks, the verdict following
each change (a colour imbalance named and ringed, then a tour), the witness drawn and
checked, and the share link reopening the same puzzle; the keyboard, a bad link, a phone."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from server.engine.shape import Puzzle, Shape
from server.i18n import MESSAGES
from tests.tourcheck import assert_tour

PHONE = {"width": 375, "height": 667}


def cell(page, name: str):
    """A square by its chess name on the editor's board (a1 bottom-left)."""
    rows = int(page.locator("#board").get_attribute("data-size").split("x")[0])
    col, rank = ord(name[0]) - ord("a"), int(name[1:])
    return page.locator(f'#board .sq[data-row="{rows - rank}"][data-col="{col}"]')


def verdict(page):
    return page.locator("#verdict")


def settled(page, tour: str, code: str = ""):
    """Wait until the verdict shown is the server's answer on the drawing shown."""
    expect(verdict(page)).to_have_attribute("data-tour", tour)
    expect(verdict(page)).to_have_attribute("data-code", code)


def holes(page) -> list[tuple[int, int]]:
    return [
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
        for c in page.locator('#board .sq[data-state="hole"]').all()
    ]


def drawn_tour(page) -> list[tuple[int, int]]:
    """The squares of the drawn path in move order, from their move numbers."""
    numbered = page.eval_on_selector_all(
        "#board .sq",
        "cells => cells.filter(c => c.textContent.trim())"
        ".map(c => [Number(c.textContent), Number(c.dataset.row), Number(c.dataset.col)])",
    )
    return [(row, col) for _, row, col in sorted(numbered)]


def test_a_shape_drawn_by_clicks_gets_its_verdict_a_tour_and_a_share_link(new_page, artifacts):
    page = new_page()
    page.goto("/editor?lang=en")
    expect(page.locator("#editor")).to_have_attribute("data-ready", "true")
    settled(page, "true")  # 6x6, open
    expect(page).to_have_url(re.compile(r"/editor\?puzzle=6x6\.o$"))

    page.get_by_label("Closed tour challenge").check(force=True)
    settled(page, "true")
    cell(page, "a6").click()
    settled(page, "false", "colour")  # 17 light, 18 dark squares
    expect(page.locator("#verdict-reason")).to_contain_text("17 light and 18 dark")
    expect(page.locator('#board .sq[data-named="true"]')).to_have_count(18)
    expect(page.locator("#show-tour")).to_be_hidden()

    cell(page, "a1").click()  # one of each colour gone: balanced
    settled(page, "true")
    expect(page.locator('#board .sq[data-named="true"]')).to_have_count(0)
    expect(page.locator("#verdict-size")).to_have_text("34 squares to visit")

    page.get_by_role("button", name="Show a tour").click()
    expect(page.locator("#show-tour")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board .sq .num:not(:empty)")).to_have_count(34)
    assert_tour(6, 6, drawn_tour(page), closed=True, blocked=[(0, 0), (5, 0)])

    page.get_by_label("sets the start").check(force=True)
    cell(page, "c3").click()  # the start; drawing holes again after it
    settled(page, "true")
    expect(page.locator("#start-text")).to_have_text("fixed on c3")
    expect(page.locator('#board .sq[data-start="true"]')).to_have_count(1)
    expect(page.locator("#board .sq .num:not(:empty)")).to_have_count(0)  # a new drawing
    expect(page.locator("input[name=tool][value=holes]")).to_be_checked()

    code = Puzzle(Shape(6, 6, frozenset({0, 30})), True, 3 * 6 + 2).code
    expect(page).to_have_url(re.compile(re.escape(f"/editor?puzzle={code}") + "$"))
    expect(page.locator("#editor")).to_have_attribute("data-puzzle", code)  # the server's read
    link = page.locator("#share-link").input_value()
    assert link == page.url
    assert page.locator("#play-link").get_attribute("href") == f"/?puzzle={code}"
    assert page.locator("#class-link").get_attribute("href") == f"/class/new?puzzle={code}"
    page.screenshot(path=str(artifacts / "editor-desktop-en.png"))

    again = new_page()
    again.goto(link)
    expect(again.locator("#editor")).to_have_attribute("data-ready", "true")
    settled(again, "true")
    assert sorted(holes(again)) == [(0, 0), (5, 0)]
    expect(again.locator("input[name=mode][value=closed]")).to_be_checked()
    expect(again.locator("#start-text")).to_have_text("fixed on c3")
    expect(cell(again, "c3")).to_have_attribute("data-start", "true")
    assert again.url == link


def test_size_and_keyboard_and_stale_answers(page):
    page.goto("/editor?lang=en")
    settled(page, "true")
    page.locator("input[name=rows]").fill("3")
    page.locator("input[name=cols]").fill("3")
    page.locator("input[name=cols]").press("Enter")
    page.locator("input[name=cols]").blur()
    settled(page, "false", "unreachable")  # the centre of 3x3
    expect(page.locator('#board .sq[data-named="true"]')).to_have_count(1)
    expect(cell(page, "b2")).to_have_attribute("data-named", "true")

    cell(page, "b2").focus()
    page.keyboard.press("Enter")  # the centre becomes a hole: 8 squares in a ring
    expect(cell(page, "b2")).to_have_attribute("data-state", "hole")
    settled(page, "true")
    page.get_by_label("Closed tour challenge").check(force=True)
    settled(page, "true")  # the ring closes
    # clicks faster than the answers: only the last drawing's verdict is shown
    for _ in range(3):
        cell(page, "a1").click()
    settled(page, "false", "dead-ends")  # a1 cut: the ring is a line with two ends
    assert sorted(holes(page)) == [(1, 1), (2, 0)]
    expect(page.locator('#board .sq[data-named="true"]')).to_have_count(2)
    expect(page).to_have_url(re.compile(r"puzzle=3x3~"))


def test_a_bad_link_says_why_and_opens_a_plain_board(page):
    page.goto("/editor?lang=en&puzzle=5x5:c3.o.c3")
    expect(page.locator("#notice")).to_contain_text("The start c3 is a hole.")
    settled(page, "true")
    assert holes(page) == []
    expect(page).to_have_url(re.compile(r"/editor\?puzzle=6x6\.o$"))


def test_the_editor_on_a_phone_in_chinese(new_page, artifacts):
    page = new_page(viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True)
    page.goto("/editor?lang=zh&puzzle=5x5.c")
    settled(page, "false", "colour")
    expect(page.locator("#verdict-head")).to_have_text("没有巡游")
    expect(page.locator("#verdict-reason")).to_contain_text("浅色 12 格")
    cell(page, "c3").tap()  # 12 and 12: the search has the last word
    settled(page, "false", "exhausted")
    expect(page.locator("#verdict-reason")).to_contain_text("没有巡游")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(artifacts / "editor-phone-zh.png"), full_page=True)


def test_the_language_switch_rewords_the_verdict_in_place(page):
    page.goto("/editor?lang=en&puzzle=5x5.o.b1")
    settled(page, "false", "start-colour")
    expect(page.locator("#verdict-reason")).to_contain_text("b1 is not")
    page.get_by_role("link", name="中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("#verdict-reason")).to_contain_text("而 b1 不是")
    expect(page.locator("#start-text")).to_have_text("固定在 b1")
    expect(page.locator("#board")).to_have_attribute(
        "aria-label", "题目棋盘：回车或点击挖洞 / 填回"
    )
    expect(page).to_have_url(re.compile(r"/editor\?puzzle=5x5\.o\.b1$"))


def test_a_check_refused_for_asking_too_often_is_said_then_asked_again(page):
    """The server's 429 (RATE_LIMIT_VERDICTS) on one check, played by the network layer."""
    refusal = MESSAGES["error.rate-limited.verdicts"]["en"].format(seconds=1)
    calls = []

    def answer(route):
        calls.append(route.request.post_data_json["puzzle"])
        if len(calls) == 2:
            route.fulfill(
                status=429,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body=json.dumps({"error": refusal, "code": "rate-limited"}),
            )
        else:
            route.continue_()

    page.route("**/api/verdict*", answer)
    page.goto("/editor?lang=en")
    settled(page, "true")
    cell(page, "a6").click()
    settled(page, "error")
    expect(page.locator("#verdict-reason")).to_have_text(refusal)
    settled(page, "true")  # asked again once allowed (35 squares: an open tour)
    assert calls[1:] == [Puzzle(Shape(6, 6, frozenset({0}))).code] * 2
