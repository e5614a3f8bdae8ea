"""The board fits phones and desktops without scrolling; screenshots go to test-artifacts/."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Page, expect

from server.i18n import MESSAGES

from .test_play import cell, new_game, open_play, play, tour

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


# ---------------------------------------------------------------- the top bar
PAGES = ["/", "/levels", "/watch", "/lesson", "/lab", "/daily", "/editor", "/class"]

# Every link of the page list: its box, and whether a tap at its centre reaches it.
NAV_LINKS = """() => [...document.querySelectorAll('#site-nav a')].map((a) => {
  const r = a.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {href: a.getAttribute('href'), top: r.top, bottom: r.bottom, left: r.left,
          right: r.right, height: r.height, reached: a.contains(hit),
          whole: a.scrollWidth <= a.clientWidth};
})"""


def menu_expanded(page: Page) -> bool:
    """The menu button's expanded state, as assistive technology reads it."""
    cdp = page.context.new_cdp_session(page)
    try:
        for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
            if node.get("role", {}).get("value") != "button":
                continue
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if "expanded" in props and node.get("name", {}).get("value") in ("Menu", "菜单"):
                return props["expanded"]
    finally:
        cdp.detach()
    raise AssertionError("no menu button in the accessibility tree")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", ["/", "/watch"])
def test_phone_menu_reaches_every_page_in_one_tap(new_page, lang, path):
    page = new_page(**PHONE)
    page.goto(f"{path}?lang={lang}")
    toggle = page.locator(".nav-toggle")
    expect(toggle).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert not menu_expanded(page)
    toggle.tap()
    expect(page.locator("#site-nav")).to_be_visible()
    assert menu_expanded(page)
    links = page.evaluate(NAV_LINKS)
    assert [link["href"] for link in links] == PAGES
    for link in links:
        assert link["top"] >= 0 and link["bottom"] <= 667, link  # on the first screen
        assert link["left"] >= 0 and link["right"] <= 375, link
        assert link["height"] >= 44 and link["reached"] and link["whole"], link
    current = page.locator("#site-nav a[aria-current=page]")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("href", path)

    page.keyboard.press("Escape")  # closes, the focus back on the button
    expect(page.locator("#site-nav")).to_be_hidden()
    assert not menu_expanded(page)
    expect(toggle).to_be_focused()

    toggle.tap()
    page.locator("#site-nav a[href='/class']").tap()  # one tap to any page
    page.wait_for_url("**/class")


def test_desktop_nav_is_a_row_of_links(new_page):
    page = new_page(**DESKTOP)
    page.goto("/watch?lang=zh")
    expect(page.locator(".nav-toggle")).to_be_hidden()
    links = page.evaluate(NAV_LINKS)
    assert [link["href"] for link in links] == PAGES
    bar = page.locator(".topbar").bounding_box()
    for link in links:
        assert link["reached"] and link["whole"], link
        assert bar["y"] <= link["top"] and link["bottom"] <= bar["y"] + bar["height"], link


