"""The board as the back row of a classroom reads it: move numbers above the path's lines and
beside the knight, numbers and coordinates at 4.5:1 (WCAG AA) in both colour schemes.

Paint order is checked by hit testing, which follows it: with every layer of the board made
hit-testable, each point of a number's digits must find the number, not a line or the
knight. Contrast is read from computed styles: every number and coordinate has an opaque
backing of its own (a disc, a plate), so its colour against that backing is what the eye
gets, whatever the square under it shows.
"""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import solve
from tests.support.pages import SIZES, play_page, watch_at

from .conftest import playwright_sync

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PLAY_OPENING = [(7, 0), (5, 1), (3, 0), (1, 1), (0, 3)]
SHOW_ME_FROM = [(5, 7), (3, 6), (1, 7), (2, 5), (0, 6)]
AA = 4.5

# For each number on the boards matching the selector: the points of its digits' box whose
# hit test finds something else than the number (a line's stroke, the knight), and what
# each point finds once the number is out of the way (to show what is there, under it).
HIT_TEST = """(selector) => {
  const boards = [...document.querySelectorAll(selector)];
  const all = boards.flatMap((board) => [board, ...board.querySelectorAll("*")]);
  const hittable = (el) => {
    if (el.tagName === "svg") return "none"; // its empty box covers nothing
    return el.closest(".board-lines") ? "visibleStroke" : "auto"; // a line where it is drawn
  };
  for (const el of all) el.style.setProperty("pointer-events", hittable(el), "important");
  const what = (el) => {
    // off screen, or under the page's own bars
    if (!el || !boards.some((board) => board.contains(el))) return "outside";
    if (el.closest(".knight")) return "knight";
    if (el.closest(".board-lines")) return "line";
    if (el.closest(".num")) return "number";
    return el.className || el.tagName;
  };
  const found = [];
  for (const num of boards.flatMap((board) => [...board.querySelectorAll(".sq .num")])) {
    if (!num.textContent) continue;
    const range = document.createRange();
    range.selectNodeContents(num);
    const box = range.getBoundingClientRect();
    const points = [];
    for (const fx of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      for (const fy of [0.2, 0.5, 0.8]) {
        points.push([box.left + box.width * fx, box.top + box.height * fy]);
      }
    }
    const hits = points.map(([x, y]) => what(document.elementFromPoint(x, y)));
    num.style.visibility = "hidden";
    const under = points.map(([x, y]) => what(document.elementFromPoint(x, y)));
    num.style.visibility = "";
    const sq = num.parentElement;
    found.push({
      number: num.textContent,
      state: sq.dataset.state,
      ghost: sq.dataset.ghost === "true",
      hits: hits.filter((hit) => hit !== "number" && hit !== "outside"),
      checked: hits.filter((hit) => hit !== "outside").length,
      under: [...new Set(under)],
    });
  }
  for (const el of all) el.style.removeProperty("pointer-events");
  return found;
}"""

# Every number and coordinate shown on the boards matching the selector: its colour, its
# backing's colour and their contrast ratio (WCAG 2's relative luminance).
CONTRAST = """(selector) => {
  const rgba = (text) => {
    const parts = text.match(/[\\d.]+/g).map(Number);
    return parts.length === 3 ? [...parts, 1] : parts;
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const found = [];
  for (const board of document.querySelectorAll(selector)) {
    if (!board.checkVisibility()) continue;
    for (const sq of board.querySelectorAll(".sq")) {
      const shown = [];
      const num = sq.querySelector(".num");
      if (num.textContent) shown.push(["number", num.textContent, getComputedStyle(num)]);
      for (const pseudo of ["::before", "::after"]) {
        const style = getComputedStyle(sq, pseudo);
        if (style.display === "none" || ["none", "normal"].includes(style.content)) continue;
        const text = sq.dataset[pseudo === "::before" ? "rank" : "file"] ?? style.content;
        shown.push(["coordinate", text, style]);
      }
      for (const [kind, text, style] of shown) {
        const fg = rgba(style.color);
        const bg = rgba(style.backgroundColor);
        found.push({
          kind,
          text,
          state: sq.dataset.state,
          shade: sq.classList.contains("dark") ? "dark" : "light",
          colour: style.color,
          backing: style.backgroundColor,
          opaque: fg[3] === 1 && bg[3] === 1,
          ratio: Math.round(ratio(fg, bg) * 100) / 100,
        });
      }
    }
  }
  return found;
}"""


def seek(page, index: int) -> None:
    page.locator("#w-seek").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));"
        " el.dispatchEvent(new Event('change', {bubbles: true})); }",
        index,
    )
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text(str(index))


