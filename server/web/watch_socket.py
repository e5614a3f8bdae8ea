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

from engineio.exceptions import SocketIsClosedError
from flask import Flask, current_app, request

from ..engine.board import BoardError
from ..extensions import socketio
from ..i18n import reason_text, request_lang, text
from ..stream.runs import ClientGone, Run, RunRegistry
from ..stream.source import open_events, root_prefix
from ..stream.spec import (
    GameInfo,
    ProtocolError,
    RunSpec,
    parse_credit,
    parse_start,
    parse_stop,
    run_of,
)

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


def _handler(name: str, *, register: bool = True):
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

        if register:
            socketio.on_event(name, handle, namespace=NAMESPACE)
        return handle

    return wrap


# A client's *event* named "connect" or "disconnect": python-socketio hands those to the
# (dis)connect handlers too.  Replayed, "connect" would swap the connection's record (its
# runs would never be stopped) and "disconnect" would stop its runs.  Both are refused.
# (Other unknown events are dropped by python-socketio without an answer; a catch-all
# "*" handler is avoided on purpose: Flask-SocketIO calls it with shifted arguments for
# an event literally named "*".)
@_handler("reserved", register=False)
def _refuse_event(conn, payload):
    registry().admit(conn)
    raise ProtocolError("bad-request")


def is_client_event(server, namespace: str) -> bool:
    """Whether a connect/disconnect handler runs for a client's event of that name.

    A real connection runs them while the sid is not yet (or no longer) connected.
    (Shared with /class, where a forged one would replace a member or drop it from its room.)
    """
    return server.manager.is_connected(request.sid, namespace)


def _client_event() -> bool:
    return is_client_event(_server(), NAMESPACE)


@socketio.on("connect", namespace=NAMESPACE)
def on_connect(auth=None, *extra):
    if _client_event():
        return _refuse_event(auth)
    registry().connect(request.sid, request.remote_addr or "", request_lang())
    return None


@socketio.on("disconnect", namespace=NAMESPACE)
def on_disconnect(*reason):
    if _client_event():
        return _refuse_event(*reason[:1])
    registry().disconnect(request.sid)
    return None


@_handler("start")
def on_start(conn, payload):
    runs = registry()
    runs.admit(conn, start=True)
    spec = parse_start(payload, load_game)
    start_run(runs, conn, spec, _server(), NAMESPACE)
    return start_ack(spec)


def start_run(runs: RunRegistry, conn, spec: RunSpec, server, namespace: str) -> Run:
    """Start ``spec``'s run on ``conn`` in ``runs``, its events emitted on ``namespace``.

    Shared with /class.  The input is checked now (a BoardError is a ProtocolError); the
    search starts in the run's task.
    """
    sid = conn.sid

    def send(event: str, data: dict) -> None:
        try:
            server.emit(event, data, to=sid, namespace=namespace)
        except SocketIsClosedError as err:  # a disconnect racing the batch
            raise ClientGone(sid) from err

    try:
        events = open_events(spec)  # checks the input now; the search starts in the task
    except BoardError as err:  # a stored game whose path the engine refuses
        raise ProtocolError("unknown-game" if spec.game else "bad-request", run=spec.run) from err
    gate = threading.current_thread() if server.async_handlers else None
    return runs.start(conn, spec, lambda: events, send, gate=gate)


def start_ack(spec: RunSpec, **extra) -> dict:
    """The ``start`` acknowledgement of ``spec`` (``extra`` goes right after the run id)."""
    return {
        "ok": True,
        "run": spec.run,
        **extra,
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
