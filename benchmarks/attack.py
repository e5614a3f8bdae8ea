"""Attacks on a real server from one address while a class plays (``make attack``).

The issue "A prankster on the classroom Wi-Fi cannot take the class down": each attack
runs for 20-25 s from one loopback address against a fresh server process, while a
teacher and 20 followers play a demo from addresses of their own (Linux routes all of
127.0.0.0/8 to this machine: each phone is 127.0.x.y).  Meanwhile, from yet other
addresses, probes measure what the class feels:

* the teacher's ``control`` round trip (every 0.5 s, on the teacher's own connection);
* a new student's join (every second: connect, ``join``; for the puzzle flood also a
  ``solve``, for the quiz flood a ``quiz_enter`` under a fresh name);
* ``GET /`` (every 0.25 s);
* peak RSS and threads of the server's process tree, and the tracebacks in its log;
* the time to recover: from the attacker's last socket closing until every probe
  answers within its goal again (watched for up to 60 s);
* for the seat flood: whether another room's teacher is admitted meanwhile.

The attacks (numbers of the issue's list):

1. ``slowloris``: 1,100 half-sent requests, a header byte every 5 s (the server starts
   with ``ulimit -n`` 1,024, the usual default: beyond its descriptors);
2. ``watch-runs``: 60 /watch connections, each running ``seed`` on 30x30 closed with a
   node budget of 2,500,000 and seeking to the end twice, run after run;
3. ``seat-flood``: 1,050 raw websockets joining the teacher's room;
4. ``puzzle-flood``: connections joining and asking 5 ``solve`` each, 100 at a time;
5. ``cpu``: 8 loops of CPU-heavy requests (worksheet and picture of a hard puzzle; hint,
   move and undo on a hard game; a /watch run restarted again and again);
6. ``handshakes``: 10,000 Engine.IO long-polling handshakes;
7. ``quiz-flood``: 1,000 ``quiz_enter`` from 100 connections (taking names);
8. ``room-flood``: rooms opened until refused (a fresh teacher device each), each joined
   by its teacher playing a 30x30 closed ``seed`` search to its end (the issue's item 2:
   rooms count against the address's and the server's limits).

Every client has timeouts, the attacker runs in a process of its own (killed if it does
not stop), and every server is stopped at the end: a run never hangs.  An attack that
could not run is reported as failed in its row.

``.venv/bin/python benchmarks/attack.py [--server serve|gunicorn|both] [--only N ...]
[--seconds 22]``.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import multiprocessing
import os
import queue
import re
import resource
import select
import shutil
import socket
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil

from tests.support.follower import SIX_BY_SIX, LeanFollower, Teacher
from tests.support.lean_socket import LeanSocket, Reader
from tests.support.loopback import can_bind, connect, get, http_connection
from tests.support.servers import ServerProcess, open_class_room, start_server
from tests.support.stats import percentile
from tests.support.watch import PILE_RUN, start_payload

HARD = "16x16~EABBAIwAugL0AvQAuALsAVAB3AFhADoALgDLAGwAsQE.o.h2"
SERVER_FD_LIMIT = 1024  # the usual `ulimit -n` the server is started with
ATTACKER = "127.0.0.66"
FOLLOWERS = 20
PUZZLE = "6x6.o"
GUNICORN_THREADS = 600  # a class of 500+ on one process: each websocket holds a thread

# the goals of the issue (seconds)
CONTROL_GOAL, JOIN_GOAL, PAGE_GOAL = 1.0, 2.0, 1.0
RECOVERY_GOAL, RSS_GOAL_MB, THREADS_GOAL = 15.0, 600, 1000
WATCH_AFTER = 60.0  # seconds the recovery is watched for at most


# -- addresses -------------------------------------------------------------------------------
class Addresses:
    """Source addresses for one kind of client (``127.0.NET.1..250``, cycling), or
    None everywhere when the machine has only 127.0.0.1."""

    def __init__(self, net: int, enabled: bool) -> None:
        self.net = net
        self.enabled = enabled
        self.numbers = itertools.cycle(range(1, 251))
        self.lock = threading.Lock()

    def next(self) -> str | None:
        if not self.enabled:
            return None
        with self.lock:
            return f"127.0.{self.net}.{next(self.numbers)}"


# -- raw Socket.IO clients (the attacker's) ----------------------------------------------------
class RawClient(LeanSocket):
    """A Socket.IO client on a bare websocket, read by a shared :class:`Reader` (a thousand
    of them cost one thread), that keeps the last events it was sent."""

    def __init__(self, url: str, namespace: str, source: str | None, reader: Reader) -> None:
        self.changed = threading.Condition()
        self.events: list[tuple[str, object]] = []
        super().__init__(url, namespace, reader, self._keep, source=source, timeout=10)

    def _keep(self, name: str, data) -> None:
        with self.changed:
            self.events.append((name, data))
            del self.events[:-50]  # the last few are enough
            self.changed.notify_all()

    def wait_event(self, predicate, timeout: float) -> bool:
        """Whether an event (name, data) matching ``predicate`` arrives (or had) in time."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not any(predicate(name, data) for name, data in self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, 0.5))
            self.events.clear()
            return True


