"""Every page at a phone's size (375x667) and a desktop's (1280x800), in both languages (the
class teacher's page also at 1920x1080 and in the projector view), in a fixed position, as
PNGs under test-artifacts/screens/ (``SCREENS_DIR`` elsewhere): the set to compare by eye
before and after a change to the browser code. Each shot also fails on a JavaScript error
or on a page wider than its screen.

A minute of chromium: run on demand (``make screens``), not by ``make test``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.engine.board import Board
from server.engine.search import solve
from server.lab import program
from tests.support.pages import (
    SIZES,
    SQUARE,
    api,
    open_class_page,
    pause_class_demo,
    play_page,
    start_class_demo,
    watch_at,
    won_puzzle_replay,
)
from tests.witness import checked_witness

from .conftest import ARTIFACTS, playwright_sync
from .test_class import hand_out_puzzle, play_tour, set_range, try_puzzle
from .test_lab import type_program
from .test_practice import CARD, Search, answer, asked, narrow, switch_on

expect = playwright_sync.expect

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("SCREENS"), reason="make screens takes these"),
]

PROJECTOR = {"width": 1920, "height": 1080}
PLAY_OPENING = [(7, 0), (5, 1), (3, 0), (1, 1), (0, 3)]
SHOW_ME_FROM = [(5, 7), (3, 6), (1, 7), (2, 5), (0, 6)]


@pytest.fixture(scope="module")
def screens() -> Path:
    folder = Path(os.environ.get("SCREENS_DIR", ARTIFACTS / "screens"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    """Each test that asks for it runs at a phone's size and at a desktop's."""
    return request.param


@pytest.fixture(params=["en", "zh"])
def lang(request) -> str:
    """Each test that asks for it runs in both languages."""
    return request.param


@pytest.fixture
def page(new_page, size):
    """A fresh page at the test's ``size``."""
    return new_page(**SIZES[size])


def shoot(page, folder: Path, name: str, panel: str | None = None) -> None:
    """The page from its top (or scrolled to ``panel``) as ``name``.png; it fails when the
    page is wider than its screen."""
    if panel is None:
        page.evaluate("window.scrollTo(0, 0)")
    else:
        page.locator(panel).scroll_into_view_if_needed()
    page.wait_for_timeout(150)  # transitions settle
    page.screenshot(path=str(folder / f"{name}.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], name


def shoot_teacher(
    teacher, folder: Path, prefix: str, suffix: str, panel: str | None = None
) -> None:
    """The teacher's page at 1280x800, at 1920x1080, in the projector view and on a phone
    (scrolled to ``panel`` there), as ``{prefix}-{view}-{suffix}``.png; then at 1280x800
    again."""
    shoot(teacher, folder, f"{prefix}-desktop-{suffix}")
    teacher.set_viewport_size(PROJECTOR)
    shoot(teacher, folder, f"{prefix}-1920-{suffix}")
    teacher.keyboard.press("p")
    expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
    shoot(teacher, folder, f"{prefix}-projector-{suffix}")
    teacher.keyboard.press("Escape")
    expect(teacher.locator("body")).to_have_attribute("data-projector", "off")
    teacher.set_viewport_size(SIZES["phone"]["viewport"])
    shoot(teacher, folder, f"{prefix}-phone-{suffix}", panel)
    teacher.set_viewport_size(SIZES["desktop"]["viewport"])


def class_with_students(new_page, lang: str):
    """A class opened on a desktop teacher's page, and a student joined on each size:
    (the teacher's page, ``{size: the student's page}``)."""
    teacher = new_page(**SIZES["desktop"])
    code = open_class_page(teacher, lang)
    students = {size: new_page(**SIZES[size]) for size in SIZES}
    for student in students.values():
        student.goto(f"/class/{code}?lang={lang}")
        expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    return teacher, students


def watch_sought(page, query: str, index: int, lang: str) -> None:
    """The Watch page's run started, paused, then sought to event ``index``."""
    page.goto(f"/watch?lang={lang}{query}&speed=1&go=1")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "running")
    page.locator("[data-action=play]").click()
    set_range(page, "#w-seek", index)


def test_play(page, screens, size, lang):
    play_page(page, 8, PLAY_OPENING, lang)
    page.click('.controls [data-action="hint"]')
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(1)
    shoot(page, screens, f"play-{size}-{lang}")


def test_play_win_replay(page, screens, size, lang):
    play_page(page, 5, [divmod(sq, 5) for sq in solve(Board(5, 5), 0).tour], lang)
    expect(page.locator("#win")).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(screens / f"play-win-{size}-{lang}.png"))


