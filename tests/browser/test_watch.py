"""The Watch page (/watch) in a real chromium against the real app and Socket.IO stream.

Every counter the page shows is checked against the engine's own count for the same
input (:func:`server.engine.search.solve`), and stepping is checked to move the board and
the counters by exactly one event.
"""

from __future__ import annotations

import re

import pytest

from server.engine.board import Board
from server.engine.search import search_events, solve
from server.stream import spec

from .conftest import playwright_sync
from .test_lesson import assert_stat_tiles_whole

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 667}
LANE = "[data-side={side}]"
STATS = ("nodes", "backtracks", "depth", "max-depth", "shown", "received")


def stats(page, side: str = "a") -> dict[str, int]:
    """The lane's counters as ints (thousands separators dropped)."""
    raw = page.evaluate(
        """(side) => Object.fromEntries(
              [...document.querySelectorAll(`[data-side=${side}] [data-stat]`)]
                .map((el) => [el.dataset.stat, el.textContent]))""",
        side,
    )
    return {name: int(re.sub(r"\D", "", raw[name])) for name in STATS}


def board(page, side: str = "a") -> dict[tuple[int, int], tuple[str, str]]:
    """(row, col) -> (data-state, text) for every square of the lane's board."""
    cells = page.evaluate(
        """(side) => [...document.querySelectorAll(`[data-side=${side}] .sq`)].map(
              (el) => [+el.dataset.row, +el.dataset.col, el.dataset.state, el.textContent])""",
        side,
    )
    return {(r, c): (state, text) for r, c, state, text in cells}


def path_squares(cells) -> dict[tuple[int, int], int]:
    """The squares on the knight's path with their move numbers."""
    return {rc: int(text) for rc, (state, text) in cells.items() if state in ("visited", "current")}


# JavaScript: the credit lane a's run has granted the server so far (a page opened with
# ?test; the lane's feed is lane.run.feed once the lane holds its run apart), and the
# events its counter says it has received.
GRANTED = "(window.testHook.lanes[0].run?.feed ?? window.testHook.lanes[0].feed).run.granted"
RECEIVED = (
    "+document.querySelector('[data-side=a] [data-stat=received]').textContent.replace(/\\D/g, '')"
)


def wait_status(page, status: str, side: str = "a", timeout: float = 30_000) -> None:
    page.wait_for_selector(f"{LANE.format(side=side)}[data-status={status}]", timeout=timeout)


def open_watch(page, query: str = "") -> None:
    page.goto(f"/watch?lang=en{query}")
    page.wait_for_selector("#watch[data-ready=true]")


def test_watch_page_is_served_bilingual(page):
    page.goto("/watch?lang=zh")
    assert page.locator("h1").inner_text() == "观看搜索"
    assert page.locator("[data-side=a] [role=status]").count() == 1
    page.goto("/watch?lang=en")
    assert page.locator("h1").inner_text() == "Watch the search"


def test_seed_5x5_from_a_corner_to_the_end_matches_the_engine(page):
    """Set up through the form, watch at full speed: the final counters are the engine's."""
    open_watch(page)
    page.locator("label.chip", has_text="5×5").click()
    page.locator("label.chip", has_text="Plain backtracking").click()
    page.locator("[data-side=a] .sq[data-row='0'][data-col='0']").click()
    assert page.locator("#w-start-name").inner_text() == "a5"
    page.locator("#w-speed").fill("100")  # the slider's last step: as fast as it can draw
    page.locator("#w-go").click()
    wait_status(page, "found")

    expected = solve(Board(5, 5), 0, ordering="seed")
    counters = stats(page)
    assert counters["nodes"] == expected.nodes
    assert counters["backtracks"] == expected.backtracks
    assert counters["depth"] == counters["max-depth"] == 25
    assert counters["shown"] == counters["received"] == expected.nodes + expected.backtracks
    # The board shows the engine's tour, numbered in order.
    tour = {divmod(sq, 5): i + 1 for i, sq in enumerate(expected.tour)}
    assert path_squares(board(page)) == tour
    lane = page.locator("[data-side=a]")
    assert lane.get_attribute("data-server-nodes") == str(expected.nodes)
    narration = page.locator("[data-side=a] [role=status]").inner_text()
    assert "Tour found" in narration and f"{expected.nodes}" in narration


