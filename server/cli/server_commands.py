"""``serve`` and ``db``: the commands that start the app (Flask, the database)."""

from __future__ import annotations

import argparse
import os
import sys

from ..app import CannotStart, create_app
from ..db import current_revision, head_revision, upgrade_schema
from ..serving import BadConfiguration, BadSchema, serve
from .usage import EXIT_OK, EXIT_USAGE, PORT, CannotStartHere, UsageError


def _app(config: dict | None = None):
    try:
        return create_app(config or {})
    except ValueError as err:  # a bad setting, e.g. RATE_LIMIT_GAMES=often
        raise UsageError(f"bad configuration: {err}") from None
    except CannotStart as err:
        raise CannotStartHere(str(err)) from None


def cmd_db(args: argparse.Namespace) -> int:
    """``db upgrade`` / ``db status`` on DATABASE_URL (the embedded SQLite file by default)."""
    app = _app()
    with app.app_context():
        if args.action == "upgrade":
            before, after = upgrade_schema()
            if before == after:
                print(f"the database schema is current ({after})")
            else:
                print(f"the database schema was upgraded from {before or 'nothing'} to {after}")
            return EXIT_OK
        current, head = current_revision(), head_revision()
        state = "current" if current == head else "stale: run `knights-tour db upgrade`"
        print(f"database schema {current or 'none'}, this release needs {head}: {state}")
        return EXIT_OK if current == head else 1


def cmd_serve(args: argparse.Namespace) -> int:
    port = args.port
    if port is None:
        try:
            port = PORT.parse(os.environ.get("PORT") or PORT.default)
        except ValueError as err:
            raise UsageError(f"PORT: {err}") from None
    if port > 65535:
        raise UsageError(f"port must be at most 65535, got {port}")
    config = {}
    if args.message_queue:
        config["SOCKETIO_MESSAGE_QUEUE"] = args.message_queue
    host = "0.0.0.0" if args.lan else (args.host or "127.0.0.1")
    try:
        return serve(host, port, config, lan=args.lan)
    except BadConfiguration as err:
        raise UsageError(f"bad configuration: {err}") from None
    except BadSchema as err:
        print(f"knights-tour: {err}", file=sys.stderr)
        return EXIT_USAGE
    except CannotStart as err:
        raise CannotStartHere(str(err)) from None
