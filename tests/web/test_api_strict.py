"""The JSON API reads what docs/api.md says it reads, and nothing a cross-site form can send.

Each test is one place where an outside fuzzer found the server and its documents
disagreeing (issue 22): a form could create games, a UTF-16 body was read, a puzzle's
ignored board fields were checked, query flags took any case.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from server.game.models import Game, db
from server.i18n import text

BOARD = {"rows": 5, "cols": 5}


def games(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


@pytest.mark.parametrize(
    "content_type, data",
    [
        ("application/x-www-form-urlencoded", "rows=5&cols=5"),
        (
            "multipart/form-data; boundary=x",
            '--x\r\nContent-Disposition: form-data; name="rows"\r\n\r\n5\r\n--x--',
        ),
        ("text/plain", json.dumps(BOARD)),  # what a form with enctype=text/plain sends
        (None, json.dumps(BOARD)),
        ("application/json-patch+json", json.dumps(BOARD)),
    ],
    ids=["urlencoded", "multipart", "text", "no-type", "other-json"],
)
def test_a_body_that_is_not_sent_as_json_is_refused(app, client, content_type, data):
    before = games(app)
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/games?lang=en", data=data, headers=headers)
    assert response.status_code == 415
    assert response.get_json() == {"code": "not-json", "error": text("error.not-json", "en")}
    assert games(app) == before  # nothing was created


def test_json_with_a_charset_and_an_empty_body_without_a_type_are_read(client):
    response = client.post(
        "/api/games", data=json.dumps(BOARD), content_type="application/json; charset=utf-8"
    )
    assert response.status_code == 201
    game = response.get_json()["id"]
    assert client.post(f"/api/games/{game}/moves", json={"random": True}).status_code == 200
    restarted = client.post(f"/api/games/{game}/restart")  # no body, no type: `{}`
    assert restarted.status_code == 200
    refused = client.post(f"/api/games/{game}/restart", data="", content_type="text/plain")
    assert refused.status_code == 415  # a form posts an empty body with a type


@pytest.mark.parametrize(
    "encoding", ["utf-16", "utf-16-le", "utf-32"], ids=["utf16-bom", "utf16le", "utf32"]
)
def test_a_body_that_is_not_utf8_is_bad_request(client, encoding):
    data = json.dumps(BOARD).encode(encoding)
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code == 400 and response.get_json()["code"] == "bad-request"


def test_a_utf8_byte_order_mark_is_allowed(client):
    data = json.dumps(BOARD).encode("utf-8-sig")
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "ignored",
    [{"rows": 99}, {"cols": 1.5, "closed": "yes"}, {"holes": "x"}, {"rows": None, "closed": 1}],
)
def test_a_puzzle_or_the_daily_decides_the_board_and_the_board_fields_are_ignored(client, ignored):
    game = client.post("/api/games", json={"puzzle": "6x6.o", **ignored})
    assert game.status_code == 201, game.get_json()
    state = game.get_json()
    assert (state["rows"], state["cols"], state["closed"], state["holes"]) == (6, 6, False, [])
    daily = client.post("/api/games", json={"daily": "today", **ignored})
    assert daily.status_code == 201 and daily.get_json()["daily"]
    board = client.post("/api/games", json={**BOARD, **ignored})  # without them: checked
    assert board.status_code == 400


@pytest.mark.parametrize("flag", ["False", "TRUE", "yes", "", "on"])
def test_a_query_flag_is_exactly_true_false_1_or_0(client, flag):
    for path in ("/api/theory", "/api/leaderboard"):
        response = client.get(f"{path}?rows=5&cols=5&closed={flag}&lang=en")
        assert response.status_code == 400, (path, flag)
        body = response.get_json()
        assert body["code"] == "bad-request" and "closed" in body["error"]


@pytest.mark.parametrize(
    "flag, closed", [("true", True), ("1", True), ("false", False), ("0", False)]
)
def test_the_documented_flags_are_read(client, flag, closed):
    response = client.get(f"/api/theory?rows=5&cols=5&closed={flag}")
    assert response.status_code == 200
    assert response.get_json()["possible"] is not closed  # 5x5: open tours, no closed one
    board = client.get(f"/api/leaderboard?rows=5&cols=5&closed={flag}")
    assert board.status_code == 200
