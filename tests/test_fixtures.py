"""The suite's own fixtures (tests/conftest.py) do what they say."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from alembic.script import ScriptDirectory

from server.app import create_app
from server.db import MIGRATIONS
from tests.conftest import HEAVIEST
from tests.support.database import make_template


def test_a_copy_of_the_template_database_is_at_this_release_s_schema(tmp_path, migrated_database):
    """The ``app`` fixture's copies start at head, so its app has nothing to migrate (a
    copy of the file without its ``-wal`` was once an empty database)."""
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(migrated_database, copy)
    with closing(sqlite3.connect(copy)) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert revision == ScriptDirectory(str(MIGRATIONS)).get_current_head()


def test_an_app_made_on_a_copy_runs_no_migration(tmp_path, migrated_database, caplog):
    """What the copy saves: an app starting on it logs no upgrade."""
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / "knights_tour.sqlite3")
    with caplog.at_level("INFO", logger="server.db"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    assert not [r for r in caplog.records if "schema upgraded" in r.getMessage()]


def test_making_the_template_leaves_this_process_s_socket_server_alone(app, tmp_path):
    """Flask-SocketIO serves the events of the app it was bound to last: a template made
    by an app here would take a browser test's live server's events away."""
    from server.extensions import socketio

    bound = socketio.server
    make_template(tmp_path / "instance")
    assert socketio.server is bound


def test_the_heaviest_files_named_for_the_run_order_exist():
    """tests/conftest.py hands these out first: a renamed file would drop out silently."""
    root = Path(__file__).resolve().parents[1]
    assert [path for path in HEAVIEST if not (root / path).is_file()] == []
