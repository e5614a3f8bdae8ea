"""A student's page draws the class's position from the page itself, before its socket joins.

The students' page is rendered with the room's state and the snapshot at the class's
index (server/web/class_pages.py), so a late joiner's phone shows the class at once; the
join's answer then confirms it. A teacher (a python-socketio client) pauses the 6x6 demo
deep into its search; one phone's websocket is held by the test and never reaches the
server, another joins normally.
"""

from __future__ import annotations

import functools
import re

import pytest
from playwright.sync_api import expect

from server.engine.board import Board
from server.engine.search import search_events
from tests.support.follower import SIX_BY_SIX, SIX_BY_SIX_EVENTS, Teacher
from tests.support.servers import open_class_room

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
INDEX = 123_457
BOARD_STATE = """els => els.map(e => `${e.dataset.state}:${e.textContent}`).join(",")"""


@pytest.fixture
def paused_class(live_server):
    """(code, teacher): a room whose 6x6 demo is paused at INDEX."""
    code, token = open_class_room(live_server)
    teacher = Teacher.join(live_server, code, token)
    try:
        assert teacher.settings(SIX_BY_SIX)["ok"]
        assert teacher.control(INDEX)["ok"]
        yield code, teacher
    finally:
        teacher.member.close()


def board(page) -> str:
    return page.eval_on_selector_all(".c-lane .sq", BOARD_STATE)


def offline(page) -> list[str]:
    """Hold the page's Socket.IO traffic: its websocket is answered by nobody, polling
    fails. Returns the list the websockets' URLs are recorded in."""
    held: list[str] = []
    page.route_web_socket(re.compile(r"/socket\.io/"), lambda ws: held.append(ws.url))
    page.route(re.compile(r"/socket\.io/.*transport=polling"), lambda route: route.abort())
    return held


