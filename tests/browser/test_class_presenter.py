"""The teacher's presenter view: once the demo runs, the board, the narration (the lane's
and the guided lesson's), the transport, the join code and the open panel (the quiz with its
tally, or the puzzle's leaderboard) share one screen: at 1280x800, at 1920x1080 and in the
projector view at 1920x1080 (no text under 24 px there), in both languages.
tests/browser/presenter.py measures it; axe-core reads the teacher's page and the student's
sheet with a question open (test_a11y.py reads the pages before any question).
"""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import solve

from .conftest import playwright_sync
from .presenter import check_presenter
from .test_a11y import audit, report
from .test_class import PHONE, hand_out_puzzle, open_setup, play_tour, settled
from .test_projector import small_texts

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
BIG = {"width": 1920, "height": 1080}
SCREENS = (("1280x800", LAPTOP, False), ("1920x1080", BIG, False), ("projector", BIG, True))
LOCALES = {"zh": "zh-CN", "en": "en-US"}
QUIZ_PARTS = ("ask", "reveal", "quiz-status", "meter", "tally", "lesson-text", "lesson-next")
ROOM_PARTS = ("code", "link", "students", "back", "play", "step", "end", "speed")


def every_screen(teacher, panel: str, parts: tuple, shots, name: str) -> None:
    """The presenter view checked on the laptop, the big screen and the projector view."""
    body = teacher.locator("body")
    for screen, viewport, projector in SCREENS:
        teacher.set_viewport_size(viewport)
        if projector:
            teacher.keyboard.press("p")
            expect(body).to_have_attribute("data-projector", "on")
        where = f"{name} at {screen}"
        check_presenter(teacher, panel, lesson=True, parts=ROOM_PARTS + parts, where=where)
        teacher.screenshot(path=str(shots / f"class-presenter-{name}-{screen}.png"))
        if projector:
            assert small_texts(teacher) == [], where  # read from the back row
            teacher.keyboard.press("Escape")
            expect(body).to_have_attribute("data-projector", "off")
    teacher.set_viewport_size(LAPTOP)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_presenter_view_fits_one_screen(new_page, artifacts, lang):
    # bypass_csp: axe goes in as an inline script (test_a11y.py)
    teacher = new_page(viewport=LAPTOP, locale=LOCALES[lang], bypass_csp=True)
    teacher.goto(f"/class/new?lang={lang}")
    teacher.click("#c-open")
    room = teacher.locator("#class")
    expect(room).to_have_attribute("data-connection", "joined")
    code = room.get_attribute("data-code")
    student = new_page(**PHONE, locale=LOCALES[lang], bypass_csp=True)
    student.goto(f"/class/{code}?lang={lang}")
    expect(student.locator("#class")).to_have_attribute("data-connection", "joined")

    # The QR code on demand, large enough to scan from the room.
    teacher.click("#c-qr-open")
    qr = teacher.locator("#c-qr-box .c-qr")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] >= 400
    teacher.keyboard.press("Escape")
    expect(qr).to_be_hidden()

    # The guided lesson, its DFS chapter (5x5 plain backtracking) at its third step (the
    # longest narration of the lesson, in both languages): the setup folds once it runs.
    setup = teacher.locator("#c-setup")
    expect(setup).to_have_attribute("open", "")
    teacher.select_option("#c-lesson-select", "dfs")
    teacher.click("#c-lesson-start")
    expect(setup).not_to_have_attribute("open", "")
    teacher.click('#c-lesson [data-lesson="next"]')
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-step", "2")
    teacher.click('#c-lesson [data-lesson="next"]')
    expect(teacher.locator("#c-lesson")).to_have_attribute("data-step", "3")
    settled(teacher)

    # A question, answered on the phone: the tally comes in.
    teacher.click("#q-ask")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "open")
    expect(student.locator("#q-sheet")).to_be_visible()
    student.fill("#q-name", "Ann")
    student.click("#q-name-form button[type=submit]")
    student.locator('#c-quiz .q-board .sq[data-state="legal"]').first.click()
    expect(teacher.locator("#c-quiz .q-distribution li")).to_have_count(1)
    found: dict[str, list] = {}
    audit(teacher, "the teacher's page, a question open", found)
    audit(student, "the student's sheet, answered", found)
    every_screen(teacher, "quiz", QUIZ_PARTS, artifacts, f"open-{lang}")

    # Revealed, with why: the tallest the quiz gets.
    teacher.click("#q-reveal")
    expect(teacher.locator("#c-quiz")).to_have_attribute("data-phase", "revealed")
    teacher.click("#q-why")
    expect(teacher.locator("#c-quiz .q-why")).to_be_visible()
    every_screen(teacher, "quiz", ("quiz-status", "lesson-text"), artifacts, f"why-{lang}")
    audit(student, "the student's sheet, revealed with why", found)

    # A puzzle handed out from the setup, and won on the phone: the leaderboard shows.
    open_setup(teacher)
    hand_out_puzzle(teacher)
    expect(room).to_have_attribute("data-panel", "board")
    expect(setup).not_to_have_attribute("open", "")  # folded again once it is handed out
    student.click("#q-close")
    student.click("#c-tab-puzzle")
    expect(student.locator("#c-name")).to_be_hidden()  # the name given to the quiz serves
    student.click("#c-try")
    play_tour(student, solve(Board(5, 5), 20).tour)  # a1 is row 4, column 0
    rows = teacher.locator("#c-leaderboard tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.locator("td").nth(1)).to_have_text("Ann")
    every_screen(teacher, "leaderboard", ("puzzle-now", "first-solver"), artifacts, f"board-{lang}")
    audit(teacher, "the teacher's page, the leaderboard", found)
    assert not found, report(found)
