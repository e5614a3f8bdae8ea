"""server/extensions.py: one shared Socket.IO object, bound to many apps (tests build many)."""

from __future__ import annotations

from socketio import Manager, RedisManager

from server.app import create_app


def make(tmp_path, name: str, **config):
    return create_app({"SECRET_KEY": "test", "INSTANCE_PATH": str(tmp_path / name), **config})


def test_an_app_without_a_queue_does_not_inherit_the_last_apps_redis(tmp_path):
    queued = make(tmp_path, "a", SOCKETIO_MESSAGE_QUEUE="redis://127.0.0.1:1/0")
    assert isinstance(queued.extensions["socketio_server"].manager, RedisManager)
    alone = make(tmp_path, "b")
    manager = alone.extensions["socketio_server"].manager
    assert type(manager) is Manager  # rooms and broadcasts stay in this process
