"""Write a database the way a release writes it, for the upgrade test.

Run it with the *released* code on the path (not the code under test), e.g. for the
database of release 0.1.0 (commit 7d4e908):

    git worktree add /tmp/release-0.1.0 7d4e908
    PYTHONPATH=/tmp/release-0.1.0 .venv/bin/python tests/migrations/make_release_db.py \\
        sqlite:///tests/migrations/release-0.1.0.sqlite3 tests/migrations/release-0.1.0.json

It plays through the app's own HTTP API and class service: a game in progress (moves,
an undo, a hint), a fresh game, a stuck game, two won games on the leaderboard (one
with hints), and a class room with a demo, a puzzle and two entries (one solved).
The JSON file records the ids and what the upgraded database must still show.
"""

from __future__ import annotations

import json
import sys
import tempfile


def main(database_url: str, manifest_path: str) -> None:
    from server.app import create_app
    from server.classroom import service as classes
    from server.engine.board import Board
    from server.engine.search import solve

    app = create_app(
        {"DATABASE_URL": database_url, "INSTANCE_PATH": tempfile.mkdtemp(), "TESTING": True}
    )
    client = app.test_client()

    def post(path, body=None):
        response = client.post(path, json=body or {})
        assert response.status_code in (200, 201), (path, response.get_json())
        return response.get_json()

    def play(game_id, squares, cols):
        state = None
        for sq in squares:
            state = post(f"/api/games/{game_id}/moves", {"row": sq // cols, "col": sq % cols})
        return state

    manifest: dict = {"games": {}}
    # a game in progress: 4 moves, one undone, a hint asked
    tour6 = solve(Board(6, 6), 0, ordering="warnsdorff").tour
    game = post("/api/games", {"rows": 6, "cols": 6})
    play(game["id"], tour6[:5], 6)
    post(f"/api/games/{game['id']}/undo", {"count": 1})
    post(f"/api/games/{game['id']}/hint")
    manifest["games"]["in_progress"] = {"id": game["id"], "path": tour6[:4], "rows": 6, "cols": 6}
    # a new game, not started
    fresh = post("/api/games", {"rows": 8, "cols": 8, "closed": True})
    manifest["games"]["fresh"] = {"id": fresh["id"]}
    # a stuck game on 5x5: from a corner, always the last legal move, until none is left
    stuck = post("/api/games", {"rows": 5, "cols": 5})
    state = play(stuck["id"], [0], 5)
    while state["legal"]:
        row, col = state["legal"][-1]
        state = play(stuck["id"], [row * 5 + col], 5)
    manifest["games"]["stuck"] = {"id": stuck["id"], "status": state["status"]}
    # two won games on the leaderboard: 5x5 open without hints, 6x6 closed with one hint
    tour5 = solve(Board(5, 5), 0).tour
    won = post("/api/games", {"rows": 5, "cols": 5})
    play(won["id"], tour5, 5)
    entry = post(f"/api/games/{won['id']}/score", {"name": "小明"})
    manifest["games"]["won"] = {"id": won["id"], "name": "小明", "rank": entry["rank"]}
    closed_tour = solve(Board(6, 6), 0, closed=True, ordering="warnsdorff").tour
    assisted = post("/api/games", {"rows": 6, "cols": 6, "closed": True})
    play(assisted["id"], closed_tour[:1], 6)
    post(f"/api/games/{assisted['id']}/hint")
    state = play(assisted["id"], [*closed_tour[1:], closed_tour[0]], 6)
    assert state["status"] == "won", state["status"]
    post(f"/api/games/{assisted['id']}/score", {"name": "Ada"})
    manifest["games"]["won_assisted"] = {"id": assisted["id"], "name": "Ada"}

    # a class room: a demo shown, a puzzle handed out, one entry solved, one trying
    with app.app_context():
        opened = classes.open_room()
        room = classes.find_room(opened.code)
        settings = {
            "rows": 6,
            "cols": 6,
            "start": [0, 0],
            "algorithm": "seed",
            "closed": False,
            "pruning": False,
        }
        classes.set_settings(room, settings, classes.now())
        classes.set_puzzle(room, {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}, 0.0)
        solved = classes.start_puzzle_game(room, "Lin", classes.now())
        trying = classes.start_puzzle_game(room, "Wang", classes.now())
    play(solved["game"], tour5[1:], 5)
    with app.app_context():
        room = classes.find_room(opened.code)
        classes.record_solution(room, solved["game"], classes.now())
        manifest["room"] = {
            "code": opened.code,
            "token": opened.token,
            "settings": settings,
            "solved": {"game": solved["game"], "name": "Lin"},
            "trying": {"game": trying["game"], "name": "Wang"},
        }
    with open(manifest_path, "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, ensure_ascii=False, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
