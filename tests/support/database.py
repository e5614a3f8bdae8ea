"""An SQLite file at this release's schema, migrated once per process and copied.

Every app and every ``knights-tour serve`` migrates an empty SQLite file at start: eleven
migrations, about a second of CPU on a small machine. The suite starts hundreds of them,
so each starts on a copy of one migrated file instead (tests/conftest.py's ``app``,
:func:`tests.support.servers.start_servers`).

The file is migrated by ``knights-tour db upgrade`` in a child process, never by an app
built here: Flask-SocketIO serves the socket events of the last app it was bound to, so a
second app in a browser test's process takes the live server's events away (every later
join there got an empty answer). The app keeps the file in WAL mode, where writes wait
in ``-wal`` until a checkpoint: the template is checkpointed into its one file before it
is copied (a copy without it was an empty database).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
from contextlib import closing
from pathlib import Path

from .console import knights_tour

ROOT = Path(__file__).resolve().parents[2]
DATABASE = "knights_tour.sqlite3"  # its name in an instance folder
_lock = threading.Lock()
_made: dict[str, Path] = {}


def make_template(instance: Path) -> Path:
    """Migrate a new SQLite file in ``instance`` (an instance folder); its path."""
    instance.mkdir(parents=True, exist_ok=True)
    path = instance / DATABASE
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "INSTANCE_PATH": str(instance),
        "DATABASE_URL": f"sqlite:///{path}",
        "SECRET_KEY": "template",
    }
    done = subprocess.run(
        [*knights_tour(), "db", "upgrade"],
        cwd=str(ROOT),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"knights-tour db upgrade failed: {done.stderr.strip()}")
    with closing(sqlite3.connect(path)) as conn:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise RuntimeError(f"{path} is still in use: cannot checkpoint it")
    return path


def template() -> Path:
    """This process's migrated file (made at the first call)."""
    with _lock:
        if "path" not in _made:
            _made["path"] = make_template(Path(tempfile.mkdtemp(prefix="kt-template-")))
        return _made["path"]


def migrated_copy(path: Path, source: Path | None = None) -> Path:
    """A copy of ``source`` (this process's template) at ``path``, readable by its owner."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source or template(), path)
    path.chmod(0o600)
    return path
