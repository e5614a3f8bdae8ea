"""Class rooms on boards with holes, over a real server (docs/protocol.md, "Class rooms").

A demo with holes is followed by a student exactly as the engine walks the holed board;
a class puzzle given as a puzzle code (holes, a fixed or free start, open or closed) is
played by a student through the JSON API to a win the server checks, and ranked.
"""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import solve
from server.engine.shape import parse_puzzle
from tests.support.follower import SIX_BY_SIX, Teacher
from tests.support.waiting import wait_until
from tests.tourcheck import assert_tour
from tests.web.test_class_socket import api, follows, live, members, student_of, teacher_of

__all__ = ["live", "members"]  # the fixtures, shared with the class socket tests

# 6x6 without its top-right corner, searched from the opposite corner: 52,104 nodes
HOLED_DEMO = {**SIX_BY_SIX, "holes": [5]}


def test_a_demo_with_holes_is_followed_as_the_engine_walks_the_shape(live, members):
    _url, app = live
    opened, teacher_member, ack = teacher_of(members, app)
    teacher = Teacher(teacher_member, ack)
    student, _ = student_of(members, opened.code)
    answer = teacher.settings(HOLED_DEMO)
    assert answer["ok"] and answer["state"]["settings"]["holes"] == [5]
    assert wait_until(
        lambda: student.state and (student.state["settings"] or {}).get("holes") == [5], 5
    )
    for index in (1, 30, 5_000):
        teacher.control(index)
        follows(student, index, HOLED_DEMO)
        assert 5 not in student.shows(index).path
    teacher.control(0, playing=True, speed=None)  # jump to the end: the holed board's tour
    assert wait_until(lambda: student.state and student.state["end"] is not None, 30)
    truth = solve(Board(6, 6, {5}), 0)
    end = student.state["end"]
    assert (end["status"], end["nodes"]) == ("found", truth.nodes)
    follows(student, end["total"], HOLED_DEMO)
    assert student.shows(end["total"]).path == truth.tour


BAD_DEMO_HOLES = [[36], [0], [7, 7], list(range(36))]


@pytest.mark.parametrize("holes", BAD_DEMO_HOLES, ids=["off", "start", "twice", "all"])
def test_bad_demo_holes_are_refused(live, members, holes):
    _opened, teacher, _ = teacher_of(members, live[1])
    bad = teacher.call("settings", {**HOLED_DEMO, "seq": 1, "holes": holes})
    assert bad["error"]["code"] == "bad-holes" and bad["error"]["message"]


