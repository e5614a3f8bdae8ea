"""Database tables: one row per game (its whole state) and one per leaderboard entry.

Every change of a game bumps its ``version`` and the UPDATE is conditional on the
version read (SQLAlchemy's ``version_id_col``): two requests that raced on the same
game cannot both commit, so no move is silently overwritten (see service.change).

SQLite runs in WAL mode with ``synchronous=FULL``: a commit is fsynced to the WAL
before the response is sent, so an acknowledged move survives a killed server and a
power cut alike.  Moves arrive at human speed, so one fsync per commit costs
nothing noticeable; NORMAL would be crash-safe for the process but may drop the
last commits on power loss.  WAL also lets readers proceed while one request writes.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    event,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    """Unguessable: the id is the only key to a game."""
    return secrets.token_urlsafe(16)


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    rows: Mapped[int] = mapped_column(Integer)
    cols: Mapped[int] = mapped_column(Integer)
    closed: Mapped[bool] = mapped_column(Boolean)
    path: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of square ints
    returned: Mapped[bool] = mapped_column(Boolean, default=False)
    undos: Mapped[int] = mapped_column(Integer, default=0)
    hints: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[float | None] = mapped_column(Float)  # epoch seconds
    finished_at: Mapped[float | None] = mapped_column(Float)
    good_until: Mapped[int] = mapped_column(Integer, default=0)
    dead_from: Mapped[int | None] = mapped_column(Integer)
    dead: Mapped[str | None] = mapped_column(Text)  # JSON warning or NULL
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    version: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy's own dict)


class Score(db.Model):
    __tablename__ = "scores"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), unique=True)
    name: Mapped[str] = mapped_column(String(24))  # plain text; escaped on output
    rows: Mapped[int] = mapped_column(Integer)
    cols: Mapped[int] = mapped_column(Integer)
    closed: Mapped[bool] = mapped_column(Boolean)
    seconds: Mapped[float] = mapped_column(Float)
    moves: Mapped[int] = mapped_column(Integer)
    hints: Mapped[int] = mapped_column(Integer)
    undos: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (db.Index("ix_scores_board", "rows", "cols", "closed", "seconds"),)


SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",  # persistent in the file; readers never wait for a writer
    "PRAGMA synchronous=FULL",  # fsync the WAL at every commit: acknowledged = on disk
    "PRAGMA busy_timeout=5000",  # a writer waits up to 5 s for another one, then fails
    "PRAGMA foreign_keys=ON",
)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def _add_version_column(engine) -> None:
    """Databases created before the ``version`` column get it (every game at version 1)."""
    columns = {column["name"] for column in inspect(engine).get_columns("games")}
    if "version" not in columns:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1"))


def database_uri(url: str) -> str:
    """``url`` for SQLAlchemy: a plain ``postgresql://`` (or Heroku-style ``postgres://``)
    URL uses psycopg 3, the driver docs/deploy.md installs (SQLAlchemy's default is
    psycopg2: kept when only psycopg2 is installed)."""
    scheme, sep, rest = url.partition("://")
    psycopg3 = scheme == "postgres" or find_spec("psycopg") or not find_spec("psycopg2")
    if sep and scheme in ("postgresql", "postgres") and psycopg3:
        return f"postgresql+psycopg://{rest}"
    return url


def init_db(app) -> None:
    """Bind ``db`` to the app (SQLite under instance/ unless DATABASE_URL says otherwise)."""
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_uri(app.config["DATABASE_URL"]))
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
        db.create_all()
        _add_version_column(db.engine)
