"""Serving the app: the HTTP server ``knights-tour serve`` runs.

* :func:`make_server` is werkzeug's threaded server (one thread per connection; every
  websocket keeps its thread) with three changes that matter for Socket.IO:

  - **TCP_NODELAY on every accepted socket.**  The server often writes two small
    messages back to back (an acknowledgement, then the batch the credit released;
    a long-polling response's headers, then its body).  With Nagle's algorithm the
    second write waits until the peer acknowledges the first, and a peer delaying its
    ACK makes that about 40 ms.  The option is set on the accepted socket itself,
    since not every system passes it on from the listening socket;
  - **a websocket's end ends its connection** (:class:`RequestHandler`);
  - a listen backlog of 1024 instead of werkzeug's 128, so a whole class connecting
    at the same moment is not dropped into SYN retries.

  Tests and benchmarks start the app through this function too, so they measure
  what ``knights-tour serve`` runs.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import sys

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

LISTEN_BACKLOG = 1024  # capped by the system (net.core.somaxconn: 4096 on Linux >= 5.4)

# -- the server ---------------------------------------------------------------------------


def set_nodelay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on a TCP socket (a no-op on any other socket)."""
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # e.g. the peer is already gone
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class RequestHandler(WSGIRequestHandler):
    """werkzeug's handler with TCP_NODELAY, hanging up once a websocket has ended.

    In threading mode a websocket ends by raising ConnectionError out of the WSGI app
    (that is how simple-websocket tells werkzeug the socket is gone), but werkzeug then
    keeps the HTTP/1.1 connection alive and parses the client's websocket close frame
    as the next request line: the thread blocks until the client gives up, and clients
    that wait for the close handshake (python-socketio) hang for 3 s on every disconnect.
    """

    def setup(self) -> None:
        set_nodelay(self.request)
        super().setup()

    def connection_dropped(self, error, environ=None) -> None:
        self.close_connection = True


class Server(ThreadedWSGIServer):
    request_queue_size = LISTEN_BACKLOG


def make_server(host: str, port: int, app) -> Server:
    """The threaded server of ``knights-tour serve``, bound and listening (port 0: a free
    one, see ``server.port``).  Raises OSError when it cannot listen."""
    try:
        return Server(host, port, app, handler=RequestHandler)
    except SystemExit:  # werkzeug prints the reason to stderr and exits
        raise OSError(f"cannot listen on {host}:{port}") from None


class BadConfiguration(ValueError):
    """A setting the app refused at start (the message says which and why)."""


def serve(host: str, port: int, config: dict | None = None, *, out=None) -> int:
    """Run the app until Ctrl-C or SIGTERM: what ``knights-tour serve`` does.

    Prints ``... listening on http://HOST:PORT`` once it listens.  Raises
    :class:`BadConfiguration`; returns 1 when it cannot listen, 0 once stopped.
    """
    from .app import create_app

    out = out or sys.stdout
    try:
        app = create_app(config)
    except ValueError as err:  # e.g. RATE_LIMIT_GAMES=often
        raise BadConfiguration(str(err)) from None
    try:
        server = make_server(host, port, app)
    except OSError as err:
        print(f"knights-tour: cannot listen on {host}:{port}: {err}", file=sys.stderr)
        return 1

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(f"Knight's Tour Studio listening on {base_url(host, server.port)}", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("stopped", file=out, flush=True)
    return 0


def base_url(host: str, port: int, scheme: str = "http") -> str:
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"
