"""The JSON API of the Play page (docs/api.md): parse strictly, call server.game, answer.

Bodies are validated by their models (server/web/bodies.py): integers must be JSON
integers (``true`` is not 1, ``3.0`` is not 3), booleans ``true``/``false``; fields the
contract does not name are ignored.  Every refusal is a 4xx ``{"error", "code"}`` in
the request's language.
"""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request
from flask_limiter import RateLimitExceeded
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

from ..daily import generator as daily_puzzles
from ..engine.board import Board
from ..engine.shape import Puzzle
from ..engine.theory import tour_verdict, verify
from ..engine.verdict import ShapeVerdict
from ..game import replays, rules, serialize, service
from ..game.rules import RuleError
from ..game.verdict_cache import verdicts as verdict_cache
from ..i18n import (
    LANGS,
    MESSAGES,
    catalogue,
    catalogue_version,
    reason_text,
    request_lang,
    text,
)
from ..levels import progress
from ..limits.budget import Refused
from . import budgets, verdicts
from .assets import KEEP
from .bodies import (
    ERRORS,
    DailyPuzzleQuery,
    DailyQuery,
    LeaderboardQuery,
    LevelGame,
    Move,
    NewGame,
    Score,
    TheoryQuery,
    TourChecked,
    Undo,
    VerdictAsked,
)
from .player import current_player
from .ratelimit import rate_limited, retry_after, setting_of
from .refusals import API, refusal_of
from .text import has_lone_surrogate
from .verdicts import verdict_json

bp = Blueprint("api", __name__, url_prefix="/api")

HTTP_STATUS = {code: status for code, (status, _when) in ERRORS.items()}
JSON = "application/json"
RATE_LIMIT_DETAILS = {"RATE_LIMIT_GAMES": "games", "RATE_LIMIT_VERDICTS": "verdicts"}
HTTP_CODES = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}


# -- errors -------------------------------------------------------------------
def _error(code: str, status: int, detail: str | None = None, params: dict | None = None):
    key = f"error.{code}.{detail}" if f"error.{code}.{detail}" in MESSAGES else f"error.{code}"
    return _answer(code, key, status, params)


def _answer(code: str, key: str, status: int, params: dict | None = None):
    return jsonify(error=text(key, request_lang(), params), code=code), status


@bp.errorhandler(ValidationError)
def invalid(err: ValidationError):
    refusal = refusal_of(err, API)
    return _answer(refusal.code, refusal.key, HTTP_STATUS[refusal.code], refusal.params)


@bp.errorhandler(RuleError)
def refused(err: RuleError):
    return _error(err.code, HTTP_STATUS[err.code], err.detail, err.params)


@bp.errorhandler(RateLimitExceeded)
def too_many(err: RateLimitExceeded):
    detail = RATE_LIMIT_DETAILS.get(setting_of(request.endpoint))
    seconds = retry_after()
    response, status = _error("rate-limited", 429, detail, {"seconds": seconds})
    response.headers["Retry-After"] = str(seconds)
    return response, status


@bp.errorhandler(Refused)
def search_refused(err: Refused):
    """No search time left for the address (429), or every search slot taken (503)."""
    return budgets.refusal(err)


@bp.errorhandler(HTTPException)
def http_error(err: HTTPException):
    code = HTTP_CODES.get(err.code, "bad-request")
    return _error(code, err.code or 400, "json" if code == "bad-request" else None)


def internal_error():
    """A bug (logged by the caller): 500 ``internal``, the words in the request's language."""
    return _error("internal", 500)


# -- parsing ------------------------------------------------------------------
def _body() -> dict:
    """The JSON object sent; an empty body counts as ``{}``.

    A body comes as ``application/json`` (415 ``not-json`` otherwise: an HTML form on
    another site cannot send that type without the browser asking first).  Text that
    is not Unicode is refused here, for every field alike: bytes that are not UTF-8
    (UTF-16 with its byte order mark included), and a ``\\ud800``-style escape of a lone
    surrogate (valid JSON, but not a character).
    """
    sent_type = request.headers.get("Content-Type")
    if sent_type is not None and request.mimetype != JSON:
        raise RuleError("not-json")
    raw = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH
    if not raw.strip():
        return {}
    if sent_type is None:
        raise RuleError("not-json")
    try:
        body = json.loads(raw.decode("utf-8-sig"))  # a UTF-8 byte order mark is allowed
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise RuleError("bad-request", "json") from None
    if not isinstance(body, dict):
        raise RuleError("bad-request", "json")
    if has_lone_surrogate(body):
        raise RuleError("bad-request", "text")
    return body


