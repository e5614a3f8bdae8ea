"""server/web/socket_limits.py: what Engine.IO sessions may cost.

Long-polling handshakes go through the app as WSGI requests (Flask's test client: no
socket, any client address), the way a real server passes them:

* an address holding SOCKETIO_SESSIONS_PER_ADDRESS sessions is refused the next
  handshake (429 ``too-many-connections``, in its language, with Retry-After) while
  other addresses and this machine's 127.0.0.1 are served; a session that ends frees
  its place;
* a handshake never followed up is closed after HANDSHAKE_TIMEOUT;
* idle sessions cost no thread: one keeper sends every session's pings, and they
  arrive (with a short ping interval) again after each pong.
"""

from __future__ import annotations

import json
import threading

import pytest

from server.web import socket_limits
from tests.support.waiting import wait_until

HANDSHAKE = "/socket.io/?EIO=4&transport=polling"


@pytest.fixture
def limited(tmp_path, migrated_database):
    import shutil

    from server.app import create_app

    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / "knights_tour.sqlite3")
    return create_app(
        {"TESTING": True, "INSTANCE_PATH": str(instance), "SOCKETIO_SESSIONS_PER_ADDRESS": 3}
    )


def handshake(client, address: str, lang: str = "en"):
    return client.get(f"{HANDSHAKE}&lang={lang}", environ_base={"REMOTE_ADDR": address})


def sid_of(response) -> str:
    assert response.status_code == 200, response.data
    return json.loads(response.data[1:].split(b"\x1e")[0])["sid"]


def post(client, sid: str, address: str, payload: str):
    return client.post(
        f"{HANDSHAKE}&sid={sid}",
        data=payload.encode(),
        content_type="text/plain;charset=UTF-8",
        environ_base={"REMOTE_ADDR": address},
    )


def test_handshakes_beyond_the_per_address_limit_are_refused(limited):
    client = limited.test_client()
    sids = [sid_of(handshake(client, "10.0.0.7")) for _ in range(3)]
    refused = handshake(client, "10.0.0.7")
    assert refused.status_code == 429
    assert refused.get_json()["code"] == "too-many-connections"
    assert "Too many connections" in refused.get_json()["error"]
    assert refused.headers["Retry-After"] == "5"
    chinese = handshake(client, "10.0.0.7", lang="zh")
    assert chinese.status_code == 429 and "连接太多" in chinese.get_json()["error"]
    assert handshake(client, "10.0.0.8").status_code == 200  # another phone
    for _ in range(5):  # this machine itself is not limited per address
        assert handshake(client, "127.0.0.1").status_code == 200
    assert post(client, sids[0], "10.0.0.7", "1").status_code == 200  # the client closes one
    assert wait_until(lambda: handshake(client, "10.0.0.7").status_code == 200)


def test_a_handshake_never_followed_up_is_closed(limited, monkeypatch):
    monkeypatch.setattr(socket_limits, "HANDSHAKE_TIMEOUT", 0.2)
    client = limited.test_client()
    idle = sid_of(handshake(client, "10.0.0.9"))
    used = sid_of(handshake(client, "10.0.0.9"))
    assert post(client, used, "10.0.0.9", "40/watch,").status_code == 200  # followed up
    engine = limited.extensions["socketio_server"].eio

    def closed(sid):
        sock = engine.sockets.get(sid)
        return sock is None or sock.closed

    assert wait_until(lambda: closed(idle))
    assert not closed(used)
    assert handshake(client, "10.0.0.9").status_code == 200  # its place is free again


def test_idle_sessions_cost_no_thread_and_are_pinged(limited):
    engine = limited.extensions["socketio_server"].eio
    engine.ping_interval = 0.2  # pings every 0.2 s instead of 25 s
    client = limited.test_client()
    before = threading.active_count()
    sids = [sid_of(handshake(client, "127.0.0.1")) for _ in range(60)]
    assert threading.active_count() <= before + 2  # the keeper; upstream: one each
    sid = sids[0]
    for _ in range(2):  # a ping, then after the pong another one
        answer = client.get(f"{HANDSHAKE}&sid={sid}", environ_base={"REMOTE_ADDR": "127.0.0.1"})
        assert answer.status_code == 200 and b"2" in answer.data.split(b"\x1e")
        assert post(client, sid, "127.0.0.1", "3").status_code == 200
    for sid in sids:
        post(client, sid, "127.0.0.1", "1")