def http_json(url: str, method: str, path: str, body, source: str | None, timeout=30):
    conn = http_connection(url, source, timeout)
    try:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data))}
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, None
    finally:
        conn.close()


class Stats:
    """Counters an attack reports (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, int] = {}

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + n


def _started(workers: list[Callable[[], None]]) -> list[threading.Thread]:
    """Each worker in a daemon thread of its own, started."""
    threads = [threading.Thread(target=work, daemon=True) for work in workers]
    for thread in threads:
        thread.start()
    return threads


def _until_stopped(stop, workers: list[Callable[[], None]], join: float) -> None:
    """The workers in threads of their own until ``stop``; then ``join`` s for each to end."""
    threads = _started(workers)
    stop.wait()
    for thread in threads:
        thread.join(join)


class Swarm:
    """An attack's raw clients, all read by one :class:`Reader`, and the worker threads
    that use them until ``stop``."""

    def __init__(self, url: str, source: str | None, stop, stats: Stats) -> None:
        self.url, self.source, self.stop, self.stats = url, source, stop, stats
        self.reader = Reader()

    def client(self, namespace: str) -> RawClient | None:
        """A new client of ``namespace``, or None when it could not connect (counted)."""
        try:
            return RawClient(self.url, namespace, self.source, self.reader)
        except Exception:
            self.stats.add("connect failed")
            return None

    def run(self, workers: list[Callable[[], None]], join: float) -> None:
        """The workers until ``stop``, ``join`` s for each to end; then no client is read."""
        _until_stopped(self.stop, workers, join)
        self.reader.stop()


# -- the attacks (each runs in the attacker's process until ``stop``) --------------------------
def attack_slowloris(url, code, source, stop, stats, target=1100):
    """Half-sent requests, one header byte every 5 s, kept at ``target`` sockets."""
    parts = urlsplit(url)
    head = f"GET / HTTP/1.1\r\nHost: {parts.netloc}\r\nX-Slow: ".encode()
    held: set[socket.socket] = set()
    lock = threading.Lock()

    def opener():
        while not stop.is_set():
            with lock:
                short = len(held) < target
            if not short:
                time.sleep(0.2)
                continue
            try:
                sock = connect(url, source, timeout=3)
                sock.sendall(head)
            except OSError:
                stats.add("connect failed")
                time.sleep(0.05)
                continue
            stats.add("opened")
            with lock:
                held.add(sock)

    threads = _started([opener] * 16)
    last_trickle = time.monotonic()
    while not stop.wait(1.0):
        with lock:
            socks = list(held)
        stats.counts["held"] = max(stats.counts.get("held", 0), len(socks))
        for chunk in range(0, len(socks), 500):  # select() takes fds below 1024 only
            part = socks[chunk : chunk + 500]
            try:
                readable = select.poll()
                by_fd = {}
                for sock in part:
                    readable.register(sock, select.POLLIN)
                    by_fd[sock.fileno()] = sock
                for fd, _ in readable.poll(0):
                    sock = by_fd[fd]
                    with lock:
                        held.discard(sock)
                    stats.add("closed by the server")
                    sock.close()
            except (OSError, ValueError):
                pass
        if time.monotonic() - last_trickle >= 5:
            last_trickle = time.monotonic()
            with lock:
                socks = list(held)
            for sock in socks:
                try:
                    sock.settimeout(0.5)
                    sock.send(b"a")
                except OSError:
                    with lock:
                        held.discard(sock)
                    sock.close()
    for thread in threads:
        thread.join(5)
    with lock:
        for sock in held:
            sock.close()
        held.clear()


def attack_watch_runs(url, code, source, stop, stats, connections=60):
    """/watch runs piling up: 30x30 closed seed, budget 2.5 M, seek to the end twice."""
    swarm = Swarm(url, source, stop, stats)

    def viewer():
        client = swarm.client("/watch")
        if client is None:
            return
        stats.add("connected")
        number = 0
        try:
            while not stop.is_set() and client.open:
                run = f"p{number % 2}"
                number += 1
                start = {"run": run, **PILE_RUN, "time_limit": 600}
                ack = client.call("start", start, timeout=15)
                if not (ack or {}).get("ok"):
                    stats.add("start refused")
                    stop.wait(0.5)
                    continue
                stats.add("runs started")
                for _ in range(2):  # to the end, twice
                    client.call("seek", {"run": run, "index": None}, timeout=15)
                    landed = client.wait_event(
                        lambda name, data, run=run: (
                            name == "snapshot" and isinstance(data, dict) and data.get("run") == run
                        ),
                        20,
                    )
                    stats.add("seeks landed" if landed else "seeks not landed")
        except Exception:
            stats.add("errors")
        finally:
            client.close()

    swarm.run([viewer] * connections, join=20)


def attack_seat_flood(url, code, source, stop, stats, target=1050):
    """Raw websockets joining the teacher's room, kept at ``target``."""
    swarm = Swarm(url, source, stop, stats)
    members: list[RawClient] = []
    lock = threading.Lock()

    def opener():
        while not stop.is_set():
            with lock:
                members[:] = [m for m in members if m.open]
                short = len(members) < target
            if not short:
                stop.wait(0.5)
                continue
            member = swarm.client("/class")
            if member is None:
                stop.wait(0.05)
                continue
            with lock:
                members.append(member)
            try:
                ack = member.call("join", {"code": code}, timeout=10)
                stats.add("joined" if (ack or {}).get("ok") else "join refused")
            except Exception:
                stats.add("join unanswered")

    def count_held():
        while not stop.wait(1.0):
            with lock:
                stats.counts["held"] = max(stats.counts.get("held", 0), len(members))

    swarm.run([*[opener] * 64, count_held], join=15)
    with lock:
        for member in members:
            member.close()


