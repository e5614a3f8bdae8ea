"""A whole lesson acted in the browser: a teacher at 1280x800, then in the projector view at
1920x1080, and three phones, all in Chinese.

The teacher walks every chapter of the guided lesson with the chapter picker and its steps,
then asks and reveals the quiz at ten random paused moments (a seeded ``random.Random``:
paused by clicking pause while it plays, or by stepping) of each of 5x5 plain
backtracking, 6x6 plain backtracking and 8x8 Warnsdorff (the lesson's own chapters).
Every phone gets each question as a sheet, answers it and sees the reveal; at every step
the presenter view's parts are inside the screen and do not overlap (presenter.py).
Nothing here waits on time: every wait is for what a page shows.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from .conftest import playwright_sync
from .presenter import check_presenter
from .test_class import PHONE, open_setup, set_range, settled

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

CHAPTERS = json.loads(
    (Path(__file__).resolve().parents[2] / "server/lesson/chapters.json").read_text("utf-8")
)["chapters"]
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
NAMES = ("小明", "小红", "小刚")
QUESTIONS = 10
# The quiz's demos, as the lesson's chapters: (chapter, speed slider step, most events a
# random move goes on). 8x8 Warnsdorff has 64 events: ten questions need short moves.
QUIZ_DEMOS = (("dfs", 30, 6), ("explode6", 30, 6), ("warnsdorff", 8, 2))
# Too long for a test: the 8x8 plain search run to its end (250 million nodes).
SKIPPED_STEPS = {("explode8", 1)}


def lesson_at(teacher, phones, chapter: str, step: int) -> None:
    """Every page stands at the lesson's chapter and step (from 1)."""
    for page in (teacher, *phones):
        story = page.locator("#c-lesson")
        expect(story).to_have_attribute("data-chapter", chapter)
        expect(story).to_have_attribute("data-step", str(step))


def pick_chapter(teacher, chapter: str) -> None:
    """The chapter picker, in the setup (which folds again once the chapter runs)."""
    open_setup(teacher)
    teacher.select_option("#c-lesson-select", chapter)
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-chapter", chapter)
    expect(teacher.locator("#c-setup")).not_to_have_attribute("open", "")


def wander(teacher, rng: random.Random, most: int) -> None:
    """On to a random paused moment: a few steps, or play and pause a few events on."""
    here = settled(teacher)
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, most)):
            teacher.click('[data-action="step"]')
    else:
        teacher.click('[data-action="play"]')
        target = here + rng.randint(1, most)
        teacher.wait_for_function(
            f"() => +document.querySelector('#class').dataset.pos >= {target}"
        )
        teacher.click('[data-action="play"]')  # pause
    settled(teacher)


# A phone whose sheet shows question `index`, open over the whole screen with the focus in
# it: its geometry, once so (a phone waits on this, one call per question).
SHEET_OPEN = """(index) => {
  const quiz = document.querySelector('#c-quiz');
  const sheet = document.querySelector('#q-sheet');
  const focus = document.activeElement && document.activeElement.closest('#q-sheet');
  if (!sheet.open || quiz.dataset.index !== index || quiz.dataset.place !== 'here' || !focus)
    return false;
  const r = sheet.getBoundingClientRect();
  const b = quiz.querySelector('.q-board').getBoundingClientRect();
  return {sheet: [r.left, r.top, r.right, r.bottom], board: [b.top, b.bottom],
          view: [innerWidth, innerHeight], entered: quiz.dataset.entered === 'true'};
}"""
# The phone's answer is in, and said so ("answered, waiting for the reveal").
ANSWERED = """() => {
  const quiz = document.querySelector('#c-quiz');
  const status = quiz.querySelector('.q-status').textContent;
  return quiz.dataset.mine !== '' && status.includes('等老师揭晓');
}"""
# The reveal, in the sheet: the right square, the class's answers, the student's score.
REVEALED = """() => {
  const quiz = document.querySelector('#c-quiz');
  return document.querySelector('#q-sheet').open && quiz.dataset.phase === 'revealed'
    && quiz.dataset.answer !== '' && !quiz.querySelector('.q-score').hidden
    && !quiz.querySelector('.q-distribution').hidden;
}"""


