"""Load test: how fast a message fans out to 100 python-socketio clients.

Real ``knights-tour serve`` processes (tests/scale/servers.py starts them: the console
script, threading mode, one SQLite database, a throwaway redis-server for the message
queue), clients over websockets, all in this process so one clock times everything.

Scenarios (each prints p50 / p95 / max of the delay from send to receipt, over every
client and every message):

* ``broadcast``: 100 clients on /watch of one process; a broadcast published on the
  Redis queue by an outside emitter (Flask-SocketIO's "emit from another process")
  reaches them;
* ``class``: a class room, the teacher and 100 students on one process, no queue; the
  teacher steps the demo (a ``control`` message with the next index, as the step button
  sends it) and every student receives the new ``state``  (goal: p95 <= 200 ms);
* ``class-2p``: the same across two processes sharing the Redis queue, the teacher on
  the first, the students split between both.

The 100 clients live in this one Python process, so the figures include its own
scheduling (the GIL): the server side alone is faster.  Usage:
``.venv/bin/python benchmarks/loadtest.py [--clients 100] [--steps 40] [--only NAME]``
(``make loadtest``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import socketio  # noqa: E402

from tests.scale.servers import redis_binary, start_redis, start_servers  # noqa: E402
from tests.waiting import wait_until  # noqa: E402

GOAL_MS = 200.0
STEP_GAP = 0.1  # seconds between a teacher's steps (someone clicking fast)
CHANNEL = "flask-socketio"
DEMO = {  # the class demo: a long search (8x8 from a corner), so every step is a real one
    "rows": 8,
    "cols": 8,
    "start": [0, 0],
    "algorithm": "seed",
    "closed": False,
    "pruning": False,
}


class Listener:
    """One client: records (perf_counter, payload) of every ``event`` on ``namespace``."""

    def __init__(self, url: str, namespace: str, event: str):
        self.namespace = namespace
        self.lock = threading.Lock()
        self.arrivals: list[tuple[float, object]] = []
        self.sio = socketio.Client(reconnection=False)
        self.sio.on(event, self._record, namespace=namespace)
        self.sio.connect(url, namespaces=[namespace], transports=["websocket"], wait_timeout=10)

    def _record(self, data):
        at = time.perf_counter()
        with self.lock:
            self.arrivals.append((at, data))

    def count(self) -> int:
        with self.lock:
            return len(self.arrivals)

    def call(self, event: str, payload, timeout: float = 10):
        return self.sio.call(event, payload, namespace=self.namespace, timeout=timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()


def connect_all(urls: list[str], namespace: str, event: str, count: int) -> list[Listener]:
    """``count`` clients, spread over ``urls`` round robin, connected 10 at a time."""
    clients: list[Listener | None] = [None] * count
    errors: list[BaseException] = []

    def connect(index: int) -> None:
        try:
            clients[index] = Listener(urls[index % len(urls)], namespace, event)
        except BaseException as err:
            errors.append(err)

    for first in range(0, count, 10):
        threads = [threading.Thread(target=connect, args=(i,)) for i in range(first, count)][:10]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if errors:
        for client in clients:
            if client is not None:
                client.close()
        raise RuntimeError(f"{len(errors)} clients failed to connect: {errors[0]!r}")
    return clients  # type: ignore[return-value]


def summarize(name: str, delays: list[float], expected: int, note: str) -> dict:
    ms = sorted(d * 1000 for d in delays)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)] if ms else float("nan")
    return {
        "scenario": name,
        "messages": len(ms),
        "expected": expected,
        "p50_ms": statistics.median(ms) if ms else float("nan"),
        "p95_ms": p95,
        "max_ms": ms[-1] if ms else float("nan"),
        "note": note,
    }


# -- scenarios ---------------------------------------------------------------------------------


def broadcast(directory: Path, clients: int, steps: int, redis_url: str) -> dict:
    """Broadcasts from the queue to ``clients`` clients of one process."""
    from flask_socketio import SocketIO

    (server,) = start_servers(directory, 1, redis_url)
    listeners: list[Listener] = []
    try:
        listeners = connect_all([server.url], "/watch", "notice", clients)
        emitter = SocketIO(message_queue=redis_url, channel=CHANNEL)
        sent: dict[int, float] = {}
        for step in range(steps):
            sent[step] = time.perf_counter()
            emitter.emit("notice", {"step": step}, namespace="/watch")
            wait_until(lambda s=step: all(c.count() > s for c in listeners), 5, 0.002)
            time.sleep(STEP_GAP)
        delays = [at - sent[data["step"]] for c in listeners for at, data in c.arrivals]
    finally:
        for listener in listeners:
            listener.close()
        server.stop()
    return summarize(
        f"broadcast to {clients} clients (1 process, Redis queue)",
        delays,
        clients * steps,
        f"{steps} broadcasts published on Redis by an outside emitter",
    )


def open_room(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("POST", "/class/new", headers={"Content-Length": "0"})
        response = conn.getresponse()
        if response.status != 303:
            raise RuntimeError(f"POST /class/new answered {response.status}")
        path, token = response.getheader("Location").split("#token=")
    finally:
        conn.close()
    return path.split("/")[2], token


def class_room(
    directory: Path, clients: int, steps: int, processes: int, redis_url: str | None
) -> dict:
    """A teacher steps the demo; ``clients`` students (spread over the processes) follow."""
    servers = start_servers(directory, processes, redis_url)
    students: list[Listener] = []
    teacher = None
    try:
        code, token = open_room(servers[0].url)
        teacher = Listener(servers[0].url, "/class", "presence")
        joined = teacher.call("join", {"code": code, "token": token})
        if not joined.get("ok"):
            raise RuntimeError(f"the teacher could not join: {joined}")
        # the demo's settings before the students join
        answer = teacher.call("settings", DEMO)
        if not answer.get("ok"):
            raise RuntimeError(f"settings refused: {answer}")
        gen = answer["state"]["gen"]
        students = connect_all([s.url for s in servers], "/class", "state", clients)
        for student in students:
            answer = student.call("join", {"code": code})
            if not answer.get("ok"):
                raise RuntimeError(f"a student could not join: {answer}")
        # the teacher's own run: the index it may show is capped by what it was sent
        teacher.call("start", {"run": "t1", "window": 20_000})
        time.sleep(0.5)
        sent: dict[int, float] = {}  # state seq -> when the teacher sent it
        for step in range(1, steps + 1):
            began = time.perf_counter()
            answer = teacher.call(
                "control", {"gen": gen, "index": step, "playing": False, "speed": None}
            )
            if not answer.get("ok") or answer["state"]["index"] != step:
                raise RuntimeError(f"control refused: {answer}")
            sent[answer["state"]["seq"]] = began
            wait_until(lambda s=step: all(c.count() >= s for c in students), 5, 0.002)
            time.sleep(STEP_GAP)
        delays = [at - sent[data["seq"]] for c in students for at, data in c.arrivals]
    finally:
        for client in [*students, teacher]:
            if client is not None:
                client.close()
        for server in servers:
            server.stop()
    where = "1 process" if processes == 1 else f"{processes} processes, Redis queue"
    return summarize(
        f"class room: teacher's step to {clients} students ({where})",
        delays,
        clients * steps,
        f"{steps} steps, {STEP_GAP * 1000:.0f} ms apart; goal p95 <= {GOAL_MS:.0f} ms",
    )


def class_rooms_available() -> bool:
    try:
        import server.web.class_socket  # noqa: F401
    except ImportError:
        return False
    return True


def run(clients: int = 100, steps: int = 40, only: str | None = None) -> list[dict]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        redis = start_redis(base / "redis") if redis_binary() else None
        try:
            if redis is None:
                print("redis-server is missing (make redis): skipping the queue scenarios")
            if only in (None, "broadcast") and redis is not None:
                results.append(broadcast(base / "broadcast", clients, steps, redis.url))
            if only in (None, "class", "class-2p") and not class_rooms_available():
                print("class rooms are not in this tree yet: skipping the class scenarios")
            elif only in (None, "class"):
                results.append(class_room(base / "class", clients, steps, 1, None))
            if only in (None, "class-2p") and redis is not None and class_rooms_available():
                results.append(class_room(base / "class-2p", clients, steps, 2, redis.url))
        finally:
            if redis is not None:
                redis.stop()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--only", choices=("broadcast", "class", "class-2p"))
    args = parser.parse_args()
    failed = False
    for row in run(args.clients, args.steps, args.only):
        missing = row["expected"] - row["messages"]
        print(
            f"{row['scenario']}: p50 {row['p50_ms']:.1f} ms, p95 {row['p95_ms']:.1f} ms, "
            f"max {row['max_ms']:.1f} ms over {row['messages']:,} deliveries "
            f"({row['note']})" + (f"; {missing} NOT DELIVERED" if missing else "")
        )
        failed |= missing != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
