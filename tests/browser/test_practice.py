"""The practice on /watch and /lesson in a real chromium: the page pauses by itself and asks.

With the practice switched on, the page stops its own clock at a moment of its choosing
and asks a question about the position on the board; the test reads which question it
asked from the card's data-* attributes and works the answer out itself, from the
engine's own events (server.engine.search, not the question modules) and this module's
knight table, then answers it right or wrong and checks the result, the streak and the
best, kept across a reload and into the lesson. The page asks the server nothing for it:
no class-room message, no request, only the run's own credit on /watch's socket.

Pages are opened with ?test: testHook.practice narrows the kinds asked and the playback
between two questions, so a question comes within a second and of the kind the test
wants. Every wait is on an attribute, never on time.
"""

from __future__ import annotations

import json
import re
from itertools import islice

import pytest

from server.engine.board import Board
from server.engine.search import search_events
from tests.support.follower import lesson_demo

from .conftest import playwright_sync
from .test_watch import board, open_watch, path_squares, wait_status

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

CARD = "#p-card"
# the articles' move order (drow, dcol), written out here rather than read from the engine
SEED_ORDER = ((-1, -2), (-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2))
KINDS = ("next", "onward", "pick", "backtrack", "frame")


class Search:
    """The engine's events of a search, replayed here: the path before any index."""

    def __init__(self, rows: int, cols: int, start: int, ordering: str = "seed") -> None:
        self.rows, self.cols = rows, cols
        events = search_events(Board(rows, cols), start, ordering=ordering)
        self.events = [e for e in islice(events, 20_000) if e.kind in ("move", "backtrack")]

    def path(self, index: int) -> list[int]:
        path: list[int] = []
        for event in self.events[:index]:
            if event.kind == "move":
                path.append(event.square)
            else:
                assert path.pop() == event.square
        return path

    def unvisited(self, square: int, path: list[int]) -> list[int]:
        r, c = divmod(square, self.cols)
        return [
            (r + dr) * self.cols + c + dc
            for dr, dc in SEED_ORDER
            if 0 <= r + dr < self.rows
            and 0 <= c + dc < self.cols
            and (r + dr) * self.cols + c + dc not in path
        ]

    def answer(self, kind: str, index: int, square: int | None) -> int:
        """The right answer to the question of ``kind`` at ``index``, worked out here."""
        path = self.path(index)
        knight = path[-1]
        if kind == "next":
            event = self.events[index]
            assert event.kind == "move" and event.candidates
            return event.square
        if kind == "onward":
            assert square in self.unvisited(knight, path)
            return len(self.unvisited(square, path))
        if kind == "pick":  # the fewest onward moves, ties to the first in the move order
            candidates = self.unvisited(knight, path)
            counts = [len(self.unvisited(sq, path)) for sq in candidates]
            return candidates[counts.index(min(counts))]
        steps = 0  # the steps back before the next move
        while self.events[index + steps].kind == "backtrack":
            steps += 1
        if kind == "backtrack":
            return steps
        assert kind == "frame" and steps > 0
        return path[len(path) - 1 - steps]  # the frame the returns stop at

    def wrong(self, kind: str, index: int, right: int) -> int:
        """An answer the question takes that is not ``right``."""
        path = self.path(index)
        if kind in ("onward", "backtrack"):
            return right + 1
        squares = path[:-1] if kind == "frame" else self.unvisited(path[-1], path)
        return next(sq for sq in squares if sq != right)


def record_traffic(page) -> dict:
    """Every Socket.IO frame the page sends and every request it makes, from now on."""
    seen = {"frames": [], "requests": []}

    def on_socket(ws):
        ws.on("framesent", lambda payload: seen["frames"].append(str(payload)))

    page.on("websocket", on_socket)
    page.on("request", lambda request: seen["requests"].append(request.url))
    return seen


