"""``POST /api/tour`` (docs/api.md): the code lab's path checked by the server's rules
(server/engine/theory.py's verify), each problem worded in both languages."""

from __future__ import annotations

import pytest

from server.engine.board import Board
from server.engine.search import solve
from server.engine.theory import verify
from server.i18n import LANGS, MESSAGES

CODES = ("not-square", "off-board", "blocked", "not-knight", "repeat", "empty", "missing")


def cells(path, cols):
    return [[sq // cols, sq % cols] for sq in path]


def test_a_tour_is_said_open_or_closed(client):
    board = Board(6, 6)
    tour = solve(board, 0).tour
    closed_tour = solve(board, 0, closed=True).tour
    answer = client.post("/api/tour", json={"rows": 6, "cols": 6, "path": cells(tour, 6)}).json
    assert answer == {
        "tour": True,
        "closed": bool(verify(board, tour, closed=True)),
        "code": None,
        "reason": None,
    }
    closing = client.post("/api/tour", json={"rows": 6, "cols": 6, "path": cells(closed_tour, 6)})
    assert closing.json["tour"] and closing.json["closed"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_path_that_is_no_tour_says_why_in_the_page_s_language(client, lang):
    board = Board(5, 5)
    tour = solve(board, 0).tour
    cases = {
        "missing": tour[:-1],
        "repeat": [*tour[:3], tour[1]],
        "not-knight": [0, 1],
        "empty": [],
    }
    for code, path in cases.items():
        body = {"rows": 5, "cols": 5, "path": cells(path, 5)}
        answer = client.post(f"/api/tour?lang={lang}", json=body).json
        assert answer["tour"] is False and answer["code"] == code
        assert answer["reason"] and "{" not in answer["reason"]
    off = {"rows": 5, "cols": 5, "path": [[0, 0], [-1, 2]]}
    assert client.post("/api/tour", json=off).json["code"] == "off-board"


def test_every_problem_verify_names_has_words():
    for code in (*CODES, "no-return", "closing"):
        assert f"tour.problem.{code}" in MESSAGES


def test_a_bad_body_is_refused(client):
    assert client.post("/api/tour", json={"rows": 5, "cols": 5}).status_code == 400
    assert client.post("/api/tour", json={"rows": 99, "cols": 5, "path": []}).status_code == 400
