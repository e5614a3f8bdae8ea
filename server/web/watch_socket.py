"""Socket.IO namespace ``/watch``: the live search stream of docs/protocol.md.

The handlers only translate: a message is validated by its model (server/stream/spec.py),
handed to the app's :class:`~server.stream.runs.RunRegistry`, and every refusal is
answered by :class:`~server.web.sockets.AnsweringNamespace`.  No handler searches:
each run's search runs in its own background task.
"""

from __future__ import annotations

import threading

from engineio.exceptions import SocketIsClosedError
from flask import Flask, current_app, request

from ..engine.board import BoardError
from ..game.rules import RuleError
from ..game.service import load
from ..i18n import request_lang
from ..stream.run import ClientGone, Run
from ..stream.runs import RunRegistry
from ..stream.source import open_events, root_prefix
from ..stream.spec import (
    CreditMessage,
    GameInfo,
    ProtocolError,
    RunSpec,
    SeekMessage,
    StopMessage,
    parse_start,
    run_of,
)
from ..stream.timeline import Demo, Timeline
from . import budgets
from .sockets import AnsweringNamespace, is_client_event, server

NAMESPACE = "/watch"
EXTENSION = "watch_runs"


def init_app(app: Flask) -> None:
    """Give the app its run registry (the namespace is registered by create_app), under the
    app's search limits and memory budget (server/web/budgets.py)."""
    app.extensions[EXTENSION] = RunRegistry(
        app.extensions["socketio_server"].start_background_task,
        searches=budgets.searches(app),
        memory=budgets.memory(app),
    )


def registry(app: Flask | None = None) -> RunRegistry:
    return (app or current_app).extensions[EXTENSION]


def load_game(game_id: str) -> GameInfo | None:
    """The stored game's board and path, or None when there is no such game."""
    try:
        state = load(game_id).state
    except RuleError:
        return None
    return GameInfo(state.rows, state.cols, state.closed, tuple(state.path), state.holes)


class WatchNamespace(AnsweringNamespace):
    def language(self, sid: str) -> str | None:
        conn = registry().connection(sid)
        return conn.lang if conn is not None else None

    def throttle(self, sid: str):
        return registry().connection(sid)

    def _connection(self, payload):
        conn = registry().connection(request.sid)
        if conn is None:  # pragma: no cover - a message racing the disconnect
            raise ProtocolError("unknown-run", None, run_of(payload))
        return conn

    def on_connect(self, auth=None, *extra):
        if is_client_event(self.namespace):
            return self.refuse_client_event(auth)
        registry().connect(request.sid, request.remote_addr or "", request_lang())
        return None

    def on_disconnect(self, *reason):
        if is_client_event(self.namespace):  # a client's event, with whatever arguments
            return self.refuse_client_event(reason[0] if reason else None)
        registry().disconnect(request.sid)
        return None

    def on_start(self, payload):
        conn = self._connection(payload)
        runs = registry()
        runs.admit(conn, start=True)
        spec = parse_start(payload, load_game)
        start_run(runs, conn, spec, server(), self.namespace)
        return start_ack(spec)

    def on_credit(self, payload):
        conn = self._connection(payload)
        runs = registry()
        runs.admit(conn)
        message = CreditMessage.model_validate(payload)
        granted = runs.grant(conn, message.run, message.events)
        answer = {"ok": True, "run": message.run}
        if granted is not None and granted < message.events:  # capped: say how much
            answer["granted"] = granted
        return answer

    def on_seek(self, payload):
        """Stand at an index (or the end): the run's task computes, then sends a snapshot."""
        conn = self._connection(payload)
        runs = registry()
        runs.admit(conn)
        seek = SeekMessage.model_validate(payload)
        gate = threading.current_thread() if server().async_handlers else None
        runs.seek(conn, seek, gate)
        return {"ok": True, "run": seek.run}

    def on_stop(self, payload):
        conn = self._connection(payload)
        runs = registry()
        runs.admit(conn)
        run_id = StopMessage.model_validate(payload).run
        runs.stop(conn, run_id)
        return {"ok": True, "run": run_id}


def start_run(runs: RunRegistry, conn, spec: RunSpec, sio_server, namespace: str) -> Run:
    """Start ``spec``'s run on ``conn`` in ``runs``, its events emitted on ``namespace``.

    The input is checked now (a BoardError is a ProtocolError); the search starts in the
    run's task.
    """
    sid = conn.sid

    def send(event: str, data: dict) -> None:
        try:
            sio_server.emit(event, data, to=sid, namespace=namespace)
        except SocketIsClosedError as err:  # a disconnect racing the batch
            raise ClientGone(sid) from err

    gate = threading.current_thread() if sio_server.async_handlers else None
    if not spec.prefix:  # a fresh run: its timeline serves the stream and every seek
        return runs.start(conn, spec, None, send, gate=gate, timeline=lambda: timeline_of(spec))
    try:
        events = open_events(spec)  # checks the input now; the search starts in the task
    except BoardError as err:  # a stored game whose path the engine refuses
        raise ProtocolError("unknown-game" if spec.game else "bad-request", run=spec.run) from err
    return runs.start(conn, spec, lambda: events, send, gate=gate)


def timeline_of(spec: RunSpec) -> Timeline:
    """The timeline of a fresh run: its search, its budget, its time limit (of computing)."""
    return Timeline(Demo.of(spec))


def start_ack(spec: RunSpec) -> dict:
    """The ``start`` acknowledgement of ``spec``."""
    return {
        "ok": True,
        "run": spec.run,
        "rows": spec.rows,
        "cols": spec.cols,
        "start": spec.start,
        "holes": sorted(spec.holes),
        "prefix": root_prefix(spec),
        "algorithm": spec.algorithm,
        "closed": spec.closed,
        "pruning": spec.pruning,
        "counts": spec.counts,
        "node_budget": spec.node_budget,
        "time_limit": spec.time_limit,
    }
