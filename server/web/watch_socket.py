"""Socket.IO namespace ``/watch``: the live search stream of docs/protocol.md.

The handlers only translate: a message is validated by :mod:`server.stream.spec`,
handed to the app's :class:`~server.stream.runs.RunRegistry`, and every refusal is
answered by an ``error`` event (and, when the client asked for one, an acknowledgement
``{"ok": false, "error": ...}``) in the connection's language.  No handler raises and
none searches: each run's search runs in its own background task.
"""

from __future__ import annotations

import functools
import logging
import threading
import time

from flask import Flask, current_app, request

from ..engine.board import BoardError
from ..extensions import socketio
from ..i18n import reason_text, request_lang, text
from ..stream.runs import RunRegistry
from ..stream.source import open_events, root_prefix
from ..stream.spec import GameInfo, ProtocolError, parse_credit, parse_start, parse_stop, run_of

NAMESPACE = "/watch"
EXTENSION = "watch_runs"
SERVER = "watch_socketio_server"

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Give the app its run registry (handlers are registered once, at import).

    Called right after ``socketio.init_app(app)``: the Socket.IO server it made is kept
    with the app, because the shared ``socketio`` object only remembers the last app
    it was bound to (tests build many apps) and runs must emit through their own.
    """
    server = socketio.server
    app.extensions[EXTENSION] = RunRegistry(server.start_background_task)
    app.extensions[SERVER] = server


def registry(app: Flask | None = None) -> RunRegistry:
    return (app or current_app).extensions[EXTENSION]


def _server():
    return current_app.extensions[SERVER]


def load_game(game_id: str) -> GameInfo | None:
    """The stored game's board and path, or None when there is no such game."""
    from ..game.rules import RuleError
    from ..game.service import load

    try:
        state = load(game_id).state
    except RuleError:
        return None
    return GameInfo(state.rows, state.cols, state.closed, tuple(state.path))


def error_body(err: ProtocolError, lang: str) -> dict:
    params = dict(err.params)
    if err.key == "watch.error.bad-board.no-tour":
        params["reason"] = reason_text(
            "theory", params.pop("reason_code"), params.pop("reason_params"), params["reason"], lang
        )
    return {"run": err.run, "code": err.code, "message": text(err.key, lang, params)}


def _handler(name: str):
    """Register ``name`` on /watch; ProtocolError (or any bug) becomes an error event."""

    def wrap(fn):
        @functools.wraps(fn)
        def handle(payload=None, *extra):
            conn = registry().connection(request.sid)
            lang = conn.lang if conn is not None else request_lang()
            try:
                if conn is None:  # pragma: no cover - a message racing the disconnect
                    raise ProtocolError("unknown-run", None, run_of(payload))
                return fn(conn, payload)
            except ProtocolError as err:
                if err.run is None:
                    err.run = run_of(payload)
                body = error_body(err, lang)
                if err.code == "rate-limited" and conn is not None:
                    # a flood gets one error a second, not one per message
                    now = time.monotonic()
                    if now - conn.last_rate_error < 1.0:
                        return {"ok": False, "error": body}
                    conn.last_rate_error = now
            except Exception:
                log.exception("watch %s handler failed", name)
                body = error_body(ProtocolError("bad-request", "watch.error.internal"), lang)
                body["run"] = run_of(payload)
            _server().emit("error", body, to=request.sid, namespace=NAMESPACE)
            return {"ok": False, "error": body}

        socketio.on_event(name, handle, namespace=NAMESPACE)
        return handle

    return wrap


@socketio.on("connect", namespace=NAMESPACE)
def on_connect(auth=None):
    registry().connect(request.sid, request.remote_addr or "", request_lang())


@socketio.on("disconnect", namespace=NAMESPACE)
def on_disconnect(*reason):
    registry().disconnect(request.sid)


@_handler("start")
def on_start(conn, payload):
    runs = registry()
    runs.admit(conn, start=True)
    spec = parse_start(payload, load_game)
    server = _server()
    sid = conn.sid

    def send(event: str, data: dict) -> None:
        server.emit(event, data, to=sid, namespace=NAMESPACE)

    try:
        events = open_events(spec)  # checks the input now; the search starts in the task
    except BoardError as err:  # a stored game whose path the engine refuses
        raise ProtocolError("unknown-game" if spec.game else "bad-request", run=spec.run) from err
    gate = threading.current_thread() if server.async_handlers else None
    runs.start(conn, spec, lambda: events, send, gate=gate)
    return {
        "ok": True,
        "run": spec.run,
        "rows": spec.rows,
        "cols": spec.cols,
        "start": spec.start,
        "prefix": root_prefix(spec),
        "algorithm": spec.algorithm,
        "closed": spec.closed,
        "pruning": spec.pruning,
        "counts": spec.counts,
        "node_budget": spec.node_budget,
        "time_limit": spec.time_limit,
    }


@_handler("credit")
def on_credit(conn, payload):
    runs = registry()
    runs.admit(conn)
    run_id, events = parse_credit(payload)
    runs.grant(conn, run_id, events)
    return {"ok": True, "run": run_id}


@_handler("stop")
def on_stop(conn, payload):
    runs = registry()
    runs.admit(conn)
    run_id = parse_stop(payload)
    runs.stop(conn, run_id)
    return {"ok": True, "run": run_id}
