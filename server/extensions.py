"""Flask extensions shared by the app: the Socket.IO server (/watch and /class).

``socketio`` is created unbound and bound to an app by :func:`init_socketio` in
``create_app``, which also registers the namespaces.  Threading mode is explicit
(websockets through simple-websocket), so an installed eventlet or gevent is never
picked up by auto-detection.
"""

from __future__ import annotations

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


def init_socketio(app: Flask, namespaces: list[Namespace], install_guards) -> None:
    """Bind ``socketio`` to ``app``, guard its server and register ``namespaces``.

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
    install_guards(socketio.server)
    app.extensions["socketio_server"] = socketio.server
    registered = {type(handler) for handler in socketio.namespace_handlers}
    for namespace in namespaces:
        if type(namespace) not in registered:
            socketio.on_namespace(namespace)


def websocket_request_handler():
    """A werkzeug request handler that hangs up once a websocket has ended.

    In threading mode a websocket ends by raising ConnectionError out of the WSGI app
    (that is how simple-websocket tells werkzeug the socket is gone), but werkzeug then
    keeps the HTTP/1.1 connection alive and parses the client's websocket close frame
    as the next request line: the thread blocks until the client gives up, and clients
    that wait for the close handshake (python-socketio) hang for 3 s on every disconnect.
    Pass it as ``make_server(..., request_handler=websocket_request_handler())``.
    The server's own refusals (414, 431, ...) carry the security headers.
    """
    from werkzeug.serving import WSGIRequestHandler

    from .web.security import ServerErrorHeaders

    class WebSocketRequestHandler(ServerErrorHeaders, WSGIRequestHandler):
        def connection_dropped(self, error, environ=None):
            self.close_connection = True

    return WebSocketRequestHandler
