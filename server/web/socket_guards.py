"""Guards on the shared Socket.IO server against malformed client traffic.

They act below every namespace (/watch and /class alike).  :func:`install` puts them
on the server ``socketio.init_app`` made; :func:`guard_polling` puts the long-polling
one in front of the app.  What they enforce (docs/protocol.md, "Malformed input"):

* **A malformed frame closes the connection**, over a websocket and over long-polling
  alike, with one log line and no traceback.  Malformed means: an Engine.IO packet that
  does not decode, of a type a client never sends, or a message that is not a Socket.IO
  packet (:func:`frame_problem`, checked by :class:`FrameCheckedWebSocket` and
  :class:`PollingGuard`); a Socket.IO packet that does not decode or breaks the
  protocol's shapes (:class:`EventShapeCheck`), which :class:`MessageGuard` turns into
  the end of the connection.  python-engineio and python-socketio themselves log such
  packets with a traceback and go on, or (over long-polling) wait forever for a poll to
  drain the closed session's queue.
* **Numbers too long for the decoder are answered.**  python-engineio's JSON reads no
  integer literal over 100 digits (a guard against slow big-int parsing) and the whole
  message was dropped without an answer.  :class:`PacketJson` reads such a literal as
  the nearest float instead, as JavaScript's ``JSON.parse`` does: every field that needs
  an integer refuses it, and every float field finds it out of range, with the usual
  ``error`` event and acknowledgement.
* **A closed or unknown long-polling session** is answered 400 ``bad-session``
  (:class:`PollingGuard`); python-engineio answered a POST to a session the client had
  closed with an HTML 500.

The hooks into python-socketio / python-engineio these rely on (pyproject.toml pins both
to one minor release), each checked, with its parameters, by tests/web/test_socket_hooks.py
so that an upgrade that removes or reshapes one fails a test:
``server.packet_class`` and its ``json`` attribute (used to decode every client
packet), ``server.eio._async["websocket"]`` (the websocket class, private, with its
``__call__``, ``wait``, ``close`` and its simple-websocket connection's ``sock`` and
``thread``),
``server.eio.on("message", ...)`` / ``server.eio.handlers``, ``server.eio.sockets``
with each socket's ``closed``, ``upgraded`` and ``close(wait=False)``, and
``server.eio.send_packet`` (wrapped on the instance: :class:`ClosedSafeSend`), through
which every packet to a client goes.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import io
import json
import logging
import socket
import traceback
from pathlib import Path
from urllib.parse import parse_qs

from engineio.exceptions import SocketIsClosedError
from engineio.payload import Payload
from flask import Flask
from socketio import packet as sio

from .security import read_at_most, refuse

log = logging.getLogger(__name__)

ENGINEIO_PATH = "/socket.io/"  # Flask-SocketIO's default; the app never changes it
SOCKETIO_TYPES = frozenset("0123456")  # a Socket.IO packet's first character
MAX_INT_DIGITS = 100  # python-engineio's limit for integer literals
APP_DIR = str(Path(__file__).resolve().parent.parent)
READER_GRACE = 5.0  # seconds a websocket's reader thread has to end once its socket is shut


def install(server) -> None:
    """Add the guards to a python-socketio ``server`` (idempotent)."""
    if not issubclass(server.packet_class, EventShapeCheck):
        name = "Checked" + server.packet_class.__name__
        server.packet_class = type(name, (EventShapeCheck, server.packet_class), {})
    websocket = server.eio._async.get("websocket")
    if websocket is not None and not issubclass(websocket, FrameCheckedWebSocket):
        checked = type("FrameChecked" + websocket.__name__, (FrameCheckedWebSocket, websocket), {})
        server.eio._async = {**server.eio._async, "websocket": checked}
    handler = server.eio.handlers.get("message")
    if handler is not None and not isinstance(handler, MessageGuard):
        server.eio.on("message", MessageGuard(server, handler))
    if not isinstance(server.eio.send_packet, ClosedSafeSend):
        server.eio.send_packet = ClosedSafeSend(server.eio.send_packet)


def guard_polling(app: Flask) -> None:
    """Put :class:`PollingGuard` in front of ``app`` (after the Socket.IO middleware)."""
    app.wsgi_app = PollingGuard(app.wsgi_app, app.extensions["socketio_server"])


class ClosedSafeSend:
    """python-engineio's ``send_packet``, for a session that closes while a packet is on
    its way to it.

    ``send_packet`` drops a packet for a session that is gone or closed (one log line),
    but one that closes between its look-up and the send raises SocketIsClosedError,
    out of whatever thread was answering: an acknowledgement in python-socketio's
    handler thread, an ``error`` event, a broadcast.  Closing a connection on a malformed
    frame while its earlier messages are being answered makes that race common; the
    packet is dropped the same way.
    """

    def __init__(self, send_packet) -> None:
        self.send_packet = send_packet

    def __call__(self, sid, pkt):
        try:
            return self.send_packet(sid, pkt)
        except SocketIsClosedError:
            log.info("dropped a packet for %s: the session closed meanwhile", sid)
            return None


def hang_up(engine, sid: str) -> None:
    """End an Engine.IO session at once: its disconnect handlers run (runs stop, the
    member leaves its room), a close packet goes to the client.

    python-engineio's own ``disconnect`` waits until the session's queue is drained,
    which over long-polling only a later poll does: called from the request that
    brought the bad packet it would wait forever.
    """
    sock = engine.sockets.get(sid)
    if sock is not None and not sock.closed:
        sock.close(wait=False, abort=False)


# -- Engine.IO ---------------------------------------------------------------------------


def frame_problem(frame, polling: bool = False) -> str | None:
    """Why an Engine.IO packet a client sent is malformed, or None when it is not.

    A client sends a close (``1``), a pong (``3``), a message (``4`` followed by a
    Socket.IO packet), and, while upgrading to a websocket, a ping and an upgrade
    (``2probe``, ``5``).  Binary data comes as a binary websocket frame or as ``b`` and
    base64.  Over long-polling only ``1``, ``3``, ``4`` and ``b`` may come (python-engineio
    ends the session on any other, but only after waiting for it to drain).  On a
    websocket, ``0``, ``2``, ``5`` and ``6`` are ignored by python-engineio, as the
    protocol allows.
    """
    if not isinstance(frame, str):
        return None  # a binary websocket frame: a Socket.IO attachment
    if not frame:
        return "an empty packet"
    kind, rest = frame[0], frame[1:]
    if kind == "b":
        try:
            base64.b64decode(rest, validate=True)
        except (binascii.Error, ValueError):
            return "binary data that is not base64"
        return None
    if kind not in "0123456":
        return f"packet type {kind[:1]!r}"
    if kind == "4":
        if rest[:1] not in SOCKETIO_TYPES:
            return "a message that is not a Socket.IO packet"
        return None
    if rest not in ("", "probe"):
        return f"data {rest[:20]!r} in a packet of type {kind}"
    if polling and kind not in "13":
        return f"a packet of type {kind} over long-polling"
    return None


def payload_problem(text: str) -> str | None:
    """Why a long-polling POST body is malformed, or None (see :func:`frame_problem`)."""
    if text.startswith("d="):  # JSONP
        try:
            text = parse_qs(text, strict_parsing=True)["d"][0]
        except (KeyError, ValueError):
            return "a JSONP body without its data"
    frames = text.split("\x1e")
    if len(frames) > Payload.max_decode_packets:
        return f"{len(frames)} packets in one body"
    for frame in frames:
        problem = frame_problem(frame, polling=True)
        if problem:
            return problem
    return None


class FrameCheckedWebSocket:
    """Mixed into python-engineio's websocket class: a malformed frame ends the connection.

    python-engineio (4.x) decodes each websocket frame outside its error handling: a text
    frame that is empty or does not start with a packet type ("a", "", "b!"), or a message
    nested too deep for its JSON attempt ("4[[[..."), raises out of the connection's loop,
    skipping its cleanup; a packet type it does not know ("9") is dropped.  Reporting
    such a frame as the end of the connection (``None``) takes engine.io's normal close
    path: the disconnect handler stops the runs at once.

    Its ``close`` (python-engineio's writer thread calls it last) sends a close frame
    if the socket looks connected; simple-websocket's reader thread, seeing the
    client's own close at that moment, closes the socket in between, and the send
    raised ``OSError: [Errno 9] Bad file descriptor`` out of the writer thread, a
    traceback in the log.  There is nothing left to close then.

    When the connection is over (the app returns, ``__call__``), simple-websocket's
    reader thread may still wait for the client's close.  The HTTP server then closed
    the socket under it: a close does not wake a thread waiting on the socket, and the
    descriptor's number, reused by the next connection, had the old reader wait on
    (or read from) someone else's socket.  The socket is shut down instead, which
    wakes the reader; it closes the socket itself on its way out, and is waited for.
    """

    def __call__(self, environ, start_response):
        try:
            return super().__call__(environ, start_response)
        finally:
            connection = getattr(self, "ws", None)  # simple_websocket.Server, once open
            if connection is not None:
                with contextlib.suppress(OSError):  # already closed by its reader
                    connection.sock.shutdown(socket.SHUT_RDWR)
                connection.thread.join(READER_GRACE)

    def wait(self):
        data = super().wait()
        problem = frame_problem(data)
        if problem is not None:
            log.warning("closing a websocket after a malformed Engine.IO frame (%s)", problem)
            return None
        return data

    def close(self):
        with contextlib.suppress(OSError):  # closed meanwhile by the reader thread
            super().close()


class PollingGuard:
    """WSGI middleware in front of the Engine.IO long-polling transport.

    * a request for a session that is unknown or closed (the client sent ``1``, or a
      malformed frame ended it) is answered 400 ``bad-session``;
    * a POST body is read here (at most the transport's limit: beyond it 413
      ``too-large``) and checked (:func:`payload_problem`): a malformed one ends the
      session and is answered 400 ``bad-frame``.  python-engineio logged it with a
      traceback and answered 200, and for some packet types waited forever.
    """

    def __init__(self, wsgi_app, server) -> None:
        self.wsgi_app = wsgi_app
        self.server = server

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "POST") or not environ.get("PATH_INFO", "").startswith(
            ENGINEIO_PATH
        ):
            return self.wsgi_app(environ, start_response)
        sid = parse_qs(environ.get("QUERY_STRING", "")).get("sid", [None])[0]
        if sid is None:
            return self.wsgi_app(environ, start_response)
        engine = self.server.eio
        sock = engine.sockets.get(sid)
        if sock is None or sock.closed:
            return refuse(environ, start_response, 400, "bad-session", "error.bad-session")
        if method == "POST" and not sock.upgraded:
            length = int(environ.get("CONTENT_LENGTH") or 0)  # a number: security.BodyLimit
            if length > engine.max_http_buffer_size:
                log.warning("closing a long-polling session after a body of %d bytes", length)
                hang_up(engine, sid)
                return refuse(environ, start_response, 413, "too-large", "error.too-large")
            body = read_at_most(environ["wsgi.input"], length)
            try:
                problem = payload_problem(body.decode("utf-8"))
            except UnicodeDecodeError:
                problem = "a body that is not UTF-8"
            if problem is not None:
                log.warning("closing a long-polling session after a malformed body (%s)", problem)
                hang_up(engine, sid)
                return refuse(environ, start_response, 400, "bad-frame", "error.bad-frame")
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        started = []

        def start(status, headers, exc_info=None):
            started.append(status)
            return start_response(status, headers, exc_info)

        try:
            return self.wsgi_app(environ, start)
        except KeyError:
            # the session ended between the look-up above and python-engineio's own
            # (which raises KeyError('Session is disconnected') on a POST)
            if started or not (sock.closed or sid not in engine.sockets):
                raise
            return refuse(environ, start_response, 400, "bad-session", "error.bad-session")


# -- Socket.IO ---------------------------------------------------------------------------


def _int_or_float(literal: str):
    return int(literal) if len(literal) <= MAX_INT_DIGITS else float(literal)


class PacketJson:
    """The JSON module of the server's Socket.IO packets (python-socketio's ``json``).

    As python-engineio's (``engineio.json``), except for an integer literal longer than
    100 characters: that one is read as the nearest float (``inf`` beyond 1e308), as
    JavaScript's ``JSON.parse`` reads it, instead of failing the whole message.
    """

    @staticmethod
    def dumps(*args, **kwargs):
        return json.dumps(*args, **kwargs)

    @staticmethod
    def loads(*args, **kwargs):
        kwargs.setdefault("parse_int", _int_or_float)
        return json.loads(*args, **kwargs)


class EventShapeCheck:
    """Mixed into python-socketio's packet class: what a client's packet must look like.

    python-socketio takes ``data[0]`` of an event packet as the event name without
    looking: ``42/watch,`` or ``42/watch,[]`` fail while it logs, ``42/watch,[{}]`` fails
    in its handler thread; a connect packet with a list (``40/watch,[1]``) is taken as
    its auth.  Refusing them while decoding makes them malformed packets like any other
    (:class:`MessageGuard` ends the connection).  The protocol's shapes: an event is a
    list that starts with its name, an acknowledgement a list, a connect's data an
    object or nothing, a disconnect has none; a client never sends a connect error.  The
    attachments a binary packet announces are binary frames (python-socketio would take
    the next text message, a whole event, as one).
    """

    json = PacketJson

    def add_attachment(self, attachment):
        if not isinstance(attachment, bytes | bytearray):
            raise ValueError("a binary packet's attachment must be binary")
        return super().add_attachment(attachment)

    def decode(self, encoded_packet):
        if not isinstance(encoded_packet, str) or encoded_packet[:1] not in SOCKETIO_TYPES:
            raise ValueError("not a Socket.IO packet")
        attachments = super().decode(encoded_packet)
        kind, data = self.packet_type, self.data
        if kind in (sio.EVENT, sio.BINARY_EVENT):
            if not (isinstance(data, list) and data and isinstance(data[0], str)):
                raise ValueError("an event packet must be a list that starts with the event name")
        elif kind in (sio.ACK, sio.BINARY_ACK):
            if not isinstance(data, list):
                raise ValueError("an acknowledgement must be a list")
        elif kind == sio.CONNECT:
            if data is not None and not isinstance(data, dict):
                raise ValueError("a connect packet's data must be an object")
        elif kind == sio.DISCONNECT:
            if data is not None:
                raise ValueError("a disconnect packet has no data")
        else:
            raise ValueError(f"a client does not send packets of type {kind}")
        return attachments


def _through_app(tb) -> bool:
    """Whether a traceback passes through this app's code (the guards' checks aside)."""
    return any(
        frame.filename.startswith(APP_DIR) and frame.filename != __file__
        for frame in traceback.extract_tb(tb)
    )


class MessageGuard:
    """python-socketio's Engine.IO message handler, with a malformed packet ending the
    connection instead of a traceback in the log.

    python-socketio decodes a message and dispatches it (events go to a handler thread;
    connects run here).  An exception raised on the way that does not pass through this
    app is the client's doing (broken JSON, a shape :class:`EventShapeCheck` refuses, a
    binary attachment nobody announced): one log line, and the session is hung up.  One
    that passes through the app is a bug: it is raised again and logged whole.  Packets
    that arrive after the hang-up (the rest of a long-polling body) are ignored.
    """

    def __init__(self, server, handler) -> None:
        self.server = server
        self.handler = handler

    def __call__(self, eio_sid, data):
        sock = self.server.eio.sockets.get(eio_sid)
        if sock is None or sock.closed:
            return None
        try:
            return self.handler(eio_sid, data)
        except Exception as err:
            if _through_app(err.__traceback__):
                raise
            log.warning(
                "closing a connection after a malformed Socket.IO packet (%s: %.200s)",
                type(err).__name__,
                err,
            )
            hang_up(self.server.eio, eio_sid)
            return None
