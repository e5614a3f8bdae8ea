"""The daily puzzle and replay links over HTTP: create, win, rank, share, read back."""

from __future__ import annotations

import pytest

from server.daily import generator
from server.i18n import text
from tests.tourcheck import assert_tour
from tests.web.test_api import act, clock, move, new_game, refused  # noqa: F401 (fixture)

pytestmark = pytest.mark.usefixtures("clock")  # the service's clock stands still

OPEN_DAY, CLOSED_DAY = "2025-03-05", "2025-03-08"  # a Wednesday, a Saturday


@pytest.fixture
def on_day(monkeypatch):
    """Pin the server's UTC today."""

    def pin(day: str) -> generator.Daily:
        monkeypatch.setattr(generator, "today", lambda: day)
        return generator.daily(day)

    return pin


def cells(found: generator.Daily) -> list[list[int]]:
    cols = found.puzzle.shape.cols
    return [list(divmod(sq, cols)) for sq in found.witness]


def win_daily(client, found: generator.Daily) -> dict:
    response = client.post("/api/games", json={"daily": "today"})
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    tour = cells(found)
    if found.puzzle.closed:
        tour.append(tour[0])  # the jump back onto the start
    state = None
    for cell in tour:
        state = move(client, game, cell)
    assert state["status"] == "won"
    return state


@pytest.mark.parametrize("day", [OPEN_DAY, CLOSED_DAY])
def test_a_daily_game_is_the_dates_puzzle(client, on_day, day):
    found = on_day(day)
    state = client.post("/api/games", json={"daily": "today"}).get_json()
    shape = found.puzzle.shape
    assert (state["rows"], state["cols"], state["closed"]) == (
        shape.rows,
        shape.cols,
        found.puzzle.closed,
    )
    assert state["daily"] == day and state["puzzle"] == found.code
    holes = {tuple(cell) for cell in state["holes"]}
    assert holes == {divmod(sq, shape.cols) for sq in shape.holes}
    assert not holes & {tuple(cell) for cell in state["legal"]}
    if found.puzzle.start is None:
        assert state["fixed_start"] is None
    else:
        fixed = list(divmod(found.puzzle.start, shape.cols))
        assert state["fixed_start"] == fixed and state["legal"] == [fixed]
        elsewhere = next(sq for sq in shape.board.squares() if sq != found.puzzle.start)
        row, col = divmod(elsewhere, shape.cols)
        url = f"/api/games/{state['id']}/moves?lang=en"
        body = refused(client.post(url, json={"row": row, "col": col}), "illegal-move")
        assert shape.board.name(found.puzzle.start) in body["error"]
    hole = sorted(holes)[0]
    response = client.post(f"/api/games/{state['id']}/moves", json={"row": hole[0], "col": hole[1]})
    refused(response, "illegal-move")


def test_the_daily_preview_holds_no_solution(client, on_day):
    found = on_day(OPEN_DAY)
    preview = client.get("/api/daily").get_json()
    assert preview["date"] == OPEN_DAY and preview["puzzle"] == found.code
    assert "witness" not in preview and "path" not in preview
    other = client.get("/api/daily?date=2025-03-04").get_json()
    assert other["puzzle"] == generator.daily("2025-03-04").code
    refused(client.get("/api/daily?date=2025-02-30"), "bad-request")


def test_a_daily_puzzle_is_not_out_before_its_day(client, on_day):
    on_day(OPEN_DAY)
    for day in ("2025-03-06", "2031-01-01"):
        body = refused(client.get(f"/api/daily?date={day}&lang=en"), "not-yet")
        assert body["error"] == text("error.not-yet", "en")
    assert client.get(f"/api/daily?date={OPEN_DAY}").get_json()["date"] == OPEN_DAY


@pytest.mark.parametrize("day", [OPEN_DAY, CLOSED_DAY])
def test_a_daily_win_ranks_on_the_daily_board_only(client, on_day, day):
    found = on_day(day)
    state = win_daily(client, found)
    assert_tour(
        state["rows"],
        state["cols"],
        state["path"],
        closed=state["closed"],
        start=state["fixed_start"],
        blocked=[tuple(c) for c in state["holes"]],
    )
    entry = act(client, state, "score", {"name": "每日"}, status=201)
    assert entry["rank"] == 1 and entry["daily"] == day and entry["puzzle"] == found.code
    board = client.get(f"/api/leaderboard?daily={day}").get_json()
    assert [e["name"] for e in board["unassisted"]] == ["每日"]
    other_day = client.get("/api/leaderboard?daily=2025-03-04").get_json()
    assert other_day == {"unassisted": [], "assisted": []}
    query = f"rows={state['rows']}&cols={state['cols']}&closed={str(state['closed']).lower()}"
    assert client.get(f"/api/leaderboard?{query}").get_json()["unassisted"] == []
    # a plain game on the same board size ranks there, not on the daily board
    plain = new_game(client, 5, 5)
    assert plain["daily"] is None and plain["puzzle"] == "5x5.o"  # a plain board's code


@pytest.mark.parametrize("bad", ["2025-3-5", "yesterday", "", "2025-02-30"])
def test_a_daily_leaderboard_needs_a_date(client, bad):
    refused(client.get(f"/api/leaderboard?daily={bad}"), "bad-request")


@pytest.mark.parametrize("body", [{"daily": "tomorrow"}, {"daily": True}, {"daily": None}])
def test_only_today_is_a_daily_game(client, body):
    refused(client.post("/api/games", json=body), "bad-request")


# -- replays ------------------------------------------------------------------
def test_a_won_game_shares_one_replay_that_does_not_leak_its_id(client, on_day):
    found = on_day(OPEN_DAY)
    state = win_daily(client, found)
    made = client.post(f"/api/games/{state['id']}/replay")
    assert made.status_code == 201
    replay_id = made.get_json()["id"]
    again = client.post(f"/api/games/{state['id']}/replay")
    assert again.status_code == 200 and again.get_json()["id"] == replay_id
    response = client.get(f"/api/replays/{replay_id}")
    assert response.status_code == 200
    replay = response.get_json()
    assert replay["path"] == state["path"] and replay["holes"] == state["holes"]
    assert replay["moves"] == state["moves"] and replay["seconds"] == state["elapsed"]
    assert replay["puzzle"] == found.code and replay["daily"] == OPEN_DAY
    assert state["id"] not in response.get_data(as_text=True)
    assert replay_id != state["id"]


def test_a_game_not_won_has_no_replay(client):
    game = new_game(client, 5, 5)
    body = refused(client.post(f"/api/games/{game['id']}/replay"), "not-won")
    assert client.post(f"/api/games/{game['id']}/replay").status_code == 409
    move(client, game, [0, 0])
    refused(client.post(f"/api/games/{game['id']}/replay"), "not-won")
    assert body["error"]


@pytest.mark.parametrize("replay_id", ["nope", "x" * 17, "x" * 500])
def test_an_unknown_replay_is_a_json_404(client, replay_id):
    response = client.get(f"/api/replays/{replay_id}")
    assert response.status_code == 404
    assert response.get_json()["code"] == "unknown-replay"


def test_an_unknown_game_has_no_replay(client):
    response = client.post("/api/games/nope/replay")
    assert response.status_code == 404 and response.get_json()["code"] == "unknown-game"