@pytest.mark.parametrize("width", [375, 600, 800, 1024, 1280])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_top_bar_fits_every_width(new_page, width, lang):
    page = new_page(viewport={"width": width, "height": 700})
    page.goto(f"/watch?lang={lang}")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.topbar > *')]
              .filter((el) => el.getBoundingClientRect().width > 0)
              .map((el) => { const r = el.getBoundingClientRect();
                             return [el.className, r.left, r.right,
                                     el.scrollWidth <= el.clientWidth]; })"""
    )
    assert boxes[0][1] >= 0 and boxes[-1][2] <= width, boxes
    for (_, _, right, _), (name, left, _, _) in itertools.pairwise(boxes):
        assert right <= left, (name, boxes)  # side by side, none over another
    assert all(whole for *_, whole in boxes), boxes


SKIP_TARGETS = {"/": "#board", "/watch": "[data-side=a] [data-role=board]", "/levels": "main"}


@pytest.mark.parametrize("path", SKIP_TARGETS)
def test_the_skip_link_comes_first_and_leads_to_the_board(new_page, path):
    page = new_page(**DESKTOP)
    page.goto(f"{path}?lang=en")
    expect(page.locator("body")).to_have_attribute("data-lang", "en")
    skip = page.locator(".skip-link")
    expect(skip).not_to_be_in_viewport()
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport(ratio=1)
    page.keyboard.press("Enter")
    expect(skip).not_to_be_in_viewport()
    page.keyboard.press("Tab")  # the next stop: inside what the link named
    inside = page.evaluate(
        "(sel) => document.querySelector(sel).contains(document.activeElement)",
        SKIP_TARGETS[path],
    )
    assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")


def focus_ring(page: Page) -> tuple[str, float]:
    return page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_nav_links_and_buttons_show_a_focus_ring(new_page, size):
    page = new_page(**(PHONE if size == "phone" else DESKTOP))
    page.goto("/levels?lang=en")
    if size == "phone":
        page.keyboard.press("Tab")  # the skip link
        page.keyboard.press("Tab")  # the brand
        page.keyboard.press("Tab")
        expect(page.locator(".nav-toggle")).to_be_focused()
        style, width = focus_ring(page)
        assert style != "none" and width >= 2
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
    for _ in PAGES:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#site-nav') !== null")
        style, width = focus_ring(page)
        assert style != "none" and width >= 2, page.evaluate("document.activeElement.href")


NAV_STYLES = """() => [...document.querySelectorAll('#site-nav a')].map((a) => {
  const s = getComputedStyle(a);
  return [a.getAttribute('href'), a.getAttribute('aria-current'),
          `${s.color} ${s.fontWeight} ${s.backgroundColor} ${s.boxShadow}`];
})"""


def assert_one_current(page: Page, href: str) -> None:
    links = page.evaluate(NAV_STYLES)
    assert [h for h, current, _ in links if current == "page"] == [href], links
    shown = {h: style for h, _, style in links}
    others = {style for h, style in shown.items() if h != href}
    assert len(others) == 1 and shown[href] not in others, links  # only it looks current


def test_class_pages_mark_one_nav_item_current(new_page):
    teacher = new_page(**DESKTOP)
    teacher.goto("/class/new?lang=en")
    assert_one_current(teacher, "/class")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    assert_one_current(teacher, "/class")  # the teacher's page is also a page-watch
    code = teacher.get_attribute("#class", "data-code")
    student = new_page(**PHONE)
    student.goto(f"/class/{code}?lang=zh")
    student.locator(".nav-toggle").tap()
    assert_one_current(student, "/class")
    watch = new_page(**DESKTOP)
    watch.goto("/watch?lang=en")
    assert_one_current(watch, "/watch")


# ---------------------------------------------------------------- Play on a phone
# A closed tour of 6x6 (levels.json's "loop-6x6" witness), squares named as the board names them.
CLOSED_6X6 = (
    "a1 b3 a5 c6 e5 f3 e1 d3 f2 d1 b2 a4 b6 c4 d6 f5 e3 f1 "
    "d2 b1 a3 b5 d4 e6 f4 e2 c1 a2 c3 d5 f6 e4 c5 a6 b4 c2"
)


def on_screen(page: Page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= innerHeight; }""",
        selector,
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_closed_tour_shows_the_jump_back_with_the_board(new_page, lang):
    """The closed-tour challenge is not over when every square is visited: the line saying to
    jump back onto the start shows then, with the whole board, without scrolling."""
    page = new_page(**PHONE)
    open_play(page, f"/?lang={lang}")
    new_game(page, "6x6", closed=True)  # the setup form is under the board on a phone
    for name in CLOSED_6X6.split():
        target = cell(page, 6 - int(name[1]), ord(name[0]) - ord("a"))
        target.tap()
        expect(target).to_have_attribute("data-state", "current")
    status = page.locator("#status-text")
    expect(status).to_have_text(MESSAGES["status.playing.return"][lang])
    assert on_screen(page, "#status-text") and on_screen(page, "#board")
    start = cell(page, 5, 0)
    start.tap()
    expect(page.locator("#board")).to_have_attribute("data-status", "won")


# The visible buttons of a toolbar: each label's lines (a Range's line boxes), whether the
# button shows it whole, and its box.
TOOLBAR = """(sel) => [...document.querySelectorAll(`${sel} .btn`)].filter((b) => b.offsetParent)
  .map((b) => {
    const label = b.querySelector('[data-i18n]') ?? b;
    const range = document.createRange();
    range.selectNodeContents(label);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    const r = b.getBoundingClientRect();
    return {text: label.textContent.trim(), lines, whole: b.scrollWidth <= b.clientWidth,
            left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  })"""