def joined_student(new_page, code: str, lang: str):
    """A phone on the students' page, joined and standing at INDEX."""
    student = new_page(**PHONE)
    student.goto(f"/class/{code}?lang={lang}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(student.locator("#class")).to_have_attribute("data-pos", str(INDEX))
    return student


def test_a_late_joiner_shows_the_class_before_its_socket_joins(new_page, paused_class):
    code, _teacher = paused_class
    joined = joined_student(new_page, code, "zh")

    cut_off = new_page(**PHONE)
    held = offline(cut_off)
    cut_off.goto(f"/class/{code}?lang=zh")
    expect(cut_off.locator("#class")).to_have_attribute("data-pos", str(INDEX))
    assert held, "the page did try its websocket"
    page = cut_off.locator("#class")
    assert page.get_attribute("data-connection") == "connecting"  # never joined
    assert page.get_attribute("data-path") == joined.get_attribute("#class", "data-path")
    assert page.get_attribute("data-nodes") == joined.get_attribute("#class", "data-nodes")
    assert board(cut_off) == board(joined)
    assert board(cut_off).count("current:") == 1  # the knight stands on the class's square


def test_the_join_confirms_the_rendered_position_without_a_second_snapshot(new_page, paused_class):
    code, teacher = paused_class
    student = joined_student(new_page, code, "en")
    # the join's snapshot starts where the page's own did: it adds to it, not replaces it
    assert student.get_attribute("#class", "data-snapshots") == "1"

    # the class moves on: the page follows from the socket as before
    assert teacher.control(INDEX + 5)["ok"]
    expect(student.locator("#class")).to_have_attribute("data-pos", str(INDEX + 5))


# What a board shows, square by square, and the counters and words of its lane.
SQUARES = """els => els.map(e =>
  `${e.dataset.state}:${e.textContent}:${e.dataset.start || ""}:${e.className}`).join(",")"""
LANE = """lane => ({
  stats: Object.fromEntries([...lane.querySelectorAll("[data-stat]")]
    .map(e => [e.dataset.stat, e.textContent])),
  narration: lane.querySelector('[data-role="narration"]').textContent,
  badge: lane.querySelector('[data-role="badge"]').textContent,
  status: lane.dataset.status,
  algorithm: lane.querySelector('[data-role="algorithm"]').textContent,
  points: lane.querySelector(".path-line").getAttribute("points"),
})"""
# Before the page's scripts: when the lane's own board is shown (its `hidden` goes), what
# the page holds at that moment (the observer runs in the task that showed it, before any
# paint): the server's first frame must be gone and the board drawn at the class's index.
REVEALED = """
new MutationObserver((changes, observer) => {
  const board = document.querySelector('.c-lane [data-role="board"]');
  if (!board || board.hidden) return;
  observer.disconnect();
  window.__revealed = {
    first: document.querySelectorAll('[data-role="first-frame"]').length,
    pos: document.querySelector("#class").dataset.pos,
    squares: [...board.querySelectorAll(".sq")]
      .map(e => `${e.dataset.state}:${e.textContent}`).join(","),
  };
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
"""


def as_drawn(page, board: str) -> dict:
    lane = page.locator(".c-lane")
    return {"squares": page.eval_on_selector_all(f"{board} .sq", SQUARES), **lane.evaluate(LANE)}


@functools.cache
def index_after(kind: str) -> int:
    """The first index past 100,000 of the 6x6 demo whose last event is a move made after
    trying other candidates first, with more still to try (``tried``: the board marks both
    kinds), or a backtrack."""
    board = Board(6, 6)
    events = search_events(board, 0, closed=False, ordering="seed")
    index = 0
    for event in events:
        index += event.kind in ("move", "backtrack")
        if index < 100_000:
            continue
        if kind == "backtrack" and event.kind == "backtrack":
            return index
        if kind == "tried" and event.kind == "move":
            tried = event.candidates.index(event.square)
            if 1 <= tried < len(event.candidates) - 1:  # tried ones, and ones still to try
                return index
    raise AssertionError(f"no {kind} event")


@pytest.mark.parametrize(
    "case, lang", [("tried", "zh"), ("tried", "en"), ("backtrack", "en"), ("ended", "zh")]
)
def test_the_server_draws_the_first_frame_as_the_page_draws_it(new_page, live_server, case, lang):
    index = SIX_BY_SIX_EVENTS if case == "ended" else index_after(case)
    code, token = open_class_room(live_server)
    teacher = Teacher.join(live_server, code, token)
    try:
        assert teacher.settings(SIX_BY_SIX)["ok"]
        assert teacher.control(index)["ok"]
        joined = new_page(**PHONE)  # once it stands there, the server has computed that far
        joined.goto(f"/class/{code}?lang={lang}")
        expect(joined.locator("#class")).to_have_attribute("data-pos", str(index), timeout=30_000)

        # The page as the server sent it: its scripts never run.
        still = new_page(**PHONE)
        still.route(re.compile(r"/static/.*/js/"), lambda route: route.abort())
        still.goto(f"/class/{code}?lang={lang}")
        first = still.locator('[data-role="first-frame"]')
        expect(first).to_be_visible()
        expect(still.locator('.c-lane [data-role="board"]')).to_be_hidden()
        assert first.get_attribute("data-pos") == str(index)
        server = as_drawn(still, '[data-role="first-frame"]')

        # The page with its scripts: the lane's own board takes the first frame's place.
        live = new_page(**PHONE)
        live.add_init_script(REVEALED)
        live.goto(f"/class/{code}?lang={lang}")
        expect(live.locator("#class")).to_have_attribute("data-pos", str(index))
        expect(live.locator('[data-role="first-frame"]')).to_have_count(0)
        page = as_drawn(live, '.c-lane [data-role="board"]')
        revealed = live.evaluate("() => window.__revealed")
    finally:
        teacher.member.close()
    assert page == server
    assert len(server["squares"].split(",")) == 36
    assert server["stats"]["shown"] == f"{index:,}"
    assert revealed == {
        "first": 0,
        "pos": str(index),
        "squares": ",".join(
            s.split(":")[0] + ":" + s.split(":")[1] for s in server["squares"].split(",")
        ),
    }
    states = [square.split(":")[0] for square in server["squares"].split(",")]
    if case == "ended":
        assert server["status"] == "found" and states.count("visited") == 35
    else:
        assert server["status"] == "paused" and states.count("current") == 1
    if case == "tried":
        assert "tried" in states and "candidate" in states
    if case == "backtrack":
        assert states.count("dead") == 1
