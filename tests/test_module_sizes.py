"""Small modules with one job each (issue 23): how long a module may grow.

A module of ``server/`` outside the engine stays under 400 lines and a browser module under
300; the engine's search and hint modules may be longer where they are one algorithm each,
and the generated and C sources are exempt.  A module that outgrows its limit has grown a
second job: split it where its callers show the seam.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER_LINES = 400
BROWSER_LINES = 300


def too_long(paths, limit: int) -> dict[str, int]:
    lengths = {str(p.relative_to(ROOT)): len(p.read_text("utf-8").splitlines()) for p in paths}
    return {name: n for name, n in lengths.items() if n > limit}


def test_server_modules_outside_the_engine_stay_short():
    server = ROOT / "server"
    paths = [
        p
        for p in server.rglob("*.py")
        if not p.is_relative_to(server / "engine") and not p.is_relative_to(server / "migrations")
    ]
    assert len(paths) > 50  # the scan sees the server
    assert too_long(paths, SERVER_LINES) == {}


def test_browser_modules_stay_short():
    paths = list((ROOT / "static" / "js").rglob("*.js"))
    assert len(paths) > 50
    assert too_long(paths, BROWSER_LINES) == {}
