"""Crash safety: kill -9 the real server mid-game, restart it, and every acknowledged move is there.

``knights-tour serve --port 0`` runs as a subprocess on a temporary instance folder
(``INSTANCE_PATH``: its SQLite file and secret key); games are played over real HTTP.
A move is acknowledged when its 200 answer arrived: the commit happened (and was
fsynced, WAL + synchronous=FULL) before the answer was sent, so SIGKILL cannot take
it back.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOARDS = [(5, 5, False), (6, 6, False), (5, 6, True), (6, 6, True)]


class Server:
    """One ``knights-tour serve`` process on the instance folder ``instance``."""

    def __init__(self, tmp: Path, instance: Path, name: str) -> None:
        self.out = tmp / f"{name}.out"
        self.err = tmp / f"{name}.err"
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
        env.update(INSTANCE_PATH=str(instance), RATE_LIMIT_GAMES="0")
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server", "serve", "--port", "0"],
                cwd=tmp,
                env=env,
                stdout=out,
                stderr=err,
            )
        self.url = self._wait_for_url()

    def _wait_for_url(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            match = re.search(r"listening on (http://\S+)", self.out.read_text())
            if match:
                return match.group(1)
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"the server did not start: {self.err.read_text()[-2000:]}")

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def play_one(server: Server, game: dict, rng: random.Random) -> tuple[str, int, dict]:
    """One intention on ``game``: mostly a move to a legal square, sometimes undo or hint."""
    gid = game["id"]
    roll = rng.random()
    if game["status"] == "new":
        return "move", *server.call("POST", f"/api/games/{gid}/moves", {"random": True})
    if game["moves"] and (roll < 0.15 or not game["legal"]):
        return "undo", *server.call("POST", f"/api/games/{gid}/undo", {"count": 1})
    if roll < 0.2:
        status, body = server.call("POST", f"/api/games/{gid}/hint", {})
        return "hint", status, body.get("state", body)
    if game["legal"]:
        row, col = rng.choice(game["legal"])
        return "move", *server.call("POST", f"/api/games/{gid}/moves", {"row": row, "col": col})
    return "get", *server.call("GET", f"/api/games/{gid}")


def essentials(state: dict) -> dict:
    keys = ("path", "returned", "undos", "hints", "status", "moves")
    return {key: state[key] for key in keys}


def ops(state: dict) -> int:
    """Intentions that changed the game: a move adds a square, an undo takes one back."""
    return len(state["path"]) + 2 * state["undos"] + state["hints"]


@pytest.fixture
def workdir(tmp_path):
    servers: list[Server] = []
    yield tmp_path, servers
    for server in servers:
        server.kill()


def test_acknowledged_moves_survive_kill_9(workdir):
    tmp, servers = workdir
    instance = tmp / "instance"
    rng = random.Random(7)

    # First life: play several games in turn, kill -9 right after the last answers.
    first = Server(tmp, instance, "first")
    servers.append(first)
    games = []
    for rows, cols, closed in BOARDS:
        body = {"rows": rows, "cols": cols, "closed": closed}
        status, game = first.call("POST", "/api/games", body)
        assert status == 201, game
        games.append(game)
    for _ in range(10):
        for i, game in enumerate(games):
            kind, status, state = play_one(first, game, rng)
            assert status == 200, (kind, state)
            games[i] = state
    first.kill()

    # Second life on the same file: every game is exactly where its last answer left it.
    second = Server(tmp, instance, "second")
    servers.append(second)
    for game in games:
        status, state = second.call("GET", f"/api/games/{game['id']}")
        assert status == 200, state
        assert essentials(state) == essentials(game)
        assert state["moves"] > 0

    # Play on after the restart, then kill -9 while requests are still in flight.
    acked: dict[str, dict] = {game["id"]: game for game in games}
    inflight: dict[str, str] = {}
    stop = threading.Event()
    failures: list[str] = []

    def player(game_id: str, seed: int) -> None:
        local = random.Random(seed)
        while not stop.is_set():
            inflight[game_id] = "pending"
            try:
                kind, status, state = play_one(second, acked[game_id], local)
            except (OSError, http.client.HTTPException, json.JSONDecodeError):
                return  # the server died under this request (even mid-body): not acknowledged
            if status != 200:
                failures.append(f"{kind} {status} {state}")
                return
            acked[game_id] = state  # acknowledged
            inflight.pop(game_id, None)

    threads = [
        threading.Thread(target=player, args=(game["id"], i), daemon=True)
        for i, game in enumerate(games)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    second.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=35)
    assert not failures, failures
    assert sum(ops(acked[g["id"]]) - ops(g) for g in games) >= len(games)  # real traffic

    third = Server(tmp, instance, "third")
    servers.append(third)
    for game_id, last in acked.items():
        status, state = third.call("GET", f"/api/games/{game_id}")
        assert status == 200, state
        if game_id not in inflight:
            assert essentials(state) == essentials(last)
            continue
        # The request in flight at the kill may have committed or not; nothing older is lost.
        if essentials(state) != essentials(last):
            assert ops(state) == ops(last) + 1, (state, last)
            assert state["path"][: len(last["path"]) - 1] == last["path"][:-1]
    third.kill()
    # The server answered with JSON throughout and logged no traceback.
    for server in servers:
        assert "Traceback" not in server.err.read_text()
    assert (instance / "knights_tour.sqlite3").exists() and (instance / "secret_key").exists()
