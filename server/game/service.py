"""Games and scores in the database.

Each intention is one transaction, committed before the response: load the
game, apply the rule, write it back, commit.  A refused intention raises
before anything is written, so the stored game stays as it was.

Intentions on one game are atomic.  Within a process they take turns on a per-game
lock (so the engine's look-ahead is never wasted on a lost race); across processes
sharing one database the write is conditional on the version read (models.Game), and
an intention that lost the race is applied again to the fresh game, up to
``CHANGE_ATTEMPTS`` times, then refused with 409 ``conflict``.  Either way the game's
history is the history of some serial order of the intentions that succeeded.
"""

from __future__ import annotations

import json
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..engine.shape import Puzzle
from . import audit
from .models import Game, Score, db
from .rules import GameState, RuleError, move, new_game

T = TypeVar("T")

NAME_MAX = 24
LEADERBOARD_SIZE = 10
MAX_ID_LENGTH = 64
CHANGE_ATTEMPTS = 3  # a change that lost a cross-process race is retried this often
LOCK_SECONDS = 5.0  # longest wait for another request on the same game (each takes ~1 s max)


class GameLocks:
    """One lock per game id in use, forgotten when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, list] = {}  # id -> [lock, holders and waiters]

    @contextmanager
    def hold(self, game_id: str, timeout: float) -> Iterator[None]:
        with self._guard:
            entry = self._locks.setdefault(game_id, [threading.Lock(), 0])
            entry[1] += 1
        try:
            if not entry[0].acquire(timeout=timeout):
                raise RuleError("conflict", "busy")
            try:
                yield
            finally:
                entry[0].release()
        finally:
            with self._guard:
                entry[1] -= 1
                if not entry[1]:
                    del self._locks[game_id]

    def __len__(self) -> int:
        return len(self._locks)


game_locks = GameLocks()


@dataclass(frozen=True)
class Loaded:
    """A game as the web layer sees it."""

    id: str
    state: GameState
    scored: bool  # already on the leaderboard


def state_of(game: Game) -> GameState:
    """The rules' state of a stored game."""
    return GameState(
        rows=game.rows,
        cols=game.cols,
        closed=game.closed,
        path=json.loads(game.path),
        returned=game.returned,
        undos=game.undos,
        hints=game.hints,
        started_at=game.started_at,
        finished_at=game.finished_at,
        good_until=game.good_until,
        dead_from=game.dead_from,
        dead=json.loads(game.dead) if game.dead else None,
        holes=frozenset(json.loads(game.holes or "[]")),
        start=game.start,
        level=game.level,
        daily=game.daily,
    )


def _store(game: Game, state: GameState) -> None:
    game.path = json.dumps(state.path)
    game.returned = state.returned
    game.undos, game.hints = state.undos, state.hints
    game.started_at, game.finished_at = state.started_at, state.finished_at
    game.good_until, game.dead_from = state.good_until, state.dead_from
    game.dead = json.dumps(state.dead) if state.dead else None


def _fetch(game_id: str) -> Game:
    game = db.session.get(Game, game_id) if len(game_id) <= MAX_ID_LENGTH else None
    if game is None:
        raise RuleError("unknown-game")
    return game


def _scored(game_id: str) -> bool:
    return db.session.scalar(select(Score.id).where(Score.game_id == game_id)) is not None


def create_game(
    rows: int,
    cols: int,
    closed: bool,
    *,
    holes: frozenset[int] = frozenset(),
    start: int | None = None,
    level: str | None = None,
    daily: str | None = None,
    player: str | None = None,
    placed_at: float | None = None,
    commit: bool = True,
) -> Loaded:
    """A new game, stored; a board or shape the rules refuse raises before anything is.

    ``placed_at``: the knight is put on ``start`` then, as the first move (a class
    puzzle's game).  ``commit=False`` leaves the game in the caller's transaction
    (flushed: its id is known), so one commit stores it with what goes with it.
    """
    state = new_game(rows, cols, closed, holes=holes, start=start)
    state.level, state.daily = level, daily
    if placed_at is not None and start is not None:
        move(state, *divmod(start, cols), placed_at)
    game = Game(
        rows=rows,
        cols=cols,
        closed=closed,
        holes=json.dumps(sorted(state.holes)),
        start=state.start,
        level=level,
        daily=daily,
        player=player,
    )
    _store(game, state)
    db.session.add(game)
    if commit:
        db.session.commit()
    else:
        db.session.flush()
    return Loaded(game.id, state, False)


def create_puzzle_game(puzzle: Puzzle, **played_for: str | None) -> Loaded:
    """A new game of ``puzzle`` (its board, holes, mode and start); ``played_for`` are
    :func:`create_game`'s ``level``, ``daily`` and ``player``."""
    shape = puzzle.shape
    return create_game(
        shape.rows, shape.cols, puzzle.closed, holes=shape.holes, start=puzzle.start, **played_for
    )