# -- answers ------------------------------------------------------------------
def _verdict_json(verdict, lang: str) -> dict:
    reason = reason_text("theory", verdict.code, verdict.params, verdict.reason, lang)
    return {"possible": verdict.possible, "reason": reason, "code": verdict.code}


def _feasible_json(state: rules.GameState, lang: str) -> dict:
    """Theory's verdict on a plain board; on a shape the engine's (``possible`` null: undecided,
    also while the client may not search: the state itself is never refused for it)."""
    try:
        verdict = state.feasible()
    except Refused as err:
        return {"possible": None, "reason": budgets.words(err, lang), "code": "busy"}
    if not isinstance(verdict, ShapeVerdict):
        return _verdict_json(verdict, lang)
    start = state.path[0] if state.path else state.start
    puzzle = Puzzle(state.puzzle.shape, state.closed, start)
    reason = None if verdict.tour else verdicts.reason(verdict, puzzle, lang)
    return {"possible": verdict.tour, "reason": reason, "code": verdict.code}


def _message(state: rules.GameState, lang: str) -> str:
    """The status line, in words."""
    status = state.status
    if status == "new" and state.start is not None:
        return text("status.new.fixed", lang, {"start": state.board.name(state.start)})
    if status == "won":
        return text("status.won", lang, {"moves": state.moves, "seconds": state.elapsed(0)})
    full = len(state.path) == state.board.size  # closed mode, the return move is left
    key = f"status.{status}" + (".return" if full and status != "new" else "")
    return text(key, lang, {"moves": state.moves, "left": state.squares_left})


def _dead_json(dead: dict, lang: str) -> dict:
    undo = dead["undo"]
    key = "status.dead.start" if undo is None else "status.dead.one" if undo == 1 else "status.dead"
    reason = reason_text("hint", dead["code"], dead["params"], dead["reason"], lang)
    return {**dead, "reason": reason, "message": text(key, lang, {"undo": undo})}


def _state_json(loaded: service.Loaded) -> dict:
    """The game's JSON (server/game/serialize.py) with its words in the request's language."""
    state, lang = loaded.state, request_lang()
    return {
        **serialize.state_json(loaded, service.now()),
        "message": _message(state, lang),
        "dead": _dead_json(state.dead, lang) if state.dead else None,
        "feasible": _feasible_json(state, lang),
        "stars": progress.stars_for(state.hints, state.undos)
        if state.level and state.won
        else None,
    }


# -- routes -------------------------------------------------------------------
@bp.post("/games")
@rate_limited("RATE_LIMIT_GAMES")  # per client address; 429 with Retry-After beyond it
def create_game():
    raw = _body()
    if "level" in raw:  # a level of the path: its game for this player (docs/levels.md)
        level = LevelGame.model_validate(raw).level
        loaded = progress.start_level(level, current_player(create=True))
        return jsonify(_state_json(loaded)), 201
    body = NewGame.model_validate(raw)
    if body.daily is not None:
        return jsonify(_state_json(_create_daily())), 201
    if body.puzzle is not None:
        loaded = service.create_puzzle_game(rules.puzzle_of(body.puzzle))
    else:
        holes = rules.cells_to_squares(body.rows, body.cols, body.holes or ())
        loaded = service.create_game(body.rows, body.cols, body.closed, holes=holes)
    return jsonify(_state_json(loaded)), 201


def _create_daily() -> service.Loaded:
    """A game of today's (UTC) daily puzzle."""
    today = daily_puzzles.daily(daily_puzzles.today())
    return service.create_puzzle_game(today.puzzle, daily=today.date)


def daily_json(found: daily_puzzles.Daily) -> dict:
    """A daily puzzle to preview: its board and rules, never its witness."""
    shape, cols = found.puzzle.shape, found.puzzle.shape.cols
    start = found.puzzle.start
    return {
        "date": found.date,
        "puzzle": found.code,
        "rows": shape.rows,
        "cols": cols,
        "closed": found.puzzle.closed,
        "holes": [serialize.cell(sq, cols) for sq in sorted(shape.holes)],
        "start": serialize.cell(start, cols) if start is not None else None,
        "squares": shape.size,
    }


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    return jsonify(_state_json(service.load(game_id)))


@bp.post("/games/<game_id>/moves")
def make_move(game_id: str):
    body = Move.model_validate(_body())
    now = service.now()
    if body.random:
        loaded, _ = service.change(game_id, lambda s: rules.random_first_move(s, now))
    else:
        loaded, _ = service.change(game_id, lambda s: rules.move(s, body.row, body.col, now))
    return jsonify(_state_json(loaded))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    count = Undo.model_validate(_body()).count
    loaded, _ = service.change(game_id, lambda s: rules.undo(s, count))
    return jsonify(_state_json(loaded))