def attack_puzzle_flood(url, code, source, stop, stats, connections=100, attempts=5):
    """Connections that join and ask ``solve`` 5 times each, 100 at a time, again and again."""
    swarm = Swarm(url, source, stop, stats)

    def student():
        while not stop.is_set():
            member = swarm.client("/class")
            if member is None:
                stop.wait(0.2)
                continue
            try:
                member.call("join", {"code": code}, timeout=10)
                for _ in range(attempts):
                    ack = member.call("solve", {"name": f"bot-{uuid.uuid4().hex[:8]}"}, timeout=10)
                    stats.add("solve ok" if (ack or {}).get("ok") else "solve refused")
            except Exception:
                stats.add("errors")
            finally:
                member.close()

    swarm.run([student] * connections, join=20)


def attack_cpu(url, code, source, stop, stats):
    """8 loops: worksheet and picture of HARD, hint/move/undo on a HARD game, /watch restarts."""
    swarm = Swarm(url, source, stop, stats)

    def page(path):
        def loop():
            while not stop.is_set():
                try:
                    status = get(url, path, source, timeout=30)
                    stats.add(f"{path.split('?')[0]} {status}")
                except Exception:
                    stats.add("errors")
                    stop.wait(0.2)

        return loop

    def game():
        game_id = None
        while not stop.is_set():
            try:
                if game_id is None:
                    status, state = http_json(url, "POST", "/api/games", {"puzzle": HARD}, source)
                    if status != 201:
                        stats.add(f"new game {status}")
                        stop.wait(1)
                        continue
                    game_id = state["id"]
                base = f"/api/games/{game_id}"
                status, answer = http_json(url, "POST", f"{base}/hint", {}, source)
                stats.add(f"hint {status}")
                nxt = (answer or {}).get("hint", {}).get("next") if status == 200 else None
                if nxt is None and status == 200:
                    legal = answer["state"]["legal"]
                    nxt = legal[0] if legal else None
                if nxt is not None:
                    move = {"row": nxt[0], "col": nxt[1]}
                    status, _ = http_json(url, "POST", f"{base}/moves", move, source)
                    stats.add(f"move {status}")
                    if status == 200:
                        status, _ = http_json(url, "POST", f"{base}/undo", {}, source)
                        stats.add(f"undo {status}")
                if status >= 400:
                    stop.wait(0.2)
            except Exception:
                stats.add("errors")
                stop.wait(0.2)

    def watch():
        runs = itertools.count()
        while not stop.is_set():
            client = None
            try:
                client = RawClient(url, "/watch", source, swarm.reader)
                while not stop.is_set() and client.open:  # a run restarted on one connection
                    run = f"w{next(runs)}"
                    ack = client.call("start", start_payload(run, rows=30, cols=30), timeout=15)
                    stats.add("watch start ok" if (ack or {}).get("ok") else "watch start refused")
                    client.call("seek", {"run": run, "index": None}, timeout=15)
                    stop.wait(1.0)
                    client.call("stop", {"run": run}, timeout=15)
            except Exception:
                stats.add("errors")
                stop.wait(0.2)
            finally:
                if client is not None:
                    client.close()

    loops = [
        page(f"/worksheet?puzzle={HARD}"),
        page(f"/worksheet?puzzle={HARD}"),
        page(f"/puzzle.png?puzzle={HARD}"),
        page(f"/puzzle.png?puzzle={HARD}&solution=1"),
        game,
        game,
        watch,
        watch,
    ]
    swarm.run(loops, join=35)


