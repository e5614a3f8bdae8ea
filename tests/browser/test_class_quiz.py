"""The class quiz "where next?" in a real browser: a teacher's page and students' phones,
each in its own browser context, on the live server.

The quiz panel (#c-quiz, static/js/class/quiz.js) says what it shows in data-*
attributes: ``data-phase`` (none | open | revealed), ``data-place`` (none | coming |
here: where the class and this page's board stand with the question), ``data-index``
(the question's position), ``data-mine``, ``data-answer``, ``data-outcome``,
``data-entered``; its distribution list items carry ``data-square`` and ``data-count``.
On a phone the panel is a sheet (#q-sheet, a modal <dialog>) that opens when the question
reaches the phone's board. The right square comes from the engine's walker, never from the
page. The tests wait on those attributes, never on time.
"""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import solve
from tests.support.follower import SIX_BY_SIX, reference

from .conftest import playwright_sync
from .test_class import (
    hand_out_puzzle,
    join,
    open_class,
    open_setup,
    play_tour,
    puzzle_square,
    set_range,
    settled,
    try_puzzle,
)

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

# 8x8 under Warnsdorff from a8: 64 moves and no backtrack, so every position asks a move
STRAIGHT = {**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}

# Where the sheet stands and whether the focus is in it (a phone's sheet takes the screen).
SHEET = """() => {
  const sheet = document.querySelector('#q-sheet');
  const r = sheet.getBoundingClientRect();
  return {open: sheet.open, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          width: innerWidth, height: innerHeight,
          focus: Boolean(document.activeElement && document.activeElement.closest('#q-sheet'))};
}"""


def square(page, sq: int):
    return page.locator(f'#c-quiz .q-board .sq[data-row="{sq // 8}"][data-col="{sq % 8}"]')


def takes_the_screen(student) -> None:
    """The question's sheet is open over the whole phone, with the focus in it."""
    expect(student.locator("#q-sheet")).to_be_visible()
    sheet = student.evaluate(SHEET)
    assert sheet["open"] and sheet["focus"], sheet
    assert sheet["left"] <= 0.5 and sheet["top"] <= 0.5, sheet
    assert sheet["right"] >= sheet["width"] - 0.5 and sheet["bottom"] >= sheet["height"] - 0.5
    board = student.locator("#c-quiz .q-board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= sheet["height"], board


def enter(student, name: str) -> None:
    """The name, given in the question's sheet (once per room)."""
    student.fill("#q-name", name)
    student.click("#q-name-form button[type=submit]")
    expect(student.locator("#c-quiz")).to_have_attribute("data-entered", "true")
    expect(student.locator("#q-name-form")).to_be_hidden()


def start_straight_demo(teacher, speed: int = 10) -> None:
    teacher.check('input[name="preset"][value="8x8"]', force=True)
    teacher.check('input[name="algorithm"][value="warnsdorff"]', force=True)
    teacher.click('.c-lane .sq[data-row="0"][data-col="0"]')
    set_range(teacher, "#w-speed", speed)  # a few events a second
    teacher.click("#c-go")
    expect(teacher.locator("#class")).to_have_attribute("data-playing", "true")
    teacher.wait_for_function("() => +document.querySelector('#class').dataset.pos >= 3")


def pause(teacher) -> None:
    teacher.click('[data-action="play"]')
    settled(teacher)


def ask(teacher) -> int:
    """The teacher asks; the question's index (where the class was moved, maybe further)."""
    teacher.click("#c-tab-quiz")  # the quiz's panel (the leaderboard's may be showing)
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "open")
    index = int(quiz.get_attribute("data-index"))
    expect(teacher.locator("#class")).to_have_attribute("data-pos", str(index))
    return index