def play_to_a_win(url: str, game: str, tour: list[int], cols: int) -> dict:
    for sq in tour:
        status, state = api(
            url, "POST", f"/api/games/{game}/moves", {"row": sq // cols, "col": sq % cols}
        )
        assert status == 200, state
    return state


def test_a_holed_puzzle_code_is_played_to_a_win_and_ranked(live, members):
    url, app = live
    opened, teacher, _ = teacher_of(members, app)
    alice, _ = student_of(members, opened.code)
    puzzle = parse_puzzle("5x5:c3.o.a5")  # the centre is a hole; the knight starts top-left
    answer = teacher.call("puzzle", {"puzzle": "5x5:c3.o.a5"})
    assert answer["ok"], answer
    handed = answer["puzzle"]
    assert (handed["rows"], handed["cols"], handed["closed"]) == (5, 5, False)
    assert handed["holes"] == [12] and handed["start"] == [0, 0]
    assert handed["code"] == puzzle.code  # canonical: 5x5~ABAAAA.o.a5
    assert wait_until(lambda: alice.got("puzzle") and alice.got("puzzle")[-1]["puzzle"] == handed)

    got = alice.call("solve", {"name": "Alice"})
    assert got["ok"] and got["puzzle"] == handed
    game = got["game"]
    status, state = api(url, "GET", f"/api/games/{game}")
    assert status == 200 and state["holes"] == [[2, 2]] and state["path"] == [[0, 0]]
    assert [2, 2] not in state["legal"]
    status, refused = api(url, "POST", f"/api/games/{game}/moves", {"row": 2, "col": 2})
    assert status == 409 and refused["code"] == "illegal-move"  # never the hole
    assert "c3" in refused["error"]

    tour = solve(puzzle.shape.board, 0).tour
    assert_tour(5, 5, tour, start=0, blocked={12})
    state = play_to_a_win(url, game, tour[1:], 5)
    assert state["status"] == "won" and state["moves"] == 23
    result = alice.call("solved", {"game": game})
    assert result["ok"] and result["entry"]["rank"] == 1 and result["entry"]["moves"] == 23
    assert wait_until(lambda: teacher.got("leaderboard")[-1]["solved"] == 1)
    board = teacher.got("leaderboard")[-1]
    assert board["entries"][0]["name"] == "Alice" and board["puzzle"]["code"] == puzzle.code


def test_a_free_start_puzzle_lets_each_student_place_the_knight(live, members):
    url, app = live
    opened, teacher, _ = teacher_of(members, app)
    bob, _ = student_of(members, opened.code)
    answer = teacher.call("puzzle", {"puzzle": "5x5:c3.o"})
    assert answer["ok"] and answer["puzzle"]["start"] is None
    got = bob.call("solve", {"name": "Bob"})
    status, state = api(url, "GET", f"/api/games/{got['game']}")
    assert status == 200 and state["path"] == [] and len(state["legal"]) == 24
    assert [2, 2] not in state["legal"]
    tour = solve(Board(5, 5, {12}), 4).tour  # Bob picks e5, the top-right corner
    state = play_to_a_win(url, got["game"], tour, 5)
    assert state["status"] == "won"
    assert bob.call("solved", {"game": got["game"]})["ok"]


def test_a_rectangle_game_does_not_count_for_a_holed_puzzle(live, members):
    """The server checks the stored game's holes: a win on the full board is no solution."""
    url, app = live
    opened, teacher, _ = teacher_of(members, app)
    carol, _ = student_of(members, opened.code)
    assert teacher.call("puzzle", {"puzzle": "5x5:c3.o.a5"})["ok"]
    game = carol.call("solve", {"name": "Carol"})["game"]
    with app.app_context():  # the stored game loses its holes behind the server's back
        from server.db import db
        from server.game.models import Game

        db.session.get(Game, game).holes = "[]"
        db.session.commit()
    state = play_to_a_win(url, game, solve(Board(5, 5), 0).tour[1:], 5)
    assert state["status"] == "won"
    assert carol.call("solved", {"game": game})["error"]["code"] == "not-solved"


BAD_PUZZLES = [
    ({"puzzle": "5x5:c3"}, "bad-puzzle", "6x6.o"),  # no mode
    ({"puzzle": "99x99.o"}, "bad-puzzle", "20"),
    ({"puzzle": "5x5:c3.o.c3"}, "bad-puzzle", "c3"),  # start on a hole
    ({"puzzle": "5x5.o.z9"}, "bad-puzzle", "z9"),
    ({"puzzle": 55}, "bad-request", "“puzzle”"),  # not text: a bad request naming it
    ({"rows": 5, "cols": 5, "closed": False, "start": [0, 0], "holes": [0]}, "bad-holes", "0"),
    ({"rows": 5, "cols": 5, "closed": False, "start": [0, 0], "holes": [25]}, "bad-holes", "25"),
]


@pytest.mark.parametrize(("payload", "code", "said"), BAD_PUZZLES)
def test_bad_puzzles_are_refused_in_words(live, members, payload, code, said):
    _opened, teacher, _ = teacher_of(members, live[1])
    bad = teacher.call("puzzle", payload)
    assert bad["error"]["code"] == code and said in bad["error"]["message"], bad
