"""server/limits/connections.py: what one client can hold of ``knights-tour serve``.

The server runs in this process (``http_server.make_server``, as ``serve`` makes it) with
short time limits, and clients that stand for other phones connect from other loopback
addresses (127.0.0.x: Linux routes all of 127/8 here; skipped where it cannot):

* a half-sent request, head or body, is dropped once its time is up, even when the
  client trickles a byte now and then;
* connections beyond the per-address cap are refused with 503 while another address is
  served; this machine's own 127.0.0.1 is not capped per address; the total cap holds
  for everyone;
* under hundreds of idle connections from one address the server's threads stay within
  the cap;
* ``knights-tour serve`` raises its open-files limit at start and says so.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import threading
import time

import psutil
import pytest
from flask import Flask, request

from server import http_server
from server.limits import connections
from server.limits.connections import Admission, connection_cap, raise_fd_limit
from tests.support.loopback import can_bind, connect, get
from tests.support.servers import start_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.timeout(120)


needs_aliases = pytest.mark.skipif(
    not can_bind("127.0.0.2"), reason="needs loopback addresses beyond 127.0.0.1 (Linux)"
)


def small_app(**config) -> Flask:
    app = Flask(__name__)
    app.config.update(config)

    @app.get("/")
    def home():
        return "home"

    @app.post("/echo")
    def echo():
        return request.get_data()

    return app


@pytest.fixture
def serve():
    """serve(app) -> the URL of a ``make_server`` server for ``app``, in a thread."""
    started = []

    def start(app) -> str:
        server = http_server.make_server("127.0.0.1", 0, app)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server in started:
        server.shutdown()
        server.server_close()


@pytest.fixture
def quick(monkeypatch):
    """Half a second for a request's head and for its body."""
    monkeypatch.setattr(connections, "HEAD_TIMEOUT", 0.5)
    monkeypatch.setattr(connections, "BODY_TIMEOUT", 0.5)


def hung_up(sock: socket.socket, within: float = 10.0, trickle: bytes = b"") -> bytes | None:
    """What the server sent before it closed ``sock`` (None if it did not close it within
    ``within`` seconds); ``trickle`` is sent every 0.1 s meanwhile."""
    received = b""
    deadline = time.monotonic() + within
    sock.settimeout(0.1)
    while time.monotonic() < deadline:
        try:
            if trickle:
                sock.send(trickle)
            data = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:  # reset, or a broken pipe: closed
            return received
        if not data:
            return received
        received += data
    return None


# -- time limits ----------------------------------------------------------------------------
def test_a_half_sent_request_is_dropped_after_its_time_limit(serve, quick):
    url = serve(small_app())
    with connect(url) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert hung_up(sock) == b""  # closed, nothing answered


def test_a_request_trickled_a_byte_at_a_time_is_dropped_all_the_same(serve, quick):
    """The limit is on the whole head, not on each read."""
    url = serve(small_app())
    with connect(url) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert hung_up(sock, trickle=b"a") == b""


def test_a_half_sent_body_is_dropped_after_its_time_limit(serve, quick):
    url = serve(small_app())
    with connect(url) as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789")
        answer = hung_up(sock)
    assert answer is not None  # closed
    assert not answer.startswith(b"HTTP/1.1 200")  # the app never took 10 bytes for 100


def test_the_next_request_on_a_kept_alive_connection_has_the_same_limit(serve, quick):
    url = serve(small_app())
    with connect(url) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        first = b""
        while not first.endswith(b"home"):  # the whole response (4 bytes of body)
            first += sock.recv(4096)
        assert first.startswith(b"HTTP/1.1 200") and b"Connection: close" not in first
        sock.sendall(b"GET / HTTP/1.1\r\nHost:")
        assert hung_up(sock) == b""


def test_a_whole_request_is_answered_within_the_limits(serve, quick):
    url = serve(small_app())
    with connect(url) as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        answer = hung_up(sock)
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello")