def test_three_students_answer_in_the_sheet_and_see_the_reveal_there(new_page, artifacts):
    teacher, code = open_class(new_page)
    names = ("Ada", "Ben", "Cy")
    students = [join(new_page, code) for _ in names]
    expect(teacher.locator("#c-students")).to_have_text("3")
    start_straight_demo(teacher)
    pause(teacher)

    index = ask(teacher)
    path = reference(STRAIGHT, index).path
    right = reference(STRAIGHT, index + 1).path[-1]
    wrong = next(sq for sq in range(64) if sq != right and sq not in path)
    for student, name in zip(students, names, strict=True):
        quiz = student.locator("#c-quiz")
        expect(quiz).to_have_attribute("data-phase", "open")
        expect(quiz).to_have_attribute("data-index", str(index))
        expect(student.locator("#class")).to_have_attribute("data-pos", str(index))
        expect(quiz).to_have_attribute("data-answer", "")  # nothing told before the reveal
        takes_the_screen(student)  # the name first: the focus is in its field
        expect(student.locator("#q-name")).to_be_focused()
        enter(student, name)
        expect(student.locator("#c-me")).to_contain_text(name)

    chosen = dict(zip(names, (right, right, wrong), strict=True))
    for student, name in zip(students, names, strict=True):
        square(student, chosen[name]).click()  # one tap
        quiz = student.locator("#c-quiz")
        expect(quiz).to_have_attribute("data-mine", str(chosen[name]))
        expect(quiz.locator(".q-status")).to_contain_text("Waiting for the reveal")
    students[0].screenshot(path=str(artifacts / "class-quiz-student-answered.png"))
    # the teacher's live count and tally (the distribution of the answers so far)
    expect(teacher.locator("#c-quiz .q-status")).to_contain_text("3 of 3 students answered")
    tally = teacher.locator("#c-quiz .q-distribution li")
    expect(tally).to_have_count(2)
    expect(tally.nth(0)).to_have_attribute("data-square", str(right))
    expect(tally.nth(0)).to_have_attribute("data-count", "2")
    expect(tally.nth(1)).to_have_attribute("data-square", str(wrong))
    for student in students:  # a student sees no tally before the reveal
        expect(student.locator("#c-quiz .q-distribution")).to_be_hidden()

    students[2].click("#q-close")  # one closes the sheet: the bar brings it back
    expect(students[2].locator("#q-sheet")).to_be_hidden()
    expect(students[2].locator("#q-bar")).to_have_attribute("data-state", "closed")
    teacher.click("#q-reveal")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
    # the projected board rings the right square over the class's distribution
    lane = teacher.locator(".c-lane .board")
    expect(lane.locator('.sq[data-hint="true"]')).to_have_count(1)
    row, col = divmod(right, STRAIGHT["cols"])
    ringed = lane.locator(f'.sq[data-row="{row}"][data-col="{col}"]')
    expect(ringed).to_have_attribute("data-hint", "true")
    expect(lane).to_have_attribute("data-heat", "true")
    teacher.click("#q-why")
    for student, name in zip(students, names, strict=True):
        quiz = student.locator("#c-quiz")
        expect(quiz).to_have_attribute("data-phase", "revealed")
        expect(student.locator("#q-sheet")).to_be_visible()  # the reveal comes as a sheet
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
        # the why: the candidates in the order tried, the move made among them
        expect(quiz.locator(f'.q-why li[data-square="{right}"]')).to_have_attribute(
            "data-state", "chosen"
        )
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

    # the class moves on: the question is gone from every page, ready for the next
    teacher.click('[data-action="step"]')
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "none")
    expect(teacher.locator("#q-ask")).to_be_enabled()
    for student in students:
        expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "none")
        expect(student.locator("#q-sheet")).to_be_hidden()
        expect(student.locator("#q-bar")).to_be_hidden()


def test_one_name_serves_the_quiz_and_the_puzzle(new_page):
    teacher, code = open_class(new_page)
    student = join(new_page, code)
    hand_out_puzzle(teacher)
    start_straight_demo(teacher, speed=1)
    pause(teacher)

    # a question the student does not answer, revealed: then the puzzle tab
    ask(teacher)
    takes_the_screen(student)
    teacher.click("#q-reveal")
    quiz = student.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "revealed")
    expect(quiz.locator(".q-status")).not_to_have_class("q-error")
    student.click("#q-close")
    student.click("#c-tab-puzzle")
    expect(student.locator("#c-puzzle")).to_be_visible()  # the puzzle, not the old quiz
    expect(student.locator("#q-sheet")).to_be_hidden()
    for alert in student.locator("[role=alert]").all():  # and no stale error
        expect(alert).to_be_hidden()

    # the puzzle asks the name (the first time it is needed) and plays under it
    student.fill("#c-name", "Mei")
    student.click("#c-try")
    expect(puzzle_square(student, 4, 0)).to_have_attribute("data-state", "current")
    expect(student.locator("#c-me")).to_contain_text("Mei")
    play_tour(student, solve(Board(5, 5), 20).tour)  # a1 is row 4, column 0
    entry = teacher.locator("#c-leaderboard tbody tr")
    expect(entry).to_have_count(1)
    expect(entry.locator("td").nth(1)).to_have_text("Mei")

    # the next question does not ask it again, nor does a reload
    teacher.click('[data-action="step"]')
    settled(teacher)
    index = ask(teacher)
    takes_the_screen(student)
    expect(student.locator("#q-name-form")).to_be_hidden()
    right = reference(STRAIGHT, index + 1).path[-1]
    square(student, right).click()
    expect(quiz).to_have_attribute("data-mine", str(right))
    student.reload()
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(student.locator("#c-quiz")).to_have_attribute("data-mine", str(right))
    expect(student.locator("#c-me")).to_contain_text("Mei")
    expect(student.locator("#q-name-form")).to_be_hidden()
    teacher.click("#q-reveal")
    row = teacher.locator('#c-quiz .q-scores tr[data-student="Mei"]')
    expect(row).to_have_attribute("data-right", "1")


