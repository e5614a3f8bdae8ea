"""DATABASE_URL on PostgreSQL (docs/deploy.md): a real ``knights-tour serve`` on a real cluster.

A throwaway cluster (Debian's ``initdb`` / ``pg_ctl``, ``make postgres`` installs them)
lives in a temporary directory, listens on a free loopback port and a unix socket in that
directory, and is stopped after the test.  PostgreSQL refuses to run as root: as root the
cluster runs as the ``postgres`` user the package creates.  The app then plays a game
(moves, undo, a won 5x5 tour, the leaderboard), opens a class room with a puzzle entry,
and after a restart on the same database the game is still there.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import socketio

from server.engine.board import Board
from server.engine.search import solve

from .servers import free_port, open_class_room, start_servers, tracebacks

pytestmark = pytest.mark.timeout(120)


def pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def as_owner(args: list[str], user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--", *args] if user else args


@pytest.fixture(scope="module")
def postgres():
    """(SQLAlchemy URL of a fresh database, the cluster's directory)."""
    pytest.importorskip("psycopg")
    binaries = pg_bin()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (`make postgres` installs Debian's package)")
    user = None
    if os.geteuid() == 0:  # postgres will not run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no `postgres` user to run the cluster")
        user = "postgres"
    # not under pytest's tmp dir: that is private to root, the postgres user cannot enter it
    directory = Path(tempfile.mkdtemp(prefix="knights-pg-"))
    if user:
        shutil.chown(directory, user)
    data, port = directory / "data", free_port()
    run = dict(check=True, capture_output=True, text=True, timeout=60)
    subprocess.run(
        as_owner([str(binaries / "initdb"), "-D", str(data), "-U", "knights", "-A", "trust"], user),
        **run,
    )
    options = f"-h 127.0.0.1 -p {port} -k {directory} -c fsync=off"
    subprocess.run(
        as_owner(
            [
                str(binaries / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(directory / "log"),
                "-o",
                options,
                "-w",
                "start",
            ],
            user,
        ),
        **run,
    )
    try:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=port, user="knights", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE knights_tour")
        yield f"postgresql+psycopg://knights@127.0.0.1:{port}/knights_tour", directory
    finally:
        subprocess.run(
            as_owner([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], user),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(directory, ignore_errors=True)


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


def test_the_app_runs_on_postgresql(postgres, tmp_path):
    database_url, _directory = postgres
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


def test_a_plain_postgresql_url_uses_psycopg_3(postgres, tmp_path):
    database_url, _directory = postgres
    plain = database_url.replace("postgresql+psycopg://", "postgresql://")
    (server,) = start_servers(tmp_path / "plain", 1, env={"DATABASE_URL": plain})
    try:
        status, game = http_json("POST", f"{server.url}/api/games", {"rows": 5, "cols": 5})
        assert status in (200, 201), game
        assert not tracebacks(server.stderr())
    finally:
        server.stop()
