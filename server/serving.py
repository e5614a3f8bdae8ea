"""``knights-tour serve``: the app on :mod:`server.http_server`, until Ctrl-C or SIGTERM.

It raises the open-files limit, checks the settings and the database's schema, listens,
prints where and with what limits, and with ``--lan`` prints the links a class joins
by (:mod:`server.network`).  ``kill -USR1 PID`` prints every thread's stack on stderr.
"""

from __future__ import annotations

import errno
import faulthandler
import signal
import sys
from urllib.parse import urlsplit

from .app import create_app
from .db import StaleSchema, require_current_schema
from .http_server import Server, make_server
from .limits.connections import fd_line, raise_fd_limit
from .network import base_url, lan_addresses


class BadConfiguration(ValueError):
    """A setting the app refused at start (the message says which and why)."""


class BadSchema(RuntimeError):
    """The database's schema is older than this release (the message says what to run)."""


def serve(host: str, port: int, config: dict | None = None, *, lan: bool = False, out=None) -> int:
    """Run the app until Ctrl-C or SIGTERM: what ``knights-tour serve`` does.

    Raises the open-files limit first.  Prints ``... listening on http://HOST:PORT``
    once it listens, then its limits (:func:`limits_line`).  With ``lan`` (``host``
    is then all interfaces) it also finds this machine's LAN address, makes it the
    ``PUBLIC_URL`` of join links and QR codes unless one is configured, and prints the
    teacher's and the students' links.  Raises :class:`BadConfiguration` and
    :class:`~server.app.CannotStart`; returns 1 when it cannot listen, 0 once stopped.
    """
    out = out or sys.stdout
    files = raise_fd_limit()  # every connection holds a descriptor
    try:
        app = create_app(config)  # an embedded SQLite database is upgraded here
    except ValueError as err:  # e.g. RATE_LIMIT_GAMES=often
        raise BadConfiguration(str(err)) from None
    # CannotStart (a read-only instance folder) goes up to the command line as it is
    with app.app_context():
        try:
            require_current_schema()  # a server database is upgraded by its operator
        except StaleSchema as err:
            raise BadSchema(str(err)) from None
    try:
        server = make_server(host, port, app)
    except OSError as err:
        reason = err.strerror or str(err)
        print(f"knights-tour: cannot listen on {host}:{port}: {reason}", file=sys.stderr)
        if sys.platform == "darwin" and port == 5000 and err.errno == errno.EADDRINUSE:
            print("(macOS: AirPlay Receiver uses port 5000; try PORT=5050)", file=sys.stderr)
        return 1

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if hasattr(signal, "SIGUSR1"):  # not on Windows
        # ``kill -USR1 PID``: every thread's stack on stderr, the server going on; how an
        # operator (or a test that found a thread still busy) sees what a thread waits for
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    print(f"Knight's Tour Studio listening on {base_url(host, server.port)}", file=out, flush=True)
    print(limits_line(server, files), file=out, flush=True)
    if lan:
        announce_lan(app, server.port, out)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("stopped", file=out, flush=True)
    return 0


def limits_line(server: Server, files: tuple[int, int] | None) -> str:
    """What the server holds at most: open files (and what they were raised from),
    connections in all and per address."""
    admission = server.admission
    parts = []
    if files is not None:
        parts.append(fd_line(files))
    total = f"at most {admission.total:,}" if admission.total else "no cap"
    each = f"{admission.per_address:,}" if admission.per_address else "no cap"
    parts.append(f"connections: {total}, per address {each}")
    return "; ".join(parts)


def announce_lan(app, port: int, out) -> None:
    """Set ``PUBLIC_URL`` to this machine's LAN address (unless configured) and print the
    teacher's and the students' links, or why there are none."""
    addresses = lan_addresses()
    public = app.config.get("PUBLIC_URL")
    if not public and addresses:
        public = app.config["PUBLIC_URL"] = base_url(addresses[0], port)
    if public:
        print(f"Teacher / 老师: {public}/class/new", file=out)
        print(f"Students join at / 学生加入: {public}/class", file=out, flush=True)
        others = [a for a in addresses if a != urlsplit(public).hostname]
        if others:
            print(f"(this computer is also at / 本机其他地址: {', '.join(others)})", file=out)
        return
    print(
        "knights-tour: no local network address found: connect this computer to the "
        "classroom's network (Wi-Fi) and start again / 没有找到局域网地址：请先把电脑连到"
        "教室的网络（Wi-Fi）再启动",
        file=sys.stderr,
        flush=True,
    )
