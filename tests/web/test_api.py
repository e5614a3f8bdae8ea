"""The JSON API (docs/api.md) through Flask's test client: play, win, score, and every refusal."""

from __future__ import annotations

import pytest

from server.app import create_app
from server.engine import theory
from server.engine.board import Board
from server.engine.hints import hint
from server.game import service
from server.i18n import LANGS, MESSAGES, catalogue_version
from server.web.assets import KEEP
from tests.game.test_serialize import REPLAY, STATE, WORDS
from tests.tourcheck import assert_tour

ERROR_CODES = {
    "bad-request": 400,
    "bad-board": 400,
    "bad-name": 400,
    "unknown-game": 404,
    "illegal-move": 409,
    "game-over": 409,
    "bad-undo": 409,
    "not-won": 409,
    "already-submitted": 409,
}

HINT_CODES = (
    "parity", "stuck", "no-return", "unreachable", "dead-end", "trap", "two-ends", "split",
    "exhausted", "time", "no-tour",
)  # fmt: skip


class Clock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(service, "now", fake)
    return fake


def new_game(client, rows=5, cols=5, closed=False):
    response = client.post("/api/games", json={"rows": rows, "cols": cols, "closed": closed})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def act(client, game, what, body=None, status=200):
    response = client.post(f"/api/games/{game['id']}/{what}", json={} if body is None else body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def get(client, game):
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    return response.get_json()


def move(client, game, cell, status=200):
    return act(client, game, "moves", {"row": cell[0], "col": cell[1]}, status)


def engine_tour(rows, cols, start, closed=False):
    result = hint(Board(rows, cols), [start], closed=closed, time_limit=5.0)
    assert result.verdict == "completable"
    return [list(divmod(sq, cols)) for sq in (start, *result.witness)]


def play_tour(client, game, cells, clock=None, seconds=0.0):
    """Play ``cells``; the clock advances evenly so the moves after the first take ``seconds``."""
    state = None
    for i, cell in enumerate(cells):
        if clock and i:
            clock.t += seconds / (len(cells) - 1)
        state = move(client, game, cell)
    return state


def refused(response, code, lang="zh"):
    """A 4xx JSON refusal with the given code and a message."""
    assert response.status_code == ERROR_CODES.get(code, response.status_code) >= 400
    assert 400 <= response.status_code < 500
    body = response.get_json()
    assert body["code"] == code and body["error"], body
    return body


# -- creating and playing -----------------------------------------------------
def test_create_game(client, clock):
    state = new_game(client, 5, 6, closed=True)
    assert state["status"] == "new" and state["start"] is None and state["path"] == []
    assert len(state["legal"]) == 30 and state["moves"] == 0 and state["squares_left"] == 30
    assert state["feasible"] == {"possible": True, "reason": None, "code": None}
    assert state["dead"] is None and state["can_submit"] is False and state["elapsed"] == 0
    assert len(state["id"]) >= 20 and get(client, state) == state


def test_moves_undo_restart(client, clock):
    game = new_game(client)
    state = move(client, game, [0, 0])
    assert state["status"] == "playing" and state["start"] == [0, 0]
    assert sorted(state["legal"]) == [[1, 2], [2, 1]]
    clock.t += 5
    state = move(client, game, [1, 2])
    state = move(client, game, [0, 4])
    assert state["moves"] == 2 and state["elapsed"] == 5.0
    state = act(client, game, "undo")
    assert state["path"] == [[0, 0], [1, 2]] and state["undos"] == 1
    state = act(client, game, "undo", {"count": 1})
    assert state["path"] == [[0, 0]] and state["undos"] == 2
    move(client, game, [2, 1])
    clock.t += 10
    state = act(client, game, "restart")
    assert state["path"] == [[0, 0]] and state["undos"] == 2 and state["elapsed"] == 0
    assert get(client, game) == state


def test_random_first_move(client, clock):
    game = new_game(client)
    state = act(client, game, "moves", {"random": True})
    row, col = state["start"]
    assert (row + col) % 2 == 0 and state["feasible"]["possible"]
    refused(client.post(f"/api/games/{game['id']}/moves", json={"random": True}), "illegal-move")


def test_hint_is_counted(client, clock):
    game = new_game(client)
    answer = act(client, game, "hint")
    assert answer["hint"]["next"] is not None and answer["state"]["hints"] == 1
    state = move(client, game, answer["hint"]["next"])
    answer = act(client, game, "hint")
    assert answer["hint"]["verdict"] == "completable"
    assert answer["hint"]["next"] in state["legal"] and answer["state"]["hints"] == 2


def test_early_warning_and_stuck(client, clock):
    game = new_game(client)
    for cell in ([0, 4], [1, 2], [3, 3], [2, 1], [0, 0]):
        state = move(client, game, cell)
    assert state["status"] == "stuck" and state["legal"] == []
    assert state["dead"]["code"] == "stuck" and state["dead"]["undo"] >= 1
    assert "撤销" in state["dead"]["message"]
    english = client.get(f"/api/games/{game['id']}?lang=en").get_json()
    assert "undo" in english["dead"]["message"] and english["dead"]["reason"]
    refused(
        client.post(f"/api/games/{game['id']}/moves", json={"row": 1, "col": 2}), "illegal-move"
    )


def follow_hints(client, clock, game) -> dict:
    """``game`` played to its end by its hints alone, a second a move: each hint says the
    tour can be completed and no move leaves the game dead. The won state."""
    state = game
    while state["status"] != "won":
        answer = act(client, game, "hint")
        assert answer["hint"]["verdict"] == "completable", answer["hint"]
        clock.t += 1
        state = move(client, game, answer["hint"]["next"])
        assert state["dead"] is None
    return state


def test_open_5x5_tour_by_following_hints(client, clock):
    game = new_game(client, 5, 5)
    state = follow_hints(client, clock, game)
    assert_tour(5, 5, state["path"])
    assert state["moves"] == 24 and state["hints"] == 25 and state["can_submit"]
    frozen = state["elapsed"]
    clock.t += 100
    assert get(client, game)["elapsed"] == frozen == 24.0
    refused(client.post(f"/api/games/{game['id']}/moves", json={"row": 0, "col": 0}), "game-over")
    refused(client.post(f"/api/games/{game['id']}/hint", json={}), "game-over")
    refused(client.post(f"/api/games/{game['id']}/undo", json={}), "game-over")


def test_closed_6x6_tour_by_following_hints(client, clock):
    game = new_game(client, 6, 6, closed=True)
    state = follow_hints(client, clock, game)
    assert state["returned"] and state["moves"] == 36 and len(state["path"]) == 36
    assert_tour(6, 6, state["path"], closed=True)
    clock.t += 50
    assert get(client, game)["elapsed"] == state["elapsed"] == 36.0


# -- scores and the leaderboard -------------------------------------------------
def win(client, clock, seconds, rows=5, cols=5, closed=False, hints=0):
    game = new_game(client, rows, cols, closed)
    for _ in range(hints):
        act(client, game, "hint")
    cells = engine_tour(rows, cols, 0, closed) + ([[0, 0]] if closed else [])
    state = play_tour(client, game, cells, clock, seconds)
    assert state["status"] == "won"
    assert_tour(rows, cols, state["path"], closed=closed)
    return game


def score(client, game, name, status=201):
    response = client.post(f"/api/games/{game['id']}/score", json={"name": name})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_leaderboard_ranks_assisted_runs_apart(client, clock):
    slow, fast, helped = (win(client, clock, s, hints=h) for s, h in ((90, 0), (40, 0), (5, 2)))
    assert score(client, slow, "  slow  ")["rank"] == 1
    entry = score(client, fast, "fast")
    assert entry["rank"] == 1 and entry["seconds"] == 40.0 and not entry["assisted"]
    assert entry["moves"] == 24 and entry["hints"] == 0
    assert score(client, helped, "helped")["assisted"]
    board = client.get("/api/leaderboard?rows=5&cols=5&closed=false").get_json()
    assert [e["name"] for e in board["unassisted"]] == ["fast", "slow"]
    assert [e["rank"] for e in board["unassisted"]] == [1, 2]
    assert [e["name"] for e in board["assisted"]] == ["helped"]
    other = client.get("/api/leaderboard?rows=5&cols=5&closed=true").get_json()
    assert other == {"assisted": [], "unassisted": []}
    assert get(client, fast)["can_submit"] is False


def test_score_names(client, clock):
    game = win(client, clock, 10)
    before = client.get("/api/leaderboard?rows=5&cols=5").get_json()
    for bad in ("", "   ", "x" * 25, "a\nb", "a\x00b"):
        refused(client.post(f"/api/games/{game['id']}/score", json={"name": bad}), "bad-name")
    for bad in (None, 7, ["x"], {"a": 1}):
        refused(client.post(f"/api/games/{game['id']}/score", json={"name": bad}), "bad-request")
    assert client.get("/api/leaderboard?rows=5&cols=5").get_json() == before
    html = "<script>alert(1)</script>"[:24]
    assert score(client, game, html)["name"] == html
    board = client.get("/api/leaderboard?rows=5&cols=5").get_json()
    assert board["unassisted"][0]["name"] == html
    other = win(client, clock, 10)
    assert score(client, other, "名" * 24)["name"] == "名" * 24


@pytest.mark.parametrize(("rows", "cols", "closed"), [(5, 5, False), (6, 6, True)])
def test_forged_wins_are_refused(client, clock, rows, cols, closed):
    game = new_game(client, rows, cols, closed)
    url = f"/api/games/{game['id']}"
    refused(client.post(f"{url}/score", json={"name": "x"}), "not-won")
    cells = engine_tour(rows, cols, 0, closed) + ([[0, 0]] if closed else [])
    play_tour(client, game, cells[:2])
    if closed:  # back onto the start after one move: no closing move, no win
        refused(client.post(f"{url}/moves", json={"row": 0, "col": 0}), "illegal-move")
        refused(client.post(f"{url}/score", json={"name": "x"}), "not-won")
    play_tour(client, game, cells[2:-1])
    refused(client.post(f"{url}/score", json={"name": "x"}), "not-won")
    move(client, game, cells[-1])
    score(client, game, "once")
    refused(client.post(f"{url}/score", json={"name": "x"}), "already-submitted")
    board = client.get(f"/api/leaderboard?rows={rows}&cols={cols}&closed={int(closed)}")
    assert [e["name"] for e in board.get_json()["unassisted"]] == ["once"]


def test_the_state_and_the_replay_carry_the_contracts_fields(client, clock):
    game = win(client, clock, 30)
    state = get(client, game)
    assert state.keys() == STATE | WORDS
    replay_id = act(client, game, "replay", status=201)["id"]
    replay = client.get(f"/api/replays/{replay_id}").get_json()
    assert replay.keys() == REPLAY and replay["path"] == state["path"]
    assert replay["seconds"] == state["elapsed"] == 30.0


# -- theory and i18n ------------------------------------------------------------
def test_theory(client):
    assert client.get("/api/theory?rows=8&cols=8&closed=true").get_json() == {
        "possible": True,
        "reason": None,
        "code": None,
    }
    zh = client.get("/api/theory?rows=5&cols=5&closed=true&lang=zh").get_json()
    en = client.get("/api/theory?rows=5&cols=5&closed=true&lang=en").get_json()
    assert zh["code"] == en["code"] == "both-odd" and not zh["possible"]
    assert "25" in zh["reason"] and "25" in en["reason"] and zh["reason"] != en["reason"]
    start = client.get("/api/theory?rows=5&cols=5&row=0&col=1&lang=en").get_json()
    assert start["code"] == "colour" and "d5" not in start["reason"] and "b5" in start["reason"]
    for query in (
        "rows=2&cols=8",
        "rows=8&cols=21",
        "rows=8",
        "rows=x&cols=8",
        "rows=8&cols=8&closed=maybe",
        "rows=8&cols=8&row=1",
        "rows=8&cols=8&row=8&col=0",
        "rows=8&cols=8&row=-1&col=0",
    ):
        response = client.get(f"/api/theory?{query}")
        assert response.status_code == 400, query
        assert response.get_json()["code"] in ("bad-request", "bad-board")


def test_i18n_catalogue_and_language_choice(client):
    zh = client.get("/api/i18n?lang=zh").get_json()
    en = client.get("/api/i18n?lang=en").get_json()
    assert zh["lang"] == "zh" and en["lang"] == "en" and set(zh["languages"]) == {"zh", "en"}
    assert zh["messages"].keys() == en["messages"].keys()
    assert zh["messages"]["error.game-over"] != en["messages"]["error.game-over"]
    assert client.get("/api/i18n").get_json()["lang"] == "zh"
    headers = {"Accept-Language": "en-US,en;q=0.8"}
    assert client.get("/api/i18n", headers=headers).get_json()["lang"] == "en"
    client.set_cookie("lang", "zh")
    assert client.get("/api/i18n", headers=headers).get_json()["lang"] == "zh"
    assert client.get("/api/i18n?lang=en", headers=headers).get_json()["lang"] == "en"


def test_catalogue_covers_every_code_in_both_languages():
    for key, entry in MESSAGES.items():
        assert set(entry) == set(LANGS), key
    for code in ERROR_CODES:
        assert f"error.{code}" in MESSAGES
    for code in theory.REASONS:
        assert f"theory.{code}" in MESSAGES, code
    for code in HINT_CODES:
        assert f"hint.{code}" in MESSAGES, code


def test_errors_are_in_the_request_language(client):
    zh = client.get("/api/games/nope").get_json()
    en = client.get("/api/games/nope?lang=en").get_json()
    assert zh["code"] == en["code"] == "unknown-game" and zh["error"] != en["error"]


# -- every bad input changes nothing ----------------------------------------------
BAD_MOVES = [
    ({"row": 0, "col": 0}, "illegal-move"),  # visited
    ({"row": 1, "col": 1}, "illegal-move"),  # not a knight move
    ({"row": 5, "col": 0}, "illegal-move"),  # off the board
    ({"row": 0, "col": -2}, "illegal-move"),
    ({"row": 10**30, "col": 0}, "illegal-move"),
    ({"row": True, "col": 2}, "bad-request"),  # a bool is not an int
    ({"row": 1.0, "col": 2}, "bad-request"),
    ({"row": "1", "col": 2}, "bad-request"),
    ({"row": 1}, "bad-request"),  # missing field
    ({}, "bad-request"),
    ({"random": True}, "illegal-move"),  # only for the first move
    ({"random": 1}, "bad-request"),
    ({"random": True, "row": 1, "col": 2}, "bad-request"),
]


# a 6x6 closed game at a6 then c5: the start is a knight's move away, 34 squares early
CLOSED_BAD_MOVES = [
    ({"row": 0, "col": 0}, "illegal-move"),  # back onto the start: not yet the closing move
    ({"row": 1, "col": 2}, "illegal-move"),  # the knight's own square
    ({"row": 2, "col": 2}, "illegal-move"),  # not a knight move
    ({"row": 6, "col": 0}, "illegal-move"),  # off the board
    ({"row": 0, "col": 0, "random": True}, "bad-request"),
]


@pytest.mark.parametrize(
    ("closed", "body", "code"),
    [(False, *bad) for bad in BAD_MOVES] + [(True, *bad) for bad in CLOSED_BAD_MOVES],
)
def test_bad_moves_change_nothing(client, clock, closed, body, code):
    game = new_game(client, 6, 6, closed=True) if closed else new_game(client)
    for cell in [[0, 0], [1, 2]] if closed else [[0, 0]]:
        move(client, game, cell)
    before = get(client, game)
    refused(client.post(f"/api/games/{game['id']}/moves", json=body), code)
    assert get(client, game) == before


@pytest.mark.parametrize(
    ("what", "body", "code"),
    [
        ("undo", {"count": 0}, "bad-undo"),
        ("undo", {"count": 3}, "bad-undo"),
        ("undo", {"count": -1}, "bad-undo"),
        ("undo", {"count": True}, "bad-request"),
        ("undo", {"count": "1"}, "bad-request"),
        ("undo", {"count": None}, "bad-request"),
        ("score", {"name": "x"}, "not-won"),
        ("score", {}, "bad-request"),
    ],
)
def test_bad_actions_change_nothing(client, clock, what, body, code):
    game = new_game(client)
    for cell in ([0, 0], [1, 2], [0, 4]):
        move(client, game, cell)
    before = get(client, game)
    refused(client.post(f"/api/games/{game['id']}/{what}", json=body), code)
    assert get(client, game) == before


@pytest.mark.parametrize(
    "body",
    [
        {"rows": 2, "cols": 5},
        {"rows": 5, "cols": 21},
        {"rows": -5, "cols": 5},
        {"rows": 10**40, "cols": 5},
    ],
)
def test_bad_boards(client, body):
    refused(client.post("/api/games", json=body), "bad-board")


@pytest.mark.parametrize(
    "body",
    [
        {"rows": 5},
        {"rows": 5, "cols": "5"},
        {"rows": True, "cols": 5},
        {"rows": 5.0, "cols": 5},
        {"rows": 5, "cols": 5, "closed": "yes"},
        {"rows": 5, "cols": 5, "closed": 1},
        {"rows": 5, "cols": 5, "closed": None},
    ],
)
def test_bad_game_bodies(client, body):
    refused(client.post("/api/games", json=body), "bad-request")


@pytest.mark.parametrize(
    "data", [b"{", b"not json", b"[1, 2]", b'"text"', b"\xff\xfe", b"[" * 50_000, b"1e999"]
)
def test_malformed_bodies(client, clock, data):
    game = new_game(client)
    move(client, game, [0, 0])
    before = get(client, game)
    for url in ("/api/games", f"/api/games/{game['id']}/moves", f"/api/games/{game['id']}/undo"):
        response = client.post(url, data=data, content_type="application/json")
        refused(response, "bad-request")
    assert get(client, game) == before


def test_oversized_body(client, clock):
    game = new_game(client)
    big = b'{"name": "' + b"x" * 70_000 + b'"}'
    response = client.post(
        f"/api/games/{game['id']}/moves", data=big, content_type="application/json"
    )
    assert response.status_code == 413 and response.get_json()["code"] == "too-large"


def test_unknown_game(client):
    refused(client.get("/api/games/no-such-game"), "unknown-game")
    for what, body in (
        ("moves", {"row": 0, "col": 0}),
        ("undo", {}),
        ("restart", {}),
        ("hint", {}),
        ("score", {"name": "x"}),
    ):
        refused(client.post(f"/api/games/no-such-game/{what}", json=body), "unknown-game")
    refused(client.get("/api/games/" + "x" * 500), "unknown-game")


def test_wrong_method_is_json(client):
    response = client.get("/api/games")
    assert response.status_code == 405 and response.get_json()["error"]


# -- nothing is lost ---------------------------------------------------------------
def test_a_server_restart_resumes_the_game(tmp_path, clock):
    config = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")}
    first = create_app(config).test_client()
    game = new_game(first, 6, 6)
    for cell in ([0, 0], [1, 2], [0, 4]):
        state = move(first, game, cell)
    act(first, game, "hint")
    second = create_app(config).test_client()
    resumed = get(second, game)
    assert resumed["path"] == [[0, 0], [1, 2], [0, 4]] and resumed["hints"] == 1
    assert resumed["legal"] == state["legal"]


def test_the_catalogue_asked_by_its_version_is_kept_and_otherwise_revalidated(client):
    for lang in ("zh", "en"):
        kept = client.get(f"/api/i18n?lang={lang}&v={catalogue_version(lang)}")
        assert kept.status_code == 200 and kept.headers["Cache-Control"] == KEEP
        assert kept.get_json()["lang"] == lang
        for address in (f"/api/i18n?lang={lang}", f"/api/i18n?lang={lang}&v=old"):
            fresh = client.get(address)
            assert fresh.headers["Cache-Control"] == "no-cache"
            assert fresh.get_json() == kept.get_json()
            etag = fresh.headers["ETag"]
            again = client.get(address, headers={"If-None-Match": etag})
            assert again.status_code == 304
    assert catalogue_version("zh") != catalogue_version("en")
