"""axe-core on every page, in both languages, at a phone's size and a desktop's: no serious
or critical violation.

axe-core is an npm devDependency (package.json), injected into each page by the test only
(the app never serves it). Each page is first put in a state that shows what a visitor
sees: a game under way, a search running, a class following its teacher's demo, a won
game's replay. One browser context per case; the pages are visited in sequence in it
(the class's student page is a second tab of the same browser).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine.board import Board
from server.engine.search import solve
from tests.support.pages import (
    SIZES,
    api,
    open_class_page,
    play_page,
    start_class_demo,
    won_puzzle_replay,
)
from tests.witness import checked_witness

from .conftest import ROOT, playwright_sync
from .test_practice import CARD, asked, switch_on

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
PLAY_OPENING = [(7, 0), (5, 1), (3, 0), (1, 1), (0, 3)]
PUZZLE = "6x6:a1,a6,c3,c4.o"
SLOW = """el => { el.value = 20; el.dispatchEvent(new Event('input', {bubbles: true}));
                  el.dispatchEvent(new Event('change', {bubbles: true})); }"""
# The violations of one page: what axe found, where, and how to fix it.
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((node) => {
      const data = node.any[0]?.data;
      const colours = data?.contrastRatio
        ? ` (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio})`
        : "";
      return node.target.join(" ") + colours;
    }),
  }));
}"""


def audit(page, name: str, found: dict[str, list]) -> None:
    """Run axe on ``page`` as it stands; its serious and critical violations go in ``found``."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    violations = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
    if violations:
        found[name] = violations


def report(found: dict[str, list]) -> str:
    lines = []
    for name, violations in found.items():
        lines.append(f"{name}:")
        for v in violations:
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
            lines.extend(f"    {target}" for target in v["targets"][:12])
            if len(v["targets"]) > 12:
                lines.append(f"    ... and {len(v['targets']) - 12} more")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def axe_script() -> Path:
    assert AXE.exists(), "axe-core is missing: npm ci installs it (package.json)"
    return AXE


# Each language, size and colour scheme once (pairwise): axe's rules see what a page has and
# how it is coloured, and every word exists in both languages (tests/test_i18n.py), so a
# language does not change what a size or a scheme shows. Four runs of every page cost a
# minute and a half of the suite on two cores.
CASES = [
    ("zh", "phone", "light"),
    ("en", "desktop", "dark"),
]


@pytest.mark.parametrize("lang, size, scheme", CASES)
def test_no_serious_violation_on_any_page(new_page, axe_script, lang, size, scheme):
    # bypass_csp: axe goes in as an inline script
    page = new_page(**SIZES[size], color_scheme=scheme, bypass_csp=True)
    found: dict[str, list] = {}
    ready = page.locator("body")

    def visit(path: str) -> None:
        sep = "&" if "?" in path else "?"
        page.goto(f"{path}{sep}lang={lang}")

    play_page(page, 8, PLAY_OPENING, lang)
    page.click('.controls [data-action="hint"]')
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(1)
    audit(page, "/ (a game under way, a hint shown)", found)

    first = api(page, "GET", "/api/levels")["chapters"][0]["levels"][0]
    visit(f"/?level={first['id']}")
    expect(ready).to_have_attribute("data-ready", "true")
    audit(page, f"/?level={first['id']}", found)

    visit("/levels")
    expect(ready).to_have_attribute("data-ready", "true")
    audit(page, "/levels", found)

    visit("/daily")
    expect(page.locator("#daily-start")).not_to_be_empty()
    audit(page, "/daily", found)

    visit("/watch?rows=6&cols=6&start=0,0&algorithm=warnsdorff&speed=10&go=1")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "running")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] .sq[data-state=candidate]') !== null"
    )
    audit(page, "/watch (a search running)", found)

    visit("/watch?test&rows=6&cols=6&start=0,0&algorithm=seed&speed=20&go=1")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "running")
    switch_on(page, kinds=["onward"])
    asked(page, "onward")
    audit(page, "/watch (a practice question on the pad)", found)
    page.locator(f"{CARD} .q-pad-choice").first.click()
    expect(page.locator(CARD)).to_have_attribute("data-state", "answered")
    audit(page, "/watch (a practice answer and its why)", found)

    visit("/lesson")
    expect(page.locator("#lesson")).to_have_attribute("data-ready", "true")
    audit(page, "/lesson", found)

    visit("/editor?puzzle=8x8:d4,e5,a8.c")
    expect(page.locator("#editor")).to_have_attribute("data-ready", "true")
    expect(page.locator("#verdict")).to_have_attribute("data-code", "colour")
    audit(page, "/editor", found)

    visit("/lab")
    expect(page.locator("#lab")).to_have_attribute("data-ready", "true")
    audit(page, "/lab", found)

    visit("/class")
    audit(page, "/class", found)

    code = open_class_page(page, lang)  # /class/new, then its form opens a room
    page.eval_on_selector("#w-speed", SLOW)  # 6 events a second: running while it is read
    start_class_demo(page)
    page.wait_for_function("() => +document.querySelector('#class').dataset.pos >= 3")
    audit(page, "/class/<code>/teach (a demo running)", found)
    student = page.context.new_page()
    student.goto(f"/class/{code}?lang={lang}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    student.wait_for_function("() => +document.querySelector('#class').dataset.pos >= 3")
    audit(student, "/class/<code> (following the demo)", found)
    student.close()

    visit("/class/new")
    audit(page, "/class/new", found)

    replay = won_puzzle_replay(page, PUZZLE, checked_witness(PUZZLE))
    visit(f"/replay/{replay}")
    expect(page.locator("#replay-page")).not_to_have_attribute("data-state", "loading")
    audit(page, "/replay/<id>", found)

    visit(f"/worksheet?puzzle={PUZZLE}")
    audit(page, "/worksheet", found)

    play_page(page, 5, [divmod(sq, 5) for sq in solve(Board(5, 5), 0).tour], lang)
    expect(page.locator("#win")).to_be_visible()
    audit(page, "/ (the win dialog)", found)

    assert not found, f"axe ({lang}, {size}, {scheme}):\n{report(found)}"
