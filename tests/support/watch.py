"""A /watch viewer over a real server, shared by the tests and benchmarks/bench_stream.py.

* :func:`spawn_server` runs ``knights-tour serve`` (``python -m server serve``) in a child
  process on a free loopback port; :func:`stop_server` stops it;
* :class:`WatchClient` is a python-socketio viewer of /watch that records what arrives
  and, by default, grants each batch back as credit at once;
* :class:`WireViewer` is a viewer on a bare websocket that reads the server's messages
  in the order the server sent them (a WatchClient's record is not in that order);
* :func:`start_payload` is a ``start`` message (8x8 plain seed search from a corner);
* :func:`stream_run` streams one full-speed run and samples the server's RSS.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

import psutil
import socketio
import websocket

from server.engine.article_orders import carries_onward
from server.http_server import make_server
from server.stream.encode import count_events
from server.web.watch_socket import registry

from .waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = "/watch"
MB = 1024 * 1024
RUN_EVENTS = 5_000_000
WINDOW = 20_000

LISTENING = re.compile(r"listening on (http://\S+)")


def spawn_server(instance_path: str | Path) -> tuple[subprocess.Popen, str]:
    """``knights-tour serve`` (``python -m server serve``) in a child process on a free
    loopback port, with a throwaway instance folder; (process, base URL)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SECRET_KEY": "bench-stream",
        "INSTANCE_PATH": str(instance_path),
    }
    env.pop("SOCKETIO_MESSAGE_QUEUE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", "0"],
        cwd=str(ROOT),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    match = LISTENING.search(line)
    if match is None:
        proc.kill()
        proc.wait(5)
        raise RuntimeError(f"the server did not start (said {line!r})")
    return proc, match.group(1)


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


# Issue 22's pile-up: a 30x30 closed seed search of about 5 M events (250 checkpoints), sent
# one event at a time, whose timeline a finished run keeps (tests, bench_budgets, make attack)
PILE_RUN = {
    "algorithm": "seed",
    "rows": 30,
    "cols": 30,
    "closed": True,
    "start": [0, 0],
    "pruning": False,
    "window": 1,
    "node_budget": 2_500_000,
}


def start_payload(run: str = "b1", **changes) -> dict:
    payload = {
        "run": run,
        "rows": 8,
        "cols": 8,
        "start": [0, 0],
        "algorithm": "seed",
        "closed": False,
        "pruning": False,
        "window": WINDOW,
        "node_budget": 50_000_000,
        "time_limit": 600,
    }
    payload.update(changes)
    return payload


