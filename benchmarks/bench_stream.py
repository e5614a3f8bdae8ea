"""The live watch stream over a real server: delivery speed and flat server memory.

A server process (the app under werkzeug's threaded server, as ``knights-tour serve``
runs it) streams the plain seed search on 8x8 from a corner (millions of nodes before
its first tour, so it never runs dry) to a python-socketio client over a websocket;
the client counts the events of each batch and grants them back as credit at once.

* events/s delivered at full speed;
* the server's RSS growth over a 5 M-event run, sampled every 0.2 s after a warm-up
  of the first 10 % of the events (goal: flat within 20 MB).

The server launcher and the viewer (:func:`spawn_server`, :class:`WatchClient`) are in
``tests/support/watch.py``, shared with ``tests/web/test_watch_protocol.py``.  Runnable standalone:
``.venv/bin/python benchmarks/bench_stream.py [--repeat N] [--events N]``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import socketio

from server.stream.encode import count_events
from tests.support.watch import (
    NAMESPACE,
    RUN_EVENTS,
    WINDOW,
    spawn_server,
    start_payload,
    stop_server,
    stream_run,
)

# -- acknowledged credits: round trips, not bandwidth ----------------------------------

ACKED = {"rows": 6, "cols": 6, "window": 1000}  # 6x6 plain from a corner: 354,060 events
ACKED_GOAL = 150_000


class LeanClient:
    """The smallest Socket.IO client of /watch: Engine.IO 4 and Socket.IO 5 text packets
    over one websocket (websocket-client, as python-socketio uses), all in the caller's
    thread.  python-socketio's client hands every incoming message to a new thread,
    which costs more than the server's whole round trip; this one measures the server.
    """

    def __init__(self, url: str, lang: str = "en", namespace: str = NAMESPACE):
        import websocket  # websocket-client, python-socketio's websocket transport

        query = f"/socket.io/?EIO=4&transport=websocket&lang={lang}"
        self.ws = websocket.create_connection(
            url.replace("http", "ws", 1) + query,
            timeout=30,
            skip_utf8_validation=True,  # its pure-Python check; decoding still validates
        )
        opened = self.ws.recv()
        if not opened.startswith("0{"):
            raise RuntimeError(f"no Engine.IO open packet: {opened[:80]!r}")
        self.namespace = namespace
        self.prefix = f"{namespace},"
        self.ws.send(f"40{self.prefix}")
        self.queued: collections.deque = collections.deque()
        self.next_id = 0
        while self._read() != ("connected", None, None):
            pass

    def read_frame(self) -> tuple[str, int | None, object] | None:
        """One websocket frame: a Socket.IO packet of the namespace as (kind, ack id,
        data), or None for the server's ping (answered)."""
        text = self.ws.recv()
        if text == "2":
            self.ws.send("3")
            return None
        if not text.startswith("4") or text[2:].split(",", 1)[0] != self.namespace:
            raise RuntimeError(f"unexpected packet {text[:80]!r}")
        kind, body = text[1], text[2 + len(self.prefix) :]
        if kind == "0":
            return "connected", None, None
        digits = len(body) - len(body.lstrip("0123456789"))
        ack_id = int(body[:digits]) if digits else None
        data = json.loads(body[digits:])
        if kind == "2":
            return "event", ack_id, data
        if kind == "3":
            return "ack", ack_id, data[0]
        raise RuntimeError(f"unexpected packet {text[:80]!r}")

    def _read(self) -> tuple[str, int | None, object]:
        """The next Socket.IO packet of the namespace: (kind, ack id, data)."""
        while True:
            packet = self.read_frame()
            if packet is not None:
                return packet

    def call(self, event: str, data: dict) -> dict:
        """Send ``event`` asking for an acknowledgement, and wait for it (events that
        arrive first are kept for :meth:`next_event`)."""
        ack_id, self.next_id = self.next_id, self.next_id + 1
        self.ws.send(f"42{self.prefix}{ack_id}" + json.dumps([event, data]))
        while True:
            kind, got_id, payload = self._read()
            if kind == "ack" and got_id == ack_id:
                return payload
            if kind == "event":
                self.queued.append(payload)

    def next_event(self) -> list:
        if self.queued:
            return self.queued.popleft()
        while True:
            kind, _, payload = self._read()
            if kind == "event":
                return payload

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


