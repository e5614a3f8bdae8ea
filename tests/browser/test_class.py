"""Class rooms in a real browser: a teacher page and students' pages, each in its own
browser context (own storage and cookies, like separate devices), on the live server.

The server runs the room's one search and streams it; every page shows the event the
class is at. The pages say what they show in data-* attributes (static/js/class/stage.js):
``data-pos`` (the event index), ``data-path`` (the path's depth and hash), ``data-nodes``,
``data-from`` (the first event held), ``data-follow``; the teacher's page also
``data-pending`` (controls not answered yet). The tests wait on those, never on time.
"""

from __future__ import annotations

import re

import pytest

from server.engine.board import Board
from server.engine.search import solve
from server.engine.walker import Walker
from tests.support.waiting import wait_until

from .conftest import playwright_sync

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 375, "height": 667}, "is_mobile": True, "has_touch": True}
DESKTOP = {"width": 1280, "height": 800}
BOARD_STATE = """els => els.map(e => `${e.dataset.state}:${e.textContent}`).join(",")"""
SIX_BY_SIX_EVENTS = 354_060  # plain backtracking on 6x6 from a6 (a corner), to its tour
SIX_BY_SIX_NODES = 177_048


def open_class(new_page):
    teacher = new_page()
    teacher.goto("/class/new?lang=en")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    assert "#token" not in teacher.url  # the secret left the address bar
    code = teacher.get_attribute("#class", "data-code")
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    return teacher, code


