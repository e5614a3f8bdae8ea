"""The JSON API on puzzles: boards with holes, a fixed start, the leaderboard by puzzle code,
and every bad shape refused with its code while nothing is stored."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from server.engine.shape import parse_puzzle
from server.game import service
from server.game.models import Game, Score, db
from tests.web.test_api import Clock, act, get, move, refused
from tests.witness import checked_witness

OPEN_PUZZLE = "4x5:a1.o"  # 19 open squares, an open tour exists
CLOSED_PUZZLE = "5x5:a1.c.e5"  # 24 open squares, a closed tour from e5


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(service, "now", fake)
    return fake


def create(client, body, lang="en"):
    response = client.post(f"/api/games?lang={lang}", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def witness_cells(code: str) -> list[list[int]]:
    """The engine's checked witness (tests/support/shapes.py) as [row, col]."""
    puzzle, witness = checked_witness(code)
    return [list(divmod(sq, puzzle.shape.cols)) for sq in witness]


def refused_move(client, game, cell) -> dict:
    body = move(client, game, cell, status=409)
    assert body["code"] == "illegal-move" and body["error"], body
    return body


def stored(app) -> tuple[int, int]:
    with app.app_context():
        games = db.session.scalar(select(func.count(Game.id)))
        scores = db.session.scalar(select(func.count(Score.id)))
    return games, scores


def test_a_puzzle_game_carries_its_shape(client, app):
    state = create(client, {"puzzle": CLOSED_PUZZLE})
    assert state["rows"] == 5 and state["cols"] == 5 and state["closed"] is True
    assert state["holes"] == [[4, 0]] and state["fixed_start"] == [0, 4]
    assert state["puzzle"] == parse_puzzle(CLOSED_PUZZLE).code
    assert state["legal"] == [[0, 4]] and state["squares_left"] == 24
    assert state["feasible"] == {"possible": True, "reason": None, "code": None}
    assert state["level"] is None and state["daily"] is None
    assert "e5" in state["message"]
    assert client.get(f"/api/games/{state['id']}?lang=en").get_json() == state
    with app.app_context():
        game = db.session.get(Game, state["id"])
        assert game.holes == "[20]" and game.start == 4


def test_holes_as_cells_on_a_plain_body(client):
    state = create(client, {"rows": 5, "cols": 5, "holes": [[2, 2], [2, 2]]})
    assert state["holes"] == [[2, 2]] and state["fixed_start"] is None
    assert [2, 2] not in state["legal"] and len(state["legal"]) == 24
    assert state["puzzle"] == "5x5~ABAAAA.o"
    plain = create(client, {"rows": 6, "cols": 6, "closed": True})
    assert plain["holes"] == [] and plain["puzzle"] == "6x6.c"


def test_refused_moves_on_a_puzzle(client):
    game = create(client, {"puzzle": CLOSED_PUZZLE})
    body = refused_move(client, game, [2, 2])
    assert "e5" in body["error"]
    assert get(client, game)["path"] == []
    move(client, game, [0, 4])
    body = refused_move(client, game, [4, 0])  # a1: a hole
    assert "a1" in body["error"] and get(client, game)["path"] == [[0, 4]]
    open_game = create(client, {"puzzle": "5x5:c3.o"})
    move(client, open_game, [0, 1])
    body = refused_move(client, open_game, [2, 2])
    assert "c3" in body["error"]
    assert get(client, open_game)["path"] == [[0, 1]]


def test_win_a_puzzle_and_rank_it_by_its_code(client, clock, app):
    cells = witness_cells(OPEN_PUZZLE)
    game = create(client, {"puzzle": OPEN_PUZZLE})
    for i, cell in enumerate(cells):
        clock.t += 1.0 if i else 0.0
        state = move(client, game, cell)
    assert state["status"] == "won" and state["can_submit"] and state["moves"] == 18
    entry = act(client, game, "score", {"name": "Ada"}, status=201)
    code = parse_puzzle(OPEN_PUZZLE).code
    assert entry["puzzle"] == code and entry["rank"] == 1 and entry["seconds"] == 18.0
    for spelling in (code, OPEN_PUZZLE, "4x5:a1.o"):
        board = client.get("/api/leaderboard", query_string={"puzzle": spelling}).get_json()
        assert [e["name"] for e in board["unassisted"]] == ["Ada"], spelling
    # not on the plain 4x5 board's leaderboard, nor on the closed puzzle's
    assert client.get("/api/leaderboard?rows=4&cols=5").get_json()["unassisted"] == []
    other = client.get("/api/leaderboard", query_string={"puzzle": "4x5:a1.c"}).get_json()
    assert other == {"assisted": [], "unassisted": []}
    with app.app_context():
        assert db.session.scalar(select(Score.puzzle)) == code


