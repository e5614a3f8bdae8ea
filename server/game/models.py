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
    holes: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")  # JSON squares
    start: Mapped[int | None] = mapped_column(Integer)  # the fixed start square, or NULL
    level: Mapped[str | None] = mapped_column(String(32))  # the level played, if any
    daily: Mapped[str | None] = mapped_column(String(10))  # the daily puzzle's date, if any
    player: Mapped[str | None] = mapped_column(String(32))  # the anonymous player (stars)
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
    # The puzzle's code for a shape, a level or the daily puzzle; NULL for a plain rectangle.
    puzzle: Mapped[str | None] = mapped_column(String(96))
    daily: Mapped[str | None] = mapped_column(String(10))  # the daily puzzle's date

    __table_args__ = (
        db.Index("ix_scores_board", "rows", "cols", "closed", "seconds"),
        db.Index("ix_scores_puzzle", "puzzle", "seconds"),
    )


class Player(db.Model):
    """An anonymous player, known by a cookie: progress without a sign-up."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LevelProgress(db.Model):
    """A player's best on one level: stars as bits (STAR_*), best time."""

    __tablename__ = "level_progress"

    player: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    level: Mapped[str] = mapped_column(String(32), primary_key=True)
    stars: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    best_seconds: Mapped[float | None] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


STAR_FINISHED, STAR_NO_HINTS, STAR_NO_UNDO = 1, 2, 4


class Replay(db.Model):
    """A won game's public replay id; the game's own id stays the secret key to it."""

    __tablename__ = "replays"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
