"""The code lab in a class room, in chromium (docs/protocol.md, "The code lab in a class"):
the teacher hands out an exercise, two phones submit from /lab?class=CODE, the teacher's
page runs each submission in its own worker and reports it; the server checks the report.
The leaderboard lists the checked, passing run only, and a reload keeps the list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from server.lab import program

from .test_class import PHONE
from .test_lab import LOAD_MS, type_program

pytestmark = pytest.mark.browser

CHECK_MS = 120_000  # two checks, Python loading first, on a busy 2-core machine
# the lab's starting program, stopped after ten squares: it ends without a tour
STOPS_EARLY = ("if step == ROWS * COLS:", "if step == 10:")


def open_class_zh(new_page):
    teacher = new_page(locale="zh-CN")
    teacher.goto("/class/new?lang=zh")
    teacher.click("#c-open")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    return teacher, teacher.get_attribute("#class", "data-code")


def open_lab_in_class(new_page, code: str):
    phone = new_page(**PHONE, locale="zh-CN")
    phone.goto(f"/lab?class={code}&lang=zh")
    expect(phone.locator("#lab")).to_have_attribute("data-class-exercise", "1")
    expect(phone.locator("#lab")).to_have_attribute("data-python", "ready", timeout=LOAD_MS)
    return phone


def submit(phone, name: str) -> None:
    phone.fill("#lab-class-name", name)
    phone.click("#lab-class-submit")
    expect(phone.locator("#lab")).to_have_attribute("data-class-result", "waiting")
    expect(phone.locator("#lab-class-status")).to_contain_text("已提交")


def test_two_phones_submit_and_the_leaderboard_shows_only_the_checked_run(new_page):
    teacher, code = open_class_zh(new_page)
    teacher.select_option("#c-lab-preset", "plain-dfs")
    teacher.click("#c-lab-go")
    expect(teacher.locator("#class")).to_have_attribute("data-lab", "1")
    expect(teacher.locator("#class")).to_have_attribute("data-panel", "lab")
    expect(teacher.locator("#c-lab-now")).to_contain_text("6×6")

    right = open_lab_in_class(new_page, code)
    # the exercise's board and its example program, the board's fields fixed
    expect(right.locator("#lab-class-title")).to_have_text("6×6 上的朴素深度优先搜索")
    expect(right.locator("#lab-rows")).to_be_disabled()
    expect(right.locator("#lab-start-name")).to_have_text("a6")
    assert right.evaluate("() => document.querySelector('#lab-rows').value") == "6"
    wrong = open_lab_in_class(new_page, code)
    type_program(wrong, program("start").replace(*STOPS_EARLY))

    submit(right, "小明")
    submit(wrong, "小红")

    # the teacher's page checks both in its worker; only the passing run is ranked
    expect(teacher.locator("#class")).to_have_attribute("data-lab-checked", "2", timeout=CHECK_MS)
    expect(teacher.locator("#class")).to_have_attribute("data-lab-passed", "1")
    board = teacher.locator("#c-lab-board tbody tr")
    expect(board).to_have_count(1)
    expect(board.locator("td").nth(1)).to_have_text("小明")
    listed = teacher.locator("#c-lab-list tbody tr")
    expect(listed).to_have_count(2)
    expect(listed.nth(0)).to_have_attribute("data-status", "passed")
    expect(listed.nth(0)).to_contain_text("通过")
    expect(listed.nth(1)).to_have_attribute("data-status", "failed")
    expect(listed.nth(1)).to_contain_text("程序结束时没有找到巡游")

    # each phone hears its own result
    expect(right.locator("#lab")).to_have_attribute("data-class-result", "passed")
    expect(right.locator("#lab-class-status")).to_contain_text(re.compile(r"177,048 步.*第 1 名"))
    expect(wrong.locator("#lab")).to_have_attribute("data-class-result", "failed")

    # a reload of the teacher's page keeps the list, its checks and the leaderboard
    teacher.reload()
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")
    expect(teacher.locator("#c-lab-list tbody tr")).to_have_count(2)
    expect(teacher.locator("#class")).to_have_attribute("data-lab-checked", "2")
    expect(teacher.locator("#c-lab-board tbody tr")).to_have_count(1)

    # the teacher puts the passing run on the projector: the code lab in its own tab, the
    # student's program on the exercise's board, its events the engine's, stepped through
    # the reloaded page, with no demo yet, opens its setup and the quiz's panel
    teacher.click("#c-setup summary")
    teacher.click("#c-tab-lab")
    with teacher.context.expect_page() as opened:
        teacher.locator("#c-lab-list tbody tr").nth(0).get_by_role("button").click()
    shown = opened.value
    expect(shown.locator("#lab")).to_have_attribute("data-shown", "true")
    expect(shown.locator("#lab-class-title")).to_have_text("小明 的程序")
    expect(shown.locator("#lab")).to_have_attribute("data-run-status", "found", timeout=CHECK_MS)
    expect(shown.locator("#lab")).to_have_attribute("data-rule", "plain")  # the seeds' search
    expect(shown.locator("#lab-verdict")).to_have_attribute("data-tour", "open")
    first_line = program("start").splitlines()[0]
    expect(shown.locator(".cm-line").first).to_have_text(first_line)
    expect(shown.locator("#lab-start-name")).to_have_text("a6")
    expect(shown.locator("#lab-rows")).to_be_disabled()
    shown.locator('[data-action="play"]').click()  # pause, then one step on
    counter = shown.locator('[data-side="a"] [data-stat="shown"]')
    before = int(counter.inner_text().replace(",", ""))
    shown.locator('[data-action="step"]').click()
    expect(counter).to_have_text(f"{before + 1:,}")
    with shown.expect_event("close"):  # back to the class: the tab closes
        shown.click("#lab-show-back")
    expect(teacher.locator("#class")).to_have_attribute("data-connection", "joined")


def test_a_program_too_big_for_the_socket_is_refused_before_sending(new_page):
    teacher, code = open_class_zh(new_page)
    teacher.select_option("#c-lab-preset", "plain-dfs")
    teacher.click("#c-lab-go")
    expect(teacher.locator("#class")).to_have_attribute("data-lab", "1")
    # the student's class page names the exercise and opens the lab in this class
    student = new_page(**PHONE, locale="zh-CN")
    student.goto(f"/class/{code}?lang=zh")
    invite = student.locator("#c-lab-invite")
    expect(invite).to_be_visible()
    expect(invite).to_contain_text("编程练习：6×6 上的朴素深度优先搜索")
    invite.get_by_role("link").click()
    student.wait_for_url(f"**/lab?class={code}")
    expect(student.locator("#lab")).to_have_attribute("data-class-exercise", "1")
    student.close()
    phone = open_lab_in_class(new_page, code)
    # 6,000 Chinese characters: under 8,000 characters, over 16 KB in UTF-8
    type_program(phone, program("start") + "\n# " + "马" * 6_000 + "\n")
    phone.fill("#lab-class-name", "小刚")
    phone.click("#lab-class-submit")
    expect(phone.locator("#lab-class-status")).to_have_attribute("data-kind", "error")
    expect(phone.locator("#lab-class-status")).to_contain_text("16 KB")
    expect(teacher.locator("#c-lab-list tbody tr")).to_have_count(0)


def test_the_teacher_hands_out_an_exercise_of_their_own_board_and_goal(new_page):
    teacher, _code = open_class_zh(new_page)
    custom = teacher.locator("#c-lab-custom")
    expect(custom).to_be_hidden()
    teacher.select_option("#c-lab-preset", "custom")
    expect(custom).to_be_visible()
    custom.locator("[name=rows]").fill("5")
    custom.locator("[name=cols]").fill("5")
    custom.locator("label.chip:has([value=closed])").click()
    custom.locator("[name=start]").fill("c3")
    custom.locator("[name=limit]").fill("0")
    teacher.click("#c-lab-go")
    problem = teacher.locator("#c-lab-error")
    expect(problem).to_contain_text("1 到 1,000,000,000")  # said here, nothing sent
    expect(teacher.locator("#class")).to_have_attribute("data-lab", "")
    custom.locator("[name=limit]").fill("2000")
    teacher.click("#c-lab-go")
    expect(problem).to_contain_text("闭合")  # the server's verdict: 5x5 has no closed tour
    expect(teacher.locator("#class")).to_have_attribute("data-lab", "")
    custom.locator("label.chip:has([value=open])").click()
    teacher.click("#c-lab-go")
    expect(teacher.locator("#class")).to_have_attribute("data-lab", "1")
    expect(problem).to_be_hidden()
    now = teacher.locator("#c-lab-now")
    expect(now).to_contain_text("练习：5×5 的巡游")
    expect(now).to_contain_text("从 c3 出发")
    expect(now).to_contain_text("2,000")
