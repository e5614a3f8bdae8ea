"""The call-stack panel on /watch, checked against a stack rebuilt from the engine's events.

The panel (static/js/stack/) derives its frames from the path; tests/browser/stackcheck.py
rebuilds them from the candidates each engine Move carries, so the two meet only here.
"""

from __future__ import annotations

import pytest

from .conftest import playwright_sync
from .stackcheck import check_panel, engine_events, rebuild, shown_stack

expect = playwright_sync.expect

pytestmark = pytest.mark.browser


def open_paused(page, query: str) -> int:
    """/watch running the query's search, paused; returns the event index shown."""
    page.goto(f"/watch?lang=en&speed=1&go=1{query}")
    page.wait_for_selector("[data-side=a][data-status=running]")
    page.locator("[data-action=play]").click()
    page.wait_for_selector("[data-side=a][data-status=paused]")
    page.wait_for_function(
        "() => +document.querySelector('[data-side=a] [data-stat=received]')"
        ".textContent.replace(/\\D/g, '') > 100"
    )
    return int(page.locator("[data-side=a] [data-stat=shown]").inner_text().replace(",", ""))


def step(page, action: str) -> None:
    before = page.locator("[data-side=a] [data-stat=shown]").inner_text()
    page.locator(f"[data-action={action}]").click()
    expect(page.locator("[data-side=a] [data-stat=shown]")).not_to_have_text(before)


def walk(page, events, shown: int, forward: int, back: int) -> int:
    """Step forward then back, checking the panel against the rebuild after every event."""
    for _ in range(forward):
        step(page, "step")
        shown += 1
        check_panel(page, rebuild(events, shown))
        last = events[shown - 1]
        popped = page.locator("[data-side=a] [data-role=stack-popped]")
        if last.kind == "backtrack":  # the frame returned from shows above the rows
            expect(popped).to_be_visible()
            assert popped.get_attribute("data-square") == str(last.square)
        else:
            expect(popped).to_be_hidden()
    for _ in range(back):
        step(page, "back")
        shown -= 1
        check_panel(page, rebuild(events, shown))
    return shown


def test_stack_panel_follows_plain_backtracking_forward_40_and_back_15(page):
    shown = open_paused(page, "&rows=6&cols=6&start=0,0&algorithm=seed")
    events = engine_events(6, 6, 0, "seed", shown + 200)
    backtracks = sum(e.kind == "backtrack" for e in events[shown : shown + 40])
    assert backtracks > 3  # the walk crosses backtracks (a start at 0 would not)
    shown = walk(page, events, shown, 40, 15)

    # Scrolled to the bottom, the outermost frames show: the start at step 1.
    page.evaluate(
        "() => { const box = document.querySelector('[data-side=a] [data-role=stack-rows]');"
        " box.scrollTop = box.scrollHeight; box.dispatchEvent(new Event('scroll')); }"
    )
    expected = rebuild(events, shown)
    check_panel(page, expected)
    rows = shown_stack(page)["rows"]
    assert rows[-1]["frame"] == 0 and rows[-1]["square"] == 0


def test_stack_panel_under_warnsdorff_shows_the_onward_counts(page):
    # 5x5 from b5: no tour starts on a light square, so even Warnsdorff backtracks.
    shown = open_paused(page, "&rows=5&cols=5&start=0,1&algorithm=warnsdorff")
    events = engine_events(5, 5, 1, "warnsdorff", shown + 200)
    assert sum(e.kind == "backtrack" for e in events[shown : shown + 40]) > 3
    shown = walk(page, events, shown, 40, 15)
    counts = page.locator("[data-side=a] .st-row:not([hidden]) .st-cand[data-count]")
    assert counts.count() > 0


def test_clicking_a_frame_shows_its_square_and_candidates_on_the_board(page):
    shown = open_paused(page, "&rows=6&cols=6&start=0,0&algorithm=seed")
    for _ in range(8):
        step(page, "step")
    shown += 8
    events = engine_events(6, 6, 0, "seed", shown + 10)
    expected = rebuild(events, shown)
    check_panel(page, expected)
    row = page.locator("[data-side=a] .st-row:not([hidden])").nth(2)
    frame = expected[2]
    row.click()
    expect(row).to_have_attribute("aria-pressed", "true")
    r, c = divmod(frame["square"], 6)
    cell = page.locator(f"[data-side=a] .sq[data-row='{r}'][data-col='{c}']")
    expect(cell).to_have_attribute("data-frame", "true")
    path = {e for e in (f["square"] for f in expected)}
    for sq, state, _count in frame["candidates"]:
        if sq in path:
            continue  # on the path: it shows its move number
        r, c = divmod(sq, 6)
        kind = "tried" if state == "failed" else "candidate"
        expect(
            page.locator(f"[data-side=a] .sq[data-row='{r}'][data-col='{c}']")
        ).to_have_attribute("data-state", kind)
    row.click()  # again: unselected
    expect(cell).not_to_have_attribute("data-frame", "true")


def test_rows_hidden_by_a_shallower_stack_come_back_with_their_frames(page):
    """A pooled row hidden when the stack shrank is refilled when it shows again.

    Found by Show me's test: after a scroll to the root, a search that backs out to its
    root and goes deep again showed rows with no frame (unclickable) and a stale state.
    """
    page.goto("/watch?lang=en")
    rows = page.evaluate(
        """async () => {
          const { StackPanel } = await import('/static/js/stack/panel.js');
          const { createStack, syncStack } = await import('/static/js/stack/state.js');
          const box = document.createElement('div');
          box.innerHTML = document.querySelector('[data-role=stack]').outerHTML;
          box.style.cssText = 'position:fixed;left:0;top:0;width:320px;height:240px';
          document.body.append(box);
          const root = box.firstElementChild;
          root.querySelector('[data-role=stack-rows]').innerHTML = '';
          const panel = new StackPanel(root);
          const stack = createStack({ rows: 8, cols: 8, algorithm: 'warnsdorff', given: 4 });
          panel.use(stack);
          // a knight's walk on 8x8: 0 -> 10 -> 4 -> 14 -> 31 -> 46 -> 63 -> 53 -> 36 -> ...
          const path = [0, 10, 4, 14, 31, 46, 63, 53, 36, 19, 2, 8, 25, 40, 57, 51, 34, 17];
          syncStack(stack, path, path.length);
          panel.draw();
          const scroller = root.querySelector('[data-role=stack-rows]');
          scroller.scrollTop = scroller.scrollHeight;
          panel.draw({ force: true });
          syncStack(stack, path, 5);  // backed out to the search's root
          panel.draw();
          syncStack(stack, path, path.length);  // and deep again
          panel.draw();
          return [...root.querySelectorAll('.st-row:not([hidden])')]
            .map((row) => [row.dataset.frame ?? null, row.dataset.given]);
        }"""
    )
    assert rows
    for frame, given in rows:
        assert frame is not None
        assert given == ("true" if int(frame) < 4 else "false")
