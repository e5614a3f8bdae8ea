"""The class quiz "where next?" in a real browser: a teacher's page and three students'
phones, each in its own browser context, on the live server.

The quiz panel (#c-quiz, static/js/class/quiz.js) says what it shows in data-*
attributes: ``data-phase`` (none | open | revealed), ``data-index`` (the question's
position), ``data-mine``, ``data-answer``, ``data-outcome``; its distribution list items
carry ``data-square`` and ``data-count``. The right square comes from the engine's
walker, never from the page. The tests wait on those attributes, never on time.
"""

from __future__ import annotations

import pytest

from tests.support.follower import SIX_BY_SIX, reference

from .conftest import playwright_sync
from .test_class import join, open_class, set_range, settled

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

# 8x8 under Warnsdorff from a8: 64 moves and no backtrack, so every position asks a move
STRAIGHT = {**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}


def square(page, sq: int):
    return page.locator(f'#c-quiz .q-board .sq[data-row="{sq // 8}"][data-col="{sq % 8}"]')


def enter(student, name: str) -> None:
    student.fill("#q-name", name)
    student.click("#q-name-form button[type=submit]")
    expect(student.locator("#q-name-form")).to_be_hidden()


def start_straight_demo(teacher) -> None:
    teacher.check('input[name="preset"][value="8x8"]', force=True)
    teacher.check('input[name="algorithm"][value="warnsdorff"]', force=True)
    teacher.click('.c-lane .sq[data-row="0"][data-col="0"]')
    set_range(teacher, "#w-speed", 10)  # a few events a second
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "true")
    teacher.wait_for_function("() => +document.querySelector('#class').dataset.pos >= 3")
    teacher.click('[data-action="play"]')  # pause
    settled(teacher)


def ask(teacher) -> int:
    """The teacher asks; the question's index (where the class was sent, maybe further)."""
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "open")
    index = int(quiz.get_attribute("data-index"))
    expect(teacher.locator("#class")).to_have_attribute("data-pos", str(index))
    return index


def test_three_students_answer_the_reveal_and_the_scores(new_page, artifacts):
    teacher, code = open_class(new_page)
    names = ("Ada", "Ben", "Cy")
    students = [join(new_page, code) for _ in names]
    for student, name in zip(students, names, strict=True):
        enter(student, name)
    expect(teacher.locator("#c-students")).to_have_text("3")
    start_straight_demo(teacher)

    index = ask(teacher)
    path = reference(STRAIGHT, index).path
    right = reference(STRAIGHT, index + 1).path[-1]
    wrong = next(sq for sq in range(64) if sq != right and sq not in path)
    for student in students:
        quiz = student.locator("#c-quiz")
        expect(quiz).to_have_attribute("data-phase", "open")
        expect(quiz).to_have_attribute("data-index", str(index))
        expect(student.locator("#class")).to_have_attribute("data-pos", str(index))
        expect(quiz).to_have_attribute("data-answer", "")  # nothing told before the reveal

    chosen = dict(zip(names, (right, right, wrong), strict=True))
    for student, name in zip(students, names, strict=True):
        square(student, chosen[name]).click()
        expect(student.locator("#c-quiz")).to_have_attribute("data-mine", str(chosen[name]))
    # the teacher's live count and tally (the distribution of the answers so far)
    expect(teacher.locator("#c-quiz .q-status")).to_contain_text("3 of 3 students answered")
    tally = teacher.locator("#c-quiz .q-distribution li")
    expect(tally).to_have_count(2)
    expect(tally.nth(0)).to_have_attribute("data-square", str(right))
    expect(tally.nth(0)).to_have_attribute("data-count", "2")
    expect(tally.nth(1)).to_have_attribute("data-square", str(wrong))
    for student in students:  # a student sees no tally before the reveal
        expect(student.locator("#c-quiz .q-distribution")).to_be_hidden()

    teacher.click("#q-reveal")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
    for student, name in zip(students, names, strict=True):
        quiz = student.locator("#c-quiz")
        expect(quiz).to_have_attribute("data-phase", "revealed")
        expect(quiz).to_have_attribute("data-answer", str(right))
        expect(quiz).to_have_attribute("data-mine", str(chosen[name]))
        outcome = "right" if chosen[name] == right else "wrong"
        expect(quiz).to_have_attribute("data-outcome", outcome)
        counts = quiz.locator(".q-distribution li")
        expect(counts).to_have_count(2)
        expect(counts.nth(0)).to_have_attribute("data-right", "true")
        expect(counts.nth(0)).to_have_attribute("data-count", "2")
        expect(counts.nth(1)).to_have_attribute("data-count", "1")
        expect(quiz.locator(".q-distribution li[data-mine]")).to_have_attribute(
            "data-square", str(chosen[name])
        )
        expect(square(student, right)).to_have_attribute("data-state", "legal")
        # each student sees their own score only
        right_count = "1" if outcome == "right" else "0"
        expect(quiz.locator(".q-score")).to_have_attribute("data-right", right_count)
        expect(quiz.locator(".q-score")).to_have_text(f"Your score: {right_count} of 1")
        assert student.locator(".q-scores").count() == 0
        others = [n for n in names if n != name]
        assert not any(other in student.locator("body").inner_text() for other in others)

    # the teacher sees everyone's
    rows = teacher.locator("#c-quiz .q-scores tbody tr")
    expect(rows).to_have_count(3)
    for name in names:
        row = teacher.locator(f'#c-quiz .q-scores tr[data-student="{name}"]')
        expect(row).to_have_attribute("data-right", "1" if chosen[name] == right else "0")
    teacher.screenshot(path=str(artifacts / "class-quiz-teacher-scores.png"))
    students[2].screenshot(path=str(artifacts / "class-quiz-student-wrong.png"))
