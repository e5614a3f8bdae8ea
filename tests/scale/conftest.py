"""Fixtures for the scale-out tests: a real redis-server and N real server processes.

``redis_server`` is one throwaway redis-server per test session (free loopback port,
``--save '' --appendonly no``, files in a temporary directory).  ``server_processes``
is a factory: ``server_processes(3)`` starts three ``knights-tour serve --port 0
--message-queue redis://127.0.0.1:N/0`` processes sharing one SQLite DATABASE_URL and
SECRET_KEY, and returns them (``.url``, ``.pid``, ``.threads()``, ``.stderr()``); every
process is stopped after the test (SIGTERM, then SIGKILL).
"""

from __future__ import annotations

import pytest

from tests.support.servers import (
    RedisServer,
    ServerProcess,
    redis_binary,
    start_redis,
    start_servers,
)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory) -> RedisServer:
    if redis_binary() is None:
        pytest.skip("redis-server is not installed (`make redis` installs Debian's package)")
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server) -> str:
    return redis_server.url


@pytest.fixture
def server_processes(tmp_path, redis_server):
    """Factory: ``(count, message_queue=True, env=None) -> [ServerProcess, ...]``."""
    started: list[ServerProcess] = []
    calls = 0

    def start(count: int, *, message_queue: bool = True, env: dict | None = None):
        nonlocal calls
        calls += 1
        queue = redis_server.url if message_queue else None
        servers = start_servers(tmp_path / f"servers-{calls}", count, queue, env)
        started.extend(servers)
        return servers

    yield start
    for server in started:
        server.stop()