def test_a_lane_asks_for_the_servers_node_cap_read_from_the_page(page):
    """The lane's run is bounded by spec's cap, which reaches it through <body data-limits>."""
    open_watch(page, "&test&rows=5&cols=5&speed=1&go=1")
    wait_status(page, "running")
    page_cap, asked = page.evaluate(
        """() => [JSON.parse(document.body.dataset.limits).search_nodes,
                  window.testHook.lanes[0].run.ack.node_budget]"""
    )
    assert page_cap == asked == spec.MAX_NODE_BUDGET


def test_pause_step_and_step_back_move_by_exactly_one_event(page):
    open_watch(page, "&test&rows=6&cols=6&start=0,0&algorithm=seed&speed=1&go=1")
    wait_status(page, "running")
    page.locator("[data-action=play]").click()  # pause
    wait_status(page, "paused")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [data-stat=received]').textContent !== '0'"
    )

    # Replay the engine's own stream next to the page.
    events = search_events(Board(6, 6), 0, ordering="seed")
    before = stats(page)
    done = before["shown"]
    expected_path: list[int] = []
    for _ in range(done):
        event = next(events)
        if event.kind == "move":
            expected_path.append(event.square)
        else:
            expected_path.pop()
    assert path_squares(board(page)) == {divmod(sq, 6): i + 1 for i, sq in enumerate(expected_path)}

    history = [(before, board(page))]
    for _ in range(30):  # long enough to cross several backtracks
        page.locator("[data-action=step]").click()
        after = stats(page)
        cells = board(page)
        prev_stats, prev_cells = history[-1]
        assert after["shown"] == prev_stats["shown"] + 1
        event = next(events)
        if event.kind == "move":
            expected_path.append(event.square)
            assert after["nodes"] == prev_stats["nodes"] + 1
            assert after["backtracks"] == prev_stats["backtracks"]
            assert after["depth"] == prev_stats["depth"] + 1
        else:
            expected_path.pop()
            assert after["backtracks"] == prev_stats["backtracks"] + 1
            assert after["nodes"] == prev_stats["nodes"]
            assert after["depth"] == prev_stats["depth"] - 1
            assert cells[divmod(event.square, 6)][0] == "dead"  # the abandoned square flashes
        before_path = path_squares(prev_cells)
        now_path = path_squares(cells)
        assert len(set(before_path.items()) ^ set(now_path.items())) == 1
        assert now_path == {divmod(sq, 6): i + 1 for i, sq in enumerate(expected_path)}
        history.append((after, cells))

    for prev_stats, prev_cells in reversed(history[:-1]):
        page.locator("[data-action=back]").click()
        assert stats(page) == {**prev_stats, "received": stats(page)["received"]}
        assert path_squares(board(page)) == path_squares(prev_cells)

    # Paused, the viewer grants no more credit: the server sends what it was granted, then
    # waits (and stops searching). Once the lane has received all of it, nothing else may come.
    granted = page.evaluate(f"() => {GRANTED}")
    page.wait_for_function(f"() => {RECEIVED} >= {GRANTED}")
    received = stats(page)["received"]
    assert received == granted == page.evaluate(f"() => {GRANTED}")
    assert received - stats(page)["shown"] <= 20_000