def switch_on(page, *, kinds=KINDS) -> None:
    """Practice on, every kind or some, a question within a second or so of playback (set
    before the switch: the first question is planned at the next frame). No kind is let
    in until the card is seen waiting: a question can come sooner than a look."""
    page.evaluate(
        """() => Object.assign(window.testHook.practice,
                               {kinds: [], gap: [0.3, 0.6], minEvents: 3})"""
    )
    page.locator("label.p-switch").click()
    expect(page.locator(CARD)).to_have_attribute("data-state", "waiting")
    page.evaluate("(kinds) => { window.testHook.practice.kinds = kinds; }", list(kinds))


def narrow(page, kind: str | None) -> None:
    """Ask only ``kind`` from now on (before the page plays on: the next question's);
    None: nothing for now."""
    kinds = [] if kind is None else [kind]
    page.evaluate("(kinds) => { window.testHook.practice.kinds = kinds; }", kinds)


def asked(page, kind: str) -> tuple[int, int | None]:
    """Wait for a question of ``kind``: (its event index, the square it asks about)."""
    card = page.locator(CARD)
    expect(card).to_have_attribute("data-state", "open", timeout=20_000)
    expect(card).to_have_attribute("data-kind", kind)
    index = int(card.get_attribute("data-index"))
    square = card.get_attribute("data-square")
    return index, int(square) if square else None


def answer(page, kind: str, value: int, cols: int, side: str = "a") -> None:
    """Tap the square on the lane's board, or the number on the pad."""
    if kind in ("next", "pick", "frame"):
        r, c = divmod(value, cols)
        page.locator(f"[data-side={side}] .sq[data-row='{r}'][data-col='{c}']").click()
    elif value < 13:
        page.locator(f"{CARD} .q-pad-choice[data-value='{value}']").click()
    else:
        page.locator(f"{CARD} .q-pad-more input").fill(str(value))
        page.locator(f"{CARD} .q-pad-send").click()


def on_path(cells) -> dict[tuple[int, int], int]:
    """The squares on the knight's path with their move numbers, a frame question's marks
    on them too (the squares it takes)."""
    return {
        **path_squares(cells),
        **{rc: int(n) for rc, (state, n) in cells.items() if state == "legal" and n},
    }


def shown(page, side: str = "a") -> int:
    text = page.locator(f"[data-side={side}] [data-stat=shown]").inner_text()
    return int(re.sub(r"\D", "", text))


def streak_is(page, streak: int, best: int) -> None:
    card = page.locator(CARD)
    expect(card).to_have_attribute("data-streak", str(streak))
    expect(card).to_have_attribute("data-best", str(best))
    expect(card.locator(".p-streak")).to_have_text(f"Streak {streak} · best {best}")


def test_watch_pauses_asks_each_kind_and_keeps_the_streak(page):
    traffic = record_traffic(page)
    open_watch(page, "&test&rows=6&cols=6&start=0,0&algorithm=seed&speed=20&go=1")
    wait_status(page, "running")
    search = Search(6, 6, 0)
    card = page.locator(CARD)
    expect(card).to_be_hidden()
    switch_on(page, kinds=KINDS[:1])
    asked_from = len(traffic["requests"]), len(traffic["frames"])
    streak_is(page, 0, 0)

    for n, kind in enumerate(KINDS, start=1):
        index, square = asked(page, kind)
        # stopped exactly there: the board shows the position, the next event not yet
        wait_status(page, "paused")
        assert shown(page) == index
        expected = {divmod(sq, 6): i + 1 for i, sq in enumerate(search.path(index))}
        assert on_path(board(page)) == expected
        expect(card.locator(".q-prompt")).to_be_visible()
        right = search.answer(kind, index, square)
        answer(page, kind, right, 6)
        expect(card).to_have_attribute("data-state", "answered")
        expect(card).to_have_attribute("data-outcome", "right")
        expect(card.locator(".p-result")).to_contain_text("Right!")
        expect(card.locator(".q-why li").first).to_be_visible()  # the why, in words
        streak_is(page, n, n)
        assert shown(page) == index  # answered: still there until Continue
        narrow(page, None)  # none until it is seen playing on (it would soon ask again)
        card.locator("[data-role=continue]").click()
        expect(card).to_have_attribute("data-state", "waiting")
        wait_status(page, "running")
        narrow(page, KINDS[n] if n < len(KINDS) else "onward")

    # a wrong answer ends the streak; the best stays
    index, square = asked(page, "onward")
    right = search.answer("onward", index, square)
    answer(page, "onward", search.wrong("onward", index, right), 6)
    expect(card).to_have_attribute("data-outcome", "wrong")
    expect(card.locator(".p-result")).to_contain_text(f"the answer is {right}")
    streak_is(page, 0, 5)
    narrow(page, "pick")
    card.locator("[data-role=continue]").click()

    # a step made while asked closes the question without counting it
    index, _ = asked(page, "pick")
    page.locator("[data-action=step]").click()
    expect(card).to_have_attribute("data-state", "waiting")
    assert shown(page) == index + 1
    streak_is(page, 0, 5)

    # the page asked the server nothing for it: no request, no class room, only credit
    requests, frames = traffic["requests"][asked_from[0] :], traffic["frames"][asked_from[1] :]
    assert not [url for url in requests if "/static/" not in url], requests
    before = traffic["frames"][: asked_from[1]]
    assert [f for f in before if re.match(r'42/watch,\d*\["start"', f)], "the socket is seen"
    assert not [f for f in frames if "/class" in f]
    events = {json.loads(f[f.index("[") :])[0] for f in frames if f.startswith("42/watch,")}
    assert events <= {"credit"}, events
    assert all(f in ("2", "3") or f.startswith("42/watch,") for f in frames), frames

    # the streak and the best are the browser's: kept across a reload
    open_watch(page, "&test&rows=6&cols=6&start=0,0&algorithm=seed&speed=20&go=1")
    switch_on(page)
    streak_is(page, 0, 5)