def join(new_page, code: str, query: str = "", **options):
    student = new_page(**{**PHONE, **options})
    student.goto(f"/class/{code}?lang=en{query}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    return student


def open_setup(teacher) -> None:
    """The teacher's setup (demo, lesson, puzzle), folded once a demo runs, opened."""
    if teacher.locator("#c-setup").get_attribute("open") is None:
        teacher.click("#c-setup summary")
    expect(teacher.locator("#c-setup")).to_have_attribute("open", "")


def board(page) -> str:
    return page.eval_on_selector_all(".c-lane .sq", BOARD_STATE)


def settled(teacher) -> int:
    """The index the class is at once every control of the teacher's is answered (paused)."""
    page = teacher.locator("#class")
    expect(page).to_have_attribute("data-pending", "0")
    expect(page).to_have_attribute("data-playing", "false")
    return int(teacher.get_attribute("#class", "data-target"))


def in_sync(teacher, students, pos: int | None = None, follow: str = "paused") -> int:
    """The class is paused at ``pos`` and every page shows that very event."""
    pos = settled(teacher) if pos is None else pos
    expect(teacher.locator("#class")).to_have_attribute("data-pos", str(pos))
    path = teacher.get_attribute("#class", "data-path")
    nodes = teacher.get_attribute("#class", "data-nodes")
    for student in students:
        page = student.locator("#class")
        expect(page).to_have_attribute("data-follow", follow)  # the last state, not one on the way
        expect(page).to_have_attribute("data-pos", str(pos))
        expect(page).to_have_attribute("data-path", path)
        expect(page).to_have_attribute("data-nodes", nodes)
    # A page that reached ``pos`` by a keyframe (no events before it) draws the last move's
    # marks once the paused class's snapshot, which carries them, arrives: wait for that.
    same = lambda: all(board(student) == board(teacher) for student in students)  # noqa: E731
    wait_until(same, timeout=10)
    shown = board(teacher)
    for student in students:
        assert board(student) == shown, following(teacher, student)
    return pos


def following(*pages) -> list[dict]:
    """What each page says of how it follows (a failed comparison prints it): the event it
    shows, the first it holds, how many snapshots it took, ..."""
    names = ("pos", "from", "target", "snapshots", "follow", "nodes")
    return [
        {name: page.get_attribute("#class", f"data-{name}") for name in names} for page in pages
    ]


def chart(page) -> list:
    """The depth chart's columns a page shows (pages opened with ?test=1)."""
    return page.evaluate(
        """() => {
          const c = window.testHook.follower.columns;
          const used = (column) => Array.from(column.subarray(0, c.columns));
          return [c.span, c.length, c.fill, c.events, used(c.min), used(c.max)];
        }"""
    )


def engine_chart(index: int) -> list:
    """The depth chart's columns after ``index`` events of the demo, from the engine's walker."""
    walker = Walker(Board(6, 6), 0, algorithm="seed")
    try:
        walker.advance(index)
        span, length, fill, events, mins, maxs = walker.chart.freeze()
    finally:
        walker.close()
    return [span, length, fill, events, list(mins), list(maxs)]


def hand_out_puzzle(teacher, rows: int = 5, cols: int = 5, start: str | None = None) -> None:
    """The teacher hands out a ``rows`` x ``cols`` puzzle from the setup's form."""
    teacher.fill('#c-puzzle-form input[name="rows"]', str(rows))
    teacher.fill('#c-puzzle-form input[name="cols"]', str(cols))
    if start is not None:
        teacher.fill('#c-puzzle-form input[name="start"]', start)
    teacher.click("#c-puzzle-go")


def try_puzzle(student, name: str, reads: str | None = None) -> None:
    """The student opens the puzzle's tab (checking that it reads ``reads``, when given) and
    tries the puzzle under ``name``."""
    student.click("#c-tab-puzzle")
    if reads is not None:
        expect(student.locator("#c-puzzle-text")).to_have_text(reads)
    student.fill("#c-name", name)
    student.click("#c-try")


def puzzle_square(student, row: int, col: int):
    return student.locator(f'#c-puzzle-board .sq[data-row="{row}"][data-col="{col}"]')


def play_tour(student, tour, cols: int = 5) -> None:
    """The moves of ``tour`` (squares, its start first) on the student's puzzle board, each
    waited for until the knight stands there."""
    for sq in tour[1:]:
        square = puzzle_square(student, *divmod(sq, cols))
        square.click()
        expect(square).to_have_attribute("data-state", "current")


def set_range(page, selector: str, value: int) -> None:
    page.eval_on_selector(
        selector,
        """(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true}));
                         el.dispatchEvent(new Event('change', {bubbles: true})); }""",
        value,
    )


def screenshots(artifacts, name: str, teacher, phone, desktop) -> None:
    """The teacher's page on a desktop and a phone, a student's on each."""
    teacher.screenshot(path=str(artifacts / f"class-teacher-desktop-{name}.png"))
    teacher.set_viewport_size(PHONE["viewport"])
    teacher.screenshot(path=str(artifacts / f"class-teacher-phone-{name}.png"))
    teacher.set_viewport_size(DESKTOP)
    phone.screenshot(path=str(artifacts / f"class-student-phone-{name}.png"))
    desktop.screenshot(path=str(artifacts / f"class-student-desktop-{name}.png"))


def test_students_follow_the_teacher(new_page, artifacts):
    teacher, code = open_class(new_page)
    phone = join(new_page, code)
    desktop = join(new_page, code, "&test=1", viewport=DESKTOP, is_mobile=False, has_touch=False)
    students = [phone, desktop]
    expect(teacher.locator("#c-students")).to_have_text("2")
    expect(phone.locator("#class")).to_have_attribute("data-follow", "waiting")

    # 6x6 plain backtracking from a6: 354k events, long enough to drive around in
    teacher.check('input[name="preset"][value="6x6"]', force=True)
    teacher.check('input[name="algorithm"][value="seed"]', force=True)
    teacher.click('.c-lane .sq[data-row="0"][data-col="0"]')
    set_range(teacher, "#w-speed", 50)  # about 100 events a second
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "true")
    teacher.wait_for_function("() => +document.querySelector('#class').dataset.pos > 60")
    for student in students:
        expect(student.locator("#class")).to_have_attribute("data-follow", "playing")

    teacher.click('[data-action="play"]')  # pause
    paused = in_sync(teacher, students)
    assert paused > 60

    teacher.click('[data-action="step"]')
    teacher.click('[data-action="step"]')
    in_sync(teacher, students, paused + 2)
    for _ in range(3):
        teacher.click('[data-action="back"]')
    in_sync(teacher, students, paused - 1)

    set_range(teacher, "#w-seek", 17)
    in_sync(teacher, students, 17)
    screenshots(artifacts, "seek", teacher, phone, desktop)

    # run to the end: keyframes, then the end, on every page
    teacher.click('[data-action="end"]')
    expect(teacher.locator(".c-lane")).to_have_attribute("data-status", "found", timeout=60_000)
    final = in_sync(teacher, students, SIX_BY_SIX_EVENTS, follow="ended")
    for page in (teacher, *students):
        expect(page.locator("#class")).to_have_attribute("data-nodes", str(SIX_BY_SIX_NODES))
        expect(page.locator(".c-lane [data-stat=nodes]")).to_have_text(f"{SIX_BY_SIX_NODES:,}")
        expect(page.locator(".c-lane [data-role=narration]")).to_contain_text("Tour found")
    screenshots(artifacts, "end", teacher, phone, desktop)

    # the whole run's depth chart, from keyframes, exactly as the engine draws it
    assert chart(desktop) == engine_chart(final)

    # a late joiner stands on the last event from the join's snapshot: no replay from 0
    late = join(new_page, code, "&test=1")
    expect(late.locator("#class")).to_have_attribute("data-pos", str(final))
    assert late.get_attribute("#class", "data-from") == str(final - 100)
    assert chart(late) == engine_chart(final)
    assert late.get_attribute("#class", "data-path") == teacher.get_attribute("#class", "data-path")
    assert board(late) == board(teacher)
    expect(teacher.locator("#c-students")).to_have_text("3")
    late.screenshot(path=str(artifacts / "class-student-late.png"))

    # the teacher's page reloaded: it picks the class up where it is and goes on counting
    teacher.reload()
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(teacher.locator("#class")).to_have_attribute("data-pos", str(final))
    expect(teacher.locator('input[name="preset"][value="6x6"]')).to_be_checked()
    teacher.click('[data-action="back"]')
    in_sync(teacher, [*students, late], final - 1)


