"""Flask extensions shared by the app: the Socket.IO server for the live watch stream.

``socketio`` is created unbound and bound to an app by :func:`init_socketio` in
``create_app``.  Threading mode is explicit (websockets through simple-websocket), so
an installed eventlet or gevent is never picked up by auto-detection.
"""

from __future__ import annotations

from flask import Flask
from flask_socketio import SocketIO

socketio = SocketIO()

MAX_MESSAGE_BYTES = 16 * 1024  # every client message of the watch protocol is tiny


def cors_origins(value):
    """Config value -> python-socketio's ``cors_allowed_origins``; None = same origin only.

    Accepts a list or a comma-separated string.  A wildcard is refused: the watch stream
    costs CPU, and any page on the web could otherwise start runs from a visitor's browser.
    """
    if value is None:
        return None
    origins = [o.strip() for o in value.split(",")] if isinstance(value, str) else list(value)
    origins = [o for o in origins if o]
    if "*" in origins:
        raise ValueError("SOCKETIO_CORS_ALLOWED_ORIGINS must list origins, not '*'")
    return origins or None


def init_socketio(app: Flask) -> None:
    """Bind ``socketio`` to ``app`` and register the /watch handlers and run registry."""
    from .web import socket_guards, socket_packets, watch_socket

    socketio.init_app(
        app,
        async_mode="threading",
        message_queue=app.config.get("SOCKETIO_MESSAGE_QUEUE") or None,
        cors_allowed_origins=cors_origins(app.config.get("SOCKETIO_CORS_ALLOWED_ORIGINS")),
        max_http_buffer_size=MAX_MESSAGE_BYTES,
    )
    socket_guards.install(socketio.server)
    socket_packets.install(socketio.server)
    watch_socket.init_app(app)
