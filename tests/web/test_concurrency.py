"""Concurrent intentions on one game: none is lost, the result is some serial history.

Real threads, a real SQLite file (WAL), the real app.  Every successful answer carries
the state right after its intention; ordered by how many intentions succeeded before
it, consecutive states must follow from each other by exactly that intention.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

from server.app import create_app
from server.db import db
from server.game import rules, service
from server.game.models import Game

THREADS = 8
OPS_PER_THREAD = 12
CLEAN_REFUSALS = {"illegal-move", "bad-undo", "game-over", "conflict"}


@pytest.fixture
def app(tmp_path):
    instance = tmp_path / "instance"
    return create_app({"INSTANCE_PATH": str(instance), "RATE_LIMIT_GAMES": None, "TESTING": False})


def op_index(state: dict) -> int:
    """Intentions that succeeded so far: moves add a square, each (count 1) undo takes one."""
    return (len(state["path"]) - 1) + 2 * state["undos"]


def hammer(app, game_id: str, seed: int, results: list, errors: list, barrier) -> None:
    client = app.test_client()
    rng = random.Random(seed)
    barrier.wait()
    for _ in range(OPS_PER_THREAD):
        try:
            state = client.get(f"/api/games/{game_id}").get_json()
            if state["legal"] and (rng.random() < 0.75 or state["moves"] == 0):
                cell = rng.choice(state["legal"])
                intent = ("move", cell)
                response = client.post(
                    f"/api/games/{game_id}/moves", json={"row": cell[0], "col": cell[1]}
                )
            else:
                intent = ("undo", None)
                response = client.post(f"/api/games/{game_id}/undo", json={"count": 1})
            results.append((intent, response.status_code, response.get_json()))
        except Exception as err:  # pragma: no cover - reported by the test
            errors.append(repr(err))


def run_threads(app, game_id: str, seed: int) -> list:
    results: list = []
    errors: list = []
    barrier = threading.Barrier(THREADS)
    threads = [
        threading.Thread(target=hammer, args=(app, game_id, seed + i, results, errors, barrier))
        for i in range(THREADS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a request hung"
    assert not errors, errors
    return results


def check_serial(results: list, first: dict, final: dict) -> None:
    """Every answer is 2xx or a clean 409, and the successes chain into one history."""
    done = []
    for intent, status, body in results:
        assert status in (200, 409), (intent, status, body)
        if status == 409:
            assert body["code"] in CLEAN_REFUSALS and body["error"], body
        else:
            done.append((op_index(body), intent, body))
    done.sort(key=lambda item: item[0])
    indices = [index for index, _, _ in done]
    assert indices == list(range(1, len(done) + 1)), f"lost or doubled updates: {indices}"
    previous = first
    for _, (kind, cell), state in done:
        if kind == "move":
            assert state["path"] == [*previous["path"], cell]
            assert state["undos"] == previous["undos"]
        else:
            assert state["path"] == previous["path"][:-1]
            assert state["undos"] == previous["undos"] + 1
        previous = state
    assert final["path"] == previous["path"] and final["undos"] == previous["undos"]
    assert len(done) >= THREADS  # the test exercised real successes, not only refusals


def start_game(client, rows=8, cols=8) -> dict:
    game = client.post("/api/games", json={"rows": rows, "cols": cols}).get_json()
    return client.post(f"/api/games/{game['id']}/moves", json={"row": 0, "col": 0}).get_json()


def test_concurrent_moves_and_undos_form_a_serial_history(app):
    client = app.test_client()
    first = start_game(client)
    results = run_threads(app, first["id"], seed=1)
    final = client.get(f"/api/games/{first['id']}").get_json()
    check_serial(results, first, final)


class NoLocks:
    """As if every request ran in a process of its own: only the version check is left."""

    @contextmanager
    def hold(self, game_id, timeout):
        yield


def test_the_version_check_alone_keeps_updates_apart(app, monkeypatch):
    """Without the in-process lock (several processes on one database) nothing is lost."""
    monkeypatch.setattr(service, "game_locks", NoLocks())
    client = app.test_client()
    first = start_game(client)
    results = run_threads(app, first["id"], seed=2)
    final = client.get(f"/api/games/{first['id']}").get_json()
    check_serial(results, first, final)


def sneak_in(app, game_id: str, path: list[int]) -> None:
    """Another process commits a change of the game: a separate engine, its own connection."""
    engine = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE games SET path = :path, version = version + 1 WHERE id = :id"),
            {"path": str(path), "id": game_id},
        )
    engine.dispose()


def test_a_change_that_lost_the_race_is_applied_again_to_the_fresh_game(app):
    client = app.test_client()
    game = start_game(client, 5, 5)  # knight on a1 = square 0
    calls = []

    def action(state: rules.GameState):
        calls.append(list(state.path))
        if len(calls) == 1:  # between our read and our write another process moves
            sneak_in(app, game["id"], [0, 7])
        rules.move(state, 2, 1, 0.0) if len(state.path) == 1 else rules.move(state, 0, 4, 0.0)

    with app.test_request_context():
        loaded, _ = service.change(game["id"], action)
    assert calls == [[0], [0, 7]]  # the retry saw the other process's move
    assert loaded.state.path == [0, 7, 4]
    assert client.get(f"/api/games/{game['id']}").get_json()["path"] == [[0, 0], [1, 2], [0, 4]]


def test_a_change_that_keeps_losing_is_refused_with_409_conflict(app):
    client = app.test_client()
    game = start_game(client, 5, 5)
    attempts = []

    def action(state: rules.GameState):
        attempts.append(1)
        sneak_in(app, game["id"], [0, 7] if len(attempts) % 2 else [0, 11])
        state.hints += 1

    with app.test_request_context(), pytest.raises(rules.RuleError) as refused:
        service.change(game["id"], action)
    assert refused.value.code == "conflict"
    assert len(attempts) == service.CHANGE_ATTEMPTS
    with app.app_context():
        assert db.session.get(Game, game["id"]).hints == 0  # none of our writes landed


def test_conflict_answer_is_a_clean_409_in_the_request_language(app, monkeypatch):
    client = app.test_client()
    game = start_game(client, 5, 5)

    def always_conflict(game_id, action):
        raise rules.RuleError("conflict")

    monkeypatch.setattr(service, "change", always_conflict)
    for lang in ("zh", "en"):
        response = client.post(f"/api/games/{game['id']}/undo?lang={lang}", json={})
        assert response.status_code == 409
        body = response.get_json()
        assert body["code"] == "conflict" and body["error"]
    assert "另一个请求" in client.post(f"/api/games/{game['id']}/hint?lang=zh").get_json()["error"]


def test_a_game_busy_too_long_is_refused_not_hung(app, monkeypatch):
    monkeypatch.setattr(service, "LOCK_SECONDS", 0.2)
    client = app.test_client()
    game = start_game(client, 5, 5)
    with service.game_locks.hold(game["id"], 1.0):  # another request is still working
        response = client.post(f"/api/games/{game['id']}/moves?lang=en", json={"row": 2, "col": 1})
    assert response.status_code == 409
    assert response.get_json()["code"] == "conflict"
    assert "busy" in response.get_json()["error"]
    assert len(service.game_locks) == 0  # locks of idle games are forgotten
    again = client.post(f"/api/games/{game['id']}/moves", json={"row": 2, "col": 1})
    assert again.status_code == 200


def test_sqlite_runs_in_wal_mode_with_full_sync(app):
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


def test_an_old_database_gets_the_version_column(tmp_path):
    instance = tmp_path / "old"
    instance.mkdir()
    engine = create_engine(f"sqlite:///{instance / 'knights_tour.sqlite3'}")
    with engine.begin() as conn:  # the games table as the first release created it
        conn.execute(
            text(
                "CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, rows INTEGER, cols INTEGER,"
                " closed BOOLEAN, path TEXT, returned BOOLEAN, undos INTEGER, hints INTEGER,"
                " started_at FLOAT, finished_at FLOAT, good_until INTEGER, dead_from INTEGER,"
                " dead TEXT, created_at DATETIME, updated_at DATETIME)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO games VALUES ('old-game', 5, 5, 0, '[0]', 0, 0, 0, 1.0, NULL,"
                " 1, NULL, NULL, '2025-01-01 00:00:00', '2025-01-01 00:00:00')"
            )
        )
    engine.dispose()
    app = create_app({"INSTANCE_PATH": str(instance)})
    client = app.test_client()
    assert client.get("/api/games/old-game").get_json()["path"] == [[0, 0]]
    moved = client.post("/api/games/old-game/moves", json={"row": 1, "col": 2})
    assert moved.status_code == 200 and moved.get_json()["path"] == [[0, 0], [1, 2]]
