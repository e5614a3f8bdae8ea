"""The path of levels over HTTP (docs/api.md, "Levels"): the list with the player's
progress, one level, export and import of progress (a level's game is ``POST /api/games``).

The blueprint answers refusals as the API does (server/web/api.py's handlers); the
decisions live in server.levels.  A level's witness is never sent: the player finds it.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from pydantic import ValidationError

from ..game.rules import RuleError
from ..i18n import request_lang
from ..levels import progress
from ..levels.catalogue import Level, catalogue
from . import api
from .api import _body
from .bodies import ProgressImport
from .player import current_player

bp = Blueprint("levels_api", __name__, url_prefix="/api/levels")
bp.register_error_handler(ValidationError, api.invalid)
bp.register_error_handler(RuleError, api.refused)


def _level_json(level: Level, best: dict, open_ids: set[str], lang: str) -> dict:
    mine = best.get(level.id)
    puzzle, board = level.puzzle, level.puzzle.shape.board
    return {
        "id": level.id,
        "chapter": level.chapter,
        "number": level.number,
        "name": level.name.get(lang) or level.name["en"],
        "rows": board.rows,
        "cols": board.cols,
        "art": level.art,
        "closed": puzzle.closed,
        "start": None if puzzle.start is None else board.name(puzzle.start),
        "squares": board.size,
        "puzzle": puzzle.code,
        "difficulty": level.difficulty,
        "stars": mine.stars if mine else 0,
        "best_seconds": mine.seconds if mine else None,
        "unlocked": level.id in open_ids,
    }


def levels_answer(player_id: str | None) -> dict:
    best = progress.progress(player_id)
    open_ids = progress.unlocked(best)
    lang, cat = request_lang(), catalogue()
    chapters = [
        {
            "id": chapter.id,
            "name": chapter.name.get(lang) or chapter.name["en"],
            "levels": [_level_json(level, best, open_ids, lang) for level in chapter.levels],
        }
        for chapter in cat.chapters
    ]
    return {
        "chapters": chapters,
        "stars": sum(entry.count for entry in best.values()),
        "max_stars": 3 * len(cat.levels),
        "measure": cat.measure,
    }


@bp.get("")
def list_levels():
    return jsonify(levels_answer(current_player()))


@bp.get("/<level_id>")
def one_level(level_id: str):
    level = progress.level_of(level_id)
    best = progress.progress(current_player())
    answer = _level_json(level, best, progress.unlocked(best), request_lang())
    after = catalogue().next_after(level.id)
    answer["next"] = after.id if after else None
    return jsonify(answer)


@bp.get("/export")
def export_progress():
    secret = current_app.config["SECRET_KEY"]
    return jsonify(code=progress.export_code(current_player(), secret))


@bp.post("/import")
def import_progress():
    body = ProgressImport.model_validate(_body())
    player_id = current_player(create=True)
    try:
        raised = progress.import_code(player_id, body.code, current_app.config["SECRET_KEY"])
    except progress.BadProgressCode:
        raise RuleError("bad-progress-code") from None
    return jsonify(raised=raised, **levels_answer(player_id))