def test_show_me(page, screens, size, lang):
    play_page(page, 8, SHOW_ME_FROM, lang)
    page.click('.controls [data-action="show-me"]')
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 12")
    page.screenshot(path=str(screens / f"showme-{size}-{lang}.png"))


def test_watch(page, screens, size, lang):
    watch_at(page, "&rows=6&cols=6&start=0,0&algorithm=warnsdorff", 14, lang)
    shoot(page, screens, f"watch-{size}-{lang}")


def test_watch_race_and_heat(page, screens, size, lang):
    page.goto(f"/watch?lang={lang}&rows=6&cols=6&start=0,0&b=warnsdorff&speed=max&go=1")
    page.wait_for_selector("[data-side=a][data-status=found]", timeout=60_000)
    page.wait_for_selector("[data-side=b][data-status=found]")
    page.locator("label.w-heat-toggle").click()
    shoot(page, screens, f"watch-race-heat-{size}-{lang}")


def test_lab(page, screens, size, lang):
    """The code lab: the starting program run on 6x6 from a1, stood at event 40 (the editor
    lights the line that wrote it); on a phone the lane below the code too."""
    page.goto(f"/lab?lang={lang}")
    expect(page.locator("#lab")).to_have_attribute("data-python", "ready", timeout=90_000)
    page.locator("label.chip", has_text="6×6").click()
    page.click("#lab-run")
    expect(page.locator("#lab")).to_have_attribute("data-run-status", "found", timeout=60_000)
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "running")
    page.locator("[data-action=play]").click()
    set_range(page, "#w-seek", 40)
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("40")
    shoot(page, screens, f"lab-{size}-{lang}")
    if size == "phone":
        shoot(page, screens, f"lab-lane-{size}-{lang}", panel="[data-side=a]")


def test_watch_an_articles_program(page, screens, size, lang):
    """The Python article as written on 5x5 from c3, run to its false tour, the code panel
    on the article's own listing; then the C article's stack array beside its recursion."""
    page.goto(f"/watch?lang={lang}&algorithm=a001-python&rows=5&cols=5&start=2,2&speed=max&go=1")
    page.wait_for_selector("[data-side=a][data-status=declared]", timeout=60_000)
    shoot(page, screens, f"watch-article-python-{size}-{lang}")
    shoot(page, screens, f"watch-article-python-code-{size}-{lang}", panel=".w-code-panel")
    page.goto(f"/lesson?lang={lang}#loop-c/2")
    page.wait_for_selector("#lesson[data-ready=true]")
    page.wait_for_function(
        "() => +document.querySelector('[data-side=a] [data-role=stack]').dataset.depth >= 12"
    )
    stack = "[data-side=a] .st-panel" if size == "desktop" else "[data-side=a]"  # a phone folds it
    shoot(page, screens, f"lesson-loop-c-{size}-{lang}", panel=stack)