# -- connection caps ------------------------------------------------------------------------
def held_open(url: str, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request half sent."""
    socks = []
    for _ in range(count):
        sock = connect(url, source)
        sock.sendall(b"GET / HTTP/1.1\r\n")
        socks.append(sock)
    return socks


def refused(sock: socket.socket) -> bool:
    answer = hung_up(sock)
    return answer is not None and answer.startswith(b"HTTP/1.1 503")


@needs_aliases
def test_connections_beyond_the_per_address_cap_are_refused_while_another_is_served(serve):
    url = serve(small_app(MAX_CONNECTIONS_PER_ADDRESS=3))
    held = held_open(url, "127.0.0.2", 3)
    try:
        with connect(url, "127.0.0.2") as extra:
            extra.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = hung_up(extra)
        assert answer is not None and answer.startswith(b"HTTP/1.1 503"), answer
        assert b"Retry-After: 5" in answer and b"Server:" not in answer
        assert "连接太多".encode() in answer and b"Too many connections" in answer
        assert get(url, source="127.0.0.3") == 200  # another phone
        local = held_open(url, "127.0.0.1", 5)  # this machine: no per-address cap
        assert get(url, source="127.0.0.1") == 200
        for sock in local:
            sock.close()
    finally:
        for sock in held:
            sock.close()
    assert wait_until(lambda: get(url, source="127.0.0.2") == 200)  # its places freed


def test_connections_beyond_the_total_cap_are_refused(serve):
    url = serve(small_app(MAX_CONNECTIONS=4))
    held = held_open(url, "127.0.0.1", 4)
    try:
        with connect(url) as extra:
            assert refused(extra)
    finally:
        for sock in held:
            sock.close()
    assert wait_until(lambda: get(url) == 200)


def test_behind_a_proxy_the_per_address_cap_is_the_proxys():
    server = http_server.make_server("127.0.0.1", 0, small_app(PROXY_FIX=1))
    try:
        assert server.admission.per_address == 0
        assert server.admission.total > 0
    finally:
        server.server_close()


@needs_aliases
def test_threads_stay_bounded_under_many_idle_connections(serve):
    url = serve(small_app(MAX_CONNECTIONS_PER_ADDRESS=10))
    process = psutil.Process()
    before = process.num_threads()
    held = held_open(url, "127.0.0.2", 200)
    try:
        assert sum(refused(sock) for sock in held[10:]) == 190
        assert process.num_threads() <= before + 10
    finally:
        for sock in held:
            sock.close()
    assert wait_until(lambda: process.num_threads() <= before)


def test_admission_counts_per_address_and_in_all():
    admission = Admission(total=3, per_address=2)
    assert admission.admit("10.0.0.1") and admission.admit("10.0.0.1")
    assert not admission.admit("10.0.0.1")  # its cap
    assert admission.admit("10.0.0.2")
    assert not admission.admit("10.0.0.3")  # the total
    admission.release("10.0.0.1")
    assert admission.admit("10.0.0.3")
    assert admission.by_address == {"10.0.0.1": 1, "10.0.0.2": 1, "10.0.0.3": 1}


# -- open files -----------------------------------------------------------------------------
def test_the_connection_cap_stays_under_the_open_files_limit():
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        pytest.skip("no limit on open files here")
    assert connection_cap(10**9) == soft - connections.FD_RESERVE
    assert connection_cap(0) == soft - connections.FD_RESERVE
    assert connection_cap(5) == 5


def test_raising_the_open_files_limit_is_a_no_op_where_there_is_none(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "resource", None)  # as on Windows
    assert raise_fd_limit() is None


@pytest.mark.parametrize("kind", ["serve", "gunicorn"])
def test_the_server_raises_its_open_files_limit_and_says_so(tmp_path, kind):
    """``knights-tour serve`` on stdout with its caps; gunicorn's worker (server.wsgi)
    on stderr, gunicorn's log."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip("the hard limit leaves nothing to raise")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # the child starts with it
    try:
        server = start_server(kind, tmp_path, threads=4, app="server.wsgi:app")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:

        def lines() -> list[str]:
            return server.stdout_lines if kind == "serve" else server.stderr().splitlines()

        assert wait_until(lambda: any("open files" in line for line in lines()))
        line = next(line for line in lines() if "open files" in line)
        process = server.process
        if kind == "gunicorn":
            (process,) = process.children()  # the worker
        raised = process.rlimit(psutil.RLIMIT_NOFILE)[0]
        assert raised > 256
        assert f"open files: {raised:,} (raised from 256)" in line
        if kind == "serve":
            cap = min(1200, raised - connections.FD_RESERVE)
            assert f"connections: at most {cap:,}, per address 50" in line
    finally:
        with contextlib.suppress(Exception):
            server.stop()
