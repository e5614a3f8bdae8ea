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


def init_socketio(app: Flask, namespaces: list[Namespace], installs: list[Callable]) -> None:
    """Bind ``socketio`` to ``app``, adapt its server (``installs``), register ``namespaces``.

    The Socket.IO server made here is kept with the app (``socketio_server``): the
    shared ``socketio`` object only remembers the last app it was bound to (tests build
    many apps) and background tasks must emit through their own.  Flask-SocketIO keeps
    namespace objects across apps, so a namespace class is registered once.
    """
    socketio.init_app(
        app,
        async_mode="threading",
        message_queue=app.config.get("SOCKETIO_MESSAGE_QUEUE") or None,
        cors_allowed_origins=cors_origins(app.config.get("SOCKETIO_CORS_ALLOWED_ORIGINS")),
        max_http_buffer_size=MAX_MESSAGE_BYTES,
    )
    for install in installs:  # guards and speed-ups on the python-socketio server
        install(socketio.server)
    app.extensions["socketio_server"] = socketio.server
    registered = {type(handler) for handler in socketio.namespace_handlers}
    for namespace in namespaces:
        if type(namespace) not in registered:
            socketio.on_namespace(namespace)
