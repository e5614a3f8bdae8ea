"""The application factory (Flask's tutorial pattern)."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from .config import build_config
from .web.assets import VersionedFlask

ROOT = Path(__file__).resolve().parent.parent


def create_app(config: dict | None = None) -> Flask:
    """Build the app; ``config`` overrides the embedded defaults and the environment."""
    app = VersionedFlask(
        __name__,
        instance_path=str(
            (config or {}).get("INSTANCE_PATH")
            or os.environ.get("INSTANCE_PATH")
            or ROOT / "instance"
        ),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(build_config(Path(app.instance_path), config))

    from .db import init_db
    from .web import (
        api,
        assets,
        errors,
        lesson,
        levels_api,
        levels_pages,
        pages,
        security,
        share_pages,
    )

    init_db(app)
    app.url_map.merge_slashes = False  # "/api/games//moves" is no route, not a redirect
    assets.register(app)  # /static/v/<version>/...: kept by browsers (server/web/assets.py)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(levels_api.bp)
    app.register_blueprint(levels_pages.bp)
    app.register_blueprint(lesson.bp)
    app.register_blueprint(share_pages.bp)  # /daily, /replay/<id>(.svg|.png), /worksheet
    errors.register(app)
    security.register(app)  # a query string that is not UTF-8 reaches Flask %-encoded

    from .extensions import init_socketio
    from .web import (
        budgets,
        class_pages,
        class_socket,
        ratelimit,
        socket_guards,
        socket_packets,
        watch_socket,
    )

    namespaces = [
        watch_socket.WatchNamespace(watch_socket.NAMESPACE),  # the live search stream
        class_socket.ClassNamespace(class_socket.NAMESPACE),  # class rooms
    ]
    init_socketio(app, namespaces, [socket_guards.install, socket_packets.install])
    budgets.init_app(app)  # the CPU searches and the memory kept timelines may take
    watch_socket.init_app(app)
    class_socket.init_app(app)
    class_pages.register(app)  # class rooms: /class pages
    ratelimit.init_app(app)  # after every blueprint: it limits the views they mark
    socket_guards.guard_polling(app)  # malformed long-polling requests (Engine.IO)
    security.wrap(app)  # bodies capped however framed; security headers on every response
    if app.config["PROXY_FIX"]:  # outermost, so HTTP and Socket.IO both see the real client
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = app.config["PROXY_FIX"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    return app