def test_narration_names_the_square_and_its_onward_moves(page):
    open_watch(page, "&rows=5&cols=5&start=4,0&algorithm=warnsdorff&speed=1&go=1")
    wait_status(page, "running")
    page.locator("[data-action=play]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [data-stat=received]').textContent !== '0'"
    )
    shown = stats(page)["shown"]
    status = page.locator("[data-side=a] [role=status]")
    stream = list(search_events(Board(5, 5), 20, ordering="warnsdorff"))
    for _ in range(2 - min(shown, 2)):
        page.locator("[data-action=step]").click()
    shown = stats(page)["shown"]
    event = stream[shown - 1]
    assert event.kind == "move"
    board5 = Board(5, 5)
    n = event.onward[event.candidates.index(event.square)]
    word = "move" if n == 1 else "moves"
    assert status.inner_text() == f"Try {board5.name(event.square)} ({n} onward {word})."
    # Candidates carry their onward counts (the Warnsdorff numbers).
    cells = board(page)
    for sq, count in zip(event.candidates, event.onward, strict=True):
        state, text = cells[divmod(sq, 5)]
        if sq != event.square:
            assert state in ("candidate", "tried") and text == str(count)
    page.locator("[data-lang-choice=zh]").click()
    page.wait_for_function("() => document.body.dataset.lang === 'zh'")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [role=status]').textContent.startsWith('试 ')"
    )
    assert status.inner_text() == f"试 {board5.name(event.square)}（{n} 个后续走法）。"


def test_race_mode_finishes_both_sides(page):
    open_watch(page)
    page.locator("label.chip", has_text="6×6").click()
    page.locator("label.w-switch", has_text="Race mode").click()
    page.locator("#w-algo-b").select_option("warnsdorff")
    page.locator("[data-side=a] .sq[data-row='0'][data-col='0']").click()
    page.locator("#w-speed").fill("100")
    page.locator("#w-go").click()
    wait_status(page, "found", "b")
    wait_status(page, "found", "a", timeout=60_000)
    for side, ordering in (("a", "seed"), ("b", "warnsdorff")):
        expected = solve(Board(6, 6), 0, ordering=ordering)
        counters = stats(page, side)
        assert (counters["nodes"], counters["backtracks"]) == (
            expected.nodes,
            expected.backtracks,
        )
    result = page.locator("#w-race-result")
    assert result.is_visible() and "Warnsdorff" in result.inner_text()
    assert page.locator("[data-side=b]").get_attribute("data-winner") == "true"


@pytest.mark.parametrize(
    ("name", "viewport", "query", "shown"),
    [
        ("watch-desktop", None, "&rows=5&cols=5&start=4,0&algorithm=warnsdorff&speed=4&go=1", 10),
        ("watch-phone", PHONE, "&rows=5&cols=5&start=4,0&algorithm=warnsdorff&speed=4&go=1", 10),
        ("watch-race", None, "&rows=6&cols=6&start=0,0&b=warnsdorff&speed=60&go=1", 150),
        ("watch-race-phone", PHONE, "&rows=6&cols=6&start=0,0&b=warnsdorff&speed=60&go=1", 150),
    ],
)
def test_screenshots(new_page, artifacts, name, viewport, query, shown):
    page = new_page(**({"viewport": viewport, "has_touch": True} if viewport else {}))
    open_watch(page, query)
    wait_status(page, "running")
    # a picture of the search under way: the lane has drawn this many events
    page.wait_for_function(
        """(shown) => +document.querySelector('[data-side=a] [data-stat=shown]')
              .textContent.replace(/\\D/g, '') >= shown""",
        arg=shown,
    )
    page.screenshot(path=str(artifacts / f"{name}.png"))
    # Nothing spills sideways on a phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_phone_transport_covers_a_fifth_of_the_screen_at_most(new_page, lang):
    """The transport stays on a phone's screen: one row of buttons over the speed; the
    heat map and projector switches are on the page, outside it."""
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(f"/watch?lang={lang}&rows=6&cols=6&start=0,0&algorithm=warnsdorff&speed=1&go=1")
    wait_status(page, "running")
    bar = page.evaluate(
        """() => {
            const bar = document.querySelector('.w-transport');
            const buttons = [...bar.querySelectorAll('.btn')].map((b) => b.getBoundingClientRect());
            return {position: getComputedStyle(bar).position,
                    covered: innerHeight - bar.getBoundingClientRect().top,
                    heights: buttons.map((b) => b.height),
                    rows: new Set(buttons.map((b) => Math.round(b.top))).size};
        }"""
    )
    assert bar["position"] == "fixed"
    assert bar["covered"] <= PHONE["height"] / 5, bar
    assert len(bar["heights"]) == 5 and min(bar["heights"]) >= 44 and bar["rows"] == 1, bar
    expect(
        page.locator(".w-transport .w-heat-toggle, .w-transport .w-projector-btn")
    ).to_have_count(0)
    page.locator("label.w-heat-toggle").tap()
    expect(page.locator("[data-side=a] .board")).to_have_attribute("data-heat", "true")