def test_practice(page, screens, size, lang):
    """The practice: on /watch a question taken on the board, its why after a wrong tap, a
    count asked on the pad; on /lesson a frame question and its why, and (a desktop's)
    the lesson's projector view asking."""
    page.goto(f"/watch?lang={lang}&test&rows=6&cols=6&start=0,0&algorithm=seed&speed=20&go=1")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "running")
    search = Search(6, 6, 0)
    switch_on(page, kinds=["pick"])
    index, _ = asked(page, "pick")
    shoot(page, screens, f"practice-watch-open-{size}-{lang}", panel="[data-side=a]")
    right = search.answer("pick", index, None)
    answer(page, "pick", search.wrong("pick", index, right), 6)
    expect(page.locator(CARD)).to_have_attribute("data-outcome", "wrong")
    shoot(page, screens, f"practice-watch-why-{size}-{lang}", panel="[data-side=a]")
    narrow(page, "onward")
    page.locator(f"{CARD} [data-role=continue]").click()
    asked(page, "onward")
    shoot(page, screens, f"practice-watch-pad-{size}-{lang}", panel=CARD)

    page.goto(f"/lesson?lang={lang}&test#dfs/1")
    page.wait_for_selector("#lesson[data-ready=true]")
    lesson = Search(5, 5, 0)
    switch_on(page, kinds=["frame"])
    page.locator("[data-lesson=play]").click()
    index, _ = asked(page, "frame")
    shoot(page, screens, f"practice-lesson-open-{size}-{lang}", panel="[data-side=a]")
    answer(page, "frame", lesson.answer("frame", index, None), 5)
    expect(page.locator(CARD)).to_have_attribute("data-outcome", "right")
    shoot(page, screens, f"practice-lesson-why-{size}-{lang}", panel=CARD)
    if size == "desktop":
        page.set_viewport_size(PROJECTOR)
        page.keyboard.press("p")
        expect(page.locator("body")).to_have_attribute("data-projector", "on")
        page.screenshot(path=str(screens / f"practice-lesson-projector-{lang}.png"))


def test_class_entry_pages(page, screens, size, lang):
    page.goto(f"/class/new?lang={lang}")
    shoot(page, screens, f"class-new-{size}-{lang}")
    page.goto(f"/class?lang={lang}")
    shoot(page, screens, f"class-join-{size}-{lang}")


def test_class_teacher_and_students(new_page, screens, lang):
    teacher, students = class_with_students(new_page, lang)
    room = teacher.locator("#class")
    start_class_demo(teacher, "6×6")
    expect(room).to_have_attribute("data-follow", "ended")  # 36 moves: over at once
    expect(room).to_have_attribute("data-playing", "false")  # the page paused at the end
    expect(room).to_have_attribute("data-pending", "0")
    set_range(teacher, "#w-seek", 30)
    expect(room).to_have_attribute("data-pending", "0")
    expect(room).to_have_attribute("data-pos", "30")
    for student in students.values():
        expect(student.locator("#class")).to_have_attribute("data-pos", "30")

    teacher.click("#c-setup summary")  # folded once the demo ran
    hand_out_puzzle(teacher)
    expect(teacher.locator("#c-puzzle-now")).to_be_visible()
    expect(teacher.locator("#c-setup")).not_to_have_attribute("open", "")
    shoot_teacher(teacher, screens, "class-teacher", lang)

    tour = solve(Board(5, 5), 20).tour  # a1 is row 4, column 0
    for size, student in students.items():
        expect(student.locator("#c-tab-puzzle")).to_be_visible()
        shoot(student, screens, f"class-student-{size}-{lang}")
        try_puzzle(student, f"Ann {size}")
        play_tour(student, tour[:5])  # four moves
        shoot(student, screens, f"class-puzzle-{size}-{lang}")


