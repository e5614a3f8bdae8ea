"""Players' progress on the path of levels: stars and best times, kept on the server.

The game service knows nothing of levels: a level game is an ordinary game with
``games.level`` and ``games.player`` set.  Progress is *folded* from those games when it
is read (the map, the level list, after a win): every won level game of the player adds
its stars (OR-ed) and its time (the best kept) to ``level_progress``.  Folding twice
changes nothing, and a row is only ever raised, never lowered.

Stars are the server's: finished; finished without a hint; finished without an undo
(bits STAR_* of server.game.models).  An exported code is the progress signed with the
app's ``SECRET_KEY`` (itsdangerous), so a code cannot be written by hand to unlock
levels; importing one merges it the same way (stars OR-ed, the best time kept).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from itsdangerous import BadData, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..game import audit, service
from ..game.models import (
    STAR_FINISHED,
    STAR_NO_HINTS,
    STAR_NO_UNDO,
    Game,
    LevelProgress,
    Player,
    db,
)
from ..game.rules import RuleError
from .catalogue import Level, catalogue

CODE_SALT = "level-progress"
CODE_VERSION = 1
FOLD_ATTEMPTS = 3
ALL_STARS = STAR_FINISHED | STAR_NO_HINTS | STAR_NO_UNDO


class BadProgressCode(Exception):
    """A code that was not made by this server (or was changed)."""


@dataclass(frozen=True)
class Best:
    stars: int  # STAR_* bits
    seconds: float | None

    @property
    def count(self) -> int:
        return bin(self.stars & ALL_STARS).count("1")

    @property
    def finished(self) -> bool:
        return bool(self.stars & STAR_FINISHED)


def stars_for(hints: int, undos: int) -> int:
    """The stars of a won game."""
    return STAR_FINISHED | (STAR_NO_HINTS if not hints else 0) | (STAR_NO_UNDO if not undos else 0)


# -- players ----------------------------------------------------------------------------
def new_player() -> str:
    player = Player()
    db.session.add(player)
    db.session.commit()
    return player.id


def known_player(player_id: object) -> bool:
    if not isinstance(player_id, str) or not 1 <= len(player_id) <= 32:
        return False
    return db.session.get(Player, player_id) is not None


# -- progress ---------------------------------------------------------------------------
def _merge(
    player_id: str,
    level_id: str,
    stars: int,
    seconds: float | None,
    vouch: Callable[[], bool] = lambda: True,
) -> bool:
    """Raise one row to at least ``stars`` and at most ``seconds``; True if it changed.
    ``vouch()`` is asked only when the row would change, and may refuse it (False)."""
    row = db.session.get(LevelProgress, (player_id, level_id))
    before = (row.stars or 0, row.best_seconds) if row is not None else (0, None)
    stars = before[0] | (stars & ALL_STARS)
    if seconds is not None and before[1] is not None:
        seconds = min(seconds, before[1])
    elif seconds is None:
        seconds = before[1]
    if (stars, seconds) == before or not vouch():
        return False
    if row is None:
        row = LevelProgress(player=player_id, level=level_id, stars=0)
        db.session.add(row)
    row.stars, row.best_seconds = stars, seconds
    return True


def fold(player_id: str) -> None:
    """Bring the player's won level games into their progress (idempotent).

    Two requests folding at once may both insert a row: the loser reads again.
    """
    for attempt in range(FOLD_ATTEMPTS):
        try:
            _fold(player_id)
            return
        except IntegrityError:
            db.session.rollback()
            if attempt == FOLD_ATTEMPTS - 1:
                raise


def _fold(player_id: str) -> None:
    query = select(
        Game.id, Game.level, Game.hints, Game.undos, Game.started_at, Game.finished_at
    ).where(Game.player == player_id, Game.level.is_not(None), Game.finished_at.is_not(None))
    known = catalogue()
    changed = False
    for game_id, level_id, hints, undos, started_at, finished_at in db.session.execute(query):
        if known.get(level_id) is None:
            continue
        seconds = round(max(finished_at - (started_at or finished_at), 0.0), 1)
        stars = stars_for(hints, undos)
        changed |= _merge(player_id, level_id, stars, seconds, partial(_is_won, game_id))
    if changed:
        db.session.commit()
    else:
        db.session.rollback()


def _is_won(game_id: str) -> bool:
    """The rules' win, and its path a tour again (a slip in the rules earns no stars);
    read only for a game that would raise the player's progress."""
    try:
        audit.check_won(game_id, service.state_of(db.session.get(Game, game_id)))
    except RuleError:
        return False
    return True


def progress(player_id: str | None) -> dict[str, Best]:
    """Each level's best for this player (levels never won are absent); folds first."""
    if player_id is None:
        return {}
    fold(player_id)
    rows = db.session.scalars(select(LevelProgress).where(LevelProgress.player == player_id))
    return {row.level: Best(row.stars, row.best_seconds) for row in rows}


def unlocked(best: dict[str, Best]) -> set[str]:
    return catalogue().unlocked({level for level, entry in best.items() if entry.finished})


# -- export and import ------------------------------------------------------------------
def level_of(level_id: object) -> Level:
    """The level with this id; RuleError ``unknown-level`` for none."""
    level = catalogue().get(level_id)
    if level is None:
        raise RuleError("unknown-level")
    return level


def start_level(level_id: object, player_id: str):
    """A new game of level ``level_id`` for ``player_id`` (a game service ``Loaded``);
    RuleError ``unknown-level``, or ``level-locked`` before the level is unlocked."""
    level = level_of(level_id)
    if level.id not in unlocked(progress(player_id)):
        raise RuleError("level-locked")
    return service.create_puzzle_game(level.puzzle, level=level.id, player=player_id)


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt=CODE_SALT)


def export_code(player_id: str | None, secret_key: str) -> str:
    """The player's progress as a short signed code (compressed when that is shorter)."""
    best = progress(player_id)
    entries = [[level, entry.stars, entry.seconds] for level, entry in sorted(best.items())]
    return _serializer(secret_key).dumps([CODE_VERSION, entries])


def read_code(code: object, secret_key: str) -> list[tuple[str, int, float | None]]:
    """The entries of a code this server signed; BadProgressCode otherwise."""
    if not isinstance(code, str):
        raise BadProgressCode
    try:
        version, entries = _serializer(secret_key).loads(code.strip())
    except (BadData, TypeError, ValueError):
        raise BadProgressCode from None
    if version != CODE_VERSION or not isinstance(entries, list):
        raise BadProgressCode
    try:
        return [
            (str(level), int(stars), None if seconds is None else float(seconds))
            for level, stars, seconds in entries
        ]
    except (TypeError, ValueError):
        raise BadProgressCode from None


def import_code(player_id: str, code: object, secret_key: str) -> int:
    """Merge a code into the player's progress (never lowering it); levels it raised."""
    known = catalogue()
    entries = [entry for entry in read_code(code, secret_key) if known.get(entry[0])]
    fold(player_id)  # the player's own games first: their rows exist before the merge
    raised = sum(_merge(player_id, *entry) for entry in entries)
    db.session.commit()
    return raised
