"""The teacher's presenter view, measured: what must be on one screen once the demo runs.

``check_presenter(page, panel)`` reads the bounding boxes of the presenter's parts in the
page (one evaluate) and asserts that each is inside the viewport, that no two overlap, that
the parts that matter are not scrolled out of their panel, that the page does not scroll,
and that no title is wider than its column or wraps (a heading is one line).
"""

from __future__ import annotations

# The presenter's blocks: none may overlap another. Hidden ones (a lesson not running) are
# left out; those in REQUIRED must be shown.
BLOCKS = {
    "room": ".c-room",
    "board": ".c-lane .w-board",
    "head": ".c-lane .w-lane-head",
    "narration": ".c-lane .w-narration",
    "lesson": "#c-lesson",
    "transport": ".w-transport",
    "stats": ".c-lane .w-stats",
    "tabs": ".c-panel-tabs",
    "quiz": "#c-quiz",
    "leaderboard": "#c-puzzle",
}
REQUIRED = {"room", "board", "head", "narration", "transport", "tabs"}

# Parts that must show whole, inside their block (not scrolled out of a panel).
PARTS = {
    "code": ("#c-code", "room"),
    "link": ("#c-join-url", "room"),
    "students": ("#c-students", "room"),
    "back": ('[data-action="back"]', "transport"),
    "play": ('[data-action="play"]', "transport"),
    "step": ('[data-action="step"]', "transport"),
    "end": ('[data-action="end"]', "transport"),
    "speed": ("#w-speed", "transport"),
    "lesson-text": ('#c-lesson [data-role="text"]', "lesson"),
    "lesson-next": ('#c-lesson [data-lesson="next"]', "lesson"),
    "ask": ("#q-ask", "quiz"),
    "reveal": ("#q-reveal", "quiz"),
    "quiz-status": ("#c-quiz .q-status", "quiz"),
    "meter": ("#c-quiz .q-meter", "quiz"),
    "tally": ("#c-quiz .q-distribution", "quiz"),
    "puzzle-now": ("#c-puzzle-now", "leaderboard"),
    "first-solver": ("#c-leaderboard tbody tr:first-child", "leaderboard"),
}

# Titles that must fit their column on one line.
TITLES = [
    ".c-lane .w-lane-title",
    ".c-panel-tabs [role=tab]",
    ".w-projector-btn",
    ".c-setup-summary",
    "#c-lesson [data-role=title]",
    ".c-lesson-steps .btn",
    ".q-actions .btn",
    ".c-room-code",
    ".c-count",
]

MEASURE = """([blocks, parts, titles]) => {
  const shown = (el) => {
    if (!el) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const out = {blocks: {}, parts: {}, titles: [],
               view: {width: innerWidth, height: innerHeight},
               page: {width: document.documentElement.scrollWidth,
                      height: document.documentElement.scrollHeight}};
  for (const [name, selector] of Object.entries(blocks)) {
    const el = document.querySelector(selector);
    out.blocks[name] = shown(el) ? box(el) : null;
  }
  for (const [name, [selector]] of Object.entries(parts)) {
    const el = document.querySelector(selector);
    out.parts[name] = shown(el) ? box(el) : null;
  }
  for (const selector of titles) {
    for (const el of document.querySelectorAll(selector)) {
      if (!shown(el)) continue;
      // its text's lines: text boxes one under another, not side by side
      const rects = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim() || !shown(node.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
      }
      rects.sort((a, b) => a.top - b.top);
      let lines = 0;
      let bottom = -Infinity;
      for (const r of rects) {
        if (r.top >= bottom - 2) lines++;
        bottom = Math.max(bottom, r.bottom);
      }
      out.titles.push({selector, text: el.textContent.trim().slice(0, 40),
                       scroll: el.scrollWidth, client: el.clientWidth, lines});
    }
  }
  return out;
}"""

TOLERANCE = 0.5  # sub-pixel rounding


def measure(page) -> dict:
    return page.evaluate(MEASURE, [BLOCKS, PARTS, TITLES])


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["left"] >= outer["left"] - TOLERANCE
        and inner["top"] >= outer["top"] - TOLERANCE
        and inner["right"] <= outer["right"] + TOLERANCE
        and inner["bottom"] <= outer["bottom"] + TOLERANCE
    )


def overlap(a: dict, b: dict) -> float:
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


def check_presenter(
    page, panel: str | None, *, lesson: bool = False, parts: tuple = (), where: str = ""
) -> dict:
    """Assert the presenter view's geometry; ``panel`` is "quiz", "leaderboard" or None;
    ``parts`` (names in PARTS) must be shown."""
    got = measure(page)
    absent = [name for name in parts if got["parts"][name] is None]
    assert not absent, f"{where}: not shown: {absent}"
    view = {"left": 0, "top": 0, "right": got["view"]["width"], "bottom": got["view"]["height"]}
    blocks = {name: b for name, b in got["blocks"].items() if b is not None}
    needed = REQUIRED | ({panel} if panel else set()) | ({"lesson"} if lesson else set())
    missing = needed - blocks.keys()
    assert not missing, f"{where}: not shown: {sorted(missing)}"
    if panel:
        other = {"quiz": "leaderboard", "leaderboard": "quiz"}[panel]
        assert other not in blocks, f"{where}: {other} shown with {panel}"
    for name, b in blocks.items():
        assert inside(b, view), f"{where}: {name} leaves the viewport: {b} {got['view']}"
    names = sorted(blocks)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            area = overlap(blocks[a], blocks[b])
            assert area < 1, f"{where}: {a} and {b} overlap ({area:.0f} px²)"
    for name, (_, block) in PARTS.items():
        part = got["parts"][name]
        if block not in needed or part is None:
            continue
        assert inside(part, blocks[block]), (
            f"{where}: {name} is not shown whole in {block}: {part} in {blocks[block]}; "
            f"{ {k: round(v['bottom'] - v['top']) for k, v in blocks.items()} }"
        )
        assert inside(part, view), f"{where}: {name} leaves the viewport"
    assert got["page"]["height"] <= got["view"]["height"], f"{where}: the page scrolls"
    assert got["page"]["width"] <= got["view"]["width"], f"{where}: the page is too wide"
    for title in got["titles"]:
        assert title["scroll"] <= title["client"] + 1, f"{where}: {title} is cut"
        assert title["lines"] == 1, f"{where}: {title} wraps"
    return got
