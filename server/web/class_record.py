"""The teacher's record of a lesson (server/classroom/record.py), for the teacher alone.

* ``POST /class/<code>/record.csv`` — the record as CSV (UTF-8 with a byte order mark, so a
  spreadsheet reads 中文 names; a cell that a spreadsheet would take for a formula is
  quoted as text), a download;
* ``POST /class/<code>/record`` — the same as a printable page.

Both take the form fields ``token`` (the teacher's secret: in the body, never in a URL,
a log or a Referer, compared in constant time) and ``offset`` (the teacher's clock, in
minutes east of UTC, for the times).  A wrong or missing token is 403, a room that is
gone 404, a post from another site 403, a GET 405; every refusal is a JSON ``error``.  A wrong
token counts against the address's ``RATE_LIMIT_CLASS_MISSES``, as a wrong code does.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, timezone

from flask import Blueprint, Flask, current_app, jsonify, render_template, request

from ..classroom import record, rooms
from ..classroom.messages import ClassError
from ..classroom.rooms import TOKEN_MAX
from ..i18n import request_lang, text
from . import ratelimit
from .class_room import address, lookup
from .security import same_origin

bp = Blueprint("class_record", __name__, url_prefix="/class")
MISSES = "RATE_LIMIT_CLASS_MISSES"
MAX_OFFSET = 14 * 60  # minutes: the widest time zones
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def register(app: Flask) -> None:
    app.register_blueprint(bp)


def _refused(status: int, code: str, key: str, **params):
    body = {"error": text(key, request_lang(), params), "code": code}
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def _teachers_room(code: str):
    """The room, when the post comes from this site with the room's token; else a refusal."""
    if not same_origin(request.headers.get("Origin"), request.host, request.scheme):
        return None, _refused(403, "cross-origin", "class.record.error.cross-origin")
    try:
        room = lookup(code)
    except ClassError as err:
        status = 429 if err.code == "rate-limited" else 404
        return None, _refused(status, err.code, err.key, **err.params)
    token = request.form.get("token", "")
    if not 1 <= len(token) <= TOKEN_MAX or not rooms.token_matches(room, token):
        ratelimit.charge(MISSES, address())
        rooms.rollback()
        return None, _refused(403, "bad-token", "class.record.error.bad-token")
    return room, None


def _clock():
    """``when(t)``: an epoch moment as the teacher's wall clock reads it ("" for none)."""
    raw = request.form.get("offset", "0")
    minutes = int(raw) if raw.lstrip("-").isdigit() and len(raw) <= 5 else 0
    zone = timezone(timedelta(minutes=max(-MAX_OFFSET, min(MAX_OFFSET, minutes))))

    def when(moment: float | None) -> str:
        if moment is None:
            return ""
        return datetime.fromtimestamp(moment, UTC).astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")

    return when


def _say():
    lang = request_lang()
    return lambda key, **params: text(key, lang, params)


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA) else value


@bp.get("/<code>/record.csv")
@bp.get("/<code>/record")
def record_by_link(code: str):
    """A link, a bookmark, a guess: the record is never answered to a GET (the token would
    have to be in the URL)."""
    return _refused(405, "post-only", "class.record.error.post-only")


@bp.post("/<code>/record.csv")
def record_csv(code: str):
    room, refusal = _teachers_room(code)
    if refusal is not None:
        return refusal
    say, lesson = _say(), record.room_record(room)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([say(f"class.record.column.{name}") for name in record.COLUMNS])
    for row in record.rows(lesson, say, _clock()):
        writer.writerow([_cell(value) for value in row])
    rooms.rollback()  # a read: nothing to keep
    response = current_app.response_class(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="class-{room.code}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<code>/record")
def record_page(code: str):
    room, refusal = _teachers_room(code)
    if refusal is not None:
        return refusal
    say, lesson, when = _say(), record.room_record(room), _clock()
    page = render_template(
        "class_record.html",
        lesson=lesson,
        columns=record.COLUMNS,
        rows=list(record.rows(lesson, say, when)),
        questions=[
            {
                "number": q.number,
                "text": record.question_text(q, say),
                "right": record.answer_text(q, q.answer, say) if q.revealed_at else "",
                "asked": when(q.asked_at),
                "votes": q.votes,
            }
            for q in lesson.questions
        ],
        opened=when(lesson.created_at),
    )
    rooms.rollback()
    response = current_app.make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response
