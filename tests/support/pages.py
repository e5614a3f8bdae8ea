"""Pages put in a fixed state through the JSON API, for the browser tests that look at whole
pages (tests/browser/test_screens.py takes their pictures, test_a11y.py runs axe on them).

Each helper drives a Playwright page the way a visitor would get there (a game made through
the API is opened as a reload would open it) and waits for the page to say it is ready.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

SIZES = {
    "phone": {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
SQUARE = '{board} .sq[data-row="{row}"][data-col="{col}"]'


def api(page, method: str, path: str, body: dict | None = None) -> dict:
    """The JSON API called from the page (its origin, its cookies)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const init = {method, headers: {"Content-Type": "application/json"}};
            if (body) init.body = JSON.stringify(body);
            return (await fetch(path, init)).json();
        }""",
        [method, path, body],
    )


def play_page(page, rows: int, moves, lang: str = "en") -> None:
    """A Play game made through the API, then opened as a reload would."""
    page.goto(f"/?lang={lang}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    game = api(page, "POST", "/api/games", {"rows": rows, "cols": rows, "closed": False})
    for row, col in moves:
        api(page, "POST", f"/api/games/{game['id']}/moves", {"row": row, "col": col})
    page.evaluate("id => localStorage.setItem('knights-tour.game', id)", game["id"])
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def won_puzzle_replay(page, code: str, witness) -> str:
    """A game of puzzle ``code`` won through the API by ``witness`` (``(puzzle, squares)``
    from tests/witness.py, checked there: the support imports no test); its replay id."""
    puzzle, squares = witness
    game = api(page, "POST", "/api/games", {"puzzle": code})
    cols = puzzle.shape.cols
    for sq in squares:
        row, col = divmod(sq, cols)
        game = api(page, "POST", f"/api/games/{game['id']}/moves", {"row": row, "col": col})
    assert game["status"] == "won", game["status"]
    return api(page, "POST", f"/api/games/{game['id']}/replay", {})["id"]


def stat(page, name: str) -> int:
    text = page.locator(f"[data-side=a] [data-stat={name}]").text_content()
    return int(re.sub(r"\D", "", text) or 0)


def watch_at(page, query: str, shown: int, lang: str = "en") -> None:
    """The Watch page paused after exactly ``shown`` events."""
    page.goto(f"/watch?lang={lang}{query}&speed=1&go=1")
    page.wait_for_selector("[data-side=a][data-status=running]")
    page.click("[data-action=play]")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [data-stat=received]').textContent !== '0'"
    )
    for _ in range(200):
        now = stat(page, "shown")
        if now == shown:
            return
        page.click("[data-action=step]" if now < shown else "[data-action=back]")
    raise AssertionError("could not reach the position")


def open_class_page(teacher, lang: str = "en") -> str:
    """A class opened from /class/new on the teacher's page; the room's code."""
    teacher.goto(f"/class/new?lang={lang}")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    return teacher.get_attribute("#class", "data-code")


def start_class_demo(teacher, preset: str = "6×6") -> None:
    """The teacher's demo started on a ``preset`` board from its top left corner."""
    teacher.locator("label.chip", has_text=preset).click()
    teacher.click(SQUARE.format(board=".c-lane", row=0, col=0))
    teacher.click("#c-go")


SET_RANGE = """(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));
                             el.dispatchEvent(new Event('change', {bubbles: true})); }"""


def pause_class_demo(teacher, preset: str, algorithm: str, speed: int, at_least: int) -> None:
    """The teacher's demo of ``algorithm`` on a ``preset`` board from its top left corner,
    played at the speed slider's step ``speed``, then paused once it reached ``at_least``
    events, every control answered."""
    teacher.locator("label.chip", has_text=preset).click()
    teacher.check(f'input[name="algorithm"][value="{algorithm}"]', force=True)
    teacher.click(SQUARE.format(board=".c-lane", row=0, col=0))
    teacher.eval_on_selector("#w-speed", SET_RANGE, speed)
    teacher.click("#c-go")
    teacher.wait_for_function(f"() => +document.querySelector('#class').dataset.pos >= {at_least}")
    teacher.click('[data-action="play"]')  # pause
    expect(teacher.locator("#class")).to_have_attribute("data-pending", "0")
