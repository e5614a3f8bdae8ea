"""server/db.py: the SQLite file holds ids that act as passwords (games, teacher tokens,
quiz keys), so it and its ``-wal`` / ``-shm`` companions are readable by their owner
only: a new file is made so, an older one (0644, as SQLite creates it) is put right at
start."""

from __future__ import annotations

import os
import shutil
import stat
import sys

import pytest
from sqlalchemy import text

from server.app import create_app
from server.db import db

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_database_and_its_companions_are_readable_by_their_owner_only(tmp_path):
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    database = instance / "knights_tour.sqlite3"
    assert mode(database) == 0o600
    with app.app_context(), db.engine.connect() as conn:  # WAL: -wal and -shm while open
        conn.execute(text("CREATE TABLE scratch (x INTEGER)"))
        conn.commit()
        companions = [instance / f"knights_tour.sqlite3{s}" for s in ("-wal", "-shm")]
        assert all(path.exists() for path in companions)
        assert [mode(path) for path in companions] == [0o600, 0o600]


def test_an_older_world_readable_database_is_made_private_at_start(tmp_path, migrated_database):
    instance = tmp_path / "instance"
    instance.mkdir()
    database = instance / "knights_tour.sqlite3"
    shutil.copyfile(migrated_database, database)
    wal = instance / "knights_tour.sqlite3-wal"
    wal.write_bytes(b"")  # an empty WAL, as a cleanly stopped server may leave
    for path in (database, wal):
        path.chmod(0o644)
    create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    assert mode(database) == 0o600
    assert wal.exists() and mode(wal) == 0o600  # the app's pool keeps it open
