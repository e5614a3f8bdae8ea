"""Clients that stand for other phones: connections from other loopback addresses.

Linux routes all of 127.0.0.0/8 to this machine, so a client that binds 127.0.x.y before
it connects is, to the server, another device: its per-address caps count it apart.
``source`` None leaves the choice to the system (127.0.0.1).

Used by tests/test_connections.py, the bare websockets of tests/support/lean_socket.py
and benchmarks/attack.py.
"""

from __future__ import annotations

import http.client
import socket
from urllib.parse import urlsplit


def can_bind(address: str) -> bool:
    """Whether a client may connect from ``address`` here (127.0.0.2 and up: Linux)."""
    try:
        with socket.socket() as sock:
            sock.bind((address, 0))
        return True
    except OSError:
        return False


def _source(source: str | None) -> tuple[str, int] | None:
    return (source, 0) if source else None


def connect(url: str, source: str | None = None, timeout: float = 10.0) -> socket.socket:
    """A TCP connection to ``url``'s server from ``source``, each write sent at once."""
    parts = urlsplit(url)
    sock = socket.create_connection(
        (parts.hostname, parts.port), timeout=timeout, source_address=_source(source)
    )
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def http_connection(
    url: str, source: str | None = None, timeout: float = 10.0
) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=timeout, source_address=_source(source)
    )


def get(url: str, path: str = "/", source: str | None = None, timeout: float = 10.0) -> int:
    """``GET path`` from ``source``: the status (the body read and dropped)."""
    conn = http_connection(url, source, timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()
