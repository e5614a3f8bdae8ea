"""The application factory (Flask's tutorial pattern)."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import build_config
from .db import init_db
from .extensions import init_socketio
from .web import (
    api,
    assets,
    budgets,
    class_pages,
    class_record,
    class_socket,
    errors,
    lab,
    lesson,
    levels_api,
    levels_pages,
    pages,
    ratelimit,
    security,
    share_pages,
    socket_connect,
    socket_guards,
    socket_limits,
    socket_packets,
    watch_socket,
)
from .web.assets import VersionedFlask

ROOT = Path(__file__).resolve().parent.parent


class CannotStart(RuntimeError):
    """The app cannot start: its instance folder or its database cannot be written or
    opened.  The message is one line saying what and where, for the command line."""


def create_app(config: dict | None = None) -> Flask:
    """Build the app; ``config`` overrides the embedded defaults and the environment.

    Raises :class:`CannotStart` when the instance folder (the secret key, the SQLite
    file) cannot be written or the database cannot be opened, and ValueError
    (``SettingError``) for a bad setting.
    """
    instance = str(
        (config or {}).get("INSTANCE_PATH") or os.environ.get("INSTANCE_PATH") or ROOT / "instance"
    )
    try:
        return _create_app(config, instance)
    except OSError as err:
        where = f": {err.filename}" if err.filename else ""
        raise CannotStart(
            f"{err.strerror or err}{where} (the instance folder {instance} must be writable: "
            "INSTANCE_PATH chooses another)"
        ) from err
    except SQLAlchemyError as err:
        reason = str(getattr(err, "orig", None) or err).splitlines()[0]
        raise CannotStart(
            f"cannot open the database: {reason} (an SQLite file needs a writable "
            f"folder: INSTANCE_PATH, now {instance}, or DATABASE_URL chooses another)"
        ) from err


def _create_app(config: dict | None, instance: str) -> Flask:
    app = VersionedFlask(
        __name__,
        instance_path=instance,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(build_config(Path(app.instance_path), config))

    init_db(app)
    app.url_map.merge_slashes = False  # "/api/games//moves" is no route, not a redirect
    assets.register(app)  # /static/v/<version>/...: kept by browsers (server/web/assets.py)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(levels_api.bp)
    app.register_blueprint(levels_pages.bp)
    app.register_blueprint(lesson.bp)
    app.register_blueprint(lab.bp)  # /lab, the code lab
    app.register_blueprint(share_pages.bp)  # /daily, /replay/<id>(.svg|.png), /worksheet
    errors.register(app)
    security.register(app)  # a query string that is not UTF-8 reaches Flask %-encoded

    namespaces = [
        watch_socket.WatchNamespace(watch_socket.NAMESPACE),  # the live search stream
        class_socket.ClassNamespace(class_socket.NAMESPACE),  # class rooms
    ]
    hooks = [
        socket_guards.install,
        socket_packets.install,
        socket_limits.install,
        socket_connect.install,  # a first event right after CONNECT is not dropped
    ]
    init_socketio(app, namespaces, hooks)
    budgets.init_app(app)  # the CPU searches and the memory kept timelines may take
    watch_socket.init_app(app)
    class_socket.init_app(app)
    class_pages.register(app)  # class rooms: /class pages
    class_record.register(app)  # the teacher's record of a lesson: /class/<code>/record
    ratelimit.init_app(app)  # after every blueprint: it limits the views they mark
    socket_guards.guard_polling(app)  # malformed long-polling requests (Engine.IO)
    socket_limits.guard_handshakes(app)  # Engine.IO sessions per address
    security.wrap(app)  # bodies capped however framed; security headers on every response
    if app.config["PROXY_FIX"]:  # outermost, so HTTP and Socket.IO both see the real client
        hops = app.config["PROXY_FIX"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    return app
