"""DATABASE_URL on PostgreSQL (docs/deploy.md): a real ``knights-tour serve`` on a real cluster.

A throwaway cluster (tests/support/postgres.py) gives each test a fresh database.  The
operator creates the schema with ``knights-tour db upgrade`` (``serve`` refuses a stale
one); the app then plays a game (moves, undo, a won 5x5 tour, the leaderboard), opens a
class room with a puzzle entry, and after a restart on the same database the game is
still there.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import socketio

from server.engine.board import Board
from server.engine.search import solve
from tests.support.servers import open_class_room, start_servers, tracebacks

# five `knights-tour` starts; on a loaded 2-core machine each can take 20 s
pytestmark = pytest.mark.timeout(300)


def db_command(action: str, database_url: str, tmp_path) -> subprocess.CompletedProcess:
    """``knights-tour db <action>`` on that database, as an operator runs it."""
    env = {**os.environ, "DATABASE_URL": database_url, "INSTANCE_PATH": str(tmp_path / "cli")}
    script = Path(sys.executable).parent / "knights-tour"
    return subprocess.run(
        [str(script), "db", action], env=env, capture_output=True, text=True, timeout=120
    )


def http_json(method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        data = json.dumps(body) if body is not None else None
        conn.request(
            method,
            parts.path + (f"?{parts.query}" if parts.query else ""),
            data,
            {"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def test_serve_refuses_an_empty_database_until_it_is_upgraded(postgres_url, tmp_path):
    script = Path(sys.executable).parent / "knights-tour"
    env = {**os.environ, "DATABASE_URL": postgres_url, "INSTANCE_PATH": str(tmp_path / "i")}
    refused = subprocess.run(
        [str(script), "serve", "--port", "0"], env=env, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2, refused
    assert refused.stderr.count("\n") == 1 and "knights-tour db upgrade" in refused.stderr
    status = db_command("status", postgres_url, tmp_path)
    assert status.returncode == 1 and "stale" in status.stdout, status
    upgraded = db_command("upgrade", postgres_url, tmp_path)
    assert upgraded.returncode == 0 and "upgraded from nothing" in upgraded.stdout, upgraded
    again = db_command("upgrade", postgres_url, tmp_path)
    assert again.returncode == 0 and "current" in again.stdout, again
    assert db_command("status", postgres_url, tmp_path).returncode == 0


def test_the_app_runs_on_postgresql(postgres_url, tmp_path):
    database_url = postgres_url
    assert db_command("upgrade", database_url, tmp_path).returncode == 0
    env = {"DATABASE_URL": database_url}
    (server,) = start_servers(tmp_path / "first", 1, env=env)
    try:
        url = server.url
        # a game: moves, an undo, a won 5x5 tour, the leaderboard
        status, game = http_json("POST", f"{url}/api/games", {"rows": 5, "cols": 5})
        assert status in (200, 201), game
        gid = game["id"]
        tour = solve(Board(5, 5), 0).tour
        for sq in tour[:3]:
            status, state = http_json(
                "POST", f"{url}/api/games/{gid}/moves", {"row": sq // 5, "col": sq % 5}
            )
            assert status == 200, state
        status, state = http_json("POST", f"{url}/api/games/{gid}/undo", {})
        assert status == 200 and len(state["path"]) == 2, state
        for sq in tour[2:]:
            status, state = http_json(
                "POST", f"{url}/api/games/{gid}/moves", {"row": sq // 5, "col": sq % 5}
            )
            assert status == 200, state
        assert state["status"] == "won", state
        status, score = http_json("POST", f"{url}/api/games/{gid}/score", {"name": "马 Ann"})
        assert status in (200, 201), score
        status, board = http_json("GET", f"{url}/api/leaderboard?rows=5&cols=5&closed=false")
        assert status == 200, board
        assert "马 Ann" in json.dumps(board, ensure_ascii=False), board

        # a game left half played, to resume after the restart
        status, open_game = http_json("POST", f"{url}/api/games", {"rows": 6, "cols": 6})
        for sq in solve(Board(6, 6), 0).tour[:4]:
            http_json(
                "POST", f"{url}/api/games/{open_game['id']}/moves", {"row": sq // 6, "col": sq % 6}
            )

        # a class room: the teacher hands out a puzzle, a student opens an entry
        code, token = open_class_room(url)
        teacher, student = socketio.Client(), socketio.Client()
        try:
            for client in (teacher, student):
                client.connect(url, namespaces=["/class"], transports=["websocket"])
            joined = teacher.call("join", {"code": code, "token": token}, namespace="/class")
            assert joined["ok"] and joined["role"] == "teacher", joined
            assert student.call("join", {"code": code}, namespace="/class")["ok"]
            puzzle = {"rows": 5, "cols": 5, "closed": False, "start": [0, 0]}
            assert teacher.call("puzzle", puzzle, namespace="/class")["ok"]
            entry = student.call("solve", {"name": "Bo"}, namespace="/class")
            assert entry["ok"] and entry["game"], entry
            for sq in tour[1:]:
                status, state = http_json(
                    "POST",
                    f"{url}/api/games/{entry['game']}/moves",
                    {"row": sq // 5, "col": sq % 5},
                )
                assert status == 200, state
            solved = student.call("solved", {"game": entry["game"]}, namespace="/class")
            assert solved["ok"] and solved["entry"]["rank"] == 1, solved
        finally:
            teacher.disconnect()
            student.disconnect()
        assert not tracebacks(server.stderr())
    finally:
        server.stop()

    # a restart on the same database: the game resumes where it was
    (again,) = start_servers(tmp_path / "second", 1, env=env)
    try:
        status, state = http_json("GET", f"{again.url}/api/games/{open_game['id']}")
        assert status == 200 and len(state["path"]) == 4, state
        assert state["status"] == "playing", state
        sq = solve(Board(6, 6), 0).tour[4]
        status, state = http_json(
            "POST",
            f"{again.url}/api/games/{open_game['id']}/moves",
            {"row": sq // 6, "col": sq % 6},
        )
        assert status == 200 and len(state["path"]) == 5, state
        status, board = http_json("GET", f"{again.url}/api/leaderboard?rows=5&cols=5&closed=false")
        assert "马 Ann" in json.dumps(board, ensure_ascii=False)
        assert not tracebacks(again.stderr())
    finally:
        again.stop()


def test_a_plain_postgresql_url_uses_psycopg_3(postgres_url, tmp_path):
    plain = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    assert db_command("upgrade", plain, tmp_path).returncode == 0
    (server,) = start_servers(tmp_path / "plain", 1, env={"DATABASE_URL": plain})
    try:
        status, game = http_json("POST", f"{server.url}/api/games", {"rows": 5, "cols": 5})
        assert status in (200, 201), game
        assert not tracebacks(server.stderr())
    finally:
        server.stop()
