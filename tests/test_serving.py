"""server/serving.py, server/http_server.py and server/network.py: the server
``knights-tour serve`` runs, and the LAN address of a class.

* TCP_NODELAY on every socket the real server accepts, websocket and long-polling alike,
  for ``knights-tour serve`` and for gunicorn as docs/deploy.md runs it: read from the
  server process's own sockets (Linux: ``pidfd_getfd``), so the check does not depend
  on timing.  Without it a small message written right after another waits for the
  peer's delayed ACK, about 40 ms;
* ``serve --lan``: listens on every interface, prints the teacher's and the students'
  links on this machine's LAN address, and the class pages' join link and QR code use
  it (or ``PUBLIC_URL`` when set);
* keep-alive: requests without a body share a connection (a phone opening a class page
  asks for 40-odd files), anything else still closes it, and an idle connection ends;
* the address choice on interface tables of Linux, macOS and Windows machines.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import json
import os
import re
import socket
import sys
import threading
from urllib.parse import urlsplit

import psutil
import pytest
import socketio

from server import http_server
from server.network import (
    Interface,
    check_public_url,
    choose_addresses,
    is_loopback_host,
    lan_addresses,
)
from server.web.class_pages import qr_svg
from tests.support.servers import (
    ServerProcess,
    open_class_room,
    start_gunicorn,
    start_servers,
    tracebacks,
)
from tests.support.waiting import wait_until

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


def pending_poll(host: str, port: int) -> tuple[http.client.HTTPConnection, str]:
    """An Engine.IO long-polling GET the server is holding open (nothing to send yet),
    and the session id."""
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", "/socket.io/?EIO=4&transport=polling")
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200 and body.startswith(b"0{"), body[:100]
    sid = json.loads(body[1:])["sid"]
    conn.close()  # werkzeug closes every HTTP connection after its response
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", f"/socket.io/?EIO=4&transport=polling&sid={sid}")
    return conn, sid


def close_poll(host: str, port: int, conn: http.client.HTTPConnection, sid: str) -> None:
    """End the session (a close packet), so the held GET returns and no server thread
    waits out the ping interval."""
    with contextlib.suppress(OSError, http.client.HTTPException):
        closer = http.client.HTTPConnection(host, port, timeout=10)
        closer.request("POST", f"/socket.io/?EIO=4&transport=polling&sid={sid}", body=b"1")
        closer.getresponse().read()
        closer.close()
        conn.getresponse().read()
    conn.close()


def start(kind: str, directory) -> ServerProcess:
    if kind == "gunicorn":  # the deployment of docs/deploy.md: gunicorn sets it itself
        return start_gunicorn(directory, threads=8)
    (server,) = start_servers(directory, 1)
    return server


@pytest.mark.parametrize("kind", ["serve", "gunicorn"])
def test_every_accepted_socket_has_nagle_off(tmp_path, kind):
    server = start(kind, tmp_path)
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
            close_poll(parts.hostname, parts.port, *polling)
        with contextlib.suppress(Exception):
            ws.disconnect()
        server.stop()
    assert not tracebacks(server.stderr())


# -- keep-alive -------------------------------------------------------------------------------


class Recorder:
    """A WSGI app that answers every request with what it saw, and remembers it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str, bytes]] = []

    def __call__(self, environ, start_response):
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        self.seen.append((method, path, environ["REMOTE_PORT"], body))
        text = f"{method} {path} {len(body)}".encode()
        if path == "/fails":  # its length said, then it breaks off
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "20")])
            return self._breaking_off()
        if path == "/fails-chunked":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return self._breaking_off()
        if path == "/fails-at-once":  # before any of its response
            raise RuntimeError("the app fails")
        if path == "/chunked":  # no length: werkzeug sends it chunked
            start_response("200 OK", [("Content-Type", "text/plain")])
            return iter([text[:3], text[3:]])
        start_response(
            "200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(text)))]
        )
        return [text]

    @staticmethod
    def _breaking_off():
        yield b"half of it"
        raise RuntimeError("the response breaks off")


@pytest.fixture
def recorder():
    app = Recorder()
    server = http_server.make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, server.port
    finally:
        server.shutdown()
        server.server_close()


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def getheader(self, name: str) -> str | None:
        return self.headers.get(name.lower())


