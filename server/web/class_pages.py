"""Class room pages: open a room, the teacher's page, the students' page, the join QR code.

* ``GET /class`` — enter a join code; ``GET /class/new`` — the "open a class" page;
* ``POST /class/new`` — opens a room (rate-limited per teacher device, a cookie, and more
  loosely per client address; a refused teacher is offered the room they opened last)
  and redirects to the teacher's page with the secret token in the URL *fragment* (never
  sent to a server, never in a log or a Referer); the page keeps it in the browser and
  drops it from the address bar.  Only this very origin may post it (``Origin`` absent or
  ``scheme://host``: 403, not counted, for another site, ``null`` or another scheme);
* ``GET /class/<code>/teach`` — the teacher's page (it needs the token to control);
  ``?puzzle=<puzzle code>`` (the editor's "hand to the class", kept through ``/class/new``)
  fills in the class puzzle, handed out with one click;
* ``GET /class/<code>`` — the students' page (phone first);
* ``GET /class/<code>/qr.svg`` — a QR code of the students' link (segno, SVG).

A code that leads nowhere counts against the client address's ``RATE_LIMIT_CLASS_MISSES``
(:func:`server.web.class_room.lookup`, shared with the socket's ``join``); beyond it the
address is answered 429 for every room but those it has a member in and the one this
browser opened.  The students' page gives a browser without one its ``kt_player``
cookie: a browser is one student in a room.

Everything live happens over Socket.IO (/class, server/web/class_socket.py).
"""

from __future__ import annotations

import io
import math
import secrets

import segno
from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_limiter import RateLimitExceeded

from ..classroom import clock, rooms
from ..classroom.feed import where_the_class_is
from ..classroom.lab_presets import PRESETS as LAB_PRESETS
from ..classroom.messages import ClassError
from ..engine.questions import KINDS
from ..engine.shape import MAX_CODE_LENGTH
from ..game.models import new_token
from ..i18n import request_lang, text
from ..lesson.chapters import CHAPTERS
from ..network import is_loopback_url
from ..stream.frame import format_number, frame_at, narration
from .class_room import hub, lookup
from .player import COOKIE as PLAYER_COOKIE
from .player import COOKIE_AGE as PLAYER_COOKIE_AGE
from .ratelimit import rate_limited, retry_after
from .security import same_origin

bp = Blueprint("classroom", __name__, url_prefix="/class")


def register(app: Flask) -> None:
    app.register_blueprint(bp)


def _ttl() -> float:
    return current_app.config["CLASS_ROOM_TTL"]