class WatchClient:
    """A python-socketio viewer of /watch that records what arrives.

    With ``auto_credit`` it grants each batch back as soon as it arrives (a viewer
    drawing at full speed); ``keep`` keeps every batch's events for replay tests.
    """

    def __init__(self, url: str, *, lang: str = "en", auto_credit: bool = True, keep=False):
        self.auto_credit = auto_credit
        self.keep = keep
        self.lock = threading.Lock()
        self.messages: list[tuple[str, dict]] = []  # everything except batch contents
        self.batches: dict[str, list[dict]] = {}
        self.seen: dict[str, dict[int, tuple[int, int]]] = {}  # run: seq: (nodes, backtracks)
        self.events: dict[str, int] = {}
        self.counts: dict[str, bool] = {}
        self.dones: dict[str, dict] = {}
        self.errors: list[dict] = []
        self.done_event = threading.Event()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("batch", self._on_batch, namespace=NAMESPACE)
        self.sio.on("done", self._on_done, namespace=NAMESPACE)
        self.sio.on("error", self._on_error, namespace=NAMESPACE)
        self.sio.connect(
            f"{url}?lang={lang}", namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=5
        )

    def _on_batch(self, data):
        run = data["run"]
        n = count_events(data["events"], self.counts.get(run, False))
        with self.lock:
            self.events[run] = self.events.get(run, 0) + n
            self.seen.setdefault(run, {})[data["seq"]] = (data["nodes"], data["backtracks"])
            self.messages.append(("batch", {k: v for k, v in data.items() if k != "events"}))
            if self.keep:
                # python-socketio's client runs each message's handler in a thread of its
                # own, so two batches may land out of order: keep them in ``seq`` order
                bisect.insort(self.batches.setdefault(run, []), data, key=lambda b: b["seq"])
        if self.auto_credit:
            with contextlib.suppress(socketio.exceptions.BadNamespaceError):  # disconnecting
                self.sio.emit("credit", {"run": run, "events": n}, namespace=NAMESPACE)

    def _on_done(self, data):
        with self.lock:
            self.messages.append(("done", data))
            self.dones[data["run"]] = data
        self.done_event.set()

    def _on_error(self, data):
        with self.lock:
            self.messages.append(("error", data))
            self.errors.append(data)

    def has_all_batches(self, run: str) -> bool:
        """Whether every batch up to the run's ``done`` has been handled: their ``seq``
        run 0, 1, ... without a gap, and the last one's counts are the done's (the done
        can be handled before the last batch, each in its own thread)."""
        with self.lock:
            done = self.dones.get(run)
            seen = self.seen.get(run, {})
            if done is None or sorted(seen) != list(range(len(seen))):
                return False
            return not seen or seen[len(seen) - 1] == (done["nodes"], done["backtracks"])

    def start(self, payload: dict, timeout: float = 5) -> dict:
        if isinstance(payload, dict) and carries_onward(str(payload.get("algorithm"))):
            self.counts[payload["run"]] = True
        return self.sio.call("start", payload, namespace=NAMESPACE, timeout=timeout)

    def call(self, event: str, payload, timeout: float = 5):
        return self.sio.call(event, payload, namespace=NAMESPACE, timeout=timeout)

    def emit(self, event: str, payload) -> None:
        self.sio.emit(event, payload, namespace=NAMESPACE)

    def received(self, run: str) -> int:
        with self.lock:
            return self.events.get(run, 0)

    def wait(self, predicate, timeout: float) -> bool:
        return wait_until(predicate, timeout)

    @property
    def connected(self) -> bool:
        return self.sio.connected

    def close(self) -> None:
        self.sio.disconnect()


class Frame(NamedTuple):
    """One message from the server: an event (``ack`` None) or the acknowledgement of
    the message sent with id ``ack`` (``name`` "ack")."""

    name: str
    data: object
    ack: int | None = None


FRAME = re.compile(r"4([23])" + NAMESPACE + r",(\d*)(.*)", re.S)