def answers(sock: socket.socket, count: int, *, head: bool = False) -> list[Answer]:
    """``count`` responses read off one socket, in order: each ends where its length (or
    its last chunk) says, so a response that runs on would show in the next one."""
    reader = sock.makefile("rb")
    found = []
    for _ in range(count):
        status = int(reader.readline().split()[1])
        headers = {}
        while (line := reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if head:
            body = b""
        elif headers.get("transfer-encoding") == "chunked":
            body = b""
            while size := int(reader.readline(), 16):
                body += reader.read(size)
                reader.readline()
            reader.readline()
        else:
            body = reader.read(int(headers.get("content-length", 0)))
        found.append(Answer(status, headers, body))
    return found


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server hangs up (True) rather than keeping the socket open (False);
    what it still sends first (a HEAD's stray body) is read past."""
    sock.settimeout(5.0)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    return True


def test_requests_without_a_body_share_one_connection(recorder):
    app, port = recorder
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for method, path in [("GET", "/a"), ("GET", "/chunked"), ("GET", "/c")]:
        conn.request(method, path)
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200
        assert response.getheader("Connection") is None
        assert body == f"{method} {path} 0".encode()
    conn.close()
    assert len({port for _, _, port, _ in app.seen}) == 1  # one client socket for all three


def test_pipelined_requests_are_all_answered(recorder):
    app, port = recorder
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
            b"GET /chunked HTTP/1.1\r\nHost: x\r\n\r\n"
            b"GET /three HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        found = answers(sock, 3)
    assert [a.body for a in found] == [b"GET /one 0", b"GET /chunked 0", b"GET /three 0"]
    assert len({port for _, _, port, _ in app.seen}) == 1


SMUGGLED = b"GET /smuggled HTTP/1.1\r\n\r\n"  # 26 bytes of body that look like a request


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 26\r\n\r\n" + SMUGGLED,
        b"GET /form HTTP/1.1\r\nHost: x\r\nContent-Length: 26\r\n\r\n" + SMUGGLED,
        b"GET /form HTTP/1.0\r\n\r\n",
        b"HEAD /form HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /form HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ],
    ids=["post", "get-with-a-body", "http-1.0", "head", "asked-to-close"],
)
def test_anything_else_still_closes_its_connection(recorder, request_bytes):
    app, port = recorder
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request_bytes)
        (response,) = answers(sock, 1, head=request_bytes.startswith(b"HEAD"))
        assert response.getheader("Connection") == "close"
        assert closed_by_server(sock)
    assert [path for _, path, _, _ in app.seen] == ["/form"]  # a body is never a request


def rest_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it hangs up (TimeoutError if it does not)."""
    sock.settimeout(5.0)
    out = b""
    while data := sock.recv(4096):
        out += data
    return out


@pytest.mark.parametrize("path", ["/fails", "/fails-chunked"])
def test_a_response_that_breaks_off_is_cut_short_and_ends_its_connection(recorder, path):
    """What was sent stays as it was: no error page after it, no last chunk, and the
    connection ends, so the client sees the response broke off. A next request on that
    connection is never read as the rest of it."""
    app, port = recorder
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\n\r\n".encode())
        head, _, body = rest_of(sock).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    if path == "/fails":
        assert body == b"half of it"  # 10 of its 20 bytes, then the end
    else:
        assert b"Transfer-Encoding: chunked" in head and body == b"a\r\nhalf of it\r\n"
    assert [p for _, p, _, _ in app.seen] == [path]  # nothing answered after it


def test_an_app_that_fails_before_its_response_answers_500(recorder):
    _app, port = recorder
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /fails-at-once HTTP/1.1\r\nHost: x\r\n\r\n")
        (response,) = answers(sock, 1)
        assert response.status == 500 and b"Internal Server Error" in response.body
        assert closed_by_server(sock)


def test_no_response_names_the_server(recorder):
    """werkzeug's ``Server: Werkzeug/3.x Python/3.x`` told a prankster the versions."""
    _, port = recorder
    many = "".join(f"X-{i}: {i}\r\n" for i in range(150))
    for raw in (
        b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n",  # the app's answer
        f"GET /a HTTP/1.1\r\nHost: x\r\n{many}\r\n".encode(),  # the server's own 431
    ):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(raw)
            (response,) = answers(sock, 1)
        assert response.status in (200, 431)
        assert response.getheader("Server") is None, response.headers
        assert response.getheader("Date") is not None


def test_an_idle_connection_ends_with_its_thread(recorder, monkeypatch):
    monkeypatch.setattr(http_server, "KEEP_ALIVE_IDLE", 0.2)
    _, port = recorder
    before = threading.active_count()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        (response,) = answers(sock, 1)
        assert response.getheader("Connection") is None
        assert closed_by_server(sock)
    assert wait_until(lambda: threading.active_count() <= before)


# -- serve --lan ----------------------------------------------------------------------------