def hit_test(page, selector: str) -> list[dict]:
    """The board in the middle of the screen (clear of the page's sticky bars), hit tested."""
    page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'center'})", selector)
    return page.evaluate(HIT_TEST, selector)


def contrast(page, selector: str) -> list[dict]:
    return page.evaluate(CONTRAST, selector)


def assert_above_everything(found: list[dict]) -> None:
    assert found, "no number on the board"
    unseen = [f["number"] for f in found if f["checked"] < 5]
    assert not unseen, f"numbers the hit test could not reach on screen: {unseen}"
    hidden = [f for f in found if f["hits"]]
    assert not hidden, f"numbers with something drawn over their digits: {hidden}"


def assert_readable(found: list[dict], where: str) -> None:
    poor = [f for f in found if not f["opaque"] or f["ratio"] < AA]
    assert not poor, f"{where}: below 4.5:1 or without an opaque backing: {poor}"


def seen(found: list[dict], kind: str) -> set[str]:
    return {f"{f['state']}/{f['shade']}" for f in found if f["kind"] == kind}


def test_numbers_sit_above_the_lines_and_beside_the_knight(new_page):
    page = new_page(**SIZES["desktop"])
    play_page(page, 8, PLAY_OPENING)
    found = hit_test(page, "#board")
    assert_above_everything(found)
    assert any("line" in f["under"] for f in found), "no line runs under a number"
    (current,) = [f for f in found if f["state"] == "current"]
    assert current["number"] == str(len(PLAY_OPENING))
    assert "knight" in current["under"], "the knight's number is beside the knight"

    # Show me: the search's trail, numbered under its dashed line, the ghost at its head
    play_page(page, 8, SHOW_ME_FROM)
    page.click('.controls [data-action="show-me"]')
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 12")
    found = hit_test(page, "#board")  # one task: the search cannot move on in between
    assert_above_everything(found)
    (ghost,) = [f for f in found if f["ghost"]]
    assert "knight" in ghost["under"] and ghost["state"] == "trail"


def test_numbers_sit_above_the_lines_of_a_watched_search_and_its_heat(new_page):
    page = new_page(**SIZES["phone"])
    watch_at(page, "&rows=6&cols=6&start=0,0&algorithm=warnsdorff", 14)
    found = hit_test(page, "[data-side=a] .board")
    assert_above_everything(found)
    assert any("line" in f["under"] for f in found)
    page.click("[data-action=end]")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found")
    page.locator("label.w-heat-toggle").click()
    expect(page.locator("[data-side=a] .board")).to_have_attribute("data-heat", "true")
    found = hit_test(page, "[data-side=a] .board")
    assert_above_everything(found)
    assert len(found) == 36


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_numbers_and_coordinates_reach_aa_on_every_square(new_page, scheme):
    page = new_page(**SIZES["desktop"], color_scheme=scheme)

    play_page(page, 8, PLAY_OPENING)
    page.click('.controls [data-action="hint"]')
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(1)
    found = contrast(page, "#board")
    assert_readable(found, "Play")
    assert {"visited/light", "visited/dark", "current/dark"} <= seen(found, "number")
    assert {"visited/dark", "empty/light", "empty/dark"} <= seen(found, "coordinate")

    play_page(page, 8, SHOW_ME_FROM)
    page.click('.controls [data-action="show-me"]')
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 12")
    found = contrast(page, "#board")
    assert_readable(found, "Show me")
    assert {"trail/light", "trail/dark"} <= seen(found, "number")

    play_page(page, 5, [divmod(sq, 5) for sq in solve(Board(5, 5), 0).tour])
    expect(page.locator("#win")).to_be_visible()
    found = contrast(page, "#board")
    assert_readable(found, "a won game")
    assert {"visited/light", "visited/dark"} <= seen(found, "coordinate")

    watch_at(page, "&rows=6&cols=6&start=0,0&algorithm=seed", 0)
    seek(page, 35)  # a move made after a backtrack: tried candidates, and ones still to try
    found = contrast(page, "[data-side=a] .board")
    assert_readable(found, "Watch")
    assert {"candidate", "tried", "current"} <= {f["state"] for f in found}
    seek(page, 36)  # ... and the backtrack out of it: its square marked dead
    found = contrast(page, "[data-side=a] .board")
    assert_readable(found, "Watch, a backtrack")
    page.click("[data-action=end]")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found")
    found = contrast(page, "[data-side=a] .board")
    assert_readable(found, "Watch, the tour found")
    page.locator("label.w-heat-toggle").click()
    expect(page.locator("[data-side=a] .board")).to_have_attribute("data-heat", "true")
    found = contrast(page, "[data-side=a] .board")
    assert_readable(found, "Watch's heat map")
    assert len(seen(found, "coordinate")) > 1