def test_class_quiz(new_page, screens, lang):
    """A question open (answers coming in), then revealed with why, on every page."""
    teacher, students = class_with_students(new_page, lang)
    pause_class_demo(teacher, "8×8", "warnsdorff", speed=10, at_least=12)
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "open")
    index = int(quiz.get_attribute("data-index"))
    walker_path = reference_path(index + 1)
    right, here = walker_path[-1], walker_path[-2]
    wrong = next(sq for sq in range(64) if sq not in walker_path and knight_step(here, sq))
    for size, student in students.items():
        expect(student.locator("#q-sheet")).to_be_visible()
        shoot(student, screens, f"quiz-student-{size}-name-{lang}")
        student.fill("#q-name", {"phone": "Ann", "desktop": "李雷"}[size])
        student.click("#q-name-form button[type=submit]")
        expect(student.locator("#q-name-form")).to_be_hidden()
        sq = right if size == "phone" else wrong
        student.click(SQUARE.format(board="#c-quiz .q-board", row=sq // 8, col=sq % 8))
        expect(student.locator("#c-quiz")).to_have_attribute("data-mine", str(sq))
    expect(teacher.locator("#c-quiz .q-distribution li")).to_have_count(2)
    shots(teacher, students, screens, f"open-{lang}")

    teacher.click("#q-reveal")
    expect(quiz).to_have_attribute("data-phase", "revealed")
    teacher.click("#q-why")
    for student in students.values():
        expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
        expect(student.locator("#c-quiz .q-why")).to_be_visible()
        expect(student.locator("#c-quiz .q-score")).to_be_visible()
    shots(teacher, students, screens, f"revealed-{lang}")


def test_class_lesson(new_page, screens, lang):
    """The guided lesson run in a class: a student's phone on the DFS chapter's second step,
    the teacher's presenter view and its projector view."""
    teacher = new_page(**SIZES["desktop"])
    code = open_class_page(teacher, lang)
    shoot(teacher, screens, f"class-setup-teacher-desktop-{lang}")
    student = new_page(**SIZES["phone"])
    student.goto(f"/class/{code}?lang={lang}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    teacher.select_option("#c-lesson-select", "dfs")
    teacher.click("#c-lesson-start")
    teacher.click('#c-lesson [data-lesson="next"]')
    story = student.locator("#c-lesson")
    expect(story).to_have_attribute("data-step", "2")
    expect(student.locator("#class")).to_have_attribute("data-pos", "12")
    shoot(student, screens, f"class-lesson-student-phone-{lang}")
    shoot(teacher, screens, f"class-lesson-teacher-desktop-{lang}")
    teacher.set_viewport_size(PROJECTOR)
    teacher.keyboard.press("p")
    expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
    shoot(teacher, screens, f"class-lesson-teacher-projector-{lang}")


def test_class_race(new_page, screens, lang):
    """A lesson's race in a class (the Java article as written against its correction),
    run to its end: the teacher's every view and a student's phone, both searches shown."""
    teacher = new_page(**SIZES["desktop"])
    code = open_class_page(teacher, lang)
    student = new_page(**SIZES["phone"])
    student.goto(f"/class/{code}?lang={lang}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    teacher.select_option("#c-lesson-select", "fix-java1")
    teacher.click("#c-lesson-start")
    for _ in range(30):
        teacher.click('[data-action="step"]')
    expect(student.locator("#class")).to_have_attribute("data-race", "a000-java")
    expect(student.locator("#class")).to_have_attribute("data-race-pos", "31")
    shoot(student, screens, f"class-race-student-phone-{lang}")
    teacher.click('[data-action="end"]')
    expect(student.locator("#class")).to_have_attribute("data-follow", "ended")
    shoot(student, screens, f"class-race-student-phone-ended-{lang}")
    shoot_teacher(teacher, screens, "class-race-teacher", lang)


def reference_path(index: int) -> list[int]:
    """The 8x8 Warnsdorff demo from a8 after ``index`` events (64 moves, no backtrack)."""
    from tests.support.follower import SIX_BY_SIX, reference

    return reference({**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}, index).path


def knight_step(a: int, b: int) -> bool:
    return {abs(a // 8 - b // 8), abs(a % 8 - b % 8)} == {1, 2}


def shots(teacher, students, folder: Path, phase: str) -> None:
    """The teacher's every view (on a phone, the quiz's panel: it sits below the demo);
    each student's page (the question's sheet)."""
    shoot_teacher(teacher, folder, "quiz-teacher", phase, panel="#c-quiz")
    for size, student in students.items():
        shoot(student, folder, f"quiz-student-{size}-{phase}")


def stack_box(page, folder: Path, name: str) -> None:
    """The lane's call-stack panel alone, as the eye reads it."""
    panel = page.locator("[data-side=a] [data-role=stack]")
    panel.scroll_into_view_if_needed()
    page.wait_for_timeout(150)
    panel.screenshot(path=str(folder / f"{name}.png"))


def test_stack_panel(page, screens, size, lang):
    """6x6 plain backtracking just after a backtrack: failed, tried and waiting candidates."""
    watch_sought(page, "&rows=6&cols=6&start=0,0&algorithm=seed", 60, lang)
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("60")
    stack_box(page, screens, f"stack-{size}-{lang}")
    # Warnsdorff: each candidate with its onward count
    watch_sought(page, "&rows=6&cols=6&start=0,0&algorithm=warnsdorff", 12, lang)
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("12")
    stack_box(page, screens, f"stack-warnsdorff-{size}-{lang}")


def test_lesson(page, screens, size, lang):
    page.goto(f"/lesson?lang={lang}#warnsdorff/2")
    expect(page.locator("#lesson")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-side=a] [data-stat=shown]")).to_have_text("2")
    shoot(page, screens, f"lesson-{size}-{lang}")
    page.goto(f"/lesson?lang={lang}#moves/2")
    expect(page.locator("[data-side=a] .sq[data-move]")).to_have_count(8)
    shoot(page, screens, f"lesson-moves-{size}-{lang}")


def test_projector(new_page, screens, lang):
    page = new_page(viewport=PROJECTOR)
    watch_sought(page, "&rows=8&cols=8&start=0,0&algorithm=warnsdorff", 20, lang)
    page.keyboard.press("p")
    expect(page.locator("body")).to_have_attribute("data-projector", "on")
    shoot(page, screens, f"projector-watch-{lang}")
    page.goto(f"/lesson?lang={lang}#dfs/3")
    expect(page.locator("#lesson")).to_have_attribute("data-ready", "true")
    page.keyboard.press("p")
    page.keyboard.press("End")
    expect(page.locator("[data-side=a]")).to_have_attribute("data-status", "found")
    shoot(page, screens, f"projector-lesson-{lang}")


def test_editor(page, screens, size, lang):
    """A shape with holes and a fixed start: its verdict with the squares it names, then a
    tour shown on a shape that has one."""
    page.goto(f"/editor?lang={lang}&puzzle=8x8:d4,e5,a8.c")  # 61 squares: colour
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-code", "colour")
    shoot(page, screens, f"editor-verdict-{size}-{lang}")
    page.goto(f"/editor?lang={lang}&puzzle=8x8:d4,e4.c.a1")
    expect(verdict).to_have_attribute("data-tour", "true")
    page.click("#show-tour")
    expect(page.locator("#show-tour")).to_have_attribute("aria-pressed", "true")
    shoot(page, screens, f"editor-tour-{size}-{lang}")


# ---------------------------------------------------------------- shapes and levels (issue 15)
def test_level_map_and_a_level(page, screens, size, lang):
    page.goto(f"/levels?lang={lang}")
    shoot(page, screens, f"levels-map-{size}-{lang}")
    first = api(page, "GET", "/api/levels")["chapters"][0]["levels"][0]
    page.goto(f"/?lang={lang}&level={first['id']}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    shoot(page, screens, f"levels-level-{size}-{lang}")


def test_daily_replay_svg_and_worksheet(page, screens, size, lang):
    page.goto(f"/daily?lang={lang}")
    shoot(page, screens, f"daily-{size}-{lang}")
    replay = won_puzzle_replay(page, "6x6:a1,a6,c3,c4.o", checked_witness("6x6:a1,a6,c3,c4.o"))
    page.goto(f"/replay/{replay}?lang={lang}")
    shoot(page, screens, f"replay-{size}-{lang}")
    page.goto(f"/replay/{replay}.svg")
    page.screenshot(path=str(screens / f"export-svg-{size}-{lang}.png"))
    page.goto(f"/worksheet?lang={lang}&puzzle=6x6:a1,a6,c3,c4.o")
    shoot(page, screens, f"worksheet-{size}-{lang}")


def test_class_lab(new_page, screens, lang):
    """The teacher's Lab panel with a passed and a failed submission (desktop, projector),
    and the lab opened from the class on a phone."""
    teacher = new_page(**SIZES["desktop"])
    code = open_class_page(teacher, lang)
    teacher.select_option("#c-lab-preset", "plain-dfs")
    teacher.click("#c-lab-go")
    expect(teacher.locator("#class")).to_have_attribute("data-panel", "lab")
    phones = []
    for name, source in (
        ("Ann", program("start")),
        ("Bo", program("start").replace("if step == ROWS * COLS:", "if step == 10:")),
    ):
        phone = new_page(**SIZES["phone"])
        phone.goto(f"/lab?class={code}&lang={lang}")
        expect(phone.locator("#lab")).to_have_attribute("data-python", "ready", timeout=90_000)
        type_program(phone, source)
        phone.fill("#lab-class-name", name)
        phone.click("#lab-class-submit")
        phones.append(phone)
    expect(teacher.locator("#class")).to_have_attribute("data-lab-checked", "2", timeout=120_000)
    expect(phones[0].locator("#lab")).to_have_attribute("data-class-result", "passed")
    shoot_teacher(teacher, screens, "class-lab-teacher", lang, "#c-lab")
    shoot(phones[0], screens, f"class-lab-phone-{lang}")
    shoot(phones[1], screens, f"class-lab-phone-failed-{lang}")


def ask_kind(teacher, kind: str, peer: bool = False) -> None:
    """The teacher asks a question of ``kind`` (twice voted when ``peer``)."""
    teacher.select_option("#q-kind", kind)
    teacher.set_checked("#q-peer", peer)
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-kind", kind)
    expect(quiz).to_have_attribute("data-phase", "open")


def pad_answer(student, value: int) -> None:
    student.locator(f"#c-quiz .q-pad button[data-value='{value}']").click()
    expect(student.locator("#c-quiz")).to_have_attribute("data-mine", str(value))


def reveal_with_why(teacher, students) -> None:
    teacher.click("#q-reveal")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
    teacher.click("#q-why")
    for student in students.values():
        expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
        expect(student.locator("#c-quiz .q-why")).to_be_visible()


def test_class_quiz_kinds(new_page, screens, lang):
    """Each kind of question on the teacher's pages and the phones: a peer question through
    its tally, the pad, the why of each kind on the board."""
    teacher, students = class_with_students(new_page, lang)
    pause_class_demo(teacher, "6×6", "seed", speed=60, at_least=40)  # it backtracks
    ask_kind(teacher, "onward", peer=True)
    for size, student in students.items():
        expect(student.locator("#q-sheet")).to_be_visible()
        student.fill("#q-name", {"phone": "Ann", "desktop": "李雷"}[size])
        student.click("#q-name-form button[type=submit]")
        pad_answer(student, 2 if size == "phone" else 3)
    expect(teacher.locator("#c-quiz .q-distribution li")).to_have_count(2)  # both tallied
    shots(teacher, students, screens, f"onward-vote-{lang}")
    teacher.click("#q-step")  # the tally
    for student in students.values():
        expect(student.locator("#c-quiz .q-first")).to_be_visible()
    shots(teacher, students, screens, f"onward-tally-{lang}")
    teacher.click("#q-step")  # talk
    teacher.click("#q-step")  # vote again
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-step", "revote")
    pad_answer(students["desktop"], 2)
    reveal_with_why(teacher, students)
    expect(teacher.locator("#c-quiz .q-moves")).to_be_visible()
    shots(teacher, students, screens, f"onward-revealed-{lang}")
    for kind in ("backtrack", "frame", "possible", "pick"):
        ask_kind(teacher, kind)
        reveal_with_why(teacher, students)
        shots(teacher, students, screens, f"{kind}-revealed-{lang}")
