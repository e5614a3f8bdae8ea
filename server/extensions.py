"""Flask extensions shared by the app: the Socket.IO server (/watch and /class).

``socketio`` is created unbound and bound to an app by :func:`init_socketio` in
``create_app``, which also registers the namespaces.  Threading mode is explicit
(websockets through simple-websocket), so an installed eventlet or gevent is never
picked up by auto-detection.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask_socketio import Namespace, SocketIO

socketio = SocketIO()

MAX_MESSAGE_BYTES = 16 * 1024  # every client message of the watch protocol is tiny


def init_socketio(app: Flask, namespaces: list[Namespace], installs: list[Callable]) -> None:
    """Bind ``socketio`` to ``app``, adapt its server (``installs``), register ``namespaces``.

    The Socket.IO server made here is kept with the app (``socketio_server``): the
    shared ``socketio`` object only remembers the last app it was bound to (tests build
    many apps) and background tasks must emit through their own.  Flask-SocketIO keeps
    namespace objects across apps, so a namespace class is registered once.
    """
    # Flask-SocketIO keeps init_app's options across calls, its client manager among them:
    # without this, an app built after one with a Redis queue would publish to that Redis.
    socketio.server_options = {}
    socketio.init_app(
        app,
        async_mode="threading",
        message_queue=app.config["SOCKETIO_MESSAGE_QUEUE"],
        cors_allowed_origins=app.config["SOCKETIO_CORS_ALLOWED_ORIGINS"],  # None: same origin
        max_http_buffer_size=MAX_MESSAGE_BYTES,
    )
    for install in installs:  # guards and speed-ups on the python-socketio server
        install(socketio.server)
    app.extensions["socketio_server"] = socketio.server
    registered = {type(handler) for handler in socketio.namespace_handlers}
    for namespace in namespaces:
        if type(namespace) not in registered:
            socketio.on_namespace(namespace)