def attack_handshakes(url, code, source, stop, stats, total=10_000, threads=32):
    """Engine.IO long-polling handshakes, never followed up."""
    done = itertools.count()

    def shaker():
        while not stop.is_set():
            conn = http_connection(url, source)
            try:
                while not stop.is_set():  # on one connection while the server keeps it
                    if next(done) >= total:
                        return
                    conn.request("GET", "/socket.io/?EIO=4&transport=polling")
                    response = conn.getresponse()
                    response.read()
                    stats.add(f"handshake {response.status}")
                    if response.getheader("Connection", "").lower() == "close":
                        break
            except Exception:
                stats.add("errors")
                stop.wait(0.05)
            finally:
                conn.close()

    _until_stopped(stop, [shaker] * threads, join=15)


QUIZ_NAMES = ["Bob", "Alice", "李明", "王芳", "张伟", "Emma", "Lucas", "Mia", "陈静", "刘洋"]


def attack_quiz_flood(url, code, source, stop, stats, connections=100, total=1000):
    """1,000 ``quiz_enter`` over 100 connections, taking classmates' names first."""
    swarm = Swarm(url, source, stop, stats)
    names = iter([*QUIZ_NAMES, *(f"Student {i}" for i in range(1, total + 1))])
    lock = threading.Lock()

    def entrant():
        try:
            member = RawClient(url, "/class", source, swarm.reader)
            member.call("join", {"code": code}, timeout=10)
        except Exception:
            stats.add("connect failed")
            return
        try:
            while not stop.is_set():
                with lock:
                    name = next(names, None)
                if name is None:
                    break
                ack = member.call("quiz_enter", {"name": name}, timeout=10)
                stats.add("entered" if (ack or {}).get("ok") else "refused")
                if not (ack or {}).get("ok") and (ack or {}).get("error", {}).get("code") == (
                    "rate-limited"
                ):
                    stop.wait(0.5)
            stop.wait()
        except Exception:
            stats.add("errors")
        finally:
            member.close()

    swarm.run([entrant] * connections, join=15)


ROOM_FLOOD_DEMO = {
    "rows": 30,
    "cols": 30,
    "start": [0, 0],
    "algorithm": "seed",
    "closed": True,
    "pruning": False,
}


def open_room_as_a_new_device(url: str, source: str | None) -> tuple[int, str, str]:
    """``GET /class/new`` (a fresh teacher-device cookie), then ``POST`` it: (status, code,
    token), the code and token empty when refused."""
    conn = http_connection(url, source)
    try:
        conn.request("GET", "/class/new")
        page = conn.getresponse()
        page.read()
        cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
        conn.request("POST", "/class/new", headers={"Content-Length": "0", "Cookie": cookie})
        response = conn.getresponse()
        response.read()
        if response.status != 303:
            return response.status, "", ""
        path, token = response.getheader("Location").split("#token=")
        return 303, path.split("/")[2], token
    finally:
        conn.close()


def attack_room_flood(url, code, source, stop, stats, openers=8):
    """Rooms opened until refused, each with its teacher running a 30x30 search to its end."""
    swarm = Swarm(url, source, stop, stats)
    teachers: list[RawClient] = []
    lock = threading.Lock()

    def opener():
        while not stop.is_set():
            try:
                status, room, token = open_room_as_a_new_device(url, source)
            except Exception:
                stats.add("open failed")
                stop.wait(0.5)
                continue
            if status != 303:
                stats.add(f"open refused {status}")
                stop.wait(1.0)
                continue
            stats.add("rooms opened")
            teacher = swarm.client("/class")
            if teacher is None:
                continue
            with lock:
                teachers.append(teacher)
            try:
                ack = teacher.call("join", {"code": room, "token": token}, timeout=10) or {}
                seq = ack["state"]["control_seq"] + 1
                ack = teacher.call("settings", {**ROOM_FLOOD_DEMO, "seq": seq}, timeout=10) or {}
                control = {"seq": seq + 1, "gen": ack["state"]["gen"], "index": 0}
                ack = teacher.call("control", {**control, "playing": True, "speed": None}) or {}
                stats.add("rooms running" if ack.get("ok") else "control refused")
            except Exception:
                stats.add("errors")

    swarm.run([opener] * openers, join=15)
    with lock:
        for teacher in teachers:
            teacher.close()


