"""Replay links: a won game shared under a public id of its own.

The game's id is the secret key that lets its owner play on; a replay id only reads the
finished tour, so sharing one never hands over the game.  Sharing is idempotent: the
same game always answers the same replay id.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import audit
from .models import Game, Replay, db
from .rules import RuleError
from .serialize import replay_json
from .service import _fetch, state_of

REPLAY_ID_BYTES = 9  # 12 characters of base64url, 72 random bits
MAX_REPLAY_ID = 16


def share(game_id: str) -> tuple[str, bool]:
    """The replay id of a won game (its tour checked again, server/game/audit.py), and
    whether it was made now; RuleError otherwise."""
    game = _fetch(game_id)
    audit.check_won(game.id, state_of(game), "replay")
    existing = _replay_of(game.id)
    if existing is not None:
        return existing, False
    replay = Replay(id=secrets.token_urlsafe(REPLAY_ID_BYTES), game_id=game.id)
    db.session.add(replay)
    try:
        db.session.commit()
    except IntegrityError:  # the same game shared twice at once: the first one stands
        db.session.rollback()
        return _replay_of(game.id), False
    return replay.id, True


def _replay_of(game_id: str) -> str | None:
    return db.session.scalar(select(Replay.id).where(Replay.game_id == game_id))


def replay(replay_id: str) -> dict:
    """The shared tour: board, mode, path and figures; never the game's id."""
    found = db.session.get(Replay, replay_id) if len(replay_id) <= MAX_REPLAY_ID else None
    if found is None:
        raise RuleError("unknown-replay")
    game = db.session.get(Game, found.game_id)
    return replay_json(found.id, state_of(game), found.created_at)