def page(url: str, path: str) -> tuple[int, str, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        conn.close()


def join_link(html: str) -> str:
    return re.search(r'id="c-join-url" href="([^"]+)"', html).group(1)


def announced(server, prefix: str) -> str | None:
    """The line of the server's stdout that starts with ``prefix`` (waiting for it)."""
    lines = server.stdout_lines
    wait_until(lambda: any(line.startswith(prefix) for line in lines))
    return next((line.rstrip("\n") for line in lines if line.startswith(prefix)), None)


def test_serve_lan_prints_the_links_and_the_class_pages_use_them(tmp_path):
    addresses = lan_addresses()
    (server,) = start_servers(tmp_path, 1, serve_args=["--lan"])
    try:
        port = urlsplit(server.url).port
        assert server.stdout_lines[0].endswith(f"listening on http://0.0.0.0:{port}")
        code, _ = open_class_room(server.url)
        status, _, body = page(server.url, f"/class/{code}/teach?lang=en")
        assert status == 200
        html = body.decode()
        if not addresses:  # nowhere for phones to reach: the page says so
            assert "knights-tour: no local network address found" in server.stderr()
            assert 'id="c-local-only"' in html
            return
        public = f"http://{addresses[0]}:{port}"
        teacher = announced(server, "Teacher / 老师: ")
        students = announced(server, "Students join at / 学生加入: ")
        assert teacher == f"Teacher / 老师: {public}/class/new"
        assert students == f"Students join at / 学生加入: {public}/class"
        assert join_link(html) == f"{public}/class/{code}"
        assert 'id="c-local-only"' not in html
        status, kind, svg = page(server.url, f"/class/{code}/qr.svg")
        assert status == 200 and kind.startswith("image/svg+xml")
        assert svg == qr_svg(f"{public}/class/{code}", title=code)
        # the server answers on that address too, not only on loopback
        status, _, _ = page(public, "/class")
        assert status == 200
    finally:
        server.stop()
    assert not tracebacks(server.stderr())


def test_serve_lan_keeps_a_configured_public_url(tmp_path):
    env = {"PUBLIC_URL": "https://tour.school.example/"}
    (server,) = start_servers(tmp_path, 1, env=env, serve_args=["--lan"])
    try:
        code, _ = open_class_room(server.url)
        _, _, body = page(server.url, f"/class/{code}/teach")
        assert join_link(body.decode()) == f"https://tour.school.example/class/{code}"
        line = announced(server, "Students join at")
        assert line.endswith(": https://tour.school.example/class"), line
    finally:
        server.stop()


# -- choosing the address -------------------------------------------------------------------


def up(name: str, *addresses: str, **flags) -> Interface:
    return Interface(name, addresses, **flags)


def test_a_linux_laptop_with_docker_and_libvirt():
    table = [
        up("lo", "127.0.0.1"),
        up("enp3s0"),  # cable unplugged: no address
        up("wlp2s0", "192.168.1.23"),
        up("docker0", "172.17.0.1"),
        up("br-5f2a9c1d", "172.18.0.1"),
        up("veth12ab34", "169.254.3.3"),
        up("virbr0", "192.168.122.1"),
    ]
    assert choose_addresses(table, route="192.168.1.23") == ["192.168.1.23"]


def test_a_mac_with_a_vpn_and_internet_sharing():
    table = [
        up("lo0", "127.0.0.1"),
        up("en0", "10.20.30.40"),
        up("utun3", "10.8.0.2", point_to_point=True),
        up("awdl0"),
        up("bridge100", "192.168.2.1"),  # Internet Sharing: phones on the Mac's hotspot
    ]
    assert choose_addresses(table, route="10.8.0.2") == ["10.20.30.40", "192.168.2.1"]


def test_a_windows_pc_with_wsl_and_virtualbox():
    table = [
        up("Loopback Pseudo-Interface 1", "127.0.0.1"),
        up("vEthernet (WSL)", "172.29.16.1"),
        up("VirtualBox Host-Only Network", "192.168.56.1"),
        up("Ethernet", "169.254.10.20"),  # no DHCP answer: link-local only
        up("Wi-Fi", "192.168.0.105"),
    ]
    assert choose_addresses(table, route="192.168.0.105") == ["192.168.0.105"]


def test_private_ranges_first_then_the_default_route_then_the_order():
    table = [
        up("eth0", "203.0.113.7"),
        up("eth1", "10.0.0.5"),
        up("wlan0", "172.20.1.9", "192.168.1.23"),
        up("eth2", "192.168.9.9", up=False),
    ]
    assert choose_addresses(table) == ["10.0.0.5", "172.20.1.9", "192.168.1.23", "203.0.113.7"]
    assert choose_addresses(table, route="192.168.1.23")[0] == "192.168.1.23"
    assert choose_addresses([up("lo", "127.0.0.1"), up("eth0", "169.254.1.1")]) == []


def test_this_machine_has_only_reachable_addresses():
    for address in lan_addresses():
        assert not is_loopback_host(address) and not address.startswith("169.254.")


# -- links ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST.", "app.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]",
     "0.0.0.0", "::ffff:127.0.0.1", "", None],
)  # fmt: skip
def test_loopback_hosts(host):
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", ["192.168.1.23", "10.0.0.5", "tour.example.org", "fd00::2"])
def test_hosts_other_devices_can_reach(host):
    assert not is_loopback_host(host)


def test_public_url_is_checked_and_normalised():
    assert check_public_url(" http://192.168.1.23:5000/ ") == "http://192.168.1.23:5000"
    assert check_public_url("https://school.example/tour/") == "https://school.example/tour"
    for bad in ["192.168.1.23:5000", "ftp://x", "http://", "http://x:99999", "http://x/?a=1"]:
        with pytest.raises(ValueError, match="PUBLIC_URL"):
            check_public_url(bad)
