"""What Engine.IO sessions may cost: per-address caps, and no thread per idle session.

In threading mode python-engineio spends a thread on every session for its heartbeat:
``Socket.schedule_ping`` starts one that sleeps ``ping_interval`` (25 s) and then queues
a PING, and again after every PONG.  A long-polling handshake that is never followed up
keeps that thread, and the session (its queue, python-socketio's copy of the request's
environ), until its ping times out 45 s later: 10,000 handshakes from one address in
9 s made 10,002 threads and 180 MB.  Here:

* :class:`SessionLimit` (WSGI middleware in front of Engine.IO) counts the sessions of
  each client address and answers a handshake beyond ``SOCKETIO_SESSIONS_PER_ADDRESS``
  with 429 ``too-many-connections`` (and ``Retry-After``); this machine's own
  127.0.0.1 is not capped (server/limits/connections.py);
* :class:`Keeper` is one thread for every session's heartbeat and for the handshakes
  never followed up: it sends each session's PING when due (what the per-ping thread
  did after its sleep) and closes a long-polling session whose client sent no request
  after its handshake within :data:`HANDSHAKE_TIMEOUT` (socket.io-client sends its
  namespace's CONNECT at once).

The hooks into python-engineio / python-socketio (pinned to one minor release in
pyproject.toml, each checked by tests/web/test_socket_hooks.py):
``engineio.socket.Socket.schedule_ping`` is replaced on the class by
:func:`schedule_ping` (upstream's, unchanged, for a server without a keeper: each one
names its keeper in an attribute, ``KEEPER``), which reads the socket's ``last_ping``,
``closing``, ``closed``, ``server`` and calls ``send``; the Engine.IO ``connect`` and
``disconnect`` handlers python-socketio registers (``server.eio.handlers``, called with
``(sid, environ)`` and ``(sid, reason)``) are wrapped to count sessions per address;
``server.eio.sockets`` is read to forget sessions that ended without a disconnect.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from urllib.parse import parse_qs

from engineio import packet
from engineio import socket as engine_socket
from flask import Flask

from ..limits.connections import counted_per_address
from .security import refuse
from .socket_guards import ENGINEIO_PATH, hang_up

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT = 10.0  # seconds a long-polling session has to send its first request
RETRY_AFTER = 5  # seconds, in a refused handshake's Retry-After
SWEEP_INTERVAL = 30.0  # seconds between looks for sessions gone without a disconnect
KEEPER = "_knights_tour_keeper"  # the attribute of an engineio.Server naming its Keeper

_upstream_schedule_ping = engine_socket.Socket.schedule_ping


def schedule_ping(self) -> None:
    """``Socket.schedule_ping``: the next PING in ``ping_interval``, on the server's
    keeper instead of a thread of its own (upstream's without a keeper)."""
    keeper = getattr(self.server, KEEPER, None)
    if keeper is None:
        return _upstream_schedule_ping(self)
    if self.last_ping:  # as upstream: only once the previous ping was answered
        self.last_ping = None
        keeper.ping_later(self)
    return None


class Keeper:
    """One thread for the heartbeats of an Engine.IO server's sessions and the end of
    handshakes never followed up; it also counts the sessions of each address."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.changed = threading.Condition()
        self.due: list[tuple[float, int, str, object]] = []  # (when, n, what, socket or sid)
        self.numbers = itertools.count()
        self.address_of: dict[str, str] = {}  # sid -> client address
        self.sessions: dict[str, int] = {}  # client address -> open sessions
        self.pending: set[str] = set()  # long-polling sids not followed up yet
        self.thread: threading.Thread | None = None
        self.swept = time.monotonic()

    # -- counting ------------------------------------------------------------------------------
    def opened(self, sid: str, address: str, polling: bool) -> None:
        with self.changed:
            if sid in self.address_of:
                return
            self.address_of[sid] = address
            self.sessions[address] = self.sessions.get(address, 0) + 1
            if polling:
                self.pending.add(sid)
                self._schedule(HANDSHAKE_TIMEOUT, "handshake", sid)

    def closed(self, sid: str) -> None:
        with self.changed:
            self.pending.discard(sid)
            address = self.address_of.pop(sid, None)
            if address is None:
                return
            left = self.sessions.get(address, 0) - 1
            if left > 0:
                self.sessions[address] = left
            else:
                self.sessions.pop(address, None)

    def followed(self, sid: str) -> None:
        """The client of ``sid`` sent a request after its handshake."""
        if sid in self.pending:
            with self.changed:
                self.pending.discard(sid)

    def held(self, address: str) -> int:
        with self.changed:
            return self.sessions.get(address, 0)

    # -- the thread ----------------------------------------------------------------------------
    def ping_later(self, sock) -> None:
        with self.changed:
            self._schedule(self.engine.ping_interval, "ping", sock)

    def _schedule(self, delay: float, what: str, subject) -> None:
        """(with the lock held)"""
        heapq.heappush(self.due, (time.monotonic() + delay, next(self.numbers), what, subject))
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="engineio-keeper", daemon=True)
            self.thread.start()
        else:
            self.changed.notify()  # it may be the earliest now

    def _run(self) -> None:
        """Act on what is due, earliest first; end once idle (no session, nothing due)."""
        while True:
            with self.changed:
                now = time.monotonic()
                ready = None
                if self.due and self.due[0][0] <= now:
                    ready = heapq.heappop(self.due)
                elif self.due or self.address_of:
                    wait = self.due[0][0] - now if self.due else SWEEP_INTERVAL
                    self.changed.wait(min(wait, SWEEP_INTERVAL))
                else:
                    self.thread = None  # _schedule starts another when needed
                    return
            if ready is not None:
                self._act(ready[2], ready[3])
            if time.monotonic() - self.swept > SWEEP_INTERVAL:
                self._sweep()

    def _act(self, what: str, subject) -> None:
        try:
            if what == "ping":
                sock = subject
                if not sock.closing and not sock.closed:  # upstream's _send_ping, slept
                    sock.last_ping = time.time()
                    sock.send(packet.Packet(packet.PING))
            elif subject in self.pending:  # a handshake never followed up
                log.info("closing a long-polling session never followed up after its handshake")
                self.pending.discard(subject)
                hang_up(self.engine, subject)
        except Exception as err:  # the session ended meanwhile
            log.info("engine.io keeper: %s %s: %s", what, type(err).__name__, err)

    def _sweep(self) -> None:
        """Forget sessions that ended without a disconnect (a refused connect)."""
        self.swept = time.monotonic()
        sockets = self.engine.sockets
        for sid in [sid for sid in list(self.address_of) if sid not in sockets]:
            self.closed(sid)


class CountedConnect:
    """python-socketio's Engine.IO ``connect`` handler, counting accepted sessions."""

    def __init__(self, keeper: Keeper, handler) -> None:
        self.keeper = keeper
        self.handler = handler

    def __call__(self, sid, environ):
        result = self.handler(sid, environ)
        if result is None or result is True:
            query = parse_qs(environ.get("QUERY_STRING", ""))
            polling = query.get("transport", ["polling"])[0] == "polling"
            self.keeper.opened(sid, environ.get("REMOTE_ADDR", ""), polling)
        return result


class CountedDisconnect:
    """python-socketio's Engine.IO ``disconnect`` handler, uncounting the session."""

    def __init__(self, keeper: Keeper, handler) -> None:
        self.keeper = keeper
        self.handler = handler

    def __call__(self, sid, *reason):
        self.keeper.closed(sid)
        return self.handler(sid, *reason)


def install(server) -> Keeper:
    """Give a python-socketio ``server``'s Engine.IO server a keeper (idempotent)."""
    engine = server.eio
    keeper = getattr(engine, KEEPER, None)
    if keeper is None:
        keeper = Keeper(engine)
        setattr(engine, KEEPER, keeper)
    engine_socket.Socket.schedule_ping = schedule_ping
    connect = engine.handlers.get("connect")
    if connect is not None and not isinstance(connect, CountedConnect):
        engine.on("connect", CountedConnect(keeper, connect))
    disconnect = engine.handlers.get("disconnect")
    if disconnect is not None and not isinstance(disconnect, CountedDisconnect):
        engine.on("disconnect", CountedDisconnect(keeper, disconnect))
    return keeper


class SessionLimit:
    """WSGI middleware in front of Engine.IO: a handshake from an address that holds
    ``per_address`` sessions is refused (429); a request on a session marks it
    followed up."""

    def __init__(self, wsgi_app, keeper: Keeper, per_address: int) -> None:
        self.wsgi_app = wsgi_app
        self.keeper = keeper
        self.per_address = per_address
        self.warned: dict[str, float] = {}  # address -> when its refusals were last logged

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").startswith(ENGINEIO_PATH):
            return self.wsgi_app(environ, start_response)
        sid = parse_qs(environ.get("QUERY_STRING", "")).get("sid", [None])[0]
        if sid is not None:
            self.keeper.followed(sid)
            return self.wsgi_app(environ, start_response)
        address = environ.get("REMOTE_ADDR", "")
        if (
            self.per_address
            and environ.get("REQUEST_METHOD") == "GET"
            and counted_per_address(address)
            and self.keeper.held(address) >= self.per_address
        ):
            self._warn(address)
            return refuse(
                environ,
                start_response,
                429,
                "too-many-connections",
                "error.too-many-connections",
                retry_after=RETRY_AFTER,
            )
        return self.wsgi_app(environ, start_response)

    def _warn(self, address: str) -> None:
        now = time.monotonic()
        if now - self.warned.get(address, -60.0) >= 60.0:
            self.warned[address] = now
            log.warning("refusing handshakes from %s: %d sessions open", address, self.per_address)


def guard_handshakes(app: Flask) -> None:
    """Put :class:`SessionLimit` in front of ``app`` (after the Socket.IO middleware)."""
    server = app.extensions["socketio_server"]
    keeper = getattr(server.eio, KEEPER)
    app.wsgi_app = SessionLimit(app.wsgi_app, keeper, app.config["SOCKETIO_SESSIONS_PER_ADDRESS"])
