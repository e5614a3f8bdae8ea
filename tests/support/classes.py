"""Class members from chosen client addresses, for tests of what one address may do.

An in-process server (:func:`serve`) with ``PROXY_FIX`` on: each client says which address
it comes from (``X-Forwarded-For``), so a school's NAT, a prankster's laptop or both are
one address or several.  Only one in-process app serves Socket.IO at a time (Flask-SocketIO
binds one server object to the last app built): a test module keeps one :func:`serve`
for all its tests and builds no other app meanwhile.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass

from server.app import create_app
from server.classroom import rooms
from server.http_server import make_server
from server.web.class_socket import hub
from tests.support.follower import Follower, Teacher
from tests.support.waiting import wait_until


@dataclass
class Live:
    url: str
    app: object
    server: object
    thread: threading.Thread

    def stop(self) -> None:
        for feed in hub(self.app).live_feeds():
            feed.stop()
        self.server.shutdown()
        self.thread.join(5)


def serve(directory, **config) -> Live:
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(directory), "PROXY_FIX": 1, **config})
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return Live(f"http://127.0.0.1:{server.port}", app, server, thread)


def seats_taken(app) -> int:
    here = hub(app)
    with here._lock:
        return sum(1 for member in here.members.values() if member.code is not None)


class Clients:
    """Class members from given addresses; all closed at the end of the test."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self.opened: list[Follower] = []

    def connect(self, address: str, **headers) -> Follower:
        member = Follower(self.live.url, headers={"X-Forwarded-For": address, **headers})
        self.opened.append(member)
        return member

    def open_room(self) -> rooms.Opened:
        with self.live.app.app_context():
            return rooms.open_room()

    def teacher(self, opened: rooms.Opened, address: str) -> Teacher:
        member = self.connect(address)
        joined = member.join(opened.code, opened.token)
        assert joined["ok"] and joined["role"] == "teacher", joined
        return Teacher(member, joined)

    def student(self, code: str, address: str, name: str | None = None, **headers) -> Follower:
        member = self.connect(address, **headers)
        joined = member.join(code)
        assert joined["ok"] and joined["role"] == "student", joined
        if name is not None:
            entered = member.call("quiz_enter", {"name": name})
            assert entered["ok"], entered
        return member

    def close(self, *, wait: bool = True) -> None:
        """Close every member; with ``wait``, until the server has let go of every seat
        (the next test starts with none taken)."""
        for member in self.opened:
            member.close()
        if wait:
            assert wait_until(lambda: seats_taken(self.live.app) == 0, 10)


def refusal(ack: dict) -> tuple[str, str]:
    assert ack["ok"] is False, ack
    return ack["error"]["code"], ack["error"]["message"]


def http(live: Live, method: str, path: str, address: str, body=None, headers=None):
    """(status, headers, body) of a request from ``address``."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(live.url + path, method=method, data=data)
    request.add_header("X-Forwarded-For", address)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()
