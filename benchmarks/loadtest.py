"""Load test: a whole class of real followers on real server processes (``make loadtest``).

Servers are real ``knights-tour serve`` processes (tests/support/servers.py: the console
script, one SQLite database, a throwaway redis-server for the message queue).  The
students are real followers (tests/support/follower.py: each receives the room's
``feed``, ``snapshot`` and ``state`` and replays them as a phone does), in client
processes of their own, separate from the servers and from the teacher, which runs
here.  Times are ``time.monotonic()``, one clock for every process on the machine.

Scenarios (each prints one row; goals from the issue "Classroom for a real class"):

* ``end``: 200 students on one process; the teacher jumps to the end of the 6×6 plain
  demo (354,060 events): from the click until each student shows the final position
  (p95 ≤ 2 s, max ≤ 5 s), and the server's CPU per student for the whole demo
  (≤ 30 ms: the CPU with 200 students, less the CPU of the same demo with none, over 200);
* ``steps``: the demo plays at 100 events/s to 200 streaming students and the teacher
  steps (pause one event further, then play on): from each control until every student
  shows its index (p95 ≤ 200 ms);
* ``late``: a late joiner at a random index of a 5 M-event 8×8 demo: the join's
  snapshot bytes (≤ 16 KB) and the time to its answer;
* ``many``: students joining one process until one is refused (≥ 500);
* ``bursts``: 1,000 bursts of 6 controls sent at once, then the room's index: how many
  ended on an older one (0), on one process and on two;
* ``failover``: two processes, the owner of the search killed (SIGKILL) mid-demo with
  200 students on the other: the time until they all move again (≤ 5 s), and how many
  did not;
* the ``end`` and ``steps`` rows again with the 200 students split over 2 processes and
  the Redis queue.

``.venv/bin/python benchmarks/loadtest.py [--students 200] [--only NAME ...]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.report import replace_table
from tests.support.follower import (
    EIGHT_BY_EIGHT,
    SIX_BY_SIX,
    Follower,
    LeanFollower,
    Reader,
    Teacher,
)
from tests.support.servers import (
    open_class_room,
    redis_binary,
    start_redis,
    start_servers,
)
from tests.support.stats import percentile

SIX, EIGHT = SIX_BY_SIX, EIGHT_BY_EIGHT


def accepted(ack: dict) -> dict:
    """The state an acknowledgement carries; RuntimeError when it is a refusal."""
    if not ack.get("ok"):
        raise RuntimeError(f"refused: {ack}")
    return ack["state"]


SIX_EVENTS = 354_060
WORKERS = 4  # client processes for the students
JOIN_THREADS = 10


# -- the students, in their own processes ------------------------------------------------------
def _connect(urls: list[str], count: int, code: str, reader: Reader) -> list[LeanFollower]:
    """``count`` joined followers spread over ``urls``, joined 10 at a time."""
    followers: list[LeanFollower | None] = [None] * count

    def one(i: int) -> None:
        for attempt in range(3):
            try:
                follower = LeanFollower(urls[i % len(urls)], reader)
                ack = follower.join(code)
                if not ack.get("ok"):
                    raise RuntimeError(f"join refused: {ack}")
                followers[i] = follower
                return
            except Exception:
                if attempt == 2:
                    raise
                time.sleep(0.2)

    for first in range(0, count, JOIN_THREADS):
        batch = range(first, min(count, first + JOIN_THREADS))
        threads = [threading.Thread(target=one, args=(i,)) for i in batch]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return [f for f in followers if f is not None]


def _student_process(urls, count, code, task, ready, go, results) -> None:
    """A client process: ``count`` students (one reader thread) that join, report, then
    do ``task``."""
    reader = Reader()
    followers: list[LeanFollower] = []
    try:
        followers = _connect(urls, count, code, reader)
        ready.put(len(followers))
        go.wait(600)
        results.put(TASKS[task](followers))
    except Exception as err:  # reported by the parent
        ready.put(0)
        results.put({"error": repr(err)})
    finally:
        time.sleep(0.2)
        for follower in followers:
            follower.close()
        reader.stop()


def _until_end(followers: list[LeanFollower]) -> dict:
    """When each follower showed the demo's final position (monotonic times)."""
    done: dict[int, float] = {}
    deadline = time.monotonic() + 120
    while len(done) < len(followers) and time.monotonic() < deadline:
        for i, follower in enumerate(followers):
            if i in done:
                continue
            state = follower.state
            if state and state["end"] and follower.holds(state["end"]["total"]):
                done[i] = time.monotonic()
        time.sleep(0.002)
    return {"times": list(done.values()), "missing": len(followers) - len(done)}


