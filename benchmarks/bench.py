"""`make bench`: every benchmark's medians in one Markdown table.

Speed and memory goals live here, never in timed test assertions: the machines
are shared and noisy, so each figure is a median of several runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.report import DOCUMENT, replace_table

SUITES = (
    "bench_construct",
    "bench_core",
    "bench_search",
    "bench_articles",
    "bench_hints",
    "bench_verdict",
    "bench_stream",
    "bench_budgets",
    "bench_browser_stream",
    "bench_browser_class",
    "bench_class_quiz",
    "bench_browser_jump",
    "bench_browser_stack",
    "bench_lab",
)


def row(name: str, median: float, unit: str, goal: str = "", note: str = "") -> dict:
    """One row of the table."""
    return {"benchmark": name, "median": median, "unit": unit, "goal": goal, "note": note}


def load_average() -> float:
    """The machine's load over the last minute (NaN where the system has none to say):
    the machines are shared, and a figure says how busy its one was."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def shared_machine() -> str:
    """How many CPUs the figure's processes shared, and how busy they were."""
    return f"{os.cpu_count()} CPUs shared, load {load_average():.1f}"


def listed(values, spec: str) -> str:
    """Each run's figure, formatted by ``spec``: "1.20, 1.31, 1.25"."""
    return ", ".join(format(value, spec) for value in values)


def format_value(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def standalone(run, doc: str, repeat: int = 3) -> int:
    """A suite run on its own (``python benchmarks/bench_x.py [--repeat N]``): one line a row."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=repeat)
    for row in run(parser.parse_args().repeat):
        figure = f"{format_value(row['median'])} {row['unit']} (goal {row.get('goal') or 'none'})"
        print(f"{row['benchmark']}: {figure} — {row.get('note', '')}")
    return 0


def _failed_row(name: str, err: Exception) -> dict:
    reason = str(err).splitlines()[0][:120] if str(err) else type(err).__name__
    return {"benchmark": f"{name}: failed", "median": 0, "unit": "", "note": reason}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="suite names, e.g. bench_hints")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--write", action="store_true", help="put the table in docs/benchmarks.md (all suites)"
    )
    args = parser.parse_args()
    suites = args.only or SUITES
    rows = []
    failed: list[str] = []
    began = time.perf_counter()
    for name in suites:
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            rows.extend(module.run(repeat=args.repeat))
        except Exception as err:  # one broken suite must not cost the others' figures
            print(f"{name} failed: {err!r}", file=sys.stderr, flush=True)
            failed.append(name)
            rows.append(_failed_row(name, err))
    from server.engine import native

    lines = [
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"engine: {native.describe()}, medians of {args.repeat}",
        "",
        "| benchmark | median | unit | goal | note |",
        "|---|---:|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['benchmark']} | {format_value(row['median'])} | {row['unit']} "
            f"| {row.get('goal', '')} | {row.get('note', '')} |"
        )
    print("\n".join(lines))
    if args.write and not args.only and not failed:
        replace_table("make bench", "\n".join(lines))
        print(f"written to {DOCUMENT}", file=sys.stderr)
    print(f"\n(total {time.perf_counter() - began:.0f} s)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
