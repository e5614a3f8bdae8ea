"""Choosing the engine: the compiled core when it loads, the Python engine otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.engine import native
from tests.engine.conftest import require_core

ROOT = Path(__file__).resolve().parents[2]


def python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


WITHOUT_CORE = "import sys; sys.modules['server.engine._core'] = None\n"  # as if never built
REPORT = (
    "from server.engine import native\n"
    "from server.engine.board import Board\n"
    "from server.engine.search import solve\n"
    "print(native.engine(), '|', native.describe(), '|', solve(Board(5, 5), 0).nodes)\n"
)


def test_the_core_runs_when_built():
    require_core()
    done = python(REPORT, KNIGHTS_TOUR_ENGINE="")
    assert done.stdout.split(" | ")[:2] == ["compiled", "compiled C core"], done.stderr


def test_without_the_core_the_python_engine_runs():
    done = python(WITHOUT_CORE + REPORT, KNIGHTS_TOUR_ENGINE="")
    engine, why, nodes = done.stdout.strip().split(" | ")
    assert (engine, why) == ("python", "python (the compiled core is not built)"), done.stderr
    assert int(nodes) > 0


def test_the_environment_forces_the_python_engine():
    done = python(REPORT, KNIGHTS_TOUR_ENGINE="python")
    assert done.stdout.startswith("python | python (KNIGHTS_TOUR_ENGINE=python)"), done.stderr


def test_asking_for_the_core_fails_loudly_when_it_is_missing():
    done = python(WITHOUT_CORE + REPORT, KNIGHTS_TOUR_ENGINE="compiled")
    assert done.returncode != 0
    assert "KNIGHTS_TOUR_ENGINE=compiled" in done.stderr


def test_use_switches_engines_for_a_block():
    require_core()
    before = native.engine()
    with native.use("python"):
        assert native.engine() == "python" and native.core() is None
        assert native.describe() == "python (the compiled core is switched off)"
        with native.use("compiled"):
            assert native.engine() == "compiled"
    assert native.engine() == before
    with pytest.raises(ValueError), native.use("numba"):
        pass