def test_running_to_the_end_shows_keyframes_and_how_far_the_search_got(new_page, artifacts):
    teacher, code = open_class(new_page)
    student = new_page(**PHONE)
    student.goto(f"/class/{code}?lang=zh")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")

    # 8x8 plain backtracking from a8: millions of events, far more than a lesson waits for
    teacher.check('input[name="preset"][value="8x8"]', force=True)
    teacher.check('input[name="algorithm"][value="seed"]', force=True)
    teacher.click('.c-lane .sq[data-row="0"][data-col="0"]')
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "true")
    teacher.click('[data-action="end"]')
    for page in (teacher, student):
        expect(page.locator("#class")).to_have_attribute("data-follow", "to-the-end")
    expect(student.locator("#c-catchup")).to_be_visible()
    expect(student.locator("#c-catchup-text")).to_contain_text("快进到结尾：已计算")
    expect(teacher.locator("#c-catchup-text")).to_contain_text("Running to the end:")
    # the keyframes are drawn as they come
    student.wait_for_function("() => +document.querySelector('#class').dataset.pos > 200000")
    student.screenshot(path=str(artifacts / "class-student-to-the-end.png"))
    teacher.screenshot(path=str(artifacts / "class-teacher-to-the-end.png"))

    teacher.click('[data-action="play"]')  # pause where the keyframes got to
    paused = in_sync(teacher, [student])
    assert paused > 200_000
    expect(student.locator("#c-catchup")).to_be_hidden()


def test_a_student_who_lost_the_connection_rejoins_where_the_class_is(new_page):
    teacher, code = open_class(new_page)
    student = join(new_page, code, "&test=1")
    teacher.check('input[name="preset"][value="6x6"]', force=True)
    teacher.check('input[name="algorithm"][value="seed"]', force=True)
    teacher.click("#c-go")
    teacher.wait_for_function("() => +document.querySelector('#class').dataset.pos > 20")
    teacher.click('[data-action="play"]')  # pause
    before = in_sync(teacher, [student])

    # the student's connection drops (no automatic reconnection yet) while the class goes on
    student.evaluate(
        """() => { const io = window.testHook.room.socket.io;
                   io.reconnection(false); io.engine.close(); }"""
    )
    expect(student.locator("#class")).not_to_have_attribute("data-connection", "joined")
    teacher.click('[data-action="play"]')
    teacher.wait_for_function(
        f"() => +document.querySelector('#class').dataset.pos > {before + 400}"
    )  # past what the page held: the feed it missed leaves a hole
    teacher.click('[data-action="play"]')
    paused = settled(teacher)
    assert student.get_attribute("#class", "data-pos") == str(before)

    student.evaluate("() => window.testHook.room.socket.connect()")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    in_sync(teacher, [student], paused)