class QueueingClient:
    """python-socketio's client with the same loop: messages queued by its handler
    threads, credits sent (and their acknowledgements awaited) from the caller's."""

    def __init__(self, url: str, lang: str = "en"):
        self.queue: queue.Queue = queue.Queue()
        self.sio = socketio.Client(reconnection=False)
        for name in ("batch", "done", "error"):
            self.sio.on(name, lambda data, name=name: self.queue.put([name, data]), NAMESPACE)
        self.sio.connect(
            f"{url}?lang={lang}", namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5
        )

    def call(self, event: str, data: dict) -> dict:
        return self.sio.call(event, data, namespace=NAMESPACE, timeout=30)

    def next_event(self) -> list:
        return self.queue.get(timeout=30)

    def close(self) -> None:
        self.sio.disconnect()


def acked_run(url: str, client_class=LeanClient) -> dict:
    """One /watch run of 6x6 plain backtracking from a corner, window 1,000: each batch
    is granted back with a ``credit`` sent with an acknowledgement, and the next batch
    is read only once that acknowledgement has arrived."""
    client = client_class(url)
    try:
        began = time.perf_counter()
        ack = client.call("start", start_payload("k1", **ACKED))
        assert ack["ok"], ack
        received = 0
        while True:
            name, data = client.next_event()
            if name == "batch":
                n = count_events(data["events"], False)
                received += n
                answer = client.call("credit", {"run": "k1", "events": n})
                assert answer["ok"], answer
            elif name == "done":
                break
            else:
                raise RuntimeError(f"{name}: {data}")
        seconds = time.perf_counter() - began
    finally:
        client.close()
    assert data["status"] == "found" and received == data["nodes"] + data["backtracks"], data
    return {"events": received, "seconds": seconds, "events_per_s": received / seconds}


def acked_rows(url: str, repeat: int) -> list[dict]:
    lean = [acked_run(url, LeanClient) for _ in range(repeat)]
    sio = [acked_run(url, QueueingClient) for _ in range(repeat)]
    events = lean[0]["events"]
    round_trip_ms = statistics.median(r["seconds"] for r in lean) / (events / 1000) * 1000
    return [
        {
            "benchmark": "stream: acknowledged credits, window 1,000 (6x6 seed)",
            "median": statistics.median(r["events_per_s"] for r in lean),
            "unit": "events/s",
            "goal": f">= {ACKED_GOAL // 1000} k",
            "note": f"/watch, {events:,} events; every credit sent with an ack and the ack "
            f"awaited; a lean Socket.IO client over a websocket; "
            f"{round_trip_ms:.1f} ms per 1,000-event round trip; 17 k with the 40 ms stalls "
            "(before TCP_NODELAY)",
        },
        {
            "benchmark": "stream: acknowledged credits, python-socketio client",
            "median": statistics.median(r["events_per_s"] for r in sio),
            "unit": "events/s",
            "goal": "",
            "note": "the same with python-socketio's client, which runs every message in a "
            "new thread: the client's own cost (17 k before TCP_NODELAY)",
        },
    ]


def run(repeat: int = 3, events: int = RUN_EVENTS) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = spawn_server(Path(tmp) / "instance")
        try:
            results = [stream_run(url, proc.pid, events, run=f"b{i}") for i in range(repeat)]
            acked = acked_rows(url, repeat)
        finally:
            stop_server(proc)
    speed = statistics.median(r["events_per_s"] for r in results)
    growth = statistics.median(r["rss_growth_mb"] for r in results)
    worst = max(r["rss_growth_mb"] for r in results)
    seconds = statistics.median(r["seconds"] for r in results)
    millions = events / 1e6
    return [
        {
            "benchmark": "stream: events/s to a python-socketio client (8x8 seed)",
            "median": speed,
            "unit": "events/s",
            "goal": "",
            "note": f"websocket, batches of 1000, credit window {WINDOW:,}; "
            f"{millions:g} M events in {seconds:.1f} s",
        },
        {
            "benchmark": f"stream: server RSS growth over a {millions:g} M-event run",
            "median": round(growth, 2),
            "unit": "MB",
            "goal": "flat within 20 MB",
            "note": f"after 10 % warm-up; worst of {repeat}: {worst:.1f} MB; "
            f"server RSS {results[0]['rss_warm_mb']:.0f} MB",
        },
        *acked,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--events", type=int, default=RUN_EVENTS)
    parser.add_argument("--acked", action="store_true", help="only the acknowledged-credit rows")
    args = parser.parse_args()
    if args.acked:
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = spawn_server(Path(tmp) / "instance")
            try:
                rows = acked_rows(url, args.repeat)
            finally:
                stop_server(proc)
    else:
        rows = run(args.repeat, args.events)
    for row in rows:
        print(f"{row['benchmark']}: {row['median']:,.2f} {row['unit']} ({row['note']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
