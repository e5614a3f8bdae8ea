"""The database: one SQLAlchemy object for every package, and its schema's version.

Models stay with their packages (``server/game/models.py``,
``server/classroom/models.py``); this module owns what they share: the ``db``
object, the engine settings, and the schema, which only Alembic migrations change
(``server/migrations/``, Flask-Migrate; ``knights-tour db upgrade`` or
``flask --app server.app db upgrade``).  ``create_all`` is never called here: it
cannot change an existing table, so the first new column would break every install.

* An embedded SQLite database is upgraded when the app starts: a teacher's laptop has
  no operator.
* A server database (PostgreSQL) is upgraded by its operator;
  :func:`require_current_schema` refuses to serve on a stale one.
* A database written before migrations existed (release 0.1.0) has tables but no
  version: the baseline revision adopts it (it creates only what is missing).

The SQLite file and its ``-wal`` / ``-shm`` companions are readable by their owner only
(0600): they hold the ids that act as passwords (games, teacher tokens, quiz keys).  A
new file is created so, an existing one is put right at start, and SQLite gives its
companions the mode of the database file.

SQLite runs in WAL mode with ``synchronous=FULL``: a commit is fsynced to the WAL
before the response is sent, so an acknowledged move survives a killed server and a
power cut alike.  Moves arrive at human speed, so one fsync per commit costs nothing
noticeable; NORMAL would be crash-safe for the process but may drop the last commits
on power loss.  WAL also lets readers proceed while one request writes.
"""

from __future__ import annotations

import logging
import os
from importlib.util import find_spec
from pathlib import Path

from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",  # persistent in the file; readers never wait for a writer
    "PRAGMA synchronous=FULL",  # fsync the WAL at every commit: acknowledged = on disk
    "PRAGMA busy_timeout=5000",  # a writer waits up to 5 s for another one, then fails
    "PRAGMA foreign_keys=ON",
)


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate(directory=str(MIGRATIONS), render_as_batch=True)  # batch: SQLite ALTERs

log = logging.getLogger(__name__)


class StaleSchema(RuntimeError):
    """The database's schema is older than this release's; the message says what to run."""


def database_uri(url: str) -> str:
    """``url`` for SQLAlchemy: a plain ``postgresql://`` (or Heroku-style ``postgres://``)
    URL uses psycopg 3, the driver docs/deploy.md installs (SQLAlchemy's default is
    psycopg2: kept when only psycopg2 is installed)."""
    scheme, sep, rest = url.partition("://")
    psycopg3 = scheme == "postgres" or find_spec("psycopg") or not find_spec("psycopg2")
    if sep and scheme in ("postgresql", "postgres") and psycopg3:
        return f"postgresql+psycopg://{rest}"
    return url


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def init_db(app: Flask) -> None:
    """Bind ``db`` and the migrations to the app; upgrade an embedded SQLite database."""
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_uri(app.config["DATABASE_URL"]))
    db.init_app(app)
    migrate.init_app(app, db)
    with app.app_context():
        if is_embedded():
            keep_private(db.engine.url.database)
            event.listen(db.engine, "connect", _sqlite_pragmas)
            upgrade_schema()


SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")
PRIVATE = 0o600


def keep_private(database: str | None) -> None:
    """Create the SQLite file ``database`` readable by its owner only, or make it so
    (with its companions) if it exists.  Nothing to do in memory or on Windows (whose
    files follow the folder's access list)."""
    if not database or database == ":memory:" or database.startswith("file:") or os.name == "nt":
        return
    try:
        fd = os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        pass
    else:
        os.close(fd)  # an empty file is an empty database to SQLite
    for suffix in SQLITE_COMPANIONS:
        path = database + suffix
        try:
            if os.stat(path).st_mode & 0o777 != PRIVATE:
                os.chmod(path, PRIVATE)
        except FileNotFoundError:
            continue
        except PermissionError:  # another user's file: say so, serve anyway
            log.warning("cannot make %s readable by its owner only", path)


def is_busy(err: BaseException) -> bool:
    """Whether a database error is only another writer holding SQLite's lock for longer
    than ``busy_timeout`` ("database is locked"): transient, not a bug.  A server under
    a class's load on a slow disk meets it now and then; the caller answers "busy"."""
    return isinstance(err, OperationalError) and "database is locked" in str(err.orig)


def is_embedded() -> bool:
    """SQLite: the app's own file, upgraded by the app itself."""
    return db.engine.dialect.name == "sqlite"


# -- the schema's version (inside an app context) ---------------------------------------------
def _script():
    return ScriptDirectory(str(MIGRATIONS))


def head_revision() -> str:
    return _script().get_current_head()


def current_revision() -> str | None:
    """The database's revision; None when it has none (empty, or made before migrations)."""
    with db.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _alembic(name: str, revision: str) -> None:
    """Run an Alembic command with Flask-Migrate's configuration (errors raise, not exit)."""
    config = migrate.get_config(str(MIGRATIONS))
    getattr(command, name)(config, revision)


def upgrade_schema() -> tuple[str | None, str]:
    """Upgrade to this release's schema; (revision before, revision after)."""
    before = current_revision()
    head = head_revision()
    if before == head:
        return before, head
    _alembic("upgrade", head)
    log.info("database schema upgraded from %s to %s", before or "empty", head)
    return before, head


def require_current_schema() -> None:
    """StaleSchema unless the database is at this release's schema (server databases)."""
    current, head = current_revision(), head_revision()
    if current != head:
        raise StaleSchema(
            f"the database schema is at {current or 'no version'}, this release "
            f"needs {head}: run `knights-tour db upgrade` with the same DATABASE_URL"
        )