def test_closed_puzzle_with_hints_is_ranked_assisted(client, clock):
    game = create(client, {"puzzle": CLOSED_PUZZLE})
    answer = act(client, game, "hint")
    assert answer["hint"]["verdict"] == "completable" and answer["hint"]["next"] == [0, 4]
    cells = witness_cells(CLOSED_PUZZLE)
    for cell in cells:
        state = move(client, game, cell)
    assert state["status"] == "playing" and state["legal"] == [[0, 4]]
    state = move(client, game, [0, 4])
    assert state["status"] == "won" and state["returned"] and state["hints"] == 1
    act(client, game, "score", {"name": "Bo"}, status=201)
    board = client.get("/api/leaderboard", query_string={"puzzle": CLOSED_PUZZLE}).get_json()
    assert board["unassisted"] == [] and [e["name"] for e in board["assisted"]] == ["Bo"]


def test_hints_and_warning_on_holes(client):
    game = create(client, {"puzzle": "5x5:c3.o"})
    state = move(client, game, [0, 0])
    for _ in range(4):
        answer = act(client, game, "hint")
        assert answer["hint"]["verdict"] == "completable"
        assert answer["hint"]["next"] != [2, 2]
        state = move(client, game, answer["hint"]["next"])
    assert state["dead"] is None and state["hints"] == 4


def test_a_shape_verdict_speaks_the_language(client):
    state = create(client, {"puzzle": "4x5:a1.c"}, lang="zh")
    assert state["feasible"]["possible"] is False and state["feasible"]["code"] == "colour"
    assert "浅色" in state["feasible"]["reason"]
    state = create(client, {"puzzle": "4x5:a1.c"}, lang="en")
    assert "light" in state["feasible"]["reason"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"puzzle": "7y7.o"}, "shape-malformed"),
        ({"puzzle": "5x5~!!.o"}, "shape-malformed"),
        ({"puzzle": "5x5.x"}, "shape-malformed"),
        ({"puzzle": "21x5.o"}, "shape-too-big"),
        ({"puzzle": "5x5." + "o" * 600}, "shape-too-big"),
        ({"puzzle": "#../.../....o"}, "shape-malformed"),  # art with open squares: no part
        ({"puzzle": "###/###/###.o"}, "shape-empty"),
        ({"puzzle": "3x3:a1,a2,a3,b1,b2,b3,c1,c2,c3.o"}, "shape-empty"),
        ({"puzzle": "5x5:c3.o.c3"}, "start-on-hole"),
        ({"puzzle": "5x5.o.z9"}, "start-off-board"),
        ({"puzzle": "5x5.o.a6"}, "start-off-board"),
        ({"rows": 5, "cols": 5, "holes": [[5, 0]]}, "shape-malformed"),
        (
            {"rows": 3, "cols": 3, "holes": [[r, c] for r in range(3) for c in range(3)]},
            "shape-empty",
        ),
        ({"puzzle": "2x5.o"}, "bad-board"),
        ({"puzzle": 55}, "bad-request"),
        ({"rows": 5, "cols": 5, "holes": [[1]]}, "bad-request"),
        ({"rows": 5, "cols": 5, "holes": [[1, True]]}, "bad-request"),
        ({"cols": 5, "holes": []}, "bad-request"),
    ],
)
def test_bad_shapes_are_refused_and_nothing_is_stored(client, app, body, code):
    before = stored(app)
    for lang in ("zh", "en"):
        response = client.post(f"/api/games?lang={lang}", json=body)
        assert response.status_code == 400, response.get_json()
        answer = refused(response, code)
        assert not answer["error"].startswith("error."), answer  # a translated message
    assert stored(app) == before


def test_shape_errors_are_translated_in_both_languages(client):
    words = {}
    for lang in ("zh", "en"):
        response = client.post(f"/api/games?lang={lang}", json={"puzzle": "5x5:c3.o.c3"})
        words[lang] = response.get_json()["error"]
    assert "c3" in words["zh"] and "c3" in words["en"] and words["zh"] != words["en"]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"puzzle": "nope"}, "shape-malformed"),
        ({"puzzle": "5x5:c3.o.c3"}, "start-on-hole"),
        ({"rows": "5"}, "bad-request"),
        ({"puzzle": "2x5.o"}, "bad-board"),
    ],
)
def test_bad_leaderboard_queries(client, query, code):
    refused(client.get("/api/leaderboard", query_string=query), code)


def test_a_plain_puzzle_code_is_the_size_leaderboard(client):
    plain = client.get("/api/leaderboard?rows=6&cols=6&closed=true").get_json()
    assert client.get("/api/leaderboard", query_string={"puzzle": "6x6.c"}).get_json() == plain
