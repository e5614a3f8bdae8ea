"""Which server for a class on a LAN: werkzeug's threaded server or gunicorn's gthread worker.

The same load against each, one server process at a time, from this process (the
clients' process, separate from the server's):

* **connect**: ``--students`` python-socketio clients (websockets; ``--upgrade``: long-
  polling first, then the upgrade, as the browser's socket.io client does) all connect
  at the same moment, as a class does when the teacher says "join now": the time until
  every one is connected, and each connect's p50 / p95 / max;
* **join**: every student joins the class room (``join`` with an acknowledgement);
* **broadcast**: the teacher steps the demo ``--steps`` times, 100 ms apart, and every
  step's ``state`` broadcast reaches every student: delivery delay p50 / p95 / max
  from the teacher's send to each student's receipt;
* **server**: CPU seconds (user + system, the whole process tree: gunicorn's arbiter
  and worker) from before the first connect to after the last step, and the peak RSS
  (sampled every 0.2 s, the tree summed); the clients' process's CPU seconds beside
  them, since on a small machine the clients compete with the server for the cores.

Servers (tests/support/servers.py ``start_server``): ``knights-tour serve`` (the console
script, werkzeug's threaded server from server/http_server.py) and ``gunicorn -w 1
--threads N 'server.app:create_app()'`` as docs/deploy.md runs it.
Each server is measured ``--repeat`` times, alternating; the table holds medians.

The class-room protocol lives in :class:`ClassScenario` only (open a room, the
teacher's set-up, one step, what a student waits for): adapt it there when the
protocol changes.  All clients share this one Python process, so the delays include
its own scheduling (the same for both servers): python-socketio's client runs every
incoming message in a new thread, and 200 of them cost more CPU than the server.
``--lean`` students speak the same protocol over bare websockets, all read by one
thread, so their delays are mostly the server's.  Usage::

    .venv/bin/python benchmarks/serve_compare.py [--students 200] [--steps 40]
        [--repeat 3] [--threads 300] [--upgrade | --lean] [--only werkzeug|gunicorn]
"""

from __future__ import annotations

import argparse
import contextlib
import selectors
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil
import socketio

from benchmarks.bench_stream import LeanClient
from tests.support.follower import EIGHT_BY_EIGHT
from tests.support.servers import ServerProcess, open_class_room, start_server
from tests.support.stats import percentile
from tests.support.waiting import wait_until

NAMESPACE = "/class"
STEP_GAP = 0.1  # seconds between the teacher's steps (someone clicking fast)


# -- the class-room protocol: everything that knows it ----------------------------------


class ClassScenario:
    """A room, its teacher and what one demo step is (docs/protocol.md, /class)."""

    DEMO: ClassVar[dict] = EIGHT_BY_EIGHT  # plain backtracking: every step is a real one
    STUDENT_EVENT = "state"  # what a student receives on every step

    def __init__(self, url: str):
        self.url = url
        self.code, self.token = open_class_room(url)
        self.teacher = Client(url, "presence")
        self.gen = None
        self.seq = 0  # the teacher page's control numbers

    def join(self, client: Client, token: str | None = None) -> None:
        payload = {"code": self.code, **({"token": token} if token else {})}
        answer = client.call("join", payload)
        if not answer.get("ok"):
            raise RuntimeError(f"join refused: {answer}")

    def set_up(self) -> None:
        """The teacher joins and shows the demo (its controls are numbered from the join)."""
        self.join(self.teacher, self.token)
        self.seq += 1
        answer = self.teacher.call("settings", {**self.DEMO, "seq": self.seq})
        if not answer.get("ok"):
            raise RuntimeError(f"settings refused: {answer}")
        self.gen = answer["state"]["gen"]

    def step(self, index: int):
        """One step of the demo; the key students' messages carry for it."""
        self.seq += 1
        answer = self.teacher.call(
            "control",
            {"seq": self.seq, "gen": self.gen, "index": index, "playing": False, "speed": 10},
        )
        if not answer.get("ok") or answer["state"]["index"] != index:
            raise RuntimeError(f"control refused: {answer}")
        return answer["state"]["seq"]

    @staticmethod
    def key(data):
        return data["seq"]

    def close(self) -> None:
        self.teacher.close()


# -- clients ----------------------------------------------------------------------------


