"""Socket.IO clients on bare websockets, hundreds of them read by one thread.

python-socketio's client starts a thread for every message it gets: a load test or an
attack of a thousand such clients would measure its own process, not the server.  A
:class:`LeanSocket` speaks Engine.IO 4 / Socket.IO 5 text packets itself on one
namespace, and a :class:`Reader` reads the frames of many of them as they arrive.

Used by the class's lean followers (tests/support/follower.py), benchmarks/loadtest.py
and the attacker of benchmarks/attack.py.
"""

from __future__ import annotations

import contextlib
import json
import selectors
import threading
from collections.abc import Callable

from .loopback import connect


def open_websocket(
    url: str,
    query: str = "",
    *,
    source: str | None = None,
    timeout: float = 30,
    headers: dict[str, str] | None = None,
):
    """An Engine.IO websocket to ``url`` (websocket-client), from the local address
    ``source`` when given (any 127.x.y.z on Linux: a test's "other phone"), with extra
    request ``headers`` (X-Forwarded-For behind a trusted proxy)."""
    import websocket  # websocket-client, python-socketio's websocket transport

    target = url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
    options = {}
    if source is not None:
        options["socket"] = connect(url, source, timeout)
    try:
        return websocket.create_connection(
            target + (f"&{query}" if query else ""),
            timeout=timeout,
            skip_utf8_validation=True,
            header=[f"{name}: {value}" for name, value in (headers or {}).items()],
            **options,
        )
    except BaseException:
        if "socket" in options:
            options["socket"].close()
        raise


class LeanSocket:
    """One connection to ``namespace``, read by ``reader``: every event the server sends
    goes to ``on_event(name, data)`` on the reader's thread; :meth:`call` waits for its
    acknowledgement."""

    def __init__(
        self,
        url: str,
        namespace: str,
        reader: Reader,
        on_event: Callable[[str, object], None],
        *,
        lang: str = "en",
        source: str | None = None,
        timeout: float = 30,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.ws = open_websocket(
            url, f"lang={lang}", source=source, timeout=timeout, headers=headers
        )
        self.reader = reader
        self.on_event = on_event
        self.prefix = f"{namespace},"
        self.closed = False  # by close()
        self.lost = False  # by the server (set by the reader)
        try:
            if not self.ws.recv().startswith("0{"):
                raise RuntimeError("no Engine.IO open packet")
            self.ws.send(f"40{self.prefix}")
            if not self.ws.recv().startswith(f"40{self.prefix}"):
                raise RuntimeError("the namespace refused the connection")
        except BaseException:
            self.ws.close()
            raise
        self.send_lock = threading.Lock()
        self.waiting: dict[int, list] = {}  # ack id -> [event, answer]
        self.next_id = 0
        reader.add(self)

    @property
    def open(self) -> bool:
        return not (self.closed or self.lost)

    def frame(self, text: str) -> None:
        """One frame from the server (the reader's thread)."""
        if text == "2":  # the server's ping
            with self.send_lock:
                self.ws.send("3")
            return
        if not text.startswith("4") or not text[2:].startswith(self.prefix):
            return
        kind, body = text[1], text[2 + len(self.prefix) :]
        digits = len(body) - len(body.lstrip("0123456789"))
        data = json.loads(body[digits:])
        if kind == "2":
            self.on_event(data[0], data[1] if len(data) > 1 else None)
        elif kind == "3":
            waiter = self.waiting.pop(int(body[:digits]), None)
            if waiter is not None:
                waiter[1] = data[0]
                waiter[0].set()

    def call(self, event: str, payload=None, timeout: float = 10):
        """The server's acknowledgement of ``event`` (TimeoutError without one)."""
        waiter = [threading.Event(), None]
        with self.send_lock:
            ack_id, self.next_id = self.next_id, self.next_id + 1
            self.waiting[ack_id] = waiter
            self.ws.send(f"42{self.prefix}{ack_id}" + json.dumps([event, payload]))
        if not waiter[0].wait(timeout):
            raise TimeoutError(f"no answer to {event}")
        return waiter[1]

    def close(self) -> None:
        """Closed at once: the server's answer to the close is awaited 1 s at most (a
        server under attack may never send it)."""
        self.closed = True
        self.reader.remove(self)
        with contextlib.suppress(Exception):
            self.ws.close(timeout=1)


class Reader:
    """One thread that reads the frames of many :class:`LeanSocket` s as they arrive."""

    def __init__(self) -> None:
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def add(self, client: LeanSocket) -> None:
        with self.lock:
            self.selector.register(client.ws.sock, selectors.EVENT_READ, client)

    def remove(self, client: LeanSocket) -> None:
        """Stop reading ``client`` (before closing it: its descriptor may be reused)."""
        with self.lock, contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(client.ws.sock)

    def _loop(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                ready = self.selector.select(0.05)
            for key, _ in ready:
                client = key.data
                try:
                    client.frame(client.ws.recv())
                except Exception:  # closed: leave it
                    with self.lock, contextlib.suppress(KeyError, ValueError):
                        self.selector.unregister(key.fileobj)
                    client.lost = True

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
