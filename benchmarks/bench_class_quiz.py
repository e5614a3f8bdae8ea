"""The class quiz asked at random paused moments: from the teacher's ``quiz_ask`` to its
question being open.

As an outside teacher client written from docs/protocol.md would: a ``knights-tour
serve`` process of its own, a teacher and three students (python-socketio followers),
and for each demo (5×5 and 6×6 plain backtracking, 8×8 Warnsdorff, a closed 6×6
Warnsdorff tour, a 5×5 board with a hole) ten runs from its
start, each played at a random speed of 5-400 events/s and paused at a random moment;
then ``quiz_ask`` and its acknowledgement timed on the teacher's side.  The figure is
the round trip to an open question (the acknowledgement carries it); an ask that is
refused counts as not opened.  The reveal follows, so the next run may start.  Then each
kind of question (server/engine/questions.py) the same way, ten runs each, on 6×6 plain
backtracking (why a board has no tour: on 4×4, which has none): the ones that search
(whether a tour is still possible, the verdict's obstacle) on the server's clock.

Standalone: ``python benchmarks/bench_class_quiz.py [--repeat N]`` (N runs a demo, at
least ten).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.follower import SIX_BY_SIX, Follower, Teacher
from tests.support.servers import open_class_room, start_servers
from tests.support.stats import percentile

GOAL_MS = 1000
DEMOS = {  # the demo, and the last moment to pause it at (before its end)
    "5×5 plain": ({**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [4, 0]}, 55),
    "6×6 plain": (SIX_BY_SIX, 10**6),
    "8×8 Warnsdorff": ({**SIX_BY_SIX, "rows": 8, "cols": 8, "algorithm": "warnsdorff"}, 62),
    "6×6 closed Warnsdorff": ({**SIX_BY_SIX, "algorithm": "warnsdorff", "closed": True}, 2600),
    "5×5 with a hole, plain": (
        {**SIX_BY_SIX, "rows": 5, "cols": 5, "start": [0, 0], "holes": [12]},
        5700,
    ),
}
MOMENTS = 10
STUDENTS = 3
KIND_DEMOS = {  # the kinds and the demo each is timed on
    "next": "6×6 plain",
    "onward": "6×6 plain",
    "pick": "6×6 plain",
    "backtrack": "6×6 plain",
    "frame": "6×6 plain",
    "possible": "6×6 plain",
    "obstacle": "4×4 plain",
}
FOUR = ({**SIX_BY_SIX, "rows": 4, "cols": 4}, 10**6)


def wait(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def ask_at_random_moments(
    url: str,
    code: str,
    token: str,
    settings: dict,
    last: int,
    moments: int,
    chance: random.Random,
    kind: str = "next",
) -> list[dict]:
    """One teacher, ``moments`` runs of ``settings``: each played, paused, asked (a question
    of ``kind``), revealed."""
    teacher = Teacher.join(url, code, token)
    asks = []
    try:
        for _ in range(moments):
            assert teacher.settings(settings)["ok"]
            speed = chance.uniform(5, 400)
            moment = chance.randint(1, min(last, int(speed * 1.5) + 1))
            assert teacher.control(0, playing=True, speed=speed)["ok"]
            wait(lambda m=moment: teacher.member.target() >= m, 10)
            board = teacher.member.target()
            assert teacher.control(board)["ok"]
            began = time.perf_counter()
            ack = teacher.member.call("quiz_ask", {"kind": kind})
            ms = (time.perf_counter() - began) * 1000
            asks.append(
                {
                    "ms": ms,
                    "ok": bool(ack.get("ok")),
                    "code": None if ack.get("ok") else ack["error"]["code"],
                    "speed": speed,
                    "moved": ack["moved"]["to"] - board if ack.get("ok") and ack["moved"] else 0,
                }
            )
            if ack.get("ok"):
                question = ack["quiz"]["question"]["question"]
                assert teacher.member.call("quiz_reveal", {"question": question})["ok"]
    finally:
        teacher.close()
    return asks


def in_a_room(url: str, settings: dict, last: int, moments: int, chance, kind: str):
    """The asks of ``kind`` in a room of its own, three students entered."""
    code, token = open_class_room(url)
    students = [Follower(url) for _ in range(STUDENTS)]
    try:
        for i, student in enumerate(students):
            assert student.join(code)["ok"]
            assert student.call("quiz_enter", {"name": f"S{i}"})["ok"]
        return ask_at_random_moments(url, code, token, settings, last, moments, chance, kind)
    finally:
        for student in students:
            student.close()


def ask_row(title: str, asks: list[dict], extra: str = "") -> dict:
    """The row of ``asks``: their p95 to an open question, how many opened within the goal."""
    opened = [a["ms"] for a in asks if a["ok"]]
    refused = sorted({a["code"] for a in asks if not a["ok"]})
    within = sum(1 for a in asks if a["ok"] and a["ms"] <= GOAL_MS)
    spread = (
        f"; median {statistics.median(opened):.1f} ms, max {max(opened):.1f} ms" if opened else ""
    )
    return {
        "benchmark": f"{title}, p95",
        "median": round(percentile(opened, 0.95), 1) if opened else 0,
        "unit": "ms to an open question",
        "goal": f"<= {GOAL_MS:,}",
        "note": f"median column holds the 95th percentile; {within} of "
        f"{len(asks)} opened within {GOAL_MS / 1000:g} s"
        + (f", refused: {', '.join(refused)}" if refused else "")
        + spread
        + extra,
    }


def run(repeat: int = MOMENTS) -> list[dict]:
    chance = random.Random(2026)
    rows = []
    moments = max(MOMENTS, repeat)
    with tempfile.TemporaryDirectory() as tmp:
        (server,) = start_servers(Path(tmp), 1)
        try:
            everyone = []
            for name, (settings, last) in DEMOS.items():
                asks = in_a_room(server.url, settings, last, moments, chance, "next")
                everyone.extend(asks)
                moved = [a["moved"] for a in asks if a["ok"]]
                extra = (
                    f"; played at 5-400 events/s; the class moved on "
                    f"{statistics.median(moved):.0f} events (median), at most {max(moved)}"
                    if moved
                    else ""
                )
                rows.append(ask_row(f"class quiz: asked at a random pause of {name}", asks, extra))
            for kind, name in KIND_DEMOS.items():
                settings, last = FOUR if name == "4×4 plain" else DEMOS[name]
                asks = in_a_room(server.url, settings, last, moments, chance, kind)
                everyone.extend(asks)
                title = f"class quiz, kind `{kind}`: asked at a random pause of {name}"
                rows.append(ask_row(title, asks))
            within = sum(1 for a in everyone if a["ok"] and a["ms"] <= GOAL_MS)
            rows.append(
                {
                    "benchmark": "class quiz: questions opened within 1 s of the ask",
                    "median": within,
                    "unit": f"of {len(everyone)}",
                    "goal": f"{len(everyone)}",
                    "note": f"{STUDENTS} students entered; a refused ask counts as not opened",
                }
            )
        finally:
            server.stop()
    return rows


if __name__ == "__main__":
    from benchmarks.bench import standalone

    sys.exit(standalone(run, __doc__, repeat=MOMENTS))