def assert_toolbar_labels_whole(page: Page, selector: str, width: int) -> list[dict]:
    buttons = page.evaluate(TOOLBAR, selector)
    assert buttons
    for button in buttons:
        assert button["lines"] == 1 and button["whole"], button
        assert button["left"] >= 0 and button["right"] <= width, button
    for a, b in itertools.combinations(buttons, 2):
        apart = (
            a["right"] <= b["left"]
            or b["right"] <= a["left"]
            or a["bottom"] <= b["top"]
            or b["bottom"] <= a["top"]
        )
        assert apart, (a, b)
    return buttons


@pytest.mark.parametrize("width", [320, 375])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_toolbar_labels_never_break_inside_a_word(new_page, lang, width):
    page = new_page(**{**PHONE, "viewport": {"width": width, "height": 667}})
    open_play(page, f"/?lang={lang}&level=step-3x4")  # a new level: every button shows
    expect(page.locator('.controls [data-action="random"]')).to_be_visible()
    buttons = assert_toolbar_labels_whole(page, ".controls", width)
    assert len(buttons) == 6


# The win dialog's box, and every button and link in it, and whether the dialog scrolls.
WIN_PARTS = """() => {
  const dialog = document.querySelector('#win');
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const parts = [...dialog.querySelectorAll('.btn, a, button')].filter((el) => el.offsetParent)
    .map((el) => ({id: el.id || el.textContent.trim(), ...box(el),
                   whole: el.scrollWidth <= el.clientWidth}));
  return {dialog: box(dialog), parts,
          scrolls: dialog.scrollHeight > dialog.clientHeight,
          sideways: dialog.scrollWidth > dialog.clientWidth};
}"""


def assert_win_dialog_holds_its_parts(page: Page) -> list[dict]:
    """Every button and link whole inside the dialog's box, none touching another."""
    win = page.evaluate(WIN_PARTS)
    assert not win["scrolls"] and not win["sideways"], win
    frame = win["dialog"]
    for part in win["parts"]:
        assert part["whole"], part
        assert frame["left"] <= part["left"] and part["right"] <= frame["right"], part
        assert frame["top"] <= part["top"] and part["bottom"] <= frame["bottom"], part
    gap = 4  # px between two buttons at least
    for a, b in itertools.combinations(win["parts"], 2):
        apart = (
            a["right"] + gap <= b["left"]
            or b["right"] + gap <= a["left"]
            or a["bottom"] + gap <= b["top"]
            or b["bottom"] + gap <= a["top"]
        )
        assert apart, (a, b)
    return win["parts"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_win_dialog_keeps_the_replay_link_inside(new_page, lang):
    page = new_page(**PHONE)
    open_play(page, f"/?lang={lang}")
    game = page.evaluate(
        """async () => {
            const post = (url, body) => fetch(url, {method: 'POST', body: JSON.stringify(body),
              headers: {'Content-Type': 'application/json'}}).then((r) => r.json());
            return post('/api/games', {rows: 5, cols: 5, closed: false});
        }"""
    )
    for row, col in tour(5, 5, (0, 0))[:-1]:
        page.evaluate(
            """([id, row, col]) => fetch(`/api/games/${id}/moves`, {method: 'POST',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({row, col})})""",
            [game["id"], row, col],
        )
    page.evaluate("id => localStorage.setItem('knights-tour.game', id)", game["id"])
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    last = tour(5, 5, (0, 0))[-1]
    cell(page, *last).tap()
    expect(page.locator("#win")).to_be_visible()
    page.locator("#share-replay").tap()
    expect(page.locator("#share-link")).to_be_visible()
    parts = assert_win_dialog_holds_its_parts(page)
    assert "share-link" in [part["id"] for part in parts]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_toolbar_of_a_game_under_way_is_one_row(new_page, lang):
    page = new_page(**PHONE)
    open_play(page, f"/?lang={lang}")
    play_opening(page, tap=True)
    page.locator('.controls [data-action="hint"]').tap()
    expect(page.locator('.controls [data-action="hint"]')).to_contain_text("1")
    buttons = assert_toolbar_labels_whole(page, ".controls", 375)
    assert len(buttons) == 5 and len({round(b["top"]) for b in buttons}) == 1, buttons


def test_a_level_played_marks_levels_current(new_page):
    page = new_page(**DESKTOP)
    page.goto("/?lang=en&level=step-3x4")
    assert_one_current(page, "/levels")
    page.goto("/?lang=en")
    assert_one_current(page, "/")
