"""What the server calls a win, through the API: a closed game is not won by jumping back
onto the start early, and a stored state that claims a win its path does not bear out is
neither ranked nor shared (server/game/audit.py)."""

from __future__ import annotations

import json

import pytest

from server.game import service
from server.game.models import Game, db
from tests.web.test_api import (
    Clock,
    act,
    engine_tour,
    get,
    move,
    new_game,
    refused,
    win,
)
from tests.witness import checked_witness


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The service's clock stands still unless a test moves it."""
    fake = Clock()
    monkeypatch.setattr(service, "now", fake)
    return fake


def knight(a, b) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def create_puzzle(client, code: str) -> dict:
    response = client.post("/api/games", json={"puzzle": code})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def assert_no_win(client, game: dict, board_query: str) -> None:
    """Not won, not ranked, not shared: the leaderboard stays empty."""
    assert get(client, game)["status"] != "won"
    for what, body in (("score", {"name": "early"}), ("replay", {})):
        response = client.post(f"/api/games/{game['id']}/{what}", json=body)
        refused(response, "not-won")
    board = client.get(f"/api/leaderboard?{board_query}").get_json()
    assert board == {"assisted": [], "unassisted": []}


@pytest.mark.parametrize(
    ("rows", "cols", "puzzle"),
    [(6, 6, None), (5, 6, None), (8, 8, None), (5, 5, "5x5:a1.c.e5")],
    ids=["6x6", "5x6", "8x8", "5x5-holed-fixed-start"],
)
def test_an_early_jump_back_onto_the_start_is_no_closed_win(client, rows, cols, puzzle):
    """The way a 6x6 closed game was once "won" in two moves and ranked first."""
    if puzzle is None:
        game, tour = new_game(client, rows, cols, closed=True), engine_tour(rows, cols, 0, True)
        board_query = f"rows={rows}&cols={cols}&closed=true"
    else:
        found, squares = checked_witness(puzzle)
        game, tour = create_puzzle(client, puzzle), [list(divmod(sq, cols)) for sq in squares]
        board_query = f"puzzle={found.code}"
    start = tour[0]
    for cell in tour[:2]:
        state = move(client, game, cell)
    assert state["moves"] == 1 and start not in state["legal"]
    body = move(client, game, start, status=409)
    assert body["code"] == "illegal-move"
    assert get(client, game) == state
    assert_no_win(client, game, board_query)


def test_a_jump_back_one_square_short_is_no_closed_win(client):
    """The latest early return a 6x6 tour allows, long after the first moves."""
    game, tour = new_game(client, 6, 6, closed=True), engine_tour(6, 6, 0, True)
    last = max(k for k in range(2, len(tour)) if knight(tour[k - 1], tour[0]))
    for cell in tour[:last]:
        state = move(client, game, cell)
    assert state["squares_left"] == 36 - last > 0
    assert move(client, game, tour[0], status=409)["code"] == "illegal-move"
    assert get(client, game) == state
    assert_no_win(client, game, "rows=6&cols=6&closed=true")


def forge(app, game_id: str, path: list[int], *, returned: bool) -> None:
    """Write a state straight into the games table, as no move of the rules would."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.path, game.returned = json.dumps(path), returned
        game.started_at, game.finished_at = 1_000_000.0, 1_000_001.0
        db.session.commit()


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "path"),
    [
        (6, 6, True, [0, 8]),  # the early return above, as if the rules had let it through
        (5, 5, False, list(range(25))),  # every square once, in reading order
    ],
    ids=["closed-two-moves", "open-no-knight-moves"],
)
def test_a_forged_won_state_is_neither_ranked_nor_shared(
    client, app, caplog, rows, cols, closed, path
):
    game = new_game(client, rows, cols, closed)
    forge(app, game["id"], path, returned=closed)
    state = get(client, game)
    assert state["status"] == "won" and state["can_submit"]  # the rules are fooled...
    for what, body in (("score", {"name": "forger"}), ("replay", {})):
        response = client.post(f"/api/games/{game['id']}/{what}", json=body)
        refused(response, "not-won")  # ...the audit is not
    assert game["id"] in caplog.text
    board = client.get(f"/api/leaderboard?rows={rows}&cols={cols}&closed={int(closed)}").get_json()
    assert board == {"assisted": [], "unassisted": []}


def test_a_real_win_still_ranks_and_shares(client, clock):
    game = win(client, clock, 12, 6, 6, closed=True)
    assert act(client, game, "score", {"name": "fair"}, status=201)["rank"] == 1
    assert act(client, game, "replay", status=201)["url"].startswith("/replay/")
