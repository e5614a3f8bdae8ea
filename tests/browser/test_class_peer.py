"""Peer instruction and the teacher's record in a real browser (issue 26): a teacher and
three phones run a question through both votes, then the teacher downloads the record and
the test reads it line for line against what the phones answered.

The right answer is counted by this test from the question's position (its own knight
moves), never read from the page before the reveal. The pages say where they are in
data-* attributes (#c-quiz: ``data-phase``, ``data-step``, ``data-kind``, ``data-mine``,
``data-outcome``; .q-moves: how the class moved), and the test waits on them.
"""

from __future__ import annotations

import csv
import io

import pytest

from server.i18n import text
from tests.support.pages import SIZES, open_class_page, pause_class_demo

from .conftest import playwright_sync

expect = playwright_sync.expect

pytestmark = pytest.mark.browser

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
PHONES = ("Ann", "Bo", "李雷")


def onward(path: list[int], square: int, rows: int = 6, cols: int = 6) -> int:
    """The square's unvisited knight moves: this test's own count."""
    r, c = divmod(square, cols)
    targets = [
        (r + dr) * cols + c + dc for dr, dc in KNIGHT if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]
    return len([t for t in targets if t not in path])


def vote(phone, value: int) -> None:
    phone.locator(f"#c-quiz .q-pad button[data-value='{value}']").click()
    expect(phone.locator("#c-quiz")).to_have_attribute("data-mine", str(value))


def step(teacher, phones, phase: str) -> None:
    """The teacher's next step of the peer question, seen on every phone."""
    expect(teacher.locator("#q-step")).to_have_attribute("data-next", phase)
    teacher.click("#q-step")
    for page in (teacher, *phones.values()):
        expect(page.locator("#c-quiz")).to_have_attribute("data-step", phase)


def test_a_peer_question_through_both_votes_then_the_record_line_for_line(new_page):
    teacher = new_page(**SIZES["desktop"])
    code = open_class_page(teacher, "en")
    teacher.goto(f"/class/{code}/teach?lang=en&test")  # the token stays in the browser
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    phones = {name: new_page(**SIZES["phone"]) for name in PHONES}
    for phone in phones.values():
        phone.goto(f"/class/{code}?lang=en&test")
        expect(phone.locator("#class")).to_have_attribute("data-connection", "joined")
    pause_class_demo(teacher, "6×6", "seed", speed=60, at_least=30)  # a little way in

    teacher.select_option("#q-kind", "onward")
    teacher.check("#q-peer")
    teacher.click("#q-ask")
    quiz = teacher.locator("#c-quiz")
    expect(quiz).to_have_attribute("data-step", "vote")
    question = teacher.evaluate("() => window.testHook.quiz.view.question")
    right = onward(question["path"], question["subject"]["square"])
    wrong = (right + 1) % 9
    first = {"Ann": right, "Bo": wrong, "李雷": wrong}
    second = {"Ann": wrong, "Bo": right}  # 李雷 keeps the first vote
    for name, phone in phones.items():
        expect(phone.locator("#q-sheet")).to_be_visible()
        phone.fill("#q-name", name)
        phone.click("#q-name-form button[type=submit]")
        expect(phone.locator("#q-name-form")).to_be_hidden()
        vote(phone, first[name])
    expect(quiz.locator(".q-meter")).to_have_attribute("value", "1")  # all three in

    step(teacher, phones, "tally")
    for phone in phones.values():
        shown = phone.locator("#c-quiz .q-first li")
        expect(shown).to_have_count(2)  # the class's first vote, without the answer
        expect(phone.locator(f"#c-quiz .q-first li[data-square='{wrong}']")).to_have_attribute(
            "data-count", "2"
        )
        expect(phone.locator("#c-quiz .q-pad button").first).to_be_disabled()
        assert phone.get_attribute("#c-quiz", "data-answer") == ""
    step(teacher, phones, "discuss")
    step(teacher, phones, "revote")
    for name, value in second.items():
        vote(phones[name], value)
    expect(phones["李雷"].locator("#c-quiz .q-your-first")).to_contain_text(str(wrong))

    teacher.click("#q-reveal")
    expect(quiz).to_have_attribute("data-phase", "revealed")
    outcomes = {"Ann": "wrong", "Bo": "right", "李雷": "wrong"}
    for name, phone in phones.items():
        expect(phone.locator("#c-quiz")).to_have_attribute("data-outcome", outcomes[name])
        held = phone.evaluate("() => JSON.stringify(window.testHook.quiz.view)")
        assert not [other for other in PHONES if other != name and other in held], name
    moves = quiz.locator(".q-moves")
    expect(moves).to_have_attribute("data-wrong-right", "1")  # Bo
    expect(moves).to_have_attribute("data-right-wrong", "1")  # Ann
    expect(moves).to_have_attribute("data-wrong-wrong", "1")  # 李雷
    expect(moves).to_have_attribute("data-right-right", "0")

    with teacher.expect_download() as download:
        teacher.click(".q-record-form[data-record='record.csv'] button")
    body = download.value.path().read_text(encoding="utf-8-sig")
    table = list(csv.reader(io.StringIO(body)))
    assert table[0][3] == text("class.record.column.student", "en")
    lines = {row[3]: row for row in table[1:] if row[0] == "quiz"}
    assert set(lines) == set(PHONES)
    yes, no = text("class.record.yes", "en"), text("class.record.no", "en")
    for name in PHONES:
        line = lines[name]
        assert line[1] == "1", line  # question 1
        assert line[4] == str(first[name]), line  # the first vote
        assert line[5] == (str(second[name]) if name in second else ""), line
        assert line[6] == str(right), line  # the right answer, now revealed
        assert line[7] == (yes if outcomes[name] == "right" else no), line

    with teacher.expect_popup() as popup:
        teacher.click(".q-record-form[data-record='record'] button")
    printed = popup.value
    expect(printed.locator("#record-table tbody tr")).to_have_count(3)
    for name in PHONES:
        row = printed.locator("#record-table tbody tr", has_text=name)
        expect(row.locator("td").nth(4)).to_have_text(str(first[name]))
