"""The guided lesson: GET /lesson (the page, its chapters inline) and GET /lesson/huge."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from ..i18n import request_lang, text
from ..lesson import chapters

bp = Blueprint("lesson", __name__)


@bp.get("/lesson")
def lesson():
    """Anyone can open it: each chapter's demo runs over /watch like any viewer's."""
    return render_template("lesson.html", chapters=chapters.CHAPTERS)


@bp.get("/lesson/huge")
def huge():
    """A side x side closed tour built and checked on the server (only its figures travel)."""
    raw = request.args.get("side", "1000")
    side = int(raw) if raw.isdigit() and len(raw) <= 4 else -1
    if side not in chapters.HUGE_SIDES:
        message = text("lesson.error.huge", request_lang(), {"sides": chapters.HUGE_SIDES[0]})
        return jsonify({"error": message, "code": "bad-request"}), 400
    return jsonify(chapters.huge_tour(side))