def _watch_indices(followers: list[LeanFollower]) -> dict:
    """For ``steps``: when each follower first showed each (seq, index) of the teacher."""
    seen: dict[tuple[int, int], list[float]] = {}
    marks: list[set] = [set() for _ in followers]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for i, follower in enumerate(followers):
            state = follower.state
            if not state or state["playing"]:
                continue
            key = (state["control_seq"], state["index"])
            if key in marks[i] or not follower.holds(state["index"]):
                continue
            marks[i].add(key)
            seen.setdefault(key, []).append(time.monotonic())
        if any(follower.got("ended") for follower in followers[:1]):
            break
        time.sleep(0.005)
    return {"seen": {f"{k[0]}:{k[1]}": v for k, v in seen.items()}}


def _moving(followers: list[LeanFollower]) -> dict:
    """For ``failover``: when each follower received events beyond what it held at ``go``."""
    start = [f.position.received if f.position else 0 for f in followers]
    done: dict[int, float] = {}
    deadline = time.monotonic() + 30
    while len(done) < len(followers) and time.monotonic() < deadline:
        for i, follower in enumerate(followers):
            if i not in done and follower.position and follower.position.received > start[i] + 20:
                done[i] = time.monotonic()
        time.sleep(0.002)
    return {"times": list(done.values()), "missing": len(followers) - len(done)}


def _stay(followers: list[LeanFollower]) -> dict:
    return {"joined": len(followers)}


TASKS = {"end": _until_end, "steps": _watch_indices, "moving": _moving, "stay": _stay}