class WireViewer:
    """A /watch viewer on a bare websocket, read in one thread: :attr:`frames` holds the
    server's messages in the order it sent them.

    python-socketio's client handles each message in a thread of its own, so the order
    in which a :class:`WatchClient` records them is not the server's.  Tests that check
    an order ("the ack comes first", "nothing after ``done``") read it here.  Nothing is
    read in the background: :meth:`read_until` reads as far as the test asks.  With
    ``auto_credit`` each batch is granted back as soon as it is read.
    """

    def __init__(self, url: str, *, lang: str = "en", auto_credit: bool = False):
        address = url.replace("http://", "ws://", 1)
        self.ws = websocket.create_connection(
            f"{address}/socket.io/?EIO=4&transport=websocket&lang={lang}", timeout=10
        )
        self.auto_credit = auto_credit
        self.frames: list[Frame] = []
        self.events: dict[str, int] = {}  # events received, per run
        self.counts: dict[str, bool] = {}  # runs whose moves carry onward counts
        self._ids = itertools.count()
        opened = self.ws.recv()
        assert opened.startswith("0"), opened  # the Engine.IO handshake
        self.ws.send(f"40{NAMESPACE},")
        joined = self.ws.recv()
        assert joined.startswith(f"40{NAMESPACE},"), joined

    def send(self, event: str, payload, *, ack: bool = True) -> int | None:
        """Send ``event``; the id its acknowledgement will carry (None: none asked)."""
        ident = next(self._ids) if ack else None
        if event == "start" and isinstance(payload, dict):
            self.counts[payload.get("run")] = payload.get("algorithm") == "warnsdorff"
        body = json.dumps([event, payload], separators=(",", ":"))
        self.ws.send(f"42{NAMESPACE},{'' if ident is None else ident}{body}")
        return ident

    def call(self, event: str, payload):
        """Send ``event`` and read until its acknowledgement; the answer."""
        ident = self.send(event, payload)
        self.read_until(lambda: self.answer(ident) is not None)
        return self.answer(ident)

    def answer(self, ident: int):
        return next((f.data for f in self.frames if f.ack == ident), None)

    def read_until(self, done) -> None:
        """Read the server's messages until ``done()``; TimeoutError when none comes for
        ten seconds."""
        while not done():
            try:
                text = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                raise TimeoutError(f"no message; the last ones: {self.frames[-3:]}") from None
            if text == "2":  # Engine.IO's ping
                self.ws.send("3")
                continue
            match = FRAME.fullmatch(text)
            assert match, text
            kind, ident, body = match.groups()
            data = json.loads(body)
            if kind == "3":
                self.frames.append(Frame("ack", data[0], int(ident)))
                continue
            name, message = data
            self.frames.append(Frame(name, message))
            if name == "batch":
                run = message["run"]
                n = count_events(message["events"], self.counts.get(run, False))
                self.events[run] = self.events.get(run, 0) + n
                if self.auto_credit:
                    self.send("credit", {"run": run, "events": n}, ack=False)

    def received(self, run: str) -> int:
        return self.events.get(run, 0)

    def of(self, run: str) -> list[Frame]:
        """The messages of ``run`` (its events' and the acks that name it), in order."""
        return [f for f in self.frames if isinstance(f.data, dict) and f.data.get("run") == run]

    def done(self, run: str) -> dict | None:
        return next((f.data for f in self.of(run) if f.name == "done"), None)

    @property
    def connected(self) -> bool:
        return self.ws.connected

    def close(self) -> None:
        self.ws.close()


def stream_run(url: str, server_pid: int, events: int = RUN_EVENTS, run: str = "b1") -> dict:
    """One full-speed run of ``events`` events: throughput and the server's RSS over time."""
    server = psutil.Process(server_pid)
    client = WatchClient(url)
    samples: list[tuple[int, int]] = []  # (events received, server RSS)
    stop_sampling = threading.Event()

    def sample():
        while not stop_sampling.is_set():
            samples.append((client.received(run), server.memory_info().rss))
            stop_sampling.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    try:
        rss_before = server.memory_info().rss
        sampler.start()
        began = time.perf_counter()
        ack = client.start(start_payload(run, node_budget=events // 2))
        assert ack["ok"], ack
        if not client.done_event.wait(600):
            raise RuntimeError("the run did not finish in 10 minutes")
        seconds = time.perf_counter() - began
        stop_sampling.set()
        sampler.join()
        samples.append((client.received(run), server.memory_info().rss))
        done = client.dones[run]
        received = client.received(run)
    finally:
        stop_sampling.set()
        client.close()
    warm = [rss for got, rss in samples if got >= received // 10]
    return {
        "events": received,
        "seconds": seconds,
        "events_per_s": received / seconds,
        "rss_before_mb": rss_before / MB,
        "rss_warm_mb": warm[0] / MB,
        "rss_peak_mb": max(warm) / MB,
        "rss_growth_mb": (max(warm) - warm[0]) / MB,
        "done": done,
        "samples": len(samples),
    }


@contextlib.contextmanager
def served(app):
    """(base URL, app) of ``app`` under the threaded server on a free port, in this process
    (tests can look into its run registry); every run is stopped before it shuts down."""
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", app
    finally:
        for run in registry(app).live_runs():
            run.stop(silent=True)
        server.shutdown()
        thread.join(5)


@contextlib.contextmanager
def client_pool(url: str, app, client_class=None):
    """``open_client(**kwargs)`` for a test (a :class:`WatchClient`, or ``client_class``:
    a :class:`WireViewer`); at the end every client is closed and the test fails unless
    every run it started is gone within 5 s."""
    opened = []

    def open_client(**kwargs):
        client = (client_class or WatchClient)(url, **kwargs)
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        if client.connected:
            client.close()
    assert wait_until(lambda: registry(app).live_count() == 0, 5), "runs outlived the test"
