"""A student's page draws the class's position from the page itself, before its socket joins.

The students' page is rendered with the room's state and the snapshot at the class's
index (server/web/class_pages.py), so a late joiner's phone shows the class at once; the
join's answer then confirms it. A teacher (a python-socketio client) pauses the 6x6 demo
deep into its search; one phone's websocket is held by the test and never reaches the
server, another joins normally.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.follower import SIX_BY_SIX, Teacher
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
