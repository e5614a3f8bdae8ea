"""HTTP and Engine.IO on the wire, for tests that send what no well-behaved client sends.

* :func:`exchange` writes raw bytes to a server and reads its whole answer (the server
  closes every connection after one response: werkzeug's threaded server does);
* :class:`PollingSession` is an Engine.IO long-polling session driven by hand: open it,
  POST any payload into it, poll it.

Used by tests/web/test_malformed_input.py, test_fuzz_http.py and test_fuzz_socket.py.
"""

from __future__ import annotations

import contextlib
import json
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

ENGINEIO = "/socket.io/?EIO=4&transport=polling"


@dataclass
class Answer:
    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)  # lower-case names
    body: bytes = b""

    def json(self):
        return json.loads(self.body)


def quick_ack(sock: socket.socket) -> None:
    """Acknowledge what arrives at once (Linux; renewed before each read).

    A server without TCP_NODELAY (werkzeug's own ``make_server``; ``knights-tour serve``
    sets it, server/http_server.py) that writes twice in a row (headers then body, an error
    event then its acknowledgement) holds the second write until the first is
    acknowledged, and a client that delays its ACKs makes that 40 ms per exchange.
    """
    option = getattr(socket, "TCP_QUICKACK", None)
    if option is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, option, 1)


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def exchange(url: str, request: bytes, timeout: float = 10.0) -> Answer | None:
    """Send ``request`` as is and read the answer; None when the server sent nothing.

    The answer ends where its Content-Length says, or where the server hangs up.
    """
    with socket.create_connection(address(url), timeout=timeout) as sock:
        try:
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)  # werkzeug drains what it did not read
        except OSError:
            pass  # the server may answer (and hang up) before reading everything
        raw = b""
        try:
            while not complete(raw):
                quick_ack(sock)
                if not (chunk := sock.recv(65536)):
                    break
                raw += chunk
        except ConnectionResetError:
            pass
    return parse(raw)


def complete(raw: bytes) -> bool:
    head, found, body = raw.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return len(body) >= int(value)
    return False


def parse(raw: bytes) -> Answer | None:
    """The answer in ``raw``; status 0 for an answer without a status line (the HTTP/0.9
    way http.server answers a request line it cannot parse)."""
    if not raw:
        return None
    if not raw.startswith(b"HTTP/"):
        return Answer(0, "HTTP/0.9", {}, raw)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    _version, status, *reason = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    return Answer(int(status), reason[0] if reason else "", headers, body)


def dechunk(data: bytes) -> bytes:
    out, rest = b"", data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


def request_bytes(
    method: str,
    target: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    *,
    chunked: bool = False,
    chunk_size: int = 8192,
) -> bytes:
    """An HTTP/1.1 request; ``chunked`` frames the body in chunks instead of a length."""
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    payload = b""
    if body is not None and chunked:
        lines.append("Transfer-Encoding: chunked")
        for start in range(0, len(body), chunk_size):
            part = body[start : start + chunk_size]
            payload += b"%x\r\n%s\r\n" % (len(part), part)
        payload += b"0\r\n\r\n"
    elif body is not None:
        lines.append(f"Content-Length: {len(body)}")
        payload = body
    return "\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + payload


def http(url: str, method: str, target: str, body: bytes | None = None, **kwargs) -> Answer:
    answer = exchange(url, request_bytes(method, target, body=body, **kwargs))
    assert answer is not None, f"no answer to {method} {target}"
    return answer


class PollingSession:
    """An Engine.IO v4 long-polling session, opened on construction."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = headers or {}
        opened = http(url, "GET", ENGINEIO, headers=self.headers)
        assert opened.status == 200 and opened.body[:1] == b"0", opened
        self.sid = json.loads(opened.body[1:].split(b"\x1e")[0])["sid"]
        self.target = f"{ENGINEIO}&sid={self.sid}"

    def post(self, payload: bytes | str, **kwargs) -> Answer:
        data = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload
        headers = {"Content-Type": "text/plain;charset=UTF-8", **self.headers}
        return http(self.url, "POST", self.target, data, headers=headers, **kwargs)

    def poll(self) -> Answer:
        """One long-poll GET: the packets the server has for this session."""
        return http(self.url, "GET", self.target, headers=self.headers)

    def packets(self, answer: Answer) -> list[str]:
        return answer.body.decode("utf-8").split("\x1e") if answer.status == 200 else []

    def connect(self, namespace: str) -> None:
        """Join a Socket.IO namespace; its CONNECT answer is read."""
        assert self.post(f"40{namespace},").status == 200
        got = self.packets(self.poll())
        assert any(p.startswith(f"40{namespace},") for p in got), got

    def closed(self) -> bool:
        """Whether the server has ended the session: a pong (harmless on a live session)
        is then refused instead of received."""
        answer = self.post("3")
        assert answer.status in (200, 400), answer
        return answer.status == 400