class Client:
    """One python-socketio client on /class recording (perf_counter, data) of ``event``."""

    def __init__(self, url: str, event: str, transports=("websocket",)):
        self.lock = threading.Lock()
        self.arrivals: list[tuple[float, object]] = []
        self.sio = socketio.Client(reconnection=False)
        self.sio.on(event, self._record, namespace=NAMESPACE)
        began = time.perf_counter()
        self.sio.connect(url, namespaces=[NAMESPACE], transports=list(transports), wait_timeout=30)
        self.connect_seconds = time.perf_counter() - began

    def _record(self, data):
        at = time.perf_counter()
        with self.lock:
            self.arrivals.append((at, data))

    def count(self) -> int:
        with self.lock:
            return len(self.arrivals)

    def call(self, event: str, payload, timeout: float = 30):
        return self.sio.call(event, payload, namespace=NAMESPACE, timeout=timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sio.disconnect()


class LeanStudent:
    """A student on a bare websocket (benchmarks/bench_stream.py's LeanClient): no thread
    of its own; :class:`Reader` reads every lean student from one thread."""

    def __init__(self, url: str, event: str):
        self.event = event
        self.arrivals: list[tuple[float, object]] = []
        began = time.perf_counter()
        self.conn = LeanClient(url, namespace=NAMESPACE)
        self.connect_seconds = time.perf_counter() - began

    def call(self, event: str, payload, timeout: float = 30):
        return self.conn.call(event, payload)

    def take(self, at: float, packet) -> None:
        if packet is not None and packet[0] == "event" and packet[2][0] == self.event:
            self.arrivals.append((at, packet[2][1]))

    def count(self) -> int:
        return len(self.arrivals)

    def close(self) -> None:
        self.conn.close()


class Reader:
    """One thread reading the frames of many :class:`LeanStudent` s as they arrive."""

    def __init__(self, students: list[LeanStudent]):
        self.selector = selectors.DefaultSelector()
        for student in students:
            while student.conn.queued:  # arrived while it waited for an acknowledgement
                student.take(time.perf_counter(), ("event", None, student.conn.queued.popleft()))
            self.selector.register(student.conn.ws.sock, selectors.EVENT_READ, student)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(0.1):
                student = key.data
                try:
                    packet = student.conn.read_frame()
                except Exception:  # closed: leave it
                    self.selector.unregister(key.fileobj)
                    continue
                student.take(time.perf_counter(), packet)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.selector.close()


def all_at_once(count: int, make) -> tuple[list, list[BaseException]]:
    """``make(i)`` for i in range(count), each in its own thread, released together."""
    results: list = [None] * count
    errors: list[BaseException] = []
    gate = threading.Event()

    def work(i: int) -> None:
        gate.wait()
        try:
            results[i] = make(i)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    gate.set()
    for thread in threads:
        thread.join(120)
    return results, errors


# -- the server's side ------------------------------------------------------------------


class Meter:
    """CPU seconds and peak RSS of a server's process tree."""

    def __init__(self, server: ServerProcess):
        root = psutil.Process(server.pid)
        self.procs = [root, *root.children(recursive=True)]
        self.peak_rss = 0
        self.cpu_before = self.cpu()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def cpu(self) -> float:
        total = 0.0
        for proc in self.procs:
            with contextlib.suppress(psutil.Error):
                times = proc.cpu_times()
                total += times.user + times.system
        return total

    def rss(self) -> int:
        total = 0
        for proc in self.procs:
            with contextlib.suppress(psutil.Error):
                total += proc.memory_info().rss
        return total

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak_rss = max(self.peak_rss, self.rss())
            self._stop.wait(0.2)

    def stop(self) -> tuple[float, float]:
        """(CPU seconds since the start, peak RSS in MB)."""
        self._stop.set()
        self._thread.join()
        self.peak_rss = max(self.peak_rss, self.rss())
        return self.cpu() - self.cpu_before, self.peak_rss / 2**20


# -- one measurement --------------------------------------------------------------------


def measure(server: ServerProcess, students: int, steps: int, transports, lean=False) -> dict:
    scenario = ClassScenario(server.url)
    meter = Meter(server)
    me = psutil.Process()
    client_cpu = sum(me.cpu_times()[:2])
    clients: list = []
    reader = None
    event = ClassScenario.STUDENT_EVENT
    try:
        scenario.set_up()
        began = time.perf_counter()
        made, errors = all_at_once(
            students,
            (lambda i: LeanStudent(server.url, event))
            if lean
            else (lambda i: Client(server.url, event, transports)),
        )
        clients = [c for c in made if c is not None]
        all_connected = time.perf_counter() - began
        if errors:
            raise RuntimeError(f"{len(errors)} students failed to connect: {errors[0]!r}")
        began = time.perf_counter()
        _, errors = all_at_once(students, lambda i: scenario.join(clients[i]))
        all_joined = time.perf_counter() - began
        if errors:
            raise RuntimeError(f"{len(errors)} students failed to join: {errors[0]!r}")
        if lean:
            reader = Reader(clients)
        sent: dict[object, float] = {}
        missing = 0
        for index in range(1, steps + 1):
            at = time.perf_counter()
            sent[scenario.step(index)] = at
            if not wait_until(lambda n=index: all(c.count() >= n for c in clients), 10, 0.002):
                missing += sum(1 for c in clients if c.count() < index)
            time.sleep(STEP_GAP)
        delays = sorted(
            (at - sent[ClassScenario.key(data)]) * 1000
            for c in clients
            for at, data in c.arrivals
            if ClassScenario.key(data) in sent
        )
    finally:
        if reader is not None:
            reader.stop()
        for client in clients:
            client.close()
        cpu, rss = meter.stop()
        client_cpu = sum(me.cpu_times()[:2]) - client_cpu
        scenario.close()
    connects = sorted(c.connect_seconds * 1000 for c in clients)
    return {
        "connected_s": all_connected,
        "connect_p50": statistics.median(connects),
        "connect_p95": percentile(connects, 0.95),
        "connect_max": connects[-1],
        "joined_s": all_joined,
        "p50": statistics.median(delays),
        "p95": percentile(delays, 0.95),
        "max": delays[-1],
        "deliveries": len(delays),
        "missing": students * steps - len(delays),
        "cpu_s": cpu,
        "rss_mb": rss,
        "client_cpu_s": client_cpu,
    }


FIELDS = (  # (key, heading, format)
    ("connected_s", "all connected (s)", "{:.2f}"),
    ("connect_p50", "connect p50 (ms)", "{:.0f}"),
    ("connect_p95", "connect p95 (ms)", "{:.0f}"),
    ("connect_max", "connect max (ms)", "{:.0f}"),
    ("joined_s", "all joined (s)", "{:.2f}"),
    ("p50", "state p50 (ms)", "{:.1f}"),
    ("p95", "state p95 (ms)", "{:.1f}"),
    ("max", "state max (ms)", "{:.1f}"),
    ("missing", "not delivered", "{:.0f}"),
    ("cpu_s", "server CPU (s)", "{:.2f}"),
    ("rss_mb", "server RSS (MB)", "{:.0f}"),
    ("client_cpu_s", "clients' CPU (s)", "{:.1f}"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=300, help="gunicorn --threads")
    parser.add_argument("--upgrade", action="store_true", help="long-polling, then websocket")
    parser.add_argument(
        "--lean", action="store_true", help="students on bare websockets read by one thread"
    )
    parser.add_argument("--only", choices=("werkzeug", "gunicorn"))
    args = parser.parse_args()
    if args.lean and args.upgrade:
        parser.error("--lean students use websockets only")
    kinds = [args.only] if args.only else ["werkzeug", "gunicorn"]
    transports = ("polling", "websocket") if args.upgrade else ("websocket",)
    results: dict[str, list[dict]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.repeat):
            for kind in kinds:
                server = start_server(kind, Path(tmp) / f"{kind}-{round_}", args.threads)
                try:
                    result = measure(server, args.students, args.steps, transports, args.lean)
                finally:
                    server.stop()
                results[kind].append(result)
                print(
                    f"{kind} #{round_ + 1}: "
                    + ", ".join(f"{k} {result[k]:.2f}" for k, _, _ in FIELDS),
                    file=sys.stderr,
                    flush=True,
                )
    names = {
        "werkzeug": "knights-tour serve (werkzeug, threaded)",
        "gunicorn": f"gunicorn -w 1 --threads {args.threads} (gthread)",
    }
    how = "long-polling, then websocket" if args.upgrade else "websocket"
    if args.lean:
        how = "bare websockets, one reading thread"
    print(
        f"{args.students} students ({how}), {args.steps} steps {STEP_GAP * 1000:.0f} ms apart; "
        f"medians of {args.repeat}"
    )
    print()
    print("| server | " + " | ".join(heading for _, heading, _ in FIELDS) + " |")
    print("|---|" + "---:|" * len(FIELDS))
    for kind in kinds:
        cells = [
            fmt.format(statistics.median(r[key] for r in results[kind])) for key, _, fmt in FIELDS
        ]
        print(f"| {names[kind]} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
