"""PROXY_FIX: behind a trusted proxy the per-address limits of Socket.IO see the real client.

A real ``knights-tour serve`` process; python-socketio clients send ``X-Forwarded-For``
as nginx would.  /watch allows 4 live runs per client address (docs/protocol.md), so a
fifth connection "from" another address is refused unless the proxy is trusted.
"""

from __future__ import annotations

import contextlib

import pytest
import socketio

from tests.support.servers import start_servers, tracebacks
from tests.support.watch import start_payload

NAMESPACE = "/watch"
PER_ADDRESS = 4

pytestmark = pytest.mark.timeout(120)


def start_runs(url: str, addresses: list[str]) -> list[dict]:
    """One connection per forwarded address, each starting a run it never grants credit
    to (so every run stays live); the start acks."""
    clients, acks = [], []
    try:
        for address in addresses:
            client = socketio.Client(reconnection=False)
            client.connect(
                url,
                namespaces=[NAMESPACE],
                transports=["websocket"],
                headers={"X-Forwarded-For": address},
                wait_timeout=5,
            )
            clients.append(client)
            payload = start_payload("r", rows=8, cols=8, window=1, algorithm="seed")
            acks.append(client.call("start", payload, namespace=NAMESPACE, timeout=10))
    finally:
        for client in clients:
            with contextlib.suppress(Exception):
                client.disconnect()
    return acks


@pytest.mark.parametrize("trusted", [False, True])
def test_forwarded_clients_get_their_own_run_allowance(tmp_path, trusted):
    env = {"PROXY_FIX": "1"} if trusted else {}
    (server,) = start_servers(tmp_path / "server", 1, None, env)
    try:
        addresses = [f"198.51.100.{n}" for n in range(1, PER_ADDRESS + 2)]
        acks = start_runs(server.url, addresses)
        assert all(ack["ok"] for ack in acks[:PER_ADDRESS]), acks
        if trusted:  # five clients, one run each
            assert acks[PER_ADDRESS]["ok"], acks[PER_ADDRESS]
        else:  # the header is not believed: all five are the proxy's one address
            assert acks[PER_ADDRESS]["error"]["code"] == "too-many-runs", acks[PER_ADDRESS]
        assert server.alive() and not tracebacks(server.stderr())
    finally:
        server.stop()
