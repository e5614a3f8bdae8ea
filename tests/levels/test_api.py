"""The levels over HTTP: a level game won by its witness, stars, progress that lasts,
export and import, and refusals."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import delete

from server.app import create_app
from server.db import db
from server.game.models import STAR_FINISHED, STAR_NO_HINTS, STAR_NO_UNDO, Game, LevelProgress
from server.levels.catalogue import catalogue

ALL = STAR_FINISHED | STAR_NO_HINTS | STAR_NO_UNDO
LEVELS = catalogue().levels
FIRST, SECOND, THIRD = LEVELS[:3]
FIXED = next(
    level for level in LEVELS if level.puzzle.start is not None and level.puzzle.shape.holes
)


def start_level(client, level, status=201):
    response = client.post("/api/games", json={"level": level.id})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def step(client, game, sq, cols, status=200):
    row, col = divmod(sq, cols)
    response = client.post(f"/api/games/{game['id']}/moves", json={"row": row, "col": col})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def win(client, level, game=None, made=0):
    """Play the level's stored witness over HTTP (and the closing return), after ``made``
    of its squares were played already."""
    game = game or start_level(client, level)
    cols = level.puzzle.shape.cols
    for sq in level.witness[made:]:
        game = step(client, game, sq, cols)
    if level.puzzle.closed:
        game = step(client, game, level.witness[0], cols)
    assert game["status"] == "won"
    return game


def levels_by_id(client) -> dict:
    answer = client.get("/api/levels").get_json()
    return {lv["id"]: lv for chapter in answer["chapters"] for lv in chapter["levels"]}


def test_a_level_game_has_the_levels_board_and_is_won_by_its_witness(client):
    game = start_level(client, FIRST)
    assert (game["rows"], game["cols"], game["closed"]) == (3, 4, False)
    assert game["level"] == FIRST.id and game["status"] == "new"
    won = win(client, FIRST, game)
    assert won["stars"] == ALL
    assert levels_by_id(client)[FIRST.id]["stars"] == ALL


def test_stars_lost_to_a_hint_and_an_undo_and_the_best_is_kept(client):
    game = start_level(client, FIRST)
    cols = FIRST.puzzle.shape.cols
    step(client, game, FIRST.witness[0], cols)
    step(client, game, FIRST.witness[1], cols)
    assert client.post(f"/api/games/{game['id']}/undo", json={}).status_code == 200
    assert client.post(f"/api/games/{game['id']}/hint", json={}).status_code == 200
    won = win(client, FIRST, game, made=1)
    assert won["stars"] == STAR_FINISHED
    assert levels_by_id(client)[FIRST.id]["stars"] == STAR_FINISHED
    won = win(client, FIRST)  # a clean run later: every star
    assert levels_by_id(client)[FIRST.id]["stars"] == ALL


def test_a_fixed_start_level_refuses_another_first_square_and_holes(client, monkeypatch):
    from server.levels import progress

    monkeypatch.setattr(progress, "unlocked", lambda best: {FIXED.id})
    game = start_level(client, FIXED)
    shape = FIXED.puzzle.shape
    assert game["fixed_start"] == list(divmod(FIXED.puzzle.start, shape.cols))
    assert sorted(map(tuple, game["holes"])) == sorted(divmod(h, shape.cols) for h in shape.holes)
    assert game["legal"] == [game["fixed_start"]]
    other = next(sq for sq in shape.board.squares() if sq != FIXED.puzzle.start)
    assert step(client, game, other, shape.cols, 409)["code"] == "illegal-move"
    hole = min(shape.holes)
    assert step(client, game, hole, shape.cols, 409)["code"] == "illegal-move"
    win(client, FIXED, game)


def test_levels_unlock_in_order_and_a_locked_level_is_refused(client):
    assert start_level(client, SECOND, 403)["code"] == "level-locked"
    listed = levels_by_id(client)
    assert listed[FIRST.id]["unlocked"] and not listed[SECOND.id]["unlocked"]
    win(client, FIRST)
    listed = levels_by_id(client)
    assert listed[SECOND.id]["unlocked"] and not listed[THIRD.id]["unlocked"]
    assert client.get(f"/api/levels/{FIRST.id}").get_json()["next"] == SECOND.id
    win(client, SECOND)
    win(client, THIRD)
    answer = client.get("/api/levels").get_json()
    assert answer["stars"] == 9 and answer["max_stars"] == 3 * len(LEVELS)


def test_progress_survives_a_new_app_on_the_same_database(app, tmp_path):
    client = app.test_client()
    win(client, FIRST)
    cookie = client.get_cookie("kt_player")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    again = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path}).test_client()
    again.set_cookie("kt_player", cookie.value)
    assert levels_by_id(again)[FIRST.id]["stars"] == ALL
    stranger = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path}).test_client()
    assert levels_by_id(stranger)[FIRST.id]["stars"] == 0


def test_export_and_import_move_progress_without_lowering_it(app):
    old_device, new_device = app.test_client(), app.test_client()
    win(old_device, FIRST)
    code = old_device.get("/api/levels/export").get_json()["code"]
    assert len(code) < 200
    # the new device has a worse run of its own on the first level, and one more level
    game = start_level(new_device, FIRST)
    assert new_device.post(f"/api/games/{game['id']}/hint", json={}).status_code == 200
    win(new_device, FIRST, game)
    win(new_device, SECOND)
    answer = new_device.post("/api/levels/import", json={"code": code})
    assert answer.status_code == 200, answer.get_json()
    listed = levels_by_id(new_device)
    assert listed[FIRST.id]["stars"] == ALL and listed[SECOND.id]["stars"] == ALL
    # importing an older, poorer code never lowers
    assert new_device.post("/api/levels/import", json={"code": code}).get_json()["raised"] == 0
    assert levels_by_id(new_device)[SECOND.id]["stars"] == ALL


@pytest.mark.parametrize(
    "forged",
    [
        "WzEsW1sicmluZy1mb3J0cmVzcyIsNyxudWxsXV1d.forged",
        "not a code",
        "",
    ],
)
def test_a_forged_or_changed_code_is_refused(app, forged):
    client = app.test_client()
    answer = client.post("/api/levels/import", json={"code": forged})
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "bad-progress-code"
    assert levels_by_id(client)[LEVELS[-1].id]["stars"] == 0


def test_a_code_signed_with_another_secret_is_refused(app, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = create_app({"TESTING": True, "INSTANCE_PATH": str(elsewhere), "SECRET_KEY": "x" * 40})
    other_client = other.test_client()
    win(other_client, FIRST)
    code = other_client.get("/api/levels/export").get_json()["code"]
    answer = app.test_client().post("/api/levels/import", json={"code": code})
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad-progress-code"


@pytest.mark.parametrize(
    ("method", "url", "body", "status", "code"),
    [
        ("post", "/api/games", {"level": "no-such-level"}, 404, "unknown-level"),
        ("post", "/api/games", {"level": 3}, 400, "bad-request"),
        ("get", "/api/levels/no-such-level", None, 404, "unknown-level"),
        ("post", "/api/levels/import", {"code": 5}, 400, "bad-request"),
        ("post", "/api/levels/import", {}, 400, "bad-request"),
    ],
)
def test_bad_level_requests_are_json_refusals(client, method, url, body, status, code):
    answer = getattr(client, method)(url, json=body) if body is not None else client.get(url)
    assert answer.status_code == status
    assert answer.get_json()["code"] == code and answer.get_json()["error"]


def test_the_witness_is_never_sent(client):
    for answer in (client.get("/api/levels"), client.get(f"/api/levels/{FIRST.id}")):
        assert "witness" not in answer.get_data(as_text=True)


def test_a_won_level_game_whose_path_is_no_tour_earns_no_stars(app, client, caplog):
    """Stars are folded from won games only once their path is checked again: a slip in
    the rules (or a row changed by hand) earns nothing, and is logged."""
    game = win(client, FIRST)
    with app.app_context():
        row = db.session.get(Game, game["id"])
        path = json.loads(row.path)
        row.path = json.dumps([*path[:-1], path[0]])  # the last square made a repeat
        db.session.execute(delete(LevelProgress))
        db.session.commit()
    assert levels_by_id(client)[FIRST.id]["stars"] == 0
    assert "its path is no tour" in caplog.text