@bp.post("/games/<game_id>/restart")
def restart(game_id: str):
    _body()
    now = service.now()
    loaded, _ = service.change(game_id, lambda s: rules.restart(s, now))
    return jsonify(_state_json(loaded))


@bp.post("/games/<game_id>/hint")
def hint(game_id: str):
    _body()
    loaded, answer = service.change(game_id, rules.ask_hint)
    lang = request_lang()
    cols = loaded.state.cols
    next_cell = serialize.cell(answer.next, cols) if answer.next is not None else None
    reason = reason_text("hint", answer.code or answer.verdict, answer.params, answer.reason, lang)
    hint_json = {
        "verdict": answer.verdict,
        "next": next_cell,
        "reason": reason,
        "code": answer.code,
        "params": answer.params,
    }
    return jsonify(hint=hint_json, state=_state_json(loaded))


@bp.post("/games/<game_id>/score")
def submit_score(game_id: str):
    name = Score.model_validate(_body()).name
    return jsonify(service.submit_score(game_id, name)), 201


@bp.post("/games/<game_id>/replay")
def share_replay(game_id: str):
    _body()
    replay_id, made = replays.share(game_id)
    return jsonify(id=replay_id, url=f"/replay/{replay_id}"), 201 if made else 200


@bp.get("/replays/<replay_id>")
def get_replay(replay_id: str):
    return jsonify(replays.replay(replay_id))


@bp.get("/leaderboard")
def leaderboard():
    args = request.args.to_dict()
    if "daily" in args:
        return jsonify(service.daily_leaderboard(DailyQuery.model_validate(args).daily))
    query = LeaderboardQuery.model_validate(args)
    if query.puzzle is None:
        return jsonify(service.leaderboard(query.rows, query.cols, query.closed))
    puzzle = rules.puzzle_of(query.puzzle)
    shape = puzzle.shape
    rules.check_size(shape.rows, shape.cols)  # a puzzle no game can be of has no leaderboard
    if not shape.holes and puzzle.start is None:  # a plain board: its size's leaderboard
        return jsonify(service.leaderboard(shape.rows, shape.cols, puzzle.closed))
    return jsonify(service.leaderboard(0, 0, puzzle.closed, puzzle=puzzle.code))


@bp.get("/daily")
def daily():
    """A daily puzzle to preview (today's by default, UTC)."""
    day = DailyPuzzleQuery.model_validate(request.args.to_dict()).date
    today = daily_puzzles.today()
    if day is not None and day > today:  # ISO dates order as text
        raise RuleError("not-yet")
    return jsonify(daily_json(daily_puzzles.daily(day or today)))


@bp.get("/theory")
def theory():
    query = TheoryQuery.model_validate(request.args.to_dict())
    verdict = tour_verdict(query.rows, query.cols, closed=query.closed, start=query.start)
    return jsonify(_verdict_json(verdict, request_lang()))


@bp.post("/verdict")
@rate_limited("RATE_LIMIT_VERDICTS")  # each answer may cost VERDICT_SECONDS of search
def verdict():
    """The editor's question: does this puzzle have a tour, and if not, why not?"""
    body = VerdictAsked.model_validate(_body())
    found = verdict_cache.decide(body.parsed, time_limit=current_app.config["VERDICT_SECONDS"])
    return jsonify(verdict_json(body.parsed, found, request_lang(), witness=body.witness))


@bp.post("/tour")
def tour():
    """Is this path a tour, open or closed, by the server's rules? (The code lab asks.)"""
    body = TourChecked.model_validate(_body())
    board = Board(body.rows, body.cols)
    rows, cols = body.rows, body.cols
    path = [r * cols + c if 0 <= r < rows and 0 <= c < cols else -1 for r, c in body.path]
    checked = verify(board, path)
    closed = bool(checked) and bool(verify(board, path, closed=True))
    lang = request_lang()
    reason = None if checked else text(f"tour.problem.{checked.code}", lang, checked.params)
    return jsonify(tour=checked.ok, closed=closed, code=checked.code, reason=reason)


@bp.get("/i18n")
def i18n():
    """The catalogue of the asked language; kept by browsers when asked by its version."""
    lang = request_lang()
    response = jsonify(lang=lang, languages=list(LANGS), messages=catalogue(lang))
    if request.args.get("v") == catalogue_version(lang):
        response.headers["Cache-Control"] = KEEP
    else:
        response.headers["Cache-Control"] = "no-cache"
        response.add_etag()
        response.make_conditional(request)
    return response