@dataclass(frozen=True)
class Attack:
    number: int
    name: str
    run: Callable
    what: str


ATTACKS = [
    Attack(1, "slowloris", attack_slowloris, "1,100 half-sent requests (fd limit 1,024)"),
    Attack(2, "watch-runs", attack_watch_runs, "60 /watch: 30x30 closed, 2.5 M, seek end x2"),
    Attack(3, "seat-flood", attack_seat_flood, "1,050 raw websockets join the room"),
    Attack(4, "puzzle-flood", attack_puzzle_flood, "100 connections x 5 solve, again"),
    Attack(5, "cpu", attack_cpu, "8 loops: worksheet, png, hint/move/undo, /watch restarts"),
    Attack(6, "handshakes", attack_handshakes, "10,000 Engine.IO polling handshakes"),
    Attack(7, "quiz-flood", attack_quiz_flood, "1,000 quiz_enter, names taken"),
    Attack(8, "room-flood", attack_room_flood, "rooms opened until refused, each 30x30 seed"),
]
BY_NUMBER = {a.number: a for a in ATTACKS}


def _attacker_process(number, url, code, source, stop, results) -> None:
    """The attacker: runs attack ``number`` until ``stop``, then reports its counters."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    stats = Stats()
    flag = threading.Event()
    threading.Thread(target=lambda: (stop.wait(), flag.set()), daemon=True).start()
    try:
        BY_NUMBER[number].run(url, code, source, flag, stats)
        results.put({"counts": stats.counts})
    except Exception:
        results.put({"counts": stats.counts, "error": traceback.format_exc(limit=3)})


# -- the class and the probes (here) -----------------------------------------------------------
@dataclass
class Sample:
    kind: str  # control, join, page
    began: float
    ended: float
    ok: bool  # answered, and within the goal
    answered: bool
    extra: bool | None = None  # the attack's own check (solve, quiz_enter)

    @property
    def seconds(self) -> float:
        return self.ended - self.began


GOAL_OF = {"control": CONTROL_GOAL, "join": JOIN_GOAL, "page": PAGE_GOAL}


@dataclass
class Probes:
    """The class's view: probe loops and a sampler of the server's process tree."""

    url: str
    code: str
    token: str
    server: ServerProcess
    aliases: bool
    extra: Callable | None = None  # (follower) -> bool, after a probe's join
    samples: list[Sample] = field(default_factory=list)
    peaks: list[tuple[float, float, int, float]] = field(default_factory=list)  # t, MB, n, cpu
    inflight: dict[int, tuple[str, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.reader = Reader()
        self.joiners = Addresses(2, self.aliases)
        self.pages = Addresses(3, self.aliases)
        self.teacher: Teacher | None = None
        self.ids = itertools.count()

    def record(self, sample: Sample) -> None:
        with self.lock:
            self.samples.append(sample)

    def _timed(self, kind: str, action: Callable[[], object]) -> None:
        probe = next(self.ids)
        began = time.monotonic()
        with self.lock:
            self.inflight[probe] = (kind, began)
        extra = None
        try:
            result = action()
            answered = result is not False
            if isinstance(result, tuple):
                answered, extra = result
        except Exception:
            answered = False
        ended = time.monotonic()
        with self.lock:
            del self.inflight[probe]
        ok = answered and ended - began <= GOAL_OF[kind]
        self.record(Sample(kind, began, ended, ok, answered, extra))

    # -- the loops ------------------------------------------------------------------------------
    def _every(self, seconds: float, kind: str, action) -> None:
        while not self.stop.is_set():
            began = time.monotonic()
            self._timed(kind, action)
            self.stop.wait(max(0.0, seconds - (time.monotonic() - began)))

    def _control(self):
        teacher = self.teacher
        if teacher is None or not teacher.member.sio.connected:
            if teacher is not None:
                teacher.close()
            self.teacher = None
            self.teacher = Teacher.join(self.url, self.code, self.token)
            return False  # a reconnection is a failed control
        teacher.seq += 1
        payload = {
            "seq": teacher.seq,
            "gen": teacher.gen,
            "index": teacher.member.target(),
            "playing": True,
            "speed": 20.0,
        }
        ack = teacher.member.call("control", payload, timeout=5)
        if ack.get("ok"):
            teacher.member._adopt_state(ack["state"])
            return True
        if ack.get("error", {}).get("code") == "stale":
            teacher.gen = ack["error"]["state"]["gen"]
        return False

    def _join(self):
        follower = LeanFollower(self.url, self.reader, source=self.joiners.next(), timeout=5)
        try:
            ack = follower.call("join", {"code": self.code}, timeout=5)
            if not ack.get("ok"):
                return False
            if self.extra is None:
                return True
            return True, self.extra(follower)
        finally:
            follower.close()

    def _page(self):
        return get(self.url, "/", self.pages.next(), timeout=5) == 200

    def _sampler(self) -> None:
        root = self.server.process
        while not self.stop.wait(0.2):
            rss, threads, cpu = 0, 0, 0.0
            try:
                for proc in [root, *root.children(recursive=True)]:
                    with contextlib.suppress(psutil.Error):
                        rss += proc.memory_info().rss
                        threads += proc.num_threads()
                        times = proc.cpu_times()
                        cpu += times.user + times.system
            except psutil.Error:
                continue
            with self.lock:
                self.peaks.append((time.monotonic(), rss / 2**20, threads, cpu))

    def start(self, teacher: Teacher) -> None:
        self.teacher = teacher
        loops = [
            (0.5, "control", self._control),
            (1.0, "join", self._join),
            (0.25, "page", self._page),
        ]
        self.threads = [
            threading.Thread(target=self._every, args=loop, daemon=True) for loop in loops
        ]
        self.threads.append(threading.Thread(target=self._sampler, daemon=True))
        for thread in self.threads:
            thread.start()

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(20)
        self.reader.stop()
        if self.teacher is not None:
            self.teacher.close()

    # -- reading --------------------------------------------------------------------------------
    def recovered_at(self, end: float, now: float) -> float | None:
        """When every probe was back within its goal after ``end``, once that has held for
        6 s with 2 answers of each kind at least; None while it has not."""
        with self.lock:
            after = [s for s in self.samples if s.ended >= end]
            stalled = any(now - began > 5.5 for _kind, began in self.inflight.values())
        if stalled:
            return None
        bad = [s.ended for s in after if not s.ok]
        since = max([end, *bad])
        good = [s for s in after if s.ok and s.began >= since]
        kinds = {kind: sum(s.kind == kind for s in good) for kind in GOAL_OF}
        if now - since >= 6 and min(kinds.values()) >= 2:
            return since
        return None


@dataclass
class Row:
    name: str
    what: str
    control: str = "-"
    join: str = "-"
    page: str = "-"
    rss: str = "-"
    threads: str = "-"
    cpu: str = "-"
    tracebacks: str = "-"
    recovery: str = "-"
    dropped: str = "-"
    note: str = ""

    def cells(self) -> list[str]:
        note = " ".join(self.note.split()).replace("|", "/")  # one line in the table
        return [
            self.name,
            self.control,
            self.join,
            self.page,
            self.rss,
            self.threads,
            self.cpu,
            self.tracebacks,
            self.recovery,
            self.dropped,
            note,
        ]


HEADER = [
    "attack",
    "teacher's control p95 / failures",
    "new student's join p95 / failures",
    "`GET /` p95 / failures",
    "peak RSS",
    "peak threads",
    "server CPU",
    "tracebacks",
    "recovery",
    "followers dropped",
    "notes",
]
GOALS_ROW = Row(
    "goal",
    "",
    f"≤ {CONTROL_GOAL:g} s / 0",
    f"≤ {JOIN_GOAL:g} s / 0",
    f"≤ {PAGE_GOAL:g} s / 0",
    f"≤ {RSS_GOAL_MB} MB",
    f"≤ {THREADS_GOAL:,}",
    "",
    "0",
    f"≤ {RECOVERY_GOAL:g} s",
    "0",
    "seat flood: another room's teacher admitted",
)


def _figure(samples: list[Sample], kind: str) -> str:
    mine = [s for s in samples if s.kind == kind]
    if not mine:
        return "no probe"
    failures = sum(not s.answered for s in mine)
    p95 = percentile([s.seconds for s in mine if s.answered], 0.95)
    shown = "-" if math.isnan(p95) else f"{p95:.2f} s"
    return f"{shown} / {failures} of {len(mine)}"


# -- one attack against one server -------------------------------------------------------------
def start_attacked(kind: str, directory: Path, attempts: int = 2) -> ServerProcess:
    """A fresh server with the usual descriptor limit (``ulimit -n`` 1,024); a second
    try when it does not start in time (a busy machine)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(SERVER_FD_LIMIT, hard), hard))
    try:
        for attempt in range(attempts):
            try:
                return start_server(
                    kind,
                    directory / f"try-{attempt}",
                    GUNICORN_THREADS,
                    app="server.wsgi:app",
                    options=["--worker-connections", "1000", "--keep-alive", "5"],
                )
            except RuntimeError:
                if attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def other_teacher_admitted(url: str, aliases: bool) -> str:
    """Whether the teacher of a new room, from another address, is admitted to it:
    "yes", or "NO" and why."""
    source = "127.0.4.1" if aliases else None
    reader = Reader()
    try:
        code, token = open_class_room(url, source)
        member = LeanFollower(url, reader, source=source, timeout=5)
        try:
            ack = member.call("join", {"code": code, "token": token}, timeout=5)
        finally:
            member.close()
        if ack.get("ok") and ack.get("role") == "teacher":
            return "yes"
        return f"NO ({ack.get('error', {}).get('code')})"
    except Exception as err:
        return f"NO ({type(err).__name__})"
    finally:
        reader.stop()


