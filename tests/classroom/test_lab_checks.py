"""server.classroom.lab_checks: a reported run checked against the exercise, and ranked.

The tours are the engine's (server/engine/search.py), never the server's answer."""

from __future__ import annotations

import pytest

from server.classroom import lab, lab_checks
from server.engine.board import Board
from server.engine.search import solve
from tests.classroom.helpers import T0, new_room, refused, student

WARNSDORFF = solve(Board(8, 8), 0, ordering="warnsdorff")  # 64 moves, no backtrack
CLOSED_SIX = solve(Board(6, 6), 0, ordering="warnsdorff", closed=True)


def run_of(result, **change) -> dict:
    path = list(result.tour)
    run = {
        "found": True,
        "closed": False,
        "moves": result.nodes,
        "backtracks": result.backtracks,
        "path": path,
    }
    return {**run, **change}


def room_with(exercise: dict, *names: str):
    room = new_room()
    lab.set_exercise(room, exercise, T0)
    number = lab.exercise_of(room)["number"]
    people = [student(room, name) for name in names]
    return room, number, people


def submit(room, number, who, at: float = T0) -> int:
    return lab.submit(room, who, {"exercise": number, "source": "# tour"}, at)["id"]


def check(room, submission: int, run: dict, at: float = T0 + 10) -> dict:
    return lab_checks.record_check(room, {"id": submission, **run}, at)


def test_the_reference_tour_is_64_moves_without_a_backtrack():
    assert (WARNSDORFF.status, WARNSDORFF.nodes, WARNSDORFF.backtracks) == ("found", 64, 0)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({}, None),
        ({"found": False}, "not-found"),
        ({"found": False, "stop": None}, "not-found"),  # the program returned
        ({"found": False, "stop": "time"}, "stopped"),  # the check's time cap
        ({"found": False, "stop": "error"}, "error"),
        ({"found": False, "stop": "limit", "moves": 150, "backtracks": 51}, "limit-reached"),
        ({"found": False, "stop": "limit", "moves": 150, "backtracks": 50}, "stopped"),
        ({"found": True, "stop": "limit"}, None),  # a tour is a tour, however it ended
        ({"path": []}, "not-a-tour"),
        ({"path": list(WARNSDORFF.tour[:-1])}, "not-a-tour"),  # a square never visited
        ({"path": [*WARNSDORFF.tour[:-1], WARNSDORFF.tour[0]]}, "not-a-tour"),  # twice
        ({"path": list(range(64)), "moves": 64}, "not-a-tour"),  # no knight moves
        ({"path": list(reversed(WARNSDORFF.tour))}, "wrong-start"),
        ({"closed": True}, "not-closed"),  # claimed, and it does not close
        ({"moves": 65}, "counts"),
        ({"moves": 100, "backtracks": 35}, "counts"),
        ({"moves": 91, "backtracks": 27}, None),  # 118 in all: the limit is the preset's
    ],
)
def test_a_run_is_checked_against_the_definition_and_the_exercise(ctx, change, reason):
    exercise = {"rows": 8, "cols": 8, "start": [0, 0], "closed": False, "limit": 200}
    room, number, (ann,) = room_with(exercise, "Ann")
    mine = submit(room, number, ann)
    checked = check(room, mine, run_of(WARNSDORFF, **change))
    assert checked["check"]["passed"] is (reason is None)
    assert checked["check"]["reason"] == reason
    assert "source" not in checked


def test_the_goal_limit_and_a_closed_goal(ctx):
    room, number, (ann, bob) = room_with({"preset": "warnsdorff"}, "Ann", "Bob")
    over = check(room, submit(room, number, ann), run_of(WARNSDORFF, moves=90, backtracks=26))
    assert over["check"]["reason"] == "over-limit"  # 116 > 100
    stopped = run_of(WARNSDORFF, found=False, moves=80, backtracks=21, stop="limit")
    assert check(room, submit(room, number, ann), stopped)["check"]["reason"] == "limit-reached"
    at_limit = check(room, submit(room, number, bob), run_of(WARNSDORFF, moves=82, backtracks=18))
    assert at_limit["check"]["passed"]  # 100: at most 100

    closed = {"rows": 6, "cols": 6, "start": [0, 0], "closed": True}
    room, number, (ann, bob) = room_with(closed, "Ann", "Bob")
    assert CLOSED_SIX.status == "found"
    tour = check(room, submit(room, number, ann), run_of(CLOSED_SIX, closed=True))
    assert tour["check"]["passed"] and tour["check"]["closed"]
    open_tour = solve(Board(6, 6), 0, ordering="warnsdorff")
    assert not _closes(open_tour.tour, 6)
    refused_run = check(room, submit(room, number, bob), run_of(open_tour))
    assert refused_run["check"]["reason"] == "not-closed"


def _closes(tour, cols: int) -> bool:
    (r1, c1), (r2, c2) = divmod(tour[0], cols), divmod(tour[-1], cols)
    return sorted((abs(r1 - r2), abs(c1 - c2))) == [1, 2]


def test_the_leaderboard_lists_passed_runs_one_line_per_student_best_first(ctx):
    exercise = {"rows": 8, "cols": 8, "start": [0, 0], "closed": False}
    room, number, (ann, bob, cy) = room_with(exercise, "Ann", "Bob", "Cy")
    ann_slow = submit(room, number, ann, T0 + 1)
    bob_fast = submit(room, number, bob, T0 + 2)
    ann_fast = submit(room, number, ann, T0 + 3)
    cy_wrong = submit(room, number, cy, T0 + 4)
    submit(room, number, cy, T0 + 5)  # not checked yet
    check(room, ann_slow, run_of(WARNSDORFF, moves=74, backtracks=10))
    check(room, bob_fast, run_of(WARNSDORFF))
    check(room, ann_fast, run_of(WARNSDORFF))
    check(room, cy_wrong, run_of(WARNSDORFF, found=False))
    board = lab_checks.leaderboard(room)
    lines = [(e["rank"], e["name"], e["submission"], e["total"]) for e in board["entries"]]
    assert lines == [(1, "Bob", bob_fast, 64), (2, "Ann", ann_fast, 64)]  # ties: earlier first
    assert (board["submitted"], board["students"], board["checked"], board["passed"]) == (
        5,
        3,
        4,
        2,
    )
    assert lab_checks.rank_of(room, ann.id) == 2 and lab_checks.rank_of(room, cy.id) is None
    # the teacher's page ran Bob's again and saw otherwise: the later report holds
    check(room, bob_fast, run_of(WARNSDORFF, moves=1))
    assert [e["name"] for e in lab_checks.leaderboard(room)["entries"]] == ["Ann"]


def test_a_report_for_a_submission_of_no_current_exercise_is_refused(ctx):
    room, number, (ann,) = room_with({"preset": "plain-dfs"}, "Ann")
    mine = submit(room, number, ann)
    assert refused(check, room, mine + 1, run_of(WARNSDORFF)) == "unknown-submission"
    lab.set_exercise(room, {"preset": "warnsdorff"}, T0)
    assert refused(check, room, mine, run_of(WARNSDORFF)) == "unknown-submission"
    empty = lab_checks.leaderboard(new_room())
    assert empty == {
        "exercise": None,
        "entries": [],
        "submitted": 0,
        "students": 0,
        "checked": 0,
        "passed": 0,
    }
