"""server/serving.py: the server ``knights-tour serve`` runs.

TCP_NODELAY on every socket the real server accepts, websocket and long-polling alike:
read from the server process's own sockets (Linux: ``pidfd_getfd``), so the check does
not depend on timing.  Without it a small message written right after another waits for
the peer's delayed ACK, about 40 ms.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import json
import os
import socket
import sys
from urllib.parse import urlsplit

import psutil
import pytest
import socketio

from tests.scale.servers import start_servers, tracebacks
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(120)

# -- TCP_NODELAY on the real server's sockets ---------------------------------------------

SYS_PIDFD_GETFD = {"x86_64": 438, "aarch64": 438}.get(
    os.uname().machine if os.name == "posix" else ""
)


def remote_socket_option(pid: int, fd: int, level: int, option: int) -> int:
    """getsockopt on file descriptor ``fd`` of process ``pid`` (a copy taken with
    pidfd_getfd, Linux >= 5.6); skips the test where the system cannot do that."""
    if not sys.platform.startswith("linux") or not hasattr(os, "pidfd_open"):
        pytest.skip("reading another process's socket needs Linux's pidfd_getfd")
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        copy = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
        if copy < 0:
            pytest.skip(f"pidfd_getfd: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(pidfd)
    sock = socket.socket(fileno=copy)
    try:
        return sock.getsockopt(level, option)
    finally:
        sock.close()  # closes the copy only


def accepted_sockets(pid: int, port: int) -> list[tuple[int, int]]:
    """(pid, fd) of every established connection to ``port`` in ``pid`` and its children."""
    parent = psutil.Process(pid)
    found = []
    for proc in [parent, *parent.children(recursive=True)]:
        for conn in proc.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_ESTABLISHED and conn.laddr.port == port and conn.fd >= 0:
                found.append((proc.pid, conn.fd))
    return found


def pending_poll(host: str, port: int) -> http.client.HTTPConnection:
    """An Engine.IO long-polling GET the server is holding open (nothing to send yet)."""
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", "/socket.io/?EIO=4&transport=polling")
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200 and body.startswith(b"0{"), body[:100]
    sid = json.loads(body[1:])["sid"]
    conn.close()  # werkzeug closes every HTTP connection after its response
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", f"/socket.io/?EIO=4&transport=polling&sid={sid}")
    return conn


def test_every_accepted_socket_has_nagle_off(tmp_path):
    (server,) = start_servers(tmp_path, 1)
    parts = urlsplit(server.url)
    ws = socketio.Client(reconnection=False)
    polling = None
    try:
        ws.connect(server.url, namespaces=["/watch"], transports=["websocket"], wait_timeout=5)
        polling = pending_poll(parts.hostname, parts.port)
        assert wait_until(lambda: len(accepted_sockets(server.pid, parts.port)) >= 2)
        sockets = accepted_sockets(server.pid, parts.port)
        options = [
            remote_socket_option(pid, fd, socket.IPPROTO_TCP, socket.TCP_NODELAY)
            for pid, fd in sockets
        ]
        assert len(options) >= 2 and all(options), options
    finally:
        if polling is not None:
            polling.close()
        with contextlib.suppress(Exception):
            ws.disconnect()
        server.stop()
    assert not tracebacks(server.stderr())
