"""The projector view at 1920x1080 on /watch, /lesson and the teacher's class page.

One key (P) or the button switches it on; the back row must read every text on screen (no
font under 24 px, pseudo-elements such as the board's coordinates included); the board
takes most of the screen's height, the code the rest of its width from top to bottom, no
line cut; Space, the arrows and End keep driving; Escape leaves.
"""

from __future__ import annotations

import pytest

from .conftest import playwright_sync

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1920, "height": 1080}
MIN_FONT_PX = 24

# Every element on screen that shows text of its own (a text node, or a ::before/::after
# with content), with its font size: [[size, description], ...].
TEXT_SIZES = """() => {
  const out = [];
  const onScreen = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0
    && r.top < innerHeight && r.left < innerWidth;
  const visible = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || +s.opacity === 0) return false;
    }
    return true;
  };
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'svg', 'path', 'OPTION'].includes(el.tagName)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const rect = range.getBoundingClientRect();
      if (onScreen(rect) && visible(el) && !el.closest('.visually-hidden')) {
        out.push([parseFloat(getComputedStyle(el).fontSize),
                  el.tagName + '.' + el.className + ' ' + el.textContent.trim().slice(0, 30)]);
      }
    }
    for (const pseudo of ['::before', '::after']) {
      const s = getComputedStyle(el, pseudo);
      if (s.content && s.content !== 'none' && s.content !== '""' && s.display !== 'none'
          && onScreen(el.getBoundingClientRect()) && visible(el)) {
        out.push([parseFloat(s.fontSize), el.tagName + '.' + el.className + pseudo]);
      }
    }
  }
  return out;
}"""


def small_texts(page) -> list:
    return [(size, what) for size, what in page.evaluate(TEXT_SIZES) if size < MIN_FONT_PX]


def board_width(page) -> float:
    return page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.w-board')]"
        ".map((b) => b.getBoundingClientRect().width))"
    )


# The code panel's lines: how many show whole inside its box, and any cut at the right.
CODE_LINES = """() => {
  const box = document.querySelector('.w-code-box');
  const b = box.getBoundingClientRect();
  const lines = [...box.querySelectorAll('.w-code-line')].filter((l) => l.offsetParent);
  const whole = lines.filter((l) => { const r = l.getBoundingClientRect();
    return r.height > 0 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5; });
  return {whole: whole.length, boxHeight: b.height,
          cut: lines.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent),
          sideways: box.scrollWidth > box.clientWidth};
}"""


def assert_code_reads(page, lines: int) -> None:
    code = page.evaluate(CODE_LINES)
    assert code["whole"] >= lines and code["boxHeight"] >= 0.8 * PROJECTOR["height"], code
    assert code["cut"] == [] and not code["sideways"], code


def test_watch_projector_view_reads_from_the_back_and_keeps_the_keys(new_page, artifacts):
    page = new_page(viewport=PROJECTOR)
    page.goto("/watch?lang=en&rows=8&cols=8&start=0,0&algorithm=warnsdorff&speed=2&go=1")
    page.wait_for_selector("[data-side=a][data-status=running]")
    page.keyboard.press("p")
    expect(page.locator("body")).to_have_attribute("data-projector", "on")
    expect(page.locator("[data-projector-toggle]")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press(" ")  # pause
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "paused")
    shown = page.locator("[data-side=a] [data-stat=nodes]")
    before = int(shown.inner_text())
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(shown).to_have_text(str(before + 3))
    page.keyboard.press("ArrowLeft")
    expect(shown).to_have_text(str(before + 2))
    page.screenshot(path=str(artifacts / "projector-watch-en.png"))
    assert board_width(page) >= 750  # most of the screen's height
    assert small_texts(page) == []
    assert_code_reads(page, 15)  # the code from the top of the screen to its bottom
    page.keyboard.press("End")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found")
    page.keyboard.press("Escape")
    expect(page.locator("body")).to_have_attribute("data-projector", "off")
    page.locator("[data-projector-toggle]").click()  # the button does it too
    expect(page.locator("body")).to_have_attribute("data-projector", "on")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lesson_projector_view_reads_from_the_back(new_page, artifacts, lang):
    page = new_page(viewport=PROJECTOR, locale="zh-CN" if lang == "zh" else "en-US")
    page.goto(f"/lesson?lang={lang}#warnsdorff/2")
    page.wait_for_selector("#lesson[data-ready=true]")
    page.locator("[data-projector-toggle]").click()
    expect(page.locator("body")).to_have_attribute("data-projector", "on")
    expect(page.locator("[data-side=a] .st-row[data-innermost=true]")).to_be_visible()
    page.screenshot(path=str(artifacts / f"projector-lesson-{lang}.png"))
    assert board_width(page) >= 750
    assert small_texts(page) == []
    assert_code_reads(page, 15)
    page.keyboard.press("ArrowRight")  # a presenter's clicker: the next step
    expect(page.locator("#lesson")).to_have_attribute("data-step", "3")
    page.keyboard.press("PageUp")
    expect(page.locator("#lesson")).to_have_attribute("data-step", "2")


def test_teacher_projector_view_shows_the_join_code_beside_the_board(new_page, artifacts):
    teacher = new_page(viewport=PROJECTOR)
    teacher.goto("/class/new?lang=en")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    code = teacher.get_attribute("#class", "data-code")
    teacher.check('input[name="preset"][value="8x8"]', force=True)
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-phase", "running")
    teacher.keyboard.press("p")
    expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
    corner = teacher.locator("#c-code")
    expect(corner).to_have_text(code)
    box = corner.bounding_box()  # at the top of the right column
    assert box["x"] > board_width(teacher) and box["y"] < PROJECTOR["height"] * 0.1
    teacher.screenshot(path=str(artifacts / "projector-teacher-en.png"))
    assert board_width(teacher) >= 900
    assert small_texts(teacher) == []
    teacher.keyboard.press(" ")  # the class's transport, from the keyboard: pause
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "false")


def test_a_race_in_the_projector_view_shows_both_boards_large(new_page):
    page = new_page(viewport=PROJECTOR)
    page.goto("/lesson?lang=en#race/1")
    page.wait_for_selector("#lesson[data-ready=true]")
    page.keyboard.press("f")
    expect(page.locator("body")).to_have_attribute("data-projector", "on")
    widths = page.evaluate(
        "() => [...document.querySelectorAll('.w-lane:not([hidden]) .w-board')]"
        ".map((b) => b.getBoundingClientRect().width)"
    )
    assert len(widths) == 2 and min(widths) >= 400
    assert small_texts(page) == []
