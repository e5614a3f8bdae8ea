"""The compiled core against a plain C loop of the seeds' search, in the same run.

``benchmarks/c/seed_reference.c`` is the lesson's plain backtracking written as
tightly as C allows (neighbour table, explicit stack, no events).  It is compiled
here with the system compiler (``gcc -O2``) into a temporary folder, then run
beside ``solve()`` on the same boards; the rows give each one's CPU seconds and
the core's time over the reference's (goal: at most 1.5x).  The reference's node
and backtrack counts must equal the engine's, or the bench stops: a yardstick
that searched something else would prove nothing.

Also here: the event stream encoded into the protocol's int batches (what a
/watch run does per batch), in events per second.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import row
from server.engine.board import Board
from server.engine.search import search_events, solve
from server.stream.encode import encode_batch

REFERENCE = Path(__file__).resolve().parent / "c" / "seed_reference.c"
BATCH = 1000  # events per batch, as a /watch run sends them (Limits in server/stream/admission.py)


def _compile(folder: Path) -> Path | None:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    program = folder / "seed_reference"
    subprocess.run([compiler, "-O2", "-o", str(program), str(REFERENCE)], check=True)
    return program


def _reference(program: Path, board: Board, start: int) -> tuple[int, int, float]:
    out = subprocess.run(
        [str(program), str(board.rows), str(board.cols), str(start)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return int(out[0]), int(out[1]), float(out[3])


def _solve_cpu(board: Board, start: int) -> tuple[int, int, float]:
    began = time.process_time()
    result = solve(board, start, node_budget=10**9, time_limit=3600)
    return result.nodes, result.backtracks, time.process_time() - began


def _encode_rate(board: Board, start: int) -> tuple[int, float]:
    """(events, CPU seconds) to encode the whole stream into batches of BATCH events."""
    events = search_events(board, start)
    total = 0
    began = time.process_time()
    while True:
        out: list[int] = []
        taken, _, terminal = encode_batch(events, BATCH, out, False)
        total += taken
        if terminal is not None:
            break
    return total, time.process_time() - began


def _against_reference(repeat: int) -> list[dict]:
    """The core's CPU seconds and the reference's on 6x6 and 8x8 from a corner, and their
    ratio (a row that says so when there is no C compiler)."""
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        program = _compile(Path(folder))
        if program is None:
            return [row("core vs C reference", 0, "skipped", "", "no C compiler")]
        for board, times in ((Board(6, 6), repeat), (Board(8, 8), min(repeat, 3))):
            ref = [_reference(program, board, 0) for _ in range(times)]
            ours = [_solve_cpu(board, 0) for _ in range(times)]
            if ref[0][:2] != ours[0][:2]:
                raise SystemExit(
                    f"C reference and engine disagree on {board.dims}: {ref[0]} {ours[0]}"
                )
            ref_s = statistics.median(r[2] for r in ref)
            ours_s = statistics.median(r[2] for r in ours)
            rows.append(
                row(
                    f"seed {board.dims} corner: C reference",
                    ref_s,
                    "s",
                    "",
                    f"gcc -O2, {ref[0][0]:,} nodes, {ref[0][0] / ref_s / 1e6:.0f} M nodes/s",
                )
            )
            rows.append(row(f"seed {board.dims} corner: solve()", ours_s, "s", "", "CPU time"))
            rows.append(
                row(
                    f"seed {board.dims} corner: solve() / C reference",
                    ours_s / ref_s,
                    "x time",
                    "<= 1.5",
                    "same run, same counts",
                )
            )
    return rows


def _encoding(repeat: int) -> dict:
    """The row of 6x6 plain's event stream encoded into batches, events per CPU second."""
    encoded = [_encode_rate(Board(6, 6), 0) for _ in range(repeat)]
    count = encoded[0][0]
    return row(
        "events encoded into batches, 6x6 plain",
        count / statistics.median(s for _, s in encoded),
        "events/s",
        ">= 20 M",
        f"{count:,} events in batches of {BATCH}",
    )


def run(repeat: int = 5) -> list[dict]:
    return [*_against_reference(repeat), _encoding(repeat)]


if __name__ == "__main__":
    for line in run():
        print(f"{line['benchmark']:<46} {line['median']:>14,.4f} {line['unit']:<9} {line['goal']}")
