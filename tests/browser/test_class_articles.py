"""Each article's program as a class room's demo (issue 24), in a real browser: the teacher's
page in Chinese with one phone following. The teacher's code panel switches Java, Python
and C and "as written / corrected", and at 20 sampled events the line it lights is the
statement the article's own program enters or leaves that square by, as the line map
derived from the instrumented program says (tests/articles/line_map.py).
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from server.engine.articles import ARTICLES
from server.engine.board import Board
from server.engine.search import search_events
from tests.articles.line_map import normalise, traced_statements
from tests.articles.test_listings import CASES, PROGRAMS

from .conftest import playwright_sync
from .test_class import PHONE, open_setup, set_range, settled

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

DEMOS = ["a000-java", "a001-python", "a002-java", "a003-c"]  # each article's own program
SAMPLES = 20
REACH = 2_000  # sampled among the first events: every program backtracks well before

# The lit main line's code, its comment left out (the comment is in the page's language).
LIT = """() => {
  const line = document.querySelector('.c-program .w-lit-main');
  if (!line) return null;
  const code = line.cloneNode(true);
  for (const note of code.querySelectorAll('.w-tok-comment')) note.remove();
  return code.textContent;
}"""


# Whether the lit main line shows inside the code's scroll box.
LIT_IN_VIEW = """() => {
  const line = document.querySelector('.c-program .w-lit-main');
  const box = document.querySelector('.c-program .w-code-box');
  if (!line || !box) return false;
  const l = line.getBoundingClientRect(), b = box.getBoundingClientRect();
  return b.height > 0 && l.top >= b.top - 1 && l.bottom <= b.bottom + 1;
}"""


def engine_events(ordering: str) -> list:
    """The first REACH events of the program on its own board, by the engine."""
    article = ARTICLES[ordering]
    board = Board(article.rows, article.cols)
    start = article.start[0] * article.cols + article.start[1]
    return list(islice(search_events(board, start, ordering=ordering), REACH))


def open_class_zh(new_page):
    teacher = new_page(locale="zh-CN")
    teacher.goto("/class/new?lang=zh")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    code = teacher.get_attribute("#class", "data-code")
    phone = new_page(**{**PHONE, "locale": "zh-CN"})
    phone.goto(f"/class/{code}?lang=zh")
    expect(phone.locator("#class")).to_have_attribute("data-connection", "joined")
    return teacher, phone


def run_demo(teacher, ordering: str) -> None:
    """The teacher picks the article's program and starts it, then pauses at its start."""
    set_range(teacher, "#w-speed", 10)  # the last demo's speed was the fastest
    open_setup(teacher)
    gen = int(teacher.get_attribute("#class", "data-gen") or 0)
    teacher.select_option("#w-article", ordering)
    teacher.click("#c-go")
    teacher.wait_for_function("gen => +document.querySelector('#class').dataset.gen > gen", arg=gen)
    expect(teacher.locator(".c-lane")).to_have_attribute("data-algorithm", ordering)
    expect(teacher.locator('[data-action="play"]')).to_be_enabled()
    if teacher.get_attribute("#class", "data-playing") == "true":
        teacher.click('[data-action="play"]')
    settled(teacher)


def play_past(teacher, index: int) -> None:
    """Play the demo fast until it has shown event ``index``, then pause."""
    if int(teacher.get_attribute("#class", "data-pos")) >= index:
        return  # it has (a short demo plays to its end at the last speed)
    set_range(teacher, "#w-speed", 100)
    teacher.click('[data-action="play"]')
    teacher.wait_for_function(
        "i => +document.querySelector('#class').dataset.pos >= i", arg=index, timeout=30_000
    )
    if teacher.get_attribute("#class", "data-playing") == "true":  # else it ended there
        teacher.click('[data-action="play"]')
    settled(teacher)


def switches(teacher, ordering: str) -> None:
    """Java, Python and C, and the corrected twin and back: the panel shows each."""
    panel = teacher.locator(".c-program .w-code-panel")
    article = ARTICLES[ordering]
    twin = next(k for k, a in ARTICLES.items() if a.fixed_of == ordering)
    for language in ("java", "python", "c", article.language):
        tab = panel.locator(f'[data-code="{language}"]')
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        expect(panel.locator(".w-code-line").first).to_be_attached()
    panel.locator('[data-variant="corrected"]').click()
    expect(panel).to_have_attribute("data-ordering", twin)
    expect(panel.locator('[data-variant="corrected"]')).to_have_attribute("aria-pressed", "true")
    panel.locator('[data-variant="written"]').click()
    expect(panel).to_have_attribute("data-ordering", ordering)


def test_each_articles_program_in_a_class_lights_the_line_it_runs(new_page, artifacts):
    teacher, phone = open_class_zh(new_page)
    rng = random.Random(24)
    for ordering in DEMOS:
        run_demo(teacher, ordering)
        teacher.click("#c-tab-code")
        switches(teacher, ordering)
        program, within, _language = CASES[ordering]
        statements = traced_statements(PROGRAMS / program, within)
        events = engine_events(ordering)
        # the last move of a search that ends lights the program's finish instead
        steps = events[:-2] if events[-1].kind not in ("move", "backtrack") else events
        moves = [i for i, e in enumerate(steps, 1) if e.kind == "move"]
        backs = [i for i, e in enumerate(steps, 1) if e.kind == "backtrack"]
        picked = sorted(rng.sample(moves, SAMPLES // 2) + rng.sample(backs, SAMPLES // 2))
        play_past(teacher, picked[-1])  # the seek bar reaches as far as the class has been
        for index in picked:
            set_range(teacher, "#w-seek", index)  # sent within the slider's interval
            expect(teacher.locator("#class")).to_have_attribute("data-target", str(index))
            assert settled(teacher) == index
            expect(teacher.locator("#class")).to_have_attribute("data-pos", str(index))
            kind = events[index - 1].kind  # the event shown: the index-th
            wanted = statements["enter" if kind == "move" else "leave"]
            # the panel lights the lines as the frame that drew the event ends
            teacher.wait_for_function(
                "wanted => { const l = document.querySelector('.c-program .w-lit-main');"
                " return l && wanted.some(w => l.textContent.replace(/\\s+/g, ' ')"
                ".includes(w)); }",
                arg=wanted,
            )
            lit = normalise(teacher.evaluate(LIT))
            assert lit in wanted, (ordering, index, kind, lit, wanted)
        # the phone follows the same demo to the same event
        expect(phone.locator(".c-lane")).to_have_attribute("data-algorithm", ordering)
        expect(phone.locator("#class")).to_have_attribute("data-pos", str(picked[-1]))
        teacher.screenshot(path=str(artifacts / f"class-article-{ordering}-zh.png"))
    phone.screenshot(path=str(artifacts / "class-article-phone-zh.png"))
    # the projector view lays the code out larger: the lit line is still in its box
    teacher.keyboard.press("p")
    expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
    teacher.wait_for_function(LIT_IN_VIEW)
    teacher.screenshot(path=str(artifacts / f"class-article-{DEMOS[-1]}-projector-zh.png"))
    teacher.keyboard.press("Escape")
    # and in English: the same page, its words and the code's comments in English
    teacher.goto(teacher.url.split("?")[0] + "?lang=en")
    expect(teacher.locator(".c-lane")).to_have_attribute("data-algorithm", DEMOS[-1])
    teacher.click("#c-tab-code")
    expect(teacher.locator(".c-program .w-code-panel")).to_have_attribute(
        "data-ordering", DEMOS[-1]
    )
    teacher.screenshot(path=str(artifacts / f"class-article-{DEMOS[-1]}-en.png"))
