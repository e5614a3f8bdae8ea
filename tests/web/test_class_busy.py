"""A class room while another writer holds SQLite's lock past ``busy_timeout``.

Under a class's load on a slow disk a write can wait longer than SQLite's busy timeout
("database is locked"): the socket fuzz test met it under `make test`.  A member's
message is then answered ``busy`` (try again) and the room's feed tries again at its
next tick, each with one warning line: no ``internal`` answer, no traceback.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

import pytest

from server import db as database
from server.app import create_app
from server.http_server import make_server
from server.web.class_socket import hub
from tests.support.follower import Follower
from tests.support.servers import open_class_room
from tests.support.waiting import wait_until
from tests.web.logs import Records


@pytest.fixture
def live(tmp_path, monkeypatch):
    """(base URL, database file) of an in-process server whose writers give up after 50 ms."""
    pragmas = tuple(
        "PRAGMA busy_timeout=50" if p.startswith("PRAGMA busy_timeout") else p
        for p in database.SQLITE_PRAGMAS
    )
    monkeypatch.setattr(database, "SQLITE_PRAGMAS", pragmas)
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")})
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}", tmp_path / "instance" / "knights_tour.sqlite3"
    for feed in hub(app).live_feeds():
        feed.stop()
    server.shutdown()
    thread.join(5)


def test_a_busy_database_is_answered_busy_and_the_feed_tries_again(live):
    url, path = live
    records = Records()
    for name in ("server.web.class_socket", "server.classroom.feed", "server.web.sockets"):
        logging.getLogger(name).addHandler(records)
    code, token = open_class_room(url)
    teacher = Follower(url)
    holder = sqlite3.connect(path, timeout=10, isolation_level=None)  # waits its turn
    try:
        assert teacher.join(code, token)["ok"]
        holder.execute("BEGIN IMMEDIATE")  # another writer, holding the lock
        answer = teacher.call("heartbeat", {})
        assert answer["ok"] is False and answer["error"]["code"] == "busy", answer
        assert wait_until(  # the feed renews its lease every second: that write waits too
            lambda: any(r.name == "server.classroom.feed" for r in records.records), 10
        )
        holder.execute("ROLLBACK")
        assert teacher.call("heartbeat", {})["ok"]  # and it goes on
    finally:
        holder.close()
        teacher.close()
        for name in ("server.web.class_socket", "server.classroom.feed", "server.web.sockets"):
            logging.getLogger(name).removeHandler(records)
    assert not [r for r in records.records if r.exc_info], [r.getMessage() for r in records.records]
    feed_lines = [r for r in records.records if r.name == "server.classroom.feed"]
    assert feed_lines and all("busy" in r.getMessage() for r in feed_lines)