def _join_url(code: str) -> str:
    """The students' link: on ``PUBLIC_URL`` when set (``serve --lan`` sets it to this
    machine's LAN address), else on the host this request came to."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        path = url_for("classroom.student", code=code)[len(request.script_root) :]
        return public + path
    return url_for("classroom.student", code=code, _external=True)


def _live_room(code: str):
    try:
        return rooms.find_room(code, ttl=_ttl())
    except ClassError:
        return None


def _typed_room(code: str):
    """The room a client typed the code of (:func:`lookup`); None when there is none, a
    429 page when the address looked up too many codes in vain."""
    try:
        return lookup(code, known=lambda room: room.code == request.cookies.get(LAST_ROOM_COOKIE))
    except ClassError as err:
        if err.code != "rate-limited":
            return None
        seconds = err.params["seconds"]
        message = text(err.key, request_lang(), {"seconds": seconds})
        page = render_template("class_join.html", error=True, message=message, code=code[:32])
        response = current_app.make_response((page, 429))
        response.headers["Retry-After"] = str(seconds)
        abort(response)


def _page_room(code: str, endpoint: str):
    """The room of a page at a typed code; otherwise the page ends (:func:`abort`) with the
    join page's error (404), or a redirect to the room's own spelling of the code."""
    room = _typed_room(code)
    if room is None:
        page = render_template("class_join.html", error=True, code=code[:32])
        abort(current_app.make_response((page, 404)))
    if room.code != code:
        abort(redirect(url_for(endpoint, code=room.code)))
    return room


@bp.get("")
def join():
    code = request.args.get("code")
    if code:
        try:
            return redirect(url_for("classroom.student", code=rooms.normalize_code(code)), 303)
        except ClassError:
            return render_template("class_join.html", error=True, code=code[:32]), 404
    return render_template("class_join.html", error=False, code="")


def _puzzle_arg(values) -> str | None:
    """A puzzle code to hand the new class (the editor's link); the teacher page checks it."""
    code = (values.get("puzzle") or "").strip()
    return code[:MAX_CODE_LENGTH] or None


@bp.get("/new")
def new():
    response = current_app.make_response(
        render_template("class_new.html", error=None, puzzle=_puzzle_arg(request.args))
    )
    teacher_device(response)
    return response


# -- who opens rooms --------------------------------------------------------------------------
# A teacher who rehearses opens many rooms, and colleagues share a school's one NAT address:
# rooms are counted per teacher device (a cookie), and far more loosely per address.
DEVICE_COOKIE = "kt_teacher"
LAST_ROOM_COOKIE = "kt_last_room"  # the room this browser opened last: offered when refused
DEVICE_BYTES = 16
COOKIE_AGE = 365 * 24 * 3600


def _device_id() -> str | None:
    value = request.cookies.get(DEVICE_COOKIE, "")
    if len(value) == 2 * DEVICE_BYTES and all(ch in "0123456789abcdef" for ch in value):
        return value
    return None


def device_key() -> str:
    """Whose allowance a request to open a room uses: the teacher device's, or, without a
    device cookie (a script), its address's, all such requests together."""
    device = _device_id()
    return f"device:{device}" if device else f"device-less:{request.remote_addr}"


def teacher_device(response) -> None:
    """Give this browser its teacher-device cookie when it has none."""
    if _device_id() is None:
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_hex(DEVICE_BYTES),
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )


def _last_room():
    """The live room this browser opened last (its teacher key is in this browser)."""
    code = request.cookies.get(LAST_ROOM_COOKIE, "")
    try:
        return rooms.find_room(code, ttl=_ttl()) if code else None
    except ClassError:
        return None


@bp.errorhandler(RateLimitExceeded)
def too_many(err: RateLimitExceeded):
    """The "open a class" page again, saying how long to wait and offering the room this
    browser opened last, to go on with it."""
    seconds = retry_after()
    minutes = max(1, math.ceil(seconds / 60))
    words = {"seconds": seconds, "minutes": minutes}
    return _refused("class.error.rate-limited", words, 429, seconds)


def _refused(key: str, params: dict, status: int, seconds: int):
    """The "open a class" page saying why not (``key`` with ``params``), and when to retry."""
    page = render_template(
        "class_new.html",
        error=text(key, request_lang(), params),
        puzzle=_puzzle_arg(request.form),
        last_room=_last_room(),
    )
    response = current_app.make_response((page, status))
    response.headers["Retry-After"] = str(seconds)
    return response


def _room_caps() -> rooms.RoomCaps:
    config = current_app.config
    return rooms.RoomCaps(total=config["CLASS_ROOMS"], per_address=config["CLASS_ADDRESS_ROOMS"])


def _cross_origin() -> bool:
    return not same_origin(request.headers.get("Origin"), request.host, request.scheme)