def solve_check(follower: LeanFollower) -> bool:
    ack = follower.call("solve", {"name": f"real-{uuid.uuid4().hex[:6]}"}, timeout=5)
    return bool(ack.get("ok"))


def quiz_check(follower: LeanFollower) -> bool:
    ack = follower.call("quiz_enter", {"name": f"Real {uuid.uuid4().hex[:6]}"}, timeout=5)
    return bool(ack.get("ok"))


EXTRA_CHECKS = {4: ("a real student's solve", solve_check), 7: ("a real quiz_enter", quiz_check)}


EXCEPTION_LINE = re.compile(r"^(\w+(?:\.\w+)*(?:Error|Exception)\b.*)$", re.M)


def run_attack(kind: str, attack: Attack | None, base: Path, seconds: float, aliases: bool) -> Row:
    """One row: a fresh server, a class, the attack (None: none, the baseline), recovery."""
    name = f"{attack.number}. {attack.name}" if attack else "none (baseline)"
    row = Row(name, attack.what if attack else "")
    directory = base / f"{kind}-{attack.number if attack else 0}"
    try:
        server = start_attacked(kind, directory)
    except Exception as err:
        row.note = f"FAILED: the server did not start ({err})"[:200]
        return row
    followers: list[LeanFollower] = []
    follower_reader = Reader()
    probes = None
    teacher = None
    attacker = None
    ctx = multiprocessing.get_context("spawn")
    try:
        code, token = open_class_room(server.url)
        teacher = Teacher.join(server.url, code, token)
        if not teacher.settings(SIX_BY_SIX).get("ok"):
            raise RuntimeError("the teacher's settings were refused")
        teacher.control(0, playing=True, speed=20.0)
        teacher.member.call("puzzle", {"puzzle": PUZZLE})
        source = Addresses(1, aliases)
        for _ in range(FOLLOWERS):
            follower = LeanFollower(server.url, follower_reader, source=source.next(), timeout=10)
            if not follower.call("join", {"code": code}).get("ok"):
                raise RuntimeError("a follower could not join")
            followers.append(follower)
        label, check = EXTRA_CHECKS.get(attack.number if attack else 0, (None, None))
        probes = Probes(server.url, code, token, server, aliases, extra=check)
        probes.start(teacher)
        time.sleep(2.0)  # the probes settle
        log_start = server.stderr_path.stat().st_size
        began = time.monotonic()
        admitted = None
        report: dict = {}
        if attack is not None:
            stop, results = ctx.Event(), ctx.Queue()
            source = ATTACKER if aliases else None
            attacker = ctx.Process(
                target=_attacker_process,
                args=(attack.number, server.url, code, source, stop, results),
            )
            attacker.start()
            if attack.number == 3:
                time.sleep(seconds * 0.6)
                admitted = other_teacher_admitted(server.url, aliases)
                time.sleep(max(0.0, seconds - (time.monotonic() - began)))
            else:
                time.sleep(seconds)
            stop.set()
            with contextlib.suppress(queue.Empty):
                report = results.get(timeout=40)
            attacker.join(10)
            if attacker.is_alive():
                attacker.kill()
                attacker.join(5)
                report.setdefault("error", "the attacker did not stop: killed")
        else:
            time.sleep(seconds)
        ended = time.monotonic()
        recovered = None
        while time.monotonic() - ended < WATCH_AFTER:
            recovered = probes.recovered_at(ended, time.monotonic())
            if recovered is not None:
                break
            time.sleep(0.5)
        probes.close()
        if os.environ.get("ATTACK_DEBUG"):
            for s in probes.samples:
                if not s.ok:
                    print(
                        f"  {s.kind} at {s.began - ended:+.1f} s: {s.seconds:.2f} s"
                        f" {'answered' if s.answered else 'FAILED'}",
                        file=sys.stderr,
                    )
        during = [s for s in probes.samples if began <= s.began < ended]
        peaks = [p for p in probes.peaks if p[0] >= began]
        row.control = _figure(during, "control")
        row.join = _figure(during, "join")
        row.page = _figure(during, "page")
        if peaks:
            row.rss = f"{max(p[1] for p in peaks):,.0f} MB"
            row.threads = f"{max(p[2] for p in peaks):,}"
            attacked = [p for p in peaks if p[0] <= ended]
            if len(attacked) >= 2:
                row.cpu = f"{attacked[-1][3] - attacked[0][3]:.1f} s"
        with open(server.stderr_path, "rb") as handle:
            handle.seek(log_start)
            log = handle.read().decode("utf-8", "replace")
        row.tracebacks = f"{log.count('Traceback (most recent call last)'):,}"
        if os.environ.get("ATTACK_DEBUG"):
            for error in sorted(set(EXCEPTION_LINE.findall(log))):
                print(f"  traceback ends: {error[:160]}", file=sys.stderr)
        row.recovery = (
            f"> {WATCH_AFTER:.0f} s" if recovered is None else f"{recovered - ended:.1f} s"
        )
        row.dropped = f"{sum(f.lost for f in followers)}"
        notes = []
        if admitted is not None:
            notes.append(f"another room's teacher admitted: {admitted}")
        if label is not None:
            extra = [s.extra for s in during if s.kind == "join" and s.extra is not None]
            notes.append(f"{label}: {sum(extra)} ok of {len(extra)}")
        if attack is not None:
            counts = report.get("counts", {})
            notes.append(", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())))
            if report.get("error"):
                notes.append("ATTACK FAILED: " + report["error"].strip().splitlines()[-1])
            elif not report:
                notes.append("ATTACK FAILED: no report from the attacker")
        row.note = "; ".join(n for n in notes if n)
    except Exception as err:
        row.note = f"FAILED: {type(err).__name__}: {err}"[:300]
    finally:
        if attacker is not None and attacker.is_alive():
            attacker.kill()
            attacker.join(5)
        if probes is not None and not probes.stop.is_set():
            probes.close()
        elif probes is None and teacher is not None:
            teacher.close()
        for follower in followers:
            follower.close()
        follower_reader.stop()
        server.stop()
    return row


def keep_logs(base: Path, into: Path) -> None:
    """Copy the servers' stderr files under ``base`` to ``into`` (named by attack)."""
    into.mkdir(parents=True, exist_ok=True)
    for log in base.glob("*/*/*.stderr"):
        shutil.copyfile(log, into / f"{log.parts[-3]}-{log.name}")


def table(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for row in [GOALS_ROW, *rows]:
        lines.append("| " + " | ".join(row.cells()) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("serve", "gunicorn", "both"), default="both")
    parser.add_argument("--only", nargs="+", type=int, choices=sorted(BY_NUMBER))
    parser.add_argument("--seconds", type=float, default=22.0)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the servers' logs there")
    args = parser.parse_args()
    aliases = can_bind(ATTACKER)
    if not aliases:
        print("this machine has no 127.0.0.x aliases: every client comes from 127.0.0.1, so")
        print("per-address limits count the class together with the attacker")
    kinds = ["serve", "gunicorn"] if args.server == "both" else [args.server]
    attacks = [BY_NUMBER[n] for n in args.only] if args.only else ATTACKS
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            rows = []
            plan = ([] if args.no_baseline else [None]) + attacks
            for attack in plan:
                title = attack.name if attack else "baseline"
                print(f"[{kind}] {title} ...", file=sys.stderr, flush=True)
                rows.append(run_attack(kind, attack, Path(tmp), args.seconds, aliases))
                failed |= "FAILED" in rows[-1].note
                if args.keep is not None:
                    keep_logs(Path(tmp), args.keep)
            label = {
                "serve": "`knights-tour serve`",
                "gunicorn": f"`gunicorn -w 1 --threads {GUNICORN_THREADS}` (gthread)",
            }[kind]
            print(f"\n### {label}, each attack for {args.seconds:g} s from one address\n")
            print(table(rows), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
