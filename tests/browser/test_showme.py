"""The Play page's "show me": the search streamed over the board, then the hinted move.

They look into the live app's run registry to check that a cancelled search's server
task really ended.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from server.engine.board import Board
from server.engine.hints import hint
from tests.support.waiting import wait_until

from .test_layout import PHONE
from .test_play import cell, game_state, new_game, open_play, play

pytestmark = pytest.mark.browser

# Warnsdorff with pruning finds a tour from here in a few dozen nodes (8x8, open).
FOUND = [(5, 7), (3, 6), (1, 7), (2, 5), (0, 6)]
# ...and from here spends its whole 200,000-node budget (the position is dead, which the
# engine's hint proves but this search does not): long enough to cancel mid-stream.
LONG = [(2, 7), (1, 5), (3, 6), (5, 7), (7, 6)]
# ...and from here proves, quickly, that no tour can be completed.
DEAD = [(0, 1), (2, 0), (3, 2), (4, 0), (2, 1), (3, 3), (1, 2), (3, 1), (1, 0), (0, 2), (1, 4)]
SHOW_ME = '.controls [data-action="show-me"]'


def live_runs(app) -> int:
    from server.web.watch_socket import registry

    return registry(app).live_count()


def expect_hints_counted(page, count: int) -> None:
    """Wait for the server's answer to "show me" (POST /hint) to reach the page.

    The outcome's text is shown before that answer arrives, so reading the game's state
    right after the text races the count; the hint button's label shows the server's.
    """
    label = page.locator('.controls [data-action="hint"] [data-i18n]')
    expect(label).to_have_text(f"Hint · {count}")


def board_snapshot(page) -> dict:
    """Everything the player sees of the game on the board."""
    return page.evaluate(
        """() => ({
            cells: [...document.querySelectorAll('#board .sq')].map((el) => [
                el.dataset.state, el.textContent, el.dataset.hint ?? '', el.dataset.start ?? '',
                el.getAttribute('aria-label')]),
            path: document.querySelector('#board .path-line').getAttribute('points'),
            knight: [document.querySelector('#board .knight').style.getPropertyValue('--kr'),
                     document.querySelector('#board .knight').style.getPropertyValue('--kc')],
            hint: document.querySelector('#hint-text').textContent,
        })"""
    )


def start_game(page, moves) -> dict:
    open_play(page)
    new_game(page, "8x8")
    for row, col in moves:
        play(page, row, col)
    return game_state(page)


def hinted(page) -> tuple[int, int]:
    squares = page.evaluate(
        """() => [...document.querySelectorAll('#board .sq[data-hint="true"]')]
              .map((el) => [+el.dataset.row, +el.dataset.col])"""
    )
    assert len(squares) == 1, squares
    return tuple(squares[0])


def test_show_me_ends_with_the_hinted_move(new_page, artifacts):
    page = new_page()
    before = start_game(page, FOUND)
    assert before["hints"] == 0
    show_me = page.locator(SHOW_ME)
    expect(show_me).to_be_enabled()
    expect(show_me).to_have_accessible_name("Show me: watch the search find the next move")
    show_me.click()
    expect(page.locator("#showme")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-showme", "running")
    # the search's trail goes on beyond the player's path, which stays as it was
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 8")
    page.screenshot(path=str(artifacts / "showme-desktop-running.png"))
    trail = page.locator('#board .sq[data-state="trail"]')
    assert trail.count() > 0
    expect(trail.locator(".num").first).not_to_be_empty()
    expect(page.locator("#board .trail-line")).not_to_have_attribute("points", "")
    expect(page.locator('#board .sq[data-state="current"]')).to_have_count(1)
    expect(cell(page, *FOUND[-1])).to_have_attribute("data-state", "current")

    expect(page.locator("#board")).not_to_have_attribute("data-showme", "running", timeout=30_000)
    expect(page.locator("#board")).not_to_have_attribute("data-showme", "holding", timeout=5_000)
    expect(page.locator('#board .sq[data-state="trail"]')).to_have_count(0)
    expect(page.locator("#showme")).to_be_hidden()
    row, col = hinted(page)
    square = f"{'abcdefgh'[col]}{8 - row}"
    expect(page.locator("#hint-text")).to_contain_text(f"play {square} next")
    expect(cell(page, row, col)).to_have_attribute(
        "aria-label", f"{square}, legal move, suggested by the hint"
    )

    expect_hints_counted(page, 1)
    after = game_state(page)
    assert after["path"] == before["path"]  # the overlay never moved the knight
    assert after["hints"] == 1  # "show me" counts as a hint
    assert [row, col] in after["legal"]
    board = Board(8, 8)
    path = [r * 8 + c for r, c in FOUND] + [row * 8 + col]
    answer = hint(board, path, time_limit=5.0)
    assert answer.verdict == "completable", answer
    page.screenshot(path=str(artifacts / "showme-desktop-found.png"))

    # the hinted move is played by the player's own click, as usual
    play(page, row, col)
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(0)


def test_cancel_mid_stream_leaves_the_board_and_ends_the_server_task(new_page, live_app, artifacts):
    app, _ = live_app
    page = new_page()
    before = start_game(page, LONG)
    page.locator('.controls [data-action="hint"]').click()  # a hint's answer shown before stays
    expect(page.locator("#hint-text")).to_contain_text("No tour can be completed from here")
    before = game_state(page)
    snapshot = board_snapshot(page)

    page.locator(SHOW_ME).click()
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 40")
    assert live_runs(app) == 1  # paced by the page's credit, the search is still running
    expect(page.locator("#hint-text")).to_be_hidden()  # the narration speaks instead
    page.screenshot(path=str(artifacts / "showme-desktop-mid-stream.png"))
    page.locator("#showme-cancel").click()

    expect(page.locator("#board")).not_to_have_attribute("data-showme", "running")
    expect(page.locator('#board .sq[data-state="trail"]')).to_have_count(0)
    expect(page.locator("#board .trail-line")).to_have_attribute("points", "")
    expect(page.locator("#showme")).to_be_hidden()
    assert board_snapshot(page) == snapshot
    assert wait_until(lambda: live_runs(app) == 0, timeout=15.0, interval=0.05), (
        "the search task kept running"
    )
    after = game_state(page)
    assert after["path"] == before["path"]
    assert after["hints"] == before["hints"]  # a cancelled show is not counted
    expect(page.locator(SHOW_ME)).to_be_enabled()
    expect(page.locator(SHOW_ME)).to_be_focused()


def test_skip_and_escape(new_page, live_app):
    app, _ = live_app
    page = new_page()
    start_game(page, LONG)
    page.locator(SHOW_ME).click()
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 5")
    page.keyboard.press("Escape")
    expect(page.locator("#showme")).to_be_hidden()
    assert wait_until(lambda: live_runs(app) == 0, timeout=15.0, interval=0.05)

    # skipping to the end of a search that gives up: said so, nothing highlighted or counted
    page.locator(SHOW_ME).click()
    page.locator("#showme-skip").click()
    expect(page.locator("#showme")).to_be_hidden(timeout=60_000)
    expect(page.locator("#hint-text")).to_contain_text("The search gave up")
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(0)
    assert game_state(page)["hints"] == 0


def test_show_me_on_a_dead_position_offers_the_undo(new_page):
    page = new_page()
    start_game(page, DEAD)
    page.locator(SHOW_ME).click()
    expect(page.locator("#showme")).to_be_hidden(timeout=30_000)
    expect(page.locator("#hint-text")).to_contain_text("The search tried every path from here")
    expect(page.locator("#warning-undo")).to_be_visible()
    expect(page.locator('#board .sq[data-hint="true"]')).to_have_count(0)
    expect_hints_counted(page, 1)
    state = game_state(page)
    assert state["hints"] == 1 and state["dead"]["undo"] >= 1
    page.locator("#warning-undo").click()
    expect(page.locator("#warning")).to_be_hidden()


def test_phone_zh_show_me(new_page, artifacts):
    page = new_page(**PHONE, locale="zh-CN")
    start_game(page, LONG)
    show_me = page.locator(SHOW_ME)
    expect(show_me).to_contain_text("演示")
    show_me.tap()
    page.wait_for_function("() => +document.querySelector('#showme').dataset.events > 60")
    expect(page.locator("#showme-text")).to_have_attribute("role", "status")
    fits = page.evaluate(
        """() => [...document.querySelectorAll('#showme .btn, .controls .btn')]
              .filter((el) => el.offsetParent)
              .map((el) => el.getBoundingClientRect())
              .every((r) => r.height >= 36 && r.right <= innerWidth)"""
    )
    assert fits
    page.screenshot(path=str(artifacts / "showme-phone-375x667-zh.png"))
    page.locator("#showme-cancel").tap()
    expect(page.locator("#showme")).to_be_hidden()


def test_show_me_has_the_call_stack_with_the_players_squares_below(new_page):
    """The search's frames on top of the player's own squares, which have no candidates."""
    page = new_page()
    start_game(page, LONG)  # a long search: the panel is there to read
    page.locator(SHOW_ME).click()
    stack = page.locator("#showme [data-role=stack]")
    page.wait_for_function(
        "() => +document.querySelector('#showme [data-role=stack]').dataset.depth > 7"
    )
    rows = page.locator("#showme .st-row:not([hidden])")
    expect(rows.first).to_be_visible()
    # The search goes on deepening: scrolled to the bottom once, the player's squares move
    # down out of the drawn rows as frames are pushed on top. So each try scrolls to the
    # bottom (the panel draws in its scroll handler) and reads the rows in the same task.
    frames = page.wait_for_function(
        """() => {
            const box = document.querySelector('#showme [data-role=stack-rows]');
            box.scrollTop = box.scrollHeight;
            box.dispatchEvent(new Event('scroll'));
            const rows = [...document.querySelectorAll('#showme .st-row:not([hidden])')];
            if (!rows.some((row) => row.dataset.given === 'true')) return null;
            return rows.map((row) => [+row.dataset.frame, row.dataset.given,
                                      row.querySelectorAll('.st-cand:not([hidden])').length]);
        }"""
    ).json_value()
    # the game's squares: the frames below the search's root (the player's last square)
    for frame, is_given, candidates in frames:
        if frame < len(LONG) - 1:
            assert is_given == "true" and candidates == 0
        else:
            assert is_given == "false"
    assert int(stack.get_attribute("data-depth")) >= len(LONG)
    page.locator("#showme-cancel").click()
    expect(page.locator("#showme")).to_be_hidden()