@bp.post("/new")
@rate_limited("RATE_LIMIT_CLASS_ROOMS", exempt_when=_cross_origin)  # per client address
@rate_limited("RATE_LIMIT_CLASS_ROOMS_DEVICE", exempt_when=_cross_origin, key=device_key)
def open_room():
    if _cross_origin():  # refused, and not counted: another site cannot use up the allowance
        abort(403)
    try:
        opened = rooms.open_room(ttl=_ttl(), address=request.remote_addr, caps=_room_caps())
    except ClassError as err:  # too many live rooms: this address's (429), or the server's
        rooms.rollback()
        seconds = err.params["seconds"]
        g.retry_after = seconds  # the refusal's, not the limiter's (ratelimit.py's last hook)
        status = 429 if err.key.endswith(".address") else 503
        return _refused(err.key, err.params, status, seconds)
    puzzle = _puzzle_arg(request.form)
    target = url_for("classroom.teacher", code=opened.code, puzzle=puzzle)
    target += f"#token={opened.token}"
    response = redirect(target, 303)
    response.headers["Cache-Control"] = "no-store"
    teacher_device(response)
    response.set_cookie(
        LAST_ROOM_COOKIE,
        opened.code,
        max_age=int(_ttl()),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


@bp.get("/<code>/teach")
def teacher(code: str):
    room = _page_room(code, "classroom.teacher")
    join_url = _join_url(room.code)
    return render_template(
        "class_teacher.html",
        code=room.code,
        join_url=join_url,
        local_only=is_loopback_url(join_url),
        ttl=_ttl(),
        chapters=CHAPTERS,
        lab_presets=list(LAB_PRESETS),
        quiz_kinds=KINDS,
    )


@bp.get("/<code>")
def student(code: str):
    room = _page_room(code, "classroom.student")
    demo = _opening(room)
    page = render_template(
        "class_student.html",
        code=room.code,
        chapters=CHAPTERS,
        demo=demo,
        first=_first_frame(room, demo),
    )
    response = current_app.make_response(page)
    response.headers["Cache-Control"] = "no-store"  # it holds the class's position now
    _player_cookie(response)
    return response


def _player_cookie(response) -> None:
    """A browser without a ``kt_player`` cookie gets one: the id the room knows it by (one
    student per browser).  Nothing is stored for it: the levels' progress makes its
    player when the browser first plays a level (server/web/player.py)."""
    if not request.cookies.get(PLAYER_COOKIE):
        response.set_cookie(
            PLAYER_COOKIE,
            new_token(),
            max_age=PLAYER_COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )


def _opening(room) -> dict:
    """The room as the students' page opens, so that it draws the class's position while
    its socket connects and joins (the join's answer then only confirms it): the demo's
    settings and the room's state, and the snapshot at the class's index when this process
    follows the room's demo (else the join brings it).  The same a join answers, nothing
    more: a quiz's question and answer never come this way.
    """
    state, snapshot = where_the_class_is(room, hub().feed(room.code))
    return {"gen": room.gen, "settings": state["settings"], "state": state, "snapshot": snapshot}


def _first_frame(room, demo: dict) -> dict | None:
    """The class's position drawn into the page itself (templates/board_macros.html), so a
    phone shows it at its first paint, before the page's modules have loaded; the page's
    scripts then draw the same frame in its place (static/js/class/stage.js).  None when
    the page has no snapshot at the class's index (the join brings it; the scripts draw)."""
    state, snapshot = demo["state"], demo["snapshot"]
    if snapshot is None or state["gen"] <= 1 or snapshot["gen"] != state["gen"]:
        return None
    if snapshot["index"] != state["index"]:
        return None  # the search has not got there yet: the page says how far it has
    raced = "lanes" in snapshot  # a lesson's race: the page's own lane is the first
    lane, end = (snapshot["lanes"][0], snapshot["ends"][0]) if raced else (snapshot, state["end"])
    try:
        frame = frame_at(lane, clock.demo_of(room), end=end)
    except (ValueError, KeyError, IndexError):
        current_app.logger.warning("a class's snapshot gave no first frame", exc_info=True)
        return None
    lang = request_lang()

    def t(key: str, **params) -> str:
        return text(key, lang, params)

    playing = state["playing"] and frame.end is None
    return {
        "frame": frame,
        "algorithm": frame.demo.algorithm,
        "status": frame.status or ("running" if playing else "paused"),
        # none known (the snapshot stands on its own first event): as the page says it then
        "narration": narration(frame, t) or t("class.ui.loading"),
        "stats": {
            "nodes": format_number(frame.nodes),
            "backtracks": format_number(frame.backtracks),
            "depth": format_number(frame.depth),
            "squares": format_number(frame.squares),
            "max-depth": format_number(frame.max_depth),
            "shown": format_number(frame.pos),
        },
    }


@bp.get("/<code>/qr.svg")
def qr(code: str):
    room = _typed_room(code)
    if room is None:
        abort(404)
    svg = qr_svg(_join_url(room.code), title=room.code)
    response = current_app.response_class(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


def qr_svg(url: str, title: str) -> bytes:
    """The QR code of ``url`` as an SVG document."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(
        out, kind="svg", scale=8, border=2, xmldecl=False, title=title, dark="#111"
    )
    return out.getvalue()