@pytest.mark.parametrize("race", [False, True])
@pytest.mark.parametrize("width", [320, 375])
def test_counter_labels_and_figures_show_whole_on_a_phone(new_page, width, race):
    page = new_page(viewport={"width": width, "height": 667}, is_mobile=True, has_touch=True)
    query = "&b=warnsdorff" if race else "&algorithm=warnsdorff"
    open_watch(page, f"&rows=6&cols=6&start=0,0{query}&speed=max&go=1")
    wait_status(page, "found", "a", timeout=60_000)
    assert_stat_tiles_whole(page, lanes=2 if race else 1)


CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_code_panel_speaks_the_page_language_and_cuts_no_line(new_page, lang):
    page = new_page()  # 1280x800: the side column's width
    page.goto(f"/watch?lang={lang}&rows=6&cols=6&start=0,0&algorithm=warnsdorff&speed=1&go=1")
    wait_status(page, "running")
    code = page.locator(".w-code")
    for tab in ("Python", "Java"):
        page.locator(".w-tabs button", has_text=tab).click()
        expect(page.locator(".w-tabs button", has_text=tab)).to_have_attribute(
            "aria-selected", "true"
        )
        text = code.inner_text()
        if lang == "en":
            assert not CJK.findall(text), [line for line in text.splitlines() if CJK.search(line)]
        else:
            assert "深度优先搜索" in text  # the teachers' comments stay in Chinese
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.w-code-line')]
                  .filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent)"""
        )
        assert cut == []
        assert page.evaluate(
            "() => { const b = document.querySelector('.w-code-box');"
            " return b.scrollWidth <= b.clientWidth; }"
        )


def test_heat_map_and_a_larger_board(page, artifacts):
    """8x8 Warnsdorff at full speed, then the heat map of how often each square was entered."""
    open_watch(page, "&rows=8&cols=8&start=7,0&algorithm=warnsdorff&speed=max&go=1")
    wait_status(page, "found")
    expected = solve(Board(8, 8), 56, ordering="warnsdorff")
    counters = stats(page)
    assert (counters["nodes"], counters["backtracks"]) == (expected.nodes, expected.backtracks)
    page.locator("label.w-heat-toggle").click()
    board_el = page.locator("[data-side=a] .board")
    expect(board_el).to_have_attribute("data-heat", "true")
    # the heat canvas has painted (some pixel of it is not transparent), and the switch has
    # finished sliding over (its CSS transitions are no longer running)
    page.wait_for_function(
        """() => { const c = document.querySelector('[data-side=a] .board-heat');
              const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
              const track = document.querySelector('label.w-heat-toggle .w-switch-track');
              return data.some((value, i) => i % 4 === 3 && value > 0)
                  && track.getAnimations({ subtree: true }).length === 0; }"""
    )
    page.screenshot(path=str(artifacts / "watch-heat.png"))
    page.locator("label.w-heat-toggle").click()
    expect(board_el).not_to_have_attribute("data-heat", "true")


def test_jump_to_the_end_of_6x6_seed_shows_the_final_state_then_steps_back(page):
    """⏭ asks the server for the end: the final board and counters as the engine's, then
    stepping back moves by exactly one event, and past what the page holds it asks again."""
    open_watch(page, "&rows=6&cols=6&start=0,0&algorithm=seed&speed=10&go=1")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [data-stat=received]').textContent !== '0'"
    )
    page.locator("[data-action=end]").click()
    wait_status(page, "found")
    expected = solve(Board(6, 6), 0)
    total = expected.nodes + expected.backtracks
    shown = stats(page)
    assert (shown["nodes"], shown["backtracks"]) == (expected.nodes, expected.backtracks)
    assert (shown["shown"], shown["depth"], shown["max-depth"]) == (total, 36, 36)
    path = path_squares(board(page))
    assert sorted(path.values()) == list(range(1, 37))
    assert [rc for rc, _ in sorted(path.items(), key=lambda kv: kv[1])] == [
        divmod(sq, 6) for sq in expected.tour
    ]
    assert page.locator("[data-side=a] [data-role=progress]").is_hidden()
    assert page.locator("[data-side=a]").get_attribute("data-seeking") == "false"  # it sought
    # one step back: the last event undone (a move onto the tour's last square)
    page.locator("[data-action=back]").click()
    page.wait_for_function(
        "(n) => document.querySelector('[data-side=a] [data-stat=shown]').textContent"
        ".replace(/\\D/g, '') === String(n)",
        arg=total - 1,
    )
    back = stats(page)
    assert (back["nodes"], back["depth"]) == (expected.nodes - 1, 35)
    # the seek slider, far back (before the events the page holds): the server's snapshot
    page.locator("#w-seek").fill("1000")
    page.wait_for_function(
        "() => document.querySelector('[data-side=a] [data-stat=shown]').textContent"
        ".replace(/\\D/g, '') === '1000'"
    )
    events = []
    for event in search_events(Board(6, 6), 0, ordering="seed"):
        events.append(event)
        if len(events) == 1000:
            break
    moves = sum(1 for e in events if e.kind == "move")
    far = stats(page)
    assert (far["nodes"], far["backtracks"]) == (moves, 1000 - moves)


def test_jump_to_the_end_in_race_mode_ends_both_lanes_and_names_the_winner(page):
    """⏭ in a race seeks both lanes: each shows its own search's end (the engine's
    counters), and the race is decided as if both had run to the end."""
    open_watch(page, "&rows=6&cols=6&start=0,0&algorithm=seed&b=warnsdorff&speed=1&go=1")
    page.wait_for_function(
        "() => document.querySelector('[data-side=b] [data-stat=received]').textContent !== '0'"
    )
    # at one event a second lane b needs 36 s to end by itself, longer than the waits below
    assert stats(page, "b")["shown"] < 36
    page.locator("[data-action=end]").click()
    wait_status(page, "found", "a")
    wait_status(page, "found", "b")
    for side, ordering in (("a", "seed"), ("b", "warnsdorff")):
        expected = solve(Board(6, 6), 0, ordering=ordering)
        counters = stats(page, side)
        assert (counters["nodes"], counters["backtracks"]) == (expected.nodes, expected.backtracks)
        assert counters["shown"] == expected.nodes + expected.backtracks
        path = path_squares(board(page, side))
        assert [rc for rc, _ in sorted(path.items(), key=lambda kv: kv[1])] == [
            divmod(sq, 6) for sq in expected.tour
        ]
        assert page.locator(f"[data-side={side}]").get_attribute("data-seeking") == "false"
    result = page.locator("#w-race-result")
    expect(result).to_be_visible()
    assert "Warnsdorff" in result.inner_text()
    assert page.locator("[data-side=b]").get_attribute("data-winner") == "true"