def test_a_solved_class_puzzle_reaches_the_teachers_leaderboard(new_page, artifacts):
    teacher, code = open_class(new_page)
    student = join(new_page, code)
    expect(student.locator("#c-tab-puzzle")).to_be_hidden()

    hand_out_puzzle(teacher, start="a1")
    expect(teacher.locator("#c-puzzle-now")).to_contain_text("5×5 open tour from a1")

    expect(student.locator("#c-tab-puzzle")).to_be_visible()
    try_puzzle(student, "<b>Ann</b>", reads="5×5 open tour from a1")
    expect(puzzle_square(student, 4, 0)).to_have_attribute("data-state", "current")
    expect(teacher.locator("#c-board-counts")).to_have_text("0 solved · 1 trying")

    play_tour(student, solve(Board(5, 5), 20).tour)  # a1 is row 4, column 0
    expect(student.locator("#c-solved")).to_be_visible()
    expect(student.locator("#c-solved")).to_contain_text("#1")

    row = teacher.locator("#c-leaderboard tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(1)).to_have_text("<b>Ann</b>")  # text, never HTML
    expect(teacher.locator("#c-board-counts")).to_have_text("1 solved · 1 trying")
    teacher.screenshot(path=str(artifacts / "class-teacher-leaderboard.png"), full_page=True)
    student.screenshot(path=str(artifacts / "class-student-puzzle.png"))


def test_the_student_page_is_bilingual_and_refuses_unknown_codes(new_page, artifacts):
    page = new_page(**PHONE)
    page.goto("/class/ZZZZZZ?lang=zh")
    expect(page.locator(".c-error")).to_contain_text("没有这个代码的课堂")
    page.fill("#c-code", "zzz")
    page.click(".c-join-form button")
    expect(page.locator(".c-error")).to_be_visible()
    _teacher, code = open_class(new_page)
    student = new_page(**PHONE)
    student.goto(f"/class?code={code.lower()}&lang=zh")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(student.locator("#c-follow")).to_contain_text("等待老师")
    student.screenshot(path=str(artifacts / "class-student-zh.png"))


def test_the_students_page_follows_the_teachers_lesson(new_page):
    """The teacher starts the guided lesson and steps to a chapter: the student's page (a
    phone, in Chinese) says that step's narration and shows the chapter's board there."""
    teacher, code = open_class(new_page)
    student = new_page(**PHONE)
    student.goto(f"/class/{code}?lang=zh")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    story = student.locator("#c-lesson")
    expect(story).to_be_hidden()  # no lesson yet: nothing to read

    teacher.select_option("#c-lesson-select", "moves")
    teacher.click("#c-lesson-start")
    expect(story).to_be_visible()
    expect(story).to_have_attribute("data-chapter", "moves")
    teacher.click('#c-lesson [data-lesson="next"]')  # step 2: the move numbers 0-7
    expect(story).to_have_attribute("data-step", "2")
    expect(student.locator(".c-lane .sq[data-move]")).to_have_count(8)

    open_setup(teacher)  # folded while the lesson runs
    teacher.select_option("#c-lesson-select", "dfs")  # a new chapter, from its first step
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-chapter", "dfs")
    teacher.click('#c-lesson [data-lesson="next"]')  # step 2 of dfs: the event index 12
    expect(story).to_have_attribute("data-chapter", "dfs")
    expect(story).to_have_attribute("data-step", "2")
    text = story.locator('[data-role="text"]')
    expect(text).to_have_attribute("data-key", "lesson.dfs.2")
    words = student.evaluate("() => fetch('/api/i18n?lang=zh').then(r => r.json())")
    catalogue = words.get("messages") or words.get("catalogue") or words
    expect(text).to_have_text(catalogue["lesson.dfs.2"])
    expect(student.locator(".c-lane .sq[data-move]")).to_have_count(0)
    expect(student.locator(".c-lane .sq")).to_have_count(25)  # the chapter's 5x5 board

    pos = in_sync(teacher, [student], 12)
    walker = Walker(Board(5, 5), 0, algorithm="seed")
    try:
        walker.advance(pos)
        path = list(walker.path)
    finally:
        walker.close()
    shown = student.eval_on_selector_all(
        ".c-lane .sq[data-state]",
        "els => els.filter(e => ['visited', 'current', 'trail'].includes(e.dataset.state))"
        ".map(e => +e.dataset.row * 5 + +e.dataset.col)",
    )
    assert sorted(shown) == sorted(path)

    # a late joiner (a reload) lands on the same step
    student.reload()
    expect(story).to_have_attribute("data-chapter", "dfs")
    expect(story).to_have_attribute("data-step", "2")
    expect(student.locator("#class")).to_have_attribute("data-pos", "12")