def test_a_sheet_on_a_phone_and_the_lesson_asks_too(new_page):
    """On a phone the question is a sheet under the board; the lesson asks while its demo
    plays, and carries the streak on from /watch."""
    page = new_page(viewport={"width": 375, "height": 667})
    open_watch(page, "&test&rows=5&cols=5&start=0,0&algorithm=seed&speed=20&go=1")
    wait_status(page, "running")
    switch_on(page, kinds=["next"])
    index, _ = asked(page, "next")
    search = Search(5, 5, 0)
    right = search.answer("next", index, None)
    card = page.locator(CARD)
    # the sheet leaves the board's squares free to tap: the answer's is not under it
    r, c = divmod(right, 5)
    target = page.locator(f"[data-side=a] .sq[data-row='{r}'][data-col='{c}']").bounding_box()
    sheet = card.bounding_box()
    assert target["y"] + target["height"] <= sheet["y"], (target, sheet)
    assert sheet["x"] >= 0 and sheet["x"] + sheet["width"] <= 375
    answer(page, "next", right, 5)
    expect(card).to_have_attribute("data-outcome", "right")
    streak_is(page, 1, 1)

    demo = lesson_demo("dfs")
    start = demo["start"][0] * demo["cols"] + demo["start"][1]
    lesson = Search(demo["rows"], demo["cols"], start, demo["algorithm"])
    page.goto("/lesson?lang=en&test#dfs/1")
    page.wait_for_selector("#lesson[data-ready=true]")
    switch_on(page, kinds=["backtrack"])
    streak_is(page, 1, 1)
    page.locator("[data-lesson=play]").click()  # play from the step, at the lesson's pace
    index, _ = asked(page, "backtrack")
    wait_status(page, "paused")
    assert shown(page) == index
    steps = lesson.answer("backtrack", index, None)
    answer(page, "backtrack", lesson.wrong("backtrack", index, steps), demo["cols"])
    expect(card).to_have_attribute("data-outcome", "wrong")
    streak_is(page, 0, 1)
    narrow(page, "frame")
    card.locator("[data-role=continue]").click()
    index, _ = asked(page, "frame")
    answer(page, "frame", lesson.answer("frame", index, None), demo["cols"])
    expect(card).to_have_attribute("data-outcome", "right")
    streak_is(page, 1, 1)
    # switched off: the card goes, the lesson plays on
    page.locator("label.p-switch").click()
    expect(card).to_be_hidden()
    expect(card).to_have_attribute("data-state", "off")