# Every change of the student's quiz place, with the index the page showed then.
RECORD_PLACES = """() => {
  window.places = [];
  const quiz = document.querySelector('#c-quiz');
  new MutationObserver(() => window.places.push(
    [quiz.dataset.place, +document.querySelector('#class').dataset.pos,
     document.querySelector('#q-sheet').open]
  )).observe(quiz, {attributes: true, attributeFilter: ['data-place']});
}"""


def test_a_question_asked_while_playing_reaches_the_phones_with_their_boards(new_page):
    teacher, code = open_class(new_page)
    student = join(new_page, code)
    start_straight_demo(teacher, speed=14)
    student.evaluate(RECORD_PLACES)
    teacher.click("#q-ask")  # while the class plays: it plays on to the question
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-phase", "open")
    expect(teacher.locator("#c-quiz .q-moved")).to_contain_text("The class plays on to step")
    index = int(quiz.get_attribute("data-index"))
    expect(student.locator("#q-sheet")).to_be_visible()
    expect(student.locator("#class")).to_have_attribute("data-pos", str(index))
    places = [p for p in student.evaluate("() => window.places") if p[0] != "none"]
    assert places[0][0] == "coming" and places[0][1] < index, places  # on its way: the bar
    assert not places[0][2], places  # no sheet yet
    here = next(p for p in places if p[0] == "here")
    assert here[1] == index, places  # the sheet came with the board at the question
    expect(teacher.locator("#class")).to_have_attribute("data-pos", str(index))
    expect(teacher.locator('[data-action="step"]')).to_be_disabled()  # held until the reveal


def test_the_quiz_resets_when_the_lesson_moves_on(new_page):
    teacher, code = open_class(new_page)
    student = join(new_page, code)
    teacher.select_option("#c-lesson-select", "dfs")
    teacher.click("#c-lesson-start")
    teacher.click('#c-lesson [data-lesson="next"]')
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-step", "2")
    settled(teacher)
    ask(teacher)
    takes_the_screen(student)
    teacher.click("#q-reveal")
    expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
    teacher.click('#c-lesson [data-lesson="next"]')  # the lesson's next step
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-step", "3")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "none")
    expect(teacher.locator("#c-quiz .q-distribution")).to_be_hidden()
    expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "none")
    expect(student.locator("#q-sheet")).to_be_hidden()
    open_setup(teacher)
    teacher.select_option("#c-lesson-select", "warnsdorff")  # another chapter: another demo
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-chapter", "warnsdorff")
    expect(student.locator("#c-quiz")).to_have_attribute("data-phase", "none")


def test_a_refused_ask_says_why_until_an_ask_succeeds(new_page):
    teacher, _code = open_class(new_page)
    teacher.check('input[name="algorithm"][value="warnsdorff"]', force=True)
    teacher.click("#c-go")  # 5x5 Warnsdorff: over at once, nothing left to ask about
    expect(teacher.locator("#class")).to_have_attribute("data-follow", "ended")
    settled(teacher)
    teacher.click("#q-ask")
    status = teacher.locator("#c-quiz .q-status")
    expect(status).to_have_class("q-status q-error")
    expect(status).not_to_be_empty()
    open_setup(teacher)
    start_straight_demo(teacher)  # another demo, paused: the ask works
    pause(teacher)
    ask(teacher)
    expect(status).not_to_have_class("q-status q-error")
    expect(teacher.locator("#c-error")).to_be_hidden()


def test_the_teacher_removes_a_name_and_gives_the_attempts_back(new_page):
    """A name that should not be there: the teacher removes it from the scores list (after
    a confirmation); that student's page asks for a name again, and the name is free."""
    teacher, code = open_class(new_page)
    squatter, student = join(new_page, code), join(new_page, code)
    hand_out_puzzle(teacher)
    try_puzzle(squatter, "Mei")
    expect(squatter.locator("#c-me")).to_contain_text("Mei")

    teacher.click("#c-setup summary")  # the setup folded away, as once a demo runs
    expect(teacher.locator("#c-setup")).not_to_have_attribute("open", "")
    teacher.click("#c-tab-quiz")
    row = teacher.locator('#c-quiz .q-scores tr[data-student="Mei"]')
    remove = row.get_by_role("button", name="Remove “Mei”")
    teacher.once("dialog", lambda dialog: dialog.dismiss())  # a second thought: nothing
    remove.click()
    expect(row).to_have_count(1)
    teacher.once("dialog", lambda dialog: dialog.accept())
    remove.click()
    expect(row).to_have_count(0)
    expect(squatter.locator("#c-quiz")).to_have_attribute("data-entered", "false")
    expect(squatter.locator("#c-me")).to_be_hidden()
    expect(squatter.locator("#q-name-form")).not_to_have_attribute("hidden", "")  # asked again

    # the name is free for the student it belongs to
    try_puzzle(student, "Mei")
    expect(student.locator("#c-me")).to_contain_text("Mei")
    expect(row).to_have_count(1)

    teacher.click("#c-tab-board")
    teacher.click("#c-attempts-clear")
    expect(teacher.locator("#c-attempts-given")).to_have_text(
        "Every student has their attempts back."
    )
