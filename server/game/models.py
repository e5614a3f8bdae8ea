"""Game tables: one row per game (its whole state) and one per leaderboard entry.

Every change of a game bumps its ``version`` and the UPDATE is conditional on the
version read (SQLAlchemy's ``version_id_col``): two requests that raced on the same
game cannot both commit, so no move is silently overwritten (see service.change).
The schema is made and changed by migrations only (server/db.py).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import db


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