def quiz_round(teacher, phones, rng: random.Random, where: str) -> None:
    """Ask; every phone answers in its sheet; reveal; every phone sees it there."""
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "open")
    index = quiz.get_attribute("data-index")
    expect(teacher.locator("#class")).to_have_attribute("data-pos", index)
    for phone, name in zip(phones, NAMES, strict=True):
        sheet = phone.wait_for_function(SHEET_OPEN, arg=index).json_value()
        left, top, right, bottom = sheet["sheet"]
        width, height = sheet["view"]
        assert left <= 0.5 and top <= 0.5 and right >= width - 0.5 and bottom >= height - 0.5
        assert sheet["board"][0] >= 0 and sheet["board"][1] <= height, (where, sheet)
        if not sheet["entered"]:
            phone.fill("#q-name", name)  # once per room
            phone.click("#q-name-form button[type=submit]")
            expect(phone.locator("#c-quiz")).to_have_attribute("data-entered", "true")
        targets = phone.locator('#c-quiz .q-board .sq[data-state="legal"]')
        targets.nth(rng.randrange(targets.count())).click()  # one tap
    for phone in phones:
        phone.wait_for_function(ANSWERED)
    expect(quiz.locator(".q-status")).to_contain_text("3 名学生中 3 名已回答")
    check_presenter(
        teacher, "quiz", lesson=True, parts=("quiz-status", "tally", "reveal"), where=where
    )
    teacher.click("#q-reveal")
    expect(quiz).to_have_attribute("data-phase", "revealed")
    for phone in phones:
        phone.wait_for_function(REVEALED)
    check_presenter(teacher, "quiz", lesson=True, parts=("quiz-status", "tally"), where=where)


# The whole walk (30 questions on four pages, every step checked) is the suite's
# longest test: it took five minutes on a loaded 2-core machine, at the default's edge.
@pytest.mark.timeout(900)
def test_a_whole_lesson_with_the_quiz_on_three_phones(new_page, artifacts):
    rng = random.Random(20261126)
    teacher = new_page(viewport=LAPTOP, locale="zh-CN")
    teacher.goto("/class/new?lang=zh")
    teacher.click("#c-open")
    room = teacher.locator("#class")
    expect(room).to_have_attribute("data-connection", "joined")
    code = room.get_attribute("data-code")
    phones = [new_page(**PHONE, locale="zh-CN") for _ in NAMES]
    for phone in phones:
        phone.goto(f"/class/{code}?lang=zh")
        expect(phone.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(teacher.locator("#c-students")).to_have_text("3")

    # Every chapter with the picker, every step with the lesson's own button.
    teacher.select_option("#c-lesson-select", CHAPTERS[0]["id"])
    teacher.click("#c-lesson-start")
    for number, chapter in enumerate(CHAPTERS):
        if number:
            pick_chapter(teacher, chapter["id"])
        for step in range(len(chapter["steps"])):
            if step:
                if (chapter["id"], step) in SKIPPED_STEPS:
                    break
                teacher.click('#c-lesson [data-lesson="next"]')
            lesson_at(teacher, phones, chapter["id"], step + 1)
            check_presenter(
                teacher, "quiz", lesson=True, parts=("lesson-text", "ask"), where=chapter["id"]
            )

    # The quiz at random paused moments of three of the lesson's demos.
    for number, (chapter, speed, most) in enumerate(QUIZ_DEMOS):
        if number == 1:  # the rest in the projector view
            pick_chapter(teacher, chapter)
            teacher.set_viewport_size(PROJECTOR)
            teacher.keyboard.press("p")
            expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
        elif number:
            teacher.keyboard.press("Escape")  # the picker is on the laptop's view
            pick_chapter(teacher, chapter)
            teacher.keyboard.press("p")
            expect(teacher.locator("body")).to_have_attribute("data-projector", "on")
        else:
            pick_chapter(teacher, chapter)
        lesson_at(teacher, phones, chapter, 1)
        set_range(teacher, "#w-speed", speed)
        for question in range(QUESTIONS):
            wander(teacher, rng, most)
            quiz_round(teacher, phones, rng, f"{chapter} question {question + 1}")
        teacher.screenshot(path=str(artifacts / f"class-lesson-walk-{chapter}.png"))
