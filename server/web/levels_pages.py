"""The level map, ``GET /levels``: chapters of level tiles with the player's stars.

Rendered on the server from the same answer as ``GET /api/levels`` (the player's cookie,
progress folded first), so the map is right on the first paint and without script.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from .levels_api import levels_answer
from .player import current_player

bp = Blueprint("levels", __name__)


@bp.get("/levels")
def level_map():
    return render_template("levels.html", levels=levels_answer(current_player()))