def load(game_id: str) -> Loaded:
    game = _fetch(game_id)
    return Loaded(game.id, state_of(game), _scored(game.id))


def change(game_id: str, action: Callable[[GameState], T]) -> tuple[Loaded, T]:
    """Apply ``action`` to the stored game and commit; on RuleError nothing is written.

    Atomic per game (see the module docstring): ``action`` may run again on the fresh
    game when another process committed a change in between.
    """
    if len(game_id) > MAX_ID_LENGTH:
        raise RuleError("unknown-game")
    with game_locks.hold(game_id, LOCK_SECONDS):
        for _attempt in range(CHANGE_ATTEMPTS):
            game = _fetch(game_id)
            state = state_of(game)
            try:
                outcome = action(state)
            except Exception:
                db.session.rollback()
                raise
            _store(game, state)
            try:
                db.session.commit()  # UPDATE ... WHERE id = ? AND version = <the one read>
            except StaleDataError:
                db.session.rollback()  # expires the game: the next attempt reads it afresh
                continue
            return Loaded(game.id, state, _scored(game.id)), outcome
    raise RuleError("conflict")


def now() -> float:
    return time.time()


def clean_name(name: str) -> str:
    """1..24 characters of plain text; stored as typed, escaped by whoever renders it."""
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= NAME_MAX or any(
        unicodedata.category(ch).startswith("C") and ch != "\u200d" for ch in name
    ):
        raise RuleError("bad-name")
    return name


def submit_score(game_id: str, name: str) -> dict:
    """Put a server-verified win on the leaderboard, once: the rules saw it, and its path is
    checked again as a tour (server/game/audit.py) before it is ranked."""
    game = _fetch(game_id)
    state = state_of(game)
    audit.check_won(game.id, state)
    name = clean_name(name)
    if _scored(game.id):
        raise RuleError("already-submitted")
    score = Score(
        game_id=game.id,
        name=name,
        rows=state.rows,
        cols=state.cols,
        closed=state.closed,
        seconds=state.elapsed(now()),
        moves=state.moves,
        hints=state.hints,
        undos=state.undos,
        puzzle=state.puzzle.code if state.is_shape else None,
        daily=game.daily,
    )
    db.session.add(score)
    try:
        db.session.commit()
    except IntegrityError:  # a concurrent submission won the race
        db.session.rollback()
        raise RuleError("already-submitted") from None
    return _entry(score, _rank(score))


def _group(rows: int, cols: int, closed: bool, assisted: bool, puzzle: str | None = None):
    """One leaderboard: a plain board size and mode, or one puzzle (holes or a fixed start)."""
    hinted = Score.hints > 0 if assisted else Score.hints == 0
    if puzzle is not None:
        return and_(Score.puzzle == puzzle, hinted)
    same = and_(Score.rows == rows, Score.cols == cols, Score.closed == closed)
    return and_(same, Score.puzzle.is_(None), hinted)


def _rank(score: Score) -> int:
    better = or_(
        Score.seconds < score.seconds,
        and_(Score.seconds == score.seconds, Score.moves < score.moves),
        and_(Score.seconds == score.seconds, Score.moves == score.moves, Score.id < score.id),
    )
    group = _group(score.rows, score.cols, score.closed, score.hints > 0, score.puzzle)
    return db.session.scalar(select(func.count(Score.id)).where(group, better)) + 1


def _entry(score: Score, rank: int) -> dict:
    return {
        "rank": rank,
        "name": score.name,
        "seconds": score.seconds,
        "moves": score.moves,
        "hints": score.hints,
        "undos": score.undos,
        "assisted": score.hints > 0,
        "rows": score.rows,
        "cols": score.cols,
        "closed": score.closed,
        "puzzle": score.puzzle,
        "daily": score.daily,
        "created_at": score.created_at.isoformat(),
    }


def leaderboard(
    rows: int,
    cols: int,
    closed: bool,
    limit: int = LEADERBOARD_SIZE,
    *,
    puzzle: str | None = None,
) -> dict:
    """Best times for one board size and mode, or for one puzzle (its canonical code);
    runs that used hints are ranked apart."""
    return _board(lambda assisted: _group(rows, cols, closed, assisted, puzzle), limit)


def daily_leaderboard(date: str, limit: int = LEADERBOARD_SIZE) -> dict:
    """Best times on one date's daily puzzle; runs that used hints are ranked apart."""
    return _board(lambda assisted: and_(Score.daily == date, _hinted(assisted)), limit)


def _hinted(assisted: bool):
    return Score.hints > 0 if assisted else Score.hints == 0


def _board(group: Callable, limit: int) -> dict:
    board = {}
    for label, assisted in (("unassisted", False), ("assisted", True)):
        query = (
            select(Score)
            .where(group(assisted))
            .order_by(Score.seconds, Score.moves, Score.id)
            .limit(limit)
        )
        board[label] = [
            _entry(score, rank) for rank, score in enumerate(db.session.scalars(query), 1)
        ]
    return board