class Class:
    """Students in client processes; ``go()`` starts their task, ``results()`` collects it."""

    def __init__(self, urls: list[str], code: str, count: int, task: str) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.ready, self.results_queue = ctx.Queue(), ctx.Queue()
        self.go_event = ctx.Event()
        shares = [count // WORKERS + (i < count % WORKERS) for i in range(WORKERS)]
        self.procs = [
            ctx.Process(
                target=_student_process,
                args=(urls, n, code, task, self.ready, self.go_event, self.results_queue),
            )
            for n in shares
            if n
        ]
        for proc in self.procs:
            proc.start()
        self.joined = sum(self.ready.get(timeout=300) for _ in self.procs)

    def go(self) -> float:
        at = time.monotonic()
        self.go_event.set()
        return at

    def results(self) -> list[dict]:
        out = [self.results_queue.get(timeout=300) for _ in self.procs]
        for proc in self.procs:
            proc.join(30)
        errors = [r["error"] for r in out if "error" in r]
        if errors:
            raise RuntimeError(f"a student process failed: {errors[0]}")
        return out

    def close(self) -> None:
        self.go_event.set()
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


# -- the teacher, here -------------------------------------------------------------------------


def row(name: str, figures: dict, goal: str, note: str = "") -> dict:
    return {"scenario": name, **figures, "goal": goal, "note": note}


def _cpu(server) -> float:
    times = server.process.cpu_times()
    return times.user + times.system


# -- scenarios ---------------------------------------------------------------------------------
def scenario_end(base: Path, students: int, processes: int, redis: str | None) -> list[dict]:
    servers = start_servers(base, processes, redis)
    rows = []
    try:
        # the same demo with no student: the search's own cost
        code, token = open_class_room(servers[0].url)
        teacher = Teacher.join(servers[0].url, code, token)
        accepted(teacher.settings(SIX))
        cpu0 = sum(_cpu(s) for s in servers)
        accepted(teacher.control(0, playing=True, speed=None))
        teacher.wait_end()
        alone = sum(_cpu(s) for s in servers) - cpu0
        teacher.close()

        code, token = open_class_room(servers[0].url)
        teacher = Teacher.join(servers[0].url, code, token)
        cpu0 = sum(_cpu(s) for s in servers)
        accepted(teacher.settings(SIX))
        klass = Class([s.url for s in servers], code, students, "end")
        try:
            clicked = klass.go()
            accepted(teacher.control(0, playing=True, speed=None))  # the teacher's ⏭
            end = teacher.wait_end()
            results = klass.results()
        finally:
            klass.close()
        cpu = sum(_cpu(s) for s in servers) - cpu0
        delays = [t - clicked for r in results for t in r["times"]]
        missing = sum(r["missing"] for r in results) + students - klass.joined
        teacher.close()
        where = "1 process" if processes == 1 else f"{processes} processes + Redis"
        rows.append(
            row(
                f"{students} students ({where}): jump to the end of 6x6 plain",
                {
                    "p50": statistics.median(delays),
                    "p95": percentile(delays, 0.95),
                    "max": max(delays),
                    "unit": "s",
                    "missing": missing,
                },
                "p95 <= 2 s, max <= 5 s",
                f"{end['end']['total']:,} events",
            )
        )
        per_student = (cpu - alone) / students * 1000
        rows.append(
            row(
                f"server CPU per student, that whole demo ({where})",
                {"value": per_student, "unit": "ms"},
                "<= 30 ms",
                f"{cpu:.2f} s with {students} students, {alone:.2f} s alone",
            )
        )
    finally:
        for server in servers:
            server.stop()
    return rows


def scenario_steps(base: Path, students: int, processes: int, redis: str | None) -> list[dict]:
    servers = start_servers(base, processes, redis)
    try:
        code, token = open_class_room(servers[0].url)
        teacher = Teacher.join(servers[0].url, code, token)
        accepted(teacher.settings(SIX))
        accepted(teacher.control(0, playing=True, speed=100.0))
        klass = Class([s.url for s in servers], code, students, "steps")
        sent: dict[str, float] = {}
        try:
            klass.go()
            time.sleep(1.0)
            rng = random.Random(7)
            index = accepted(teacher.control(0, playing=True, speed=100.0))["index"]
            for _ in range(20):
                time.sleep(rng.uniform(0.3, 0.8))  # playing at 100 events/s meanwhile
                index = teacher.member.target() if teacher.member.state else index
                at = time.monotonic()
                state = accepted(teacher.control(index + 1))  # a step: pause one event further
                sent[f"{state['control_seq']}:{state['index']}"] = at
                time.sleep(rng.uniform(0.2, 0.5))
                state = accepted(teacher.control(state["index"], playing=True, speed=100.0))
            teacher.member.call("close", {})
            results = klass.results()
        finally:
            klass.close()
        delays, missing = [], 0
        for key, at in sent.items():
            for r in results:
                seen = r["seen"].get(key, [])
                delays += [t - at for t in seen]
            missing += klass.joined - sum(len(r["seen"].get(key, [])) for r in results)
        teacher.close()
    finally:
        for server in servers:
            server.stop()
    where = "1 process" if processes == 1 else f"{processes} processes + Redis"
    ms = [d * 1000 for d in delays]
    return [
        row(
            f"teacher steps while playing at 100 events/s, {students} streaming ({where})",
            {
                "p50": statistics.median(ms),
                "p95": percentile(ms, 0.95),
                "max": max(ms),
                "unit": "ms",
                "missing": missing,
            },
            "p95 <= 200 ms",
            f"{len(sent)} steps",
        )
    ]


def scenario_late(base: Path) -> list[dict]:
    (server,) = start_servers(base, 1)
    try:
        code, token = open_class_room(server.url)
        teacher = Teacher.join(server.url, code, token)
        accepted(teacher.settings(EIGHT))
        began = time.monotonic()
        accepted(teacher.control(5_000_000))  # the server computes the first 5 M events of 8x8
        while teacher.member.shows(5_000_000) is None:
            if time.monotonic() - began > 600:
                raise RuntimeError("5 M events were never reached")
            time.sleep(0.05)
        computed = time.monotonic() - began
        rng = random.Random(11)
        sizes, waits = [], []
        for _ in range(20):
            index = rng.randint(0, 5_000_000)
            accepted(teacher.control(index))
            late = Follower(server.url)
            at = time.monotonic()
            ack = late.join(code)
            waits.append(time.monotonic() - at)
            sizes.append(len(json.dumps(ack["snapshot"], separators=(",", ":"))))
            assert late.holds(index)
            late.close()
        teacher.close()
    finally:
        server.stop()
    return [
        row(
            "late join at a random index of a 5 M-event 8x8 demo: snapshot",
            {"p50": statistics.median(sizes) / 1024, "max": max(sizes) / 1024, "unit": "KB"},
            "<= 16 KB",
            f"first 5 M events computed in {computed:.1f} s",
        ),
        row(
            "late join at a random index of a 5 M-event 8x8 demo: join answered",
            {"p50": statistics.median(waits) * 1000, "max": max(waits) * 1000, "unit": "ms"},
            "",
            "time to first frame in chromium: benchmarks/bench_browser_class.py",
        ),
    ]


# the process's capacity, not its per-room and per-address caps (the clients are all
# on loopback, one address, in one room): those are raised to the process's
ONE_ROOM_OF_ONE_ADDRESS = {
    "CLASS_ROOM_SEATS": "1000",
    "CLASS_ADDRESS_SEATS": "1000",
    "CLASS_ADDRESS_ROOM_SEATS": "1000",
}


def scenario_many(base: Path, count: int) -> list[dict]:
    (server,) = start_servers(base, 1, env=ONE_ROOM_OF_ONE_ADDRESS)
    try:
        code, token = open_class_room(server.url)
        teacher = Teacher.join(server.url, code, token)
        accepted(teacher.settings(SIX))
        klass = Class([server.url], code, count, "stay")
        try:
            klass.go()
            klass.results()
        finally:
            klass.close()
        teacher.close()
    finally:
        server.stop()
    return [
        row(
            "students on one process before any is refused",
            {"value": klass.joined, "unit": "students"},
            ">= 500",
            f"{count} tried; CLASS_MAX_MEMBERS (default 1,000) sets the limit (room and"
            " address caps raised to it: one address here)",
        )
    ]


def _room_index(database: Path, code: str) -> tuple[int, int]:
    with sqlite3.connect(database) as conn:
        return conn.execute(
            "SELECT idx, control_seq FROM class_rooms WHERE code = ?", (code,)
        ).fetchone()


def scenario_bursts(base: Path, bursts: int, processes: int, redis: str | None) -> list[dict]:
    servers = start_servers(base, processes, redis)
    try:
        code, token = open_class_room(servers[0].url)
        teachers = [Teacher.join(s.url, code, token) for s in servers]  # a tab on each process
        gen = accepted(teachers[0].settings(SIX))["gen"]
        seq = teachers[0].seq
        older = 0
        for _burst in range(bursts):
            numbers = [seq + i + 1 for i in range(6)]
            seq = numbers[-1]

            def send(n: int) -> None:
                member = teachers[n % len(teachers)].member
                member.call(
                    "control", {"seq": n, "gen": gen, "index": n, "playing": False, "speed": 10}
                )

            threads = [threading.Thread(target=send, args=(n,)) for n in numbers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            index, applied = _room_index(base / "shared.sqlite3", code)
            older += (index, applied) != (seq, seq)
        for teacher in teachers:
            teacher.close()
    finally:
        for server in servers:
            server.stop()
    where = "1 process" if processes == 1 else f"{processes} processes + Redis"
    return [
        row(
            f"control bursts ending on an older index ({where})",
            {"value": older, "unit": f"of {bursts}"},
            "0",
            "6 numbered controls sent at once per burst",
        )
    ]


def scenario_failover(base: Path, students: int, redis: str) -> list[dict]:
    owner, survivor = start_servers(base, 2, redis)
    try:
        code, token = open_class_room(owner.url)
        teacher = Teacher.join(
            owner.url, code, token
        )  # the first member: its process runs the search
        accepted(teacher.settings(SIX))
        accepted(teacher.control(0, playing=True, speed=50.0))
        klass = Class([survivor.url], code, students, "moving")
        try:
            time.sleep(1.0)
            owner.process.kill()
            killed = klass.go()
            results = klass.results()
        finally:
            klass.close()
        teacher.close()
    finally:
        owner.stop()
        survivor.stop()
    delays = [t - killed for r in results for t in r["times"]]
    missing = sum(r["missing"] for r in results) + students - klass.joined
    return [
        row(
            f"owner killed mid-demo (2 processes), {students} students on the other",
            {"p50": statistics.median(delays), "max": max(delays), "unit": "s", "missing": missing},
            "<= 5 s, none lost",
            "SIGKILL; the lease lapses after 3 s",
        )
    ]


# -- the table ---------------------------------------------------------------------------------
def run(students: int, only: set[str] | None) -> list[dict]:
    rows: list[dict] = []
    want = lambda name: only is None or name in only  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        base = Path(tmp)
        redis = None
        if redis_binary():
            redis = start_redis(base / "redis")
            stack.callback(redis.stop)
        if want("end"):
            rows += scenario_end(base / "end", students, 1, None)
        if want("steps"):
            rows += scenario_steps(base / "steps", students, 1, None)
        if want("late"):
            rows += scenario_late(base / "late")
        if want("many"):
            rows += scenario_many(base / "many", 520)
        if want("bursts"):
            rows += scenario_bursts(base / "bursts-1", 1000, 1, None)
        if redis is None:
            print("redis-server is missing (make redis): skipping the two-process rows")
            return rows
        if want("bursts"):
            rows += scenario_bursts(base / "bursts-2", 1000, 2, redis.url)
        if want("failover"):
            rows += scenario_failover(base / "failover", students, redis.url)
        if want("end"):
            rows += scenario_end(base / "end-2", students, 2, redis.url)
        if want("steps"):
            rows += scenario_steps(base / "steps-2", students, 2, redis.url)
    return rows


def format_row(r: dict) -> str:
    unit = r["unit"]
    if "p95" in r:
        figures = f"p50 {r['p50']:.2f} / p95 {r['p95']:.2f} / max {r['max']:.2f} {unit}"
    elif "p50" in r:
        figures = f"p50 {r['p50']:.2f} / max {r['max']:.2f} {unit}"
    else:
        figures = (
            f"{r['value']:,.2f} {unit}"
            if isinstance(r["value"], float)
            else f"{r['value']:,} {unit}"
        )
    if r.get("missing"):
        figures += f", {r['missing']} MISSING"
    return f"| {r['scenario']} | {figures} | {r['goal']} | {r['note']} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument(
        "--only", nargs="+", choices=sorted(("end", "steps", "late", "many", "bursts", "failover"))
    )
    parser.add_argument(
        "--write", action="store_true", help="put the table in docs/benchmarks.md (all figures)"
    )
    args = parser.parse_args()
    rows = run(args.students, set(args.only) if args.only else None)
    lines = ["| figure | measured | goal | note |", "|---|---|---|---|"]
    lines += [format_row(r) for r in rows]
    print("\n".join(lines))
    if args.write and not args.only and not any(r.get("missing") for r in rows):
        replace_table("make loadtest", "\n".join(lines))
    return 1 if any(r.get("missing") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
