"""The guided lesson (/lesson) in a real chromium: chapter navigation in both languages.

The narration is checked against the catalogues, the seeds' move numbers and the stack's
candidate order against the seeds' findWay (written out here), the huge board's figure
against the server's own construction.
"""

from __future__ import annotations

import pytest

from server.i18n import MESSAGES
from server.lesson.chapters import CHAPTERS

from .conftest import playwright_sync
from .stackcheck import shown_stack

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

# The seeds' findWay: (move number, dx, dy) with x the column and y the row, in its order.
FIND_WAY = [
    (5, -2, -1),
    (6, -1, -2),
    (7, 1, -2),
    (0, 2, -1),
    (1, 2, 1),
    (2, 1, 2),
    (3, -1, 2),
    (4, -2, 1),
]


def open_lesson(page, lang: str, place: str = "") -> None:
    page.goto(f"/lesson?lang={lang}{place}")
    page.wait_for_selector("#lesson[data-ready=true]")


def text_is(page, key: str, lang: str) -> None:
    expect(page.locator("[data-role=text]")).to_have_attribute("data-key", key)
    if "{" not in MESSAGES[key][lang]:
        expect(page.locator("[data-role=text]")).to_have_text(MESSAGES[key][lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapters_and_steps_navigate_in_both_languages(new_page, lang):
    page = new_page(locale="zh-CN" if lang == "zh" else "en-US")
    open_lesson(page, lang)
    lesson = page.locator("#lesson")
    expect(lesson).to_have_attribute("data-chapter", "moves")
    text_is(page, "lesson.moves.1", lang)
    expect(page.locator("[data-role=title]")).to_have_text(MESSAGES["lesson.moves.title"][lang])
    expect(page.locator('[data-lesson="prev"]')).to_be_disabled()
    chapter_buttons = page.locator(".l-chapter")
    assert chapter_buttons.count() == len(CHAPTERS)
    assert chapter_buttons.nth(4).inner_text() == MESSAGES["lesson.warnsdorff.title"][lang]

    # Step 2: the eight moves around c3 carry the seeds' numbers.
    page.locator('[data-lesson="next"]').click()
    text_is(page, "lesson.moves.2", lang)
    knight = (2, 2)
    for number, dx, dy in FIND_WAY:
        r, c = knight[0] + dy, knight[1] + dx
        cell = page.locator(f"[data-side=a] .sq[data-row='{r}'][data-col='{c}']")
        expect(cell).to_have_attribute("data-move", str(number))

    # Step 3: the first call's candidates, in findWay's order; the first is being tried.
    page.keyboard.press("ArrowRight")
    text_is(page, "lesson.moves.3", lang)
    expect(lesson).to_have_attribute("data-step", "3")
    expect(page.locator("[data-side=a] [data-role=stack]")).to_have_attribute("data-depth", "2")
    rows = shown_stack(page)["rows"]
    start = next(row for row in rows if row["frame"] == 0)
    order = [(knight[0] + dy) * 5 + knight[1] + dx for _, dx, dy in FIND_WAY]
    assert [sq for sq, _, _ in start["candidates"]] == order
    assert [state for _, state, _ in start["candidates"]] == ["trying"] + ["waiting"] * 7

    # The next chapter follows the last step; a chapter button jumps; the address follows.
    page.keyboard.press("ArrowRight")
    expect(lesson).to_have_attribute("data-chapter", "dfs")
    text_is(page, "lesson.dfs.1", lang)
    assert page.url.endswith("#dfs/1")
    page.keyboard.press("ArrowLeft")
    expect(lesson).to_have_attribute("data-chapter", "moves")
    expect(lesson).to_have_attribute("data-step", "3")
    chapter_buttons.nth(4).click()
    expect(lesson).to_have_attribute("data-chapter", "warnsdorff")
    expect(chapter_buttons.nth(4)).to_have_attribute("aria-current", "step")
    page.locator('[data-lesson="next"]').click()
    text_is(page, "lesson.warnsdorff.2", lang)
    counts = page.locator("[data-side=a] .st-row:not([hidden]) .st-cand[data-count]")
    expect(counts.first).to_be_visible()

    # The huge board: the server's 1000x1000 tour, its figures in the narration.
    page.goto(f"/lesson?lang={lang}#huge/3")
    page.wait_for_selector("#lesson[data-ready=true]")
    expect(page.locator("[data-role=text]")).to_contain_text("1,000,000")

    # The last chapter's last step: nothing after it.
    last = CHAPTERS[-1]
    page.goto(f"/lesson?lang={lang}#{last['id']}/{len(last['steps'])}")
    page.wait_for_selector("#lesson[data-ready=true]")
    text_is(page, last["steps"][-1]["key"], lang)
    expect(page.locator('[data-lesson="next"]')).to_be_disabled()


def test_switching_the_language_retells_the_step(page):
    open_lesson(page, "en", "#dfs/1")
    text_is(page, "lesson.dfs.1", "en")
    page.locator("[data-lang-choice=zh]").click()
    text_is(page, "lesson.dfs.1", "zh")
    expect(page.locator("[data-role=title]")).to_have_text(MESSAGES["lesson.dfs.title"]["zh"])


def test_a_race_chapter_shows_two_lanes_and_a_verdict(page):
    open_lesson(page, "en", "#race/2")
    expect(page.locator("[data-side=b]")).to_be_visible()
    expect(page.locator("#w-race-result")).to_be_visible(timeout=60_000)
    expect(page.locator("[data-side=b]")).to_have_attribute("data-status", "found")


def test_racing_through_chapters_ends_on_a_running_demo(page):
    """Keys pressed faster than demos start: the lesson ends where the last key put it."""
    open_lesson(page, "en", "#dfs/4")
    for _ in range(6):  # dfs/4 -> explode6/1, 2 -> explode8/1, 2 -> warnsdorff/1, 2
        page.keyboard.press("PageDown")
    lesson = page.locator("#lesson")
    expect(lesson).to_have_attribute("data-chapter", "warnsdorff")
    expect(lesson).to_have_attribute("data-step", "2")
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("2")
    expect(page.locator("[data-role=error]")).to_be_hidden()
    assert page.locator("[data-side=a]").get_attribute("data-status") != "error"


def test_events_per_second_and_elapsed_time_move_while_a_step_plays(new_page):
    """The lesson's own clock plays its demos: the counters it feeds move as it plays (also
    in the projector view), and the rate drops to 0 once the step stops."""
    page = new_page(viewport={"width": 1920, "height": 1080})
    open_lesson(page, "en", "#dfs/1")
    page.keyboard.press("p")
    expect(page.locator("body")).to_have_attribute("data-projector", "on")
    page.keyboard.press("ArrowRight")  # step 2 plays to event 12 at 2 events per second
    rate = page.locator("[data-side=a] [data-stat=rate]")
    elapsed = page.locator("[data-side=a] [data-stat=elapsed]")
    expect(rate).not_to_have_text("0")
    expect(elapsed).not_to_have_text("0:00")
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("12", timeout=20_000)
    expect(rate).to_have_text("0")
    assert elapsed.inner_text() != "0:00"


# Every counter tile of the visible lanes: whether its label and figure show whole, inside the
# tile, the tile inside its lane; and the figures' boxes.
STAT_TILES = """() => [...document.querySelectorAll('.w-lane:not([hidden]) .w-stats > div')]
.map((tile) => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const [dt, dd] = [tile.querySelector('dt'), tile.querySelector('dd')];
  const lane = tile.closest('.w-lane');
  return {side: lane.dataset.side, label: dt.textContent, figure: dd.textContent,
          whole: dt.scrollWidth <= dt.clientWidth && dd.scrollWidth <= dd.clientWidth,
          inTile: inside(box(dt), box(tile)) && inside(box(dd), box(tile)),
          inLane: inside(box(tile), box(lane)), figureBox: box(dd)};
})"""


def assert_stat_tiles_whole(page, lanes: int) -> list[dict]:
    tiles = page.evaluate(STAT_TILES)
    assert len({tile["side"] for tile in tiles}) == lanes
    for tile in tiles:
        assert tile["label"].strip() and tile["whole"], tile
        assert tile["inTile"] and tile["inLane"], tile
    return tiles


@pytest.mark.parametrize(
    "viewport",
    [
        {"width": 375, "height": 667},
        {"width": 1280, "height": 800},
        {"width": 1920, "height": 1080},
    ],
)
def test_the_race_counters_are_two_separate_labelled_figures(new_page, viewport):
    page = new_page(viewport=viewport)
    open_lesson(page, "en", "#race/2")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found", timeout=60_000)
    if viewport["width"] == 1920:
        page.keyboard.press("p")
        expect(page.locator("body")).to_have_attribute("data-projector", "on")
    tiles = assert_stat_tiles_whole(page, lanes=2)
    nodes = {tile["side"]: tile for tile in tiles if tile["label"] == "Nodes"}
    assert int(nodes["a"]["figure"].replace(",", "")) > 100_000  # the long figures
    a, b = nodes["a"]["figureBox"], nodes["b"]["figureBox"]
    apart = a["right"] < b["left"] or b["right"] < a["left"] or a["bottom"] < b["top"]
    assert apart, nodes
